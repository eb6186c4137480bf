# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 10. an owner that moves to another queue ends its old queue's idle window:
#     the key-change load (setsid/setpgid, setresuid/setresgid between back-
#     to-back reads and writes) with a 5 s idle window. Every idle must end
#     by a move, an exit or new I/O, never by waiting the window out.
sw nullb0 cfq
echo 10000 >$N/slice_sync; echo 5000 >$N/slice_idle
trace_on nullb0
paths --dev /dev/nullb0 --modes key-change --clients 1 --duration 8 --seed 11 >/tmp/keychange 2>&1 ||
	bad "paths key-change ran: $(tail -n2 /tmp/keychange)"
trace_off nullb0
moved=$(trace_count slice_expire owner_moved)
waited=$(trace_count slice_expire idle_timeout)
rig_result "# key change: $(grep -h '^paths mode' /tmp/keychange); slices ended owner_moved $moved, idle_timeout $waited"
[ "$moved" -gt 0 ] && [ "$waited" = 0 ] && ok "a queue's owner moving away ends the idle window at once ($moved moves, 0 timeouts)" ||
	bad "a queue's owner moving away ends the idle window at once ($moved moves, $waited idle timeouts of 5 s)"
echo 4 >$N/slice_idle; echo 100 >$N/slice_sync; echo pid >$N/key_type
