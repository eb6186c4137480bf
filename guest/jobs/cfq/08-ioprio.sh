# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 8. I/O priorities (ionice). Legacy CFQ's rules, read from the trace.
# 8a. the kernel's rules (block/ioprio.c) hold: an unknown class and class
#     none with a level are refused; a level is the low 3 bits (the others
#     are hints since 6.1.y), so -n 8 is level 0 with a hint, and accepted
ionice -c 5 true 2>/dev/null && bad "ionice -c5 (no such class) is refused" || ok "ionice -c5 (no such class) is refused"
ionice -c 0 -n 3 true 2>/dev/null && bad "ionice -c0 -n3 (class none with a level) is refused" ||
	ok "ionice -c0 -n3 (class none with a level) is refused"
ionice -c 2 -n 8 true && ok "ionice -c2 -n8 (level 0 with a hint) is accepted" || bad "ionice -c2 -n8 (level 0 with a hint) is accepted"
ionice -c 3 true && ok "ionice -c3 (idle) is accepted" || bad "ionice -c3 (idle) is accepted"
# 8b. BE level 0 and level 7: slice_sync 100 scales to 100 + 100/5 * (4 - level)
sw nullb0 cfq
trace_on nullb0
fio_reader nullb0 0 2 0 4; a=$!
fio_reader nullb0 512 2 7 4; b=$!
wait $a $b
trace_off nullb0
ms() { rig_trace 'trace_cfq() && tr_ev == "slice_start" && tr["sync"] == 1 && tr["prio"] == p { print tr["slice_ms"] }' \
	-v p="$1" $T/trace | sort -u | tr '\n' ' ' | sed 's/ $//'; }
