# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 18. on a rotating disk a round takes its queues in sector order (C-SCAN,
#     patch 19): four sequential readers, one per quarter of the device,
#     started in the order 2, 0, 3, 1. Served in the order they came, each
#     round would go back down the disk twice (2 0 3 1); in sector order,
#     once (0 1 2 3). Counted on the regions of the dispatched requests.
#     10 ms requests and slice_idle 10: a reader's think time stays inside
#     the idle window on a slow guest, so slices end by time and every
#     queue waits on the rr list with its next request.
nullb_load completion_nsec=10000000 || bad "null_blk loads with 10 ms completions"
sw nullb0 cfq
echo 10 >$N/slice_idle
trace_on nullb0
qs=$(($(blockdev --getsize64 /dev/nullb0) / 4))
pids=; for r in 2 0 3 1; do dd_reader nullb0 $((r * qs / 4096)); pids="$pids $!"; sleep 0.3; done
sleep 6
# shellcheck disable=SC2086
kill $pids 2>/dev/null; wait $pids 2>/dev/null
trace_off nullb0
# shellcheck disable=SC2046 # two numbers
set -- $(dispatched_regions $((qs / 512)) | awk '$1 != last { if (n++ && $1 < last) down++; last = $1 }
	END { printf "%d %d\n", n, down }')
rig_result "# 4 readers started in region order 2 0 3 1: $1 runs of one region, $2 moves back down the disk; ends: $(ends be/4)"
[ "$1" -ge 20 ] && [ $(($2 * 3)) -lt "$1" ] && ok "a round serves its queues in sector order ($2 moves down in $1 runs)" ||
	bad "a round serves its queues in sector order ($2 moves down in $1 runs; served in arrival order it is 1 in 2)"
sw nullb0 mq-deadline
nullb_load || bad "null_blk loads again"
