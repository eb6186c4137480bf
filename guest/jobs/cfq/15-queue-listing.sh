# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 15. show_status with more queues than a page holds: 48 O_DIRECT readers,
#     one queue each (key_type pid). The listing stops with "..." inside
#     the page instead of running past it, and the header still counts
#     every queue.
sw nullb0 cfq
pids=; for i in $(seq 0 47); do dd_reader nullb0 $((i * 4096)); pids="$pids $!"; done
sleep 3
st=$(cat $N/show_status 2>&1)
# shellcheck disable=SC2086
kill $pids 2>/dev/null; wait $pids 2>/dev/null
n=$(printf '%s\n' "$st" | wc -c)
q=$(status_num "$st" queues)
rig_result "# show_status with $q queues: $n bytes, $(printf '%s\n' "$st" | grep -c 'cfqq: key=') listed"
[ "${q:-0}" -ge 48 ] && [ "$n" -le 4096 ] && [ "$(printf '%s\n' "$st" | tail -n1)" = "..." ] &&
	ok "show_status of $q queues stops at a page, with '...' ($n bytes)" ||
	bad "show_status of ${q:-no} queues stops at a page, with '...' ($n bytes, last line '$(printf '%s\n' "$st" | tail -n1)')"
sw nullb0 mq-deadline
