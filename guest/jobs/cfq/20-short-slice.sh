# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 20. a short slice_sync on a slow device (the review's S8): slice_sync 2 ms
#     (a legal value) against 10 ms completions, max_depth 2. The driver
#     counts as stalled only after CFQ_STALL_MIN_MS without a completion,
#     not after a slice_sync: max_depth still holds (debugfs: the
#     high-water mark of in-driver requests).
nullb_load completion_nsec=10000000 || bad "null_blk loads with 10 ms completions"
sw nullb0 cfq
echo 1 >$N/slice_idle && echo 2 >$N/slice_sync && echo 2 >$N/max_depth ||
	bad "short slice: slice_idle 1, slice_sync 2, max_depth 2 accepted"
readers --dev /dev/nullb0 --size $((256 << 20)) --clients 3 --engine aio --qd 8 --pattern rand \
	--duration 4 --seed 20 >/tmp/short.r 2>&1 || bad "readers with a 2 ms slice_sync: $(tail -n1 /tmp/short.r)"
st=$(sched_state nullb0)
mx=$(driver_max "$st")
rig_result "# short slice: slice_sync 2 ms, 10 ms completions: at most ${mx:-?} requests in the driver (max_depth 2)"
[ -n "$mx" ] && [ "$mx" -ge 1 ] && [ "$mx" -le 2 ] &&
	ok "short slice: max_depth holds with slice_sync below the service time (max $mx in the driver)" ||
	bad "short slice: max_depth holds with slice_sync below the service time (max ${mx:-?} in the driver, max_depth 2)"
sw nullb0 mq-deadline
nullb_load || bad "null_blk loads again"
