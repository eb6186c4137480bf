# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 23. hardware-queue runs while dispatch is blocked (the review's S4): 100 ms
#     completions, max_depth 2, 3 aio readers: dispatch is blocked on
#     max_depth almost all the time. has_work says no meanwhile, so the hw
#     queue runs about once per event that can unblock it (an insert, a
#     completion, and the one delayed re-run blk-mq schedules after a
#     dispatch that found nothing), not every 3 ms (BLK_MQ_BUDGET_DELAY):
#     that would be about 35 runs per request here. Counted as kblockd's
#     runs of the hw queue (blk_mq_run_work_fn, a function tracer in its
#     own tracing instance: 6.12 has no hctx "run" counter any more).
nullb_load completion_nsec=100000000 || bad "null_blk loads with 100 ms completions"
sw nullb0 cfq
echo 2 >/sys/block/nullb0/queue/iosched/max_depth
R=$T/instances/runs
mkdir -p $R && echo blk_mq_run_work_fn >$R/set_ftrace_filter && echo function >$R/current_tracer &&
	grep -qx blk_mq_run_work_fn $R/set_ftrace_filter || bad "blocked dispatch: a function tracer on blk_mq_run_work_fn"
# "RUNS REQUESTS" of 3 s of the load on the current scheduler
blocked_load() {
	echo >$R/trace; echo 1 >$R/tracing_on
	c0=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	readers --dev /dev/nullb0 --size $((64 << 20)) --clients 3 --engine aio --qd 8 --pattern rand \
		--duration 3 --seed 23 >/tmp/blocked.r 2>&1 || bad "readers on a 100 ms device: $(tail -n1 /tmp/blocked.r)"
	echo 0 >$R/tracing_on
	echo "$(grep -c 'blk_mq_run_work_fn' $R/trace) $(( $(awk '{ print $1 }' /sys/block/nullb0/stat) - c0 ))"
}
# shellcheck disable=SC2046 # two numbers
set -- $(blocked_load); runs=$1 reqs=$2
# the same load under bfq and mq-deadline, side by side (a figure, not a check)
others=
for o in bfq mq-deadline; do
	sw nullb0 $o || continue
	# shellcheck disable=SC2046 # two numbers
	set -- $(blocked_load); others="$others, $o $1 for $2"
done
sw nullb0 cfq
echo nop >$R/current_tracer; rmdir $R 2>/dev/null
rig_result "# blocked dispatch: $runs hw queue runs for $reqs requests (100 ms each, max_depth 2)$others"
[ "$reqs" -gt 10 ] && [ "$runs" -gt 0 ] && [ "$runs" -le $((reqs * 8)) ] &&
	ok "blocked dispatch: no polling, $runs hw queue runs for $reqs requests (at most 8 each)" ||
	bad "blocked dispatch: no polling, $runs hw queue runs for $reqs requests (at most 8 each)"
sw nullb0 mq-deadline
nullb_load || bad "null_blk loads again"