expect "$(ms be/0)" 180 "BE level 0: sync slices of 180 ms (100 + 100/5 * 4)"
expect "$(ms be/7)" 40 "BE level 7: sync slices of 40 ms (100 - 100/5 * 3)"
a=$(audit_trace nullb0)
case "$a" in
"audit slices=0 "*) bad "slice audit: BE 0 and BE 7 slices of the real trace keep the rule (got '$a')" ;;
*" $audit_clean") ok "slice audit: BE 0 and BE 7 slices of the real trace keep the rule ($a)" ;;
*) bad "slice audit: BE 0 and BE 7 slices of the real trace keep the rule (got '$a')" ;;
esac
used() { rig_trace 'trace_cfq() && tr_ev == "slice_expire" && tr["reason"] == "time" && tr["prio"] == p { s += tr["used_us"]; n++ }
	END { if (n) printf "%d", s / n / 1000; else printf "0" }' -v p="$1" $T/trace; }
# how the BE 0 / BE 7 slices ended: "time:12 empty:3 ..." (used counts only time)
ends() { rig_trace 'trace_cfq() && tr_ev == "slice_expire" && tr["prio"] == p { n[tr["reason"]]++ }
	END { for (r in n) printf "%s:%d ", r, n[r] }' -v p="$1" $T/trace; }
rig_result "# ionice: mean used sync slice (reason=time): be/0 $(used be/0) ms, be/7 $(used be/7) ms (documented ratio 4.5); slice ends be/0 $(ends be/0)be/7 $(ends be/7)"
# 8c. an RT reader against 3 BE readers on the emulated disk: RT first, and
#     RT preempts BE, so while the RT reader runs it gets the large
#     majority of the disk time (every reader is backlogged)
if insmod /rig/modules/rotdisk.ko time_scale_pct=100 queue_depth=1 2>/dev/null; then
	sw rotdisk0 cfq
	# a switch sets nr_requests to twice the device's depth (2 here): with
	# two scheduler tags for four readers, whoever holds a tag is served,
	# whatever its class. Give cfq enough requests to choose from.
	echo 128 >/sys/block/rotdisk0/queue/nr_requests
	trace_on rotdisk0
	pids=
	for i in 1 2 3; do fio_reader rotdisk0 $((i * 1024)) 2 4 7; pids="$pids $!"; done
	sleep 1
	fio_reader rotdisk0 0 1 4 4; pids="$pids $!"
	# shellcheck disable=SC2086
	wait $pids
	trace_off rotdisk0
	# shellcheck disable=SC2046 # four numbers
	set -- $(rig_rt_window_slice_time $T/trace)
	share=$(( $4 > 0 ? $1 * 100 / $4 : 0 ))
	rig_result "# ionice: RT reader vs 3 BE readers on rotdisk: RT ${share}% of the slice time while it ran ($1 of $4 us)"
	# a fair share would be 25%; the RT reader's own fio, slow to send its
	# next requests on a busy TCG guest, leaves BE some slices (77% once,
	# 100% on a quiet one): the bound is "the large majority", not all
	[ "$share" -ge 60 ] && ok "RT reader gets >= 60% of the disk time against 3 BE readers (${share}%)" ||
		bad "RT reader gets >= 60% of the disk time against 3 BE readers (${share}%)"
	[ "$(rig_trace 'trace_cfq() && tr_ev == "slice_expire" && tr["reason"] == "preempted" && tr["prio"] ~ /^be\// { n++ }
		END { print n + 0 }' $T/trace)" -gt 0 ] && ok "RT requests preempt BE slices" ||
		bad "RT requests preempt BE slices (no 'slice_expire reason=preempted' of a BE queue)"
	audit_classes rotdisk0 "RT against 3 BE readers" '[1-9][0-9]*/[1-9][0-9]*/[0-9]+'
	# 8d. an IDLE reader: no slice while BE readers run, slices once they stop
	trace_on rotdisk0
	dd_reader rotdisk0 0; b1=$!
	dd_reader rotdisk0 262144; b2=$!
	sleep 0.5
	ionice -c 3 dd if=/dev/rotdisk0 of=/dev/null bs=4k iflag=direct skip=524288 count=200000 2>/dev/null & idl=$!
	sleep 3
	echo "rig: BE readers stop" >$T/trace_marker
	kill $b1 $b2 2>/dev/null; wait $b1 $b2 2>/dev/null
	sleep 2
	kill $idl 2>/dev/null; wait $idl 2>/dev/null
	trace_off rotdisk0
	# shellcheck disable=SC2046 # two numbers
	set -- $(rig_trace '/rig: BE readers stop/ { after = 1 }
		trace_cfq() && tr_ev == "slice_start" && tr["prio"] ~ /^idle/ { if (after) a++; else b++ }
		END { printf "%d %d\n", b, a }' $T/trace)
	rig_result "# ionice: IDLE reader slices: $1 while 2 BE readers ran (3 s), $2 in the 2 s after they stopped"
	expect "$1" 0 "IDLE reader gets no slice while BE readers run"
	[ "$2" -gt 0 ] && ok "IDLE reader runs once the BE readers stop ($2 slices)" || bad "IDLE reader runs once the BE readers stop (no slice)"
	audit_classes rotdisk0 "an IDLE reader against 2 BE readers" '[0-9]+/[1-9][0-9]*/[1-9][0-9]*'
	# 8e. ioprio_set on a running reader moves its queue to the new class
	trace_on rotdisk0
	dd_reader rotdisk0 0; p1=$!
	dd_reader rotdisk0 262144; p2=$!
	sleep 1
	ionice -c 1 -n 2 -p $p1 && echo "rig: ioprio changed" >$T/trace_marker
	sleep 1
	kill $p1 $p2 2>/dev/null; wait $p1 $p2 2>/dev/null
	trace_off rotdisk0
	n=$(rig_trace '/rig: ioprio changed/ { after = 1 }
		after && trace_cfq() && tr_key == k && tr_ev == "slice_start" && tr["prio"] == "rt/2" { n++ } END { print n + 0 }' \
		-v k="cfq$p1" $T/trace)
	[ "$n" -gt 0 ] && ok "ionice -p on a running reader: its queue is served as rt/2 ($n slices)" ||
		bad "ionice -p on a running reader: its queue is served as rt/2 (no slice)"
	sw rotdisk0 none; rmmod rotdisk
else
	bad "rotdisk module loads (ionice checks on the emulated disk)"
fi
ionice -c 2 -n 6 dd if=/dev/nullb0 of=/dev/null bs=4k iflag=direct count=200000 2>/dev/null & a=$!
sleep 1
st=$(sched_state nullb0)
kill $a 2>/dev/null; wait $a 2>/dev/null
printf '%s\n' "$st" | grep -q "^key=$a type=pid prio=be/6 " && ok "debugfs shows a queue's class and level (be/6)" ||
	bad "debugfs shows a queue's class and level (no 'key=$a type=pid prio=be/6')"
