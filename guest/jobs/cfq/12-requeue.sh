# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 12. requeues (null_blk requeue injection): served in their queue's slice,
#     under max_depth (debugfs: the high-water mark of in-driver requests)
nullb_load requeue=1,20,0,-1 || bad "null_blk loads with requeue injection"
sw nullb0 cfq
readers --dev /dev/nullb0 --size $((256 << 20)) --clients 3 --engine aio --qd 8 --pattern rand \
	--duration 5 --seed 9 >/tmp/requeue.r 2>&1 || bad "readers under requeue injection: $(tail -n1 /tmp/requeue.r)"
st=$(sched_state nullb0)
rq=$(state_num "$st" requeued)
mx=$(driver_max "$st")
rig_result "# requeue: $rq requeues, at most ${mx:-?} requests in the driver (max_depth 4)"
[ "${rq:-0}" -gt 0 ] && [ -n "$mx" ] && [ "$mx" -le 4 ] && ok "requeued requests stay under max_depth ($rq requeues, max $mx in the driver)" ||
	bad "requeued requests stay under max_depth (${rq:-?} requeues, max ${mx:-?} in the driver)"
sw nullb0 mq-deadline
