# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 19. a switch to cfq whose Kth allocation fails (/proc/self/fail-nth; sleeping
#     allocations made failable with probability 0, so nothing else fails) must
#     fail cleanly, leave a working scheduler, and leak no module reference:
#     6.1 leaked one per switch that failed before the scheduler's init_sched
#     (fixed by the series' patch 5)
F=/sys/kernel/debug
for a in failslab fail_page_alloc; do
	echo 0 >$F/$a/probability; echo N >$F/$a/ignore-gfp-wait; echo 0 >$F/$a/verbose
done
echo 0 >$F/fail_page_alloc/min-order
failed=0 k=0
while [ $k -lt 40 ]; do
	k=$((k + 1))
	sh -c "echo $k >/proc/self/fail-nth; exec echo cfq >/sys/block/nullb0/queue/scheduler" 2>/dev/null ||
		failed=$((failed + 1))
	case "$(cur_sched nullb0)" in cfq | none | mq-deadline) ;; *) bad "fail-nth $k: scheduler reads '$(cur_sched nullb0)'" ;; esac
	sw nullb0 mq-deadline || bad "fail-nth $k: switch back to mq-deadline"
done
for a in failslab fail_page_alloc; do echo Y >$F/$a/ignore-gfp-wait; done
rig_result "# fail-nth sweep: $failed of 40 switches to cfq failed"
[ "$failed" -gt 0 ] && ok "fail-nth sweep: $failed of 40 switches to cfq failed cleanly" ||
	bad "fail-nth sweep: some switches to cfq fail (0 of 40: fail-nth did not reach the switch)"
expect "$(cat /sys/module/cfq_iosched/refcnt 2>&1)" 0 "no module reference left after failed switches"
