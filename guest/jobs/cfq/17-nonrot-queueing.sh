# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 17. a non-rotational device that queues (null_blk as it is: 64 tags): a
#     queue that runs dry ends its slice at once, without an idle window
#     (legacy CFQ's rule, patch 17); marked rotational, the same device
#     idles again, from the next decision on.
echo 0 >/sys/block/nullb0/queue/rotational
sw nullb0 cfq
trace_on nullb0
pids=; for i in 0 1; do dd_reader nullb0 $((i * 65536)); pids="$pids $!"; done
sleep 3
echo "rig: rotational" >$T/trace_marker
nullb_as_disk nullb0
sleep 3
# shellcheck disable=SC2086
kill $pids 2>/dev/null; wait $pids 2>/dev/null
trace_off nullb0
# shellcheck disable=SC2046 # four numbers
set -- $(rig_trace '/rig: rotational/ { after = 1 } !trace_cfq() { next }
	tr_ev == "idle_arm" { if (after) ia++; else ib++ }
	tr_ev == "slice_expire" { if (after) ea++; else eb++ } END { printf "%d %d %d %d\n", ib, ia, eb, ea }' $T/trace)
rig_result "# 2 sync readers on null_blk: non-rotational: $1 idle windows in $3 slices; marked rotational: $2 in $4"
[ "$1" = 0 ] && [ "$3" -ge 20 ] && ok "no idle window on a non-rotational device that queues ($3 slices)" ||
	bad "no idle window on a non-rotational device that queues ($1 idle windows in $3 slices)"
[ "$2" -gt 0 ] && ok "the same device marked rotational idles again ($2 idle windows)" ||
	bad "the same device marked rotational idles again (no idle window in $4 slices)"
sw nullb0 mq-deadline
