# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 15. the debugfs queue listing with more queues than a page holds: 48
#     O_DIRECT readers, one queue each (key_type pid). The header counts
#     every queue and the listing has a line for each, past the first page
#     (a seq_file; the old sysfs show_status stopped at one page).
sw nullb0 cfq
pids=; for i in $(seq 0 47); do dd_reader nullb0 $((i * 4096)); pids="$pids $!"; done
sleep 3
st=$(sched_state nullb0)
# shellcheck disable=SC2086
kill $pids 2>/dev/null; wait $pids 2>/dev/null
n=$(printf '%s\n' "$st" | wc -c)
q=$(state_num "$st" queues)
l=$(printf '%s\n' "$st" | grep -c '^key=')
rig_result "# debugfs sched/queues with $q queues: $n bytes, $l listed"
[ "${q:-0}" -ge 48 ] && [ "$l" = "$q" ] && [ "$n" -gt 4096 ] &&
	ok "debugfs lists all $q queues, past a page ($n bytes)" ||
	bad "debugfs lists all ${q:-no} queues, past a page ($l listed, $n bytes)"
sw nullb0 mq-deadline
