# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 11. CLONE_IO siblings share an io_context: a live sibling's queue is idled
#     for, so its slices do not end "owner_exit" while it lives. Counted
#     against the processes forked during the load (each exits once).
f0=$(awk '/^processes/ { print $2 }' /proc/stat)
trace_on nullb0
paths --dev /dev/nullb0 --modes shared-ioc --clients 2 --duration 6 --seed 5 >/tmp/sharedioc 2>&1 ||
	bad "paths shared-ioc ran: $(tail -n2 /tmp/sharedioc)"
trace_off nullb0
forks=$(( $(awk '/^processes/ { print $2 }' /proc/stat) - f0 ))
exits=$(trace_count slice_expire owner_exit)
rig_result "# shared io_context: $(grep -h '^paths mode' /tmp/sharedioc); $exits slices ended owner_exit, $forks processes forked"
[ "$forks" -gt 3 ] && [ "$exits" -le "$forks" ] && ok "CLONE_IO siblings: owner_exit only for owners that exit ($exits <= $forks)" ||
	bad "CLONE_IO siblings: owner_exit only for owners that exit ($exits > $forks forks)"
sw nullb0 mq-deadline
