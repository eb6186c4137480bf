# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 14. a slow device (40 ms a request, slice_idle 10 ms): a sync slice whose
#     request is still in the driver keeps the device to its end, when the
#     timer armed for it ends the slice "time". The blk-mq re-runs while
#     other readers wait used to end it "empty" once less than slice_idle
#     was left (patch 15): 0 of 113 slices ended by time, 98 of 107 since.
nullb_load completion_nsec=40000000 || bad "null_blk loads with 40 ms completions"
sw nullb0 cfq
echo 10 >$N/slice_idle
trace_on nullb0
pids=; for i in 0 1 2; do dd_reader nullb0 $((i * 65536)); pids="$pids $!"; done
sleep 8
# shellcheck disable=SC2086
kill $pids 2>/dev/null; wait $pids 2>/dev/null
trace_off nullb0
all=$(trace_count slice_expire)
bytime=$(trace_count slice_expire time)
rig_result "# slow device: $bytime of $all slices of 3 sync readers ended by time; ends: $(ends be/4)"
# the rest end "empty" once the reader is slow to resubmit (a guest on a
# busy host: 18 of 61 by time beside another guest), so the bound is low
[ "$bytime" -ge 10 ] && [ $((bytime * 5)) -ge "$all" ] &&
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
