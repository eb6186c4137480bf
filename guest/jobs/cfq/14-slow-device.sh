# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 14. a slow device: a sync slice whose request is still in the driver
#     keeps the device to its end, when the timer armed for it ends the
#     slice "time"; it must not end "empty" at a hw-queue run once less
#     than slice_idle is left (defect 06).
#     A request takes 95 ms, a slice 50 ms: each reader's one request is in
#     flight across its whole slice, whatever the guest's speed (the reader
#     has the other two slices, 100 ms, to send the next). The previous
#     queue's request completes 45 ms into the slice, with 5 ms left, less
#     than slice_idle (25 ms, at most half a slice): that completion runs
#     the hw queues, and the slice must go on.
nullb_load completion_nsec=95000000 || bad "null_blk loads with 95 ms completions"
sw nullb0 cfq
echo 50 >$N/slice_sync && echo 25 >$N/slice_idle || bad "slow device: slice_sync 50 ms, slice_idle 25 ms"
trace_on nullb0
pids=; for i in 0 1 2; do dd_reader nullb0 $((i * 65536)); pids="$pids $!"; done
sleep 8
# shellcheck disable=SC2086
kill $pids 2>/dev/null; wait $pids 2>/dev/null
trace_off nullb0
all=$(trace_count slice_expire)
bytime=$(trace_count slice_expire time)
rig_result "# slow device: $bytime of $all slices of 3 sync readers ended by time; ends: $(ends be/4)"
# the few others end when the readers are killed
[ "$bytime" -ge 20 ] && [ $((bytime * 10)) -ge $((all * 8)) ] &&
	ok "slow device: a slice keeps the device while its request is in flight ($bytime of $all end by time)" ||
	bad "slow device: a slice keeps the device while its request is in flight (only $bytime of $all end by time)"
# the soak's slice audit (guest/slice-audit.awk) reads this real trace: it
# finds the slices that ended by time, and no slice broke a rule (its
# length, its end, its idle windows)
a=$(audit_trace nullb0)
rig_result "# slice audit of that trace: $a"
t=$(echo "$a" | sed -n "s/^audit slices=[0-9]* time=\([0-9]*\) $audit_clean\$/\1/p")
[ "${t:-0}" -ge 10 ] && ok "slice audit: reads the real trace, $t slices ended by time, no breach" ||
	bad "slice audit: reads the real trace, slices ended by time, no breach (got '$a')"
sw nullb0 mq-deadline
nullb_load || bad "null_blk loads again"
