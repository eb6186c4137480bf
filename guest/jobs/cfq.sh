# Scheduler checks for cfq: module load, defaults and bounds of every
# tunable, show_status, switching under I/O on a virtio disk and a null_blk
# device, rmmod while in use and after, and the slicing behaviour itself.
# Each check prints "ok - cfq: ..." or "not ok - cfq: ..." to the results.

ok()  { rig_result "ok - cfq: $*"; }
bad() { rig_result "not ok - cfq: $*"; }
expect() { if [ "$1" = "$2" ]; then ok "$3"; else bad "$3 (got '$1', want '$2')"; fi; }
cur_sched() { sed 's/.*\[\(.*\)\].*/\1/' "/sys/block/$1/queue/scheduler"; }
sw() { echo "$2" >"/sys/block/$1/queue/scheduler" 2>/dev/null && [ "$(cur_sched "$1")" = "$2" ]; }
# the first number of a show_status line: status_num "$st" requeued
status_num() { printf '%s\n' "$1" | sed -n "s/^$2: \([0-9]*\).*/\1/p"; }

# null_blk for the checks (1 ms timer completions), loaded again with more
# parameters where a section needs them (a later one wins); marked
# rotational, as a disk (section 17 checks it as it is, non-rotational)
nullb_load() {
	rmmod null_blk 2>/dev/null
	modprobe null_blk queue_mode=2 irqmode=2 completion_nsec=1000000 nr_devices=1 gb=1 \
		memory_backed=1 hw_queue_depth=64 "$@" && nullb_as_disk nullb0
}
nullb_load || bad "null_blk loads"

# kmemleak: what the boot left unreferenced is not these checks' (the scan
# at the end, rig_leaks in guest/lib.sh)
rig_leaks_mark

# 1. module and selection
modprobe cfq-iosched && ok "modprobe cfq-iosched" || bad "modprobe cfq-iosched"
grep -qw cfq /sys/block/vdb/queue/scheduler && ok "cfq listed for vdb" || bad "cfq listed for vdb"
sw vdb cfq && ok "switch vdb to cfq" || bad "switch vdb to cfq"
I=/sys/block/vdb/queue/iosched

# 2. defaults
for kv in quantum=4 queued=8 fifo_expire_sync=500 fifo_expire_async=5000 fifo_batch_expire=125 \
	back_seek_max=16384 back_seek_penalty=2 find_best_request=1 slice_sync=100 slice_async=40 \
	slice_async_rq=8 slice_idle=4 max_depth=4; do
	k=${kv%=*} v=${kv#*=}
	expect "$(cat $I/$k 2>&1)" "$v" "default $k=$v"
done
case "$(cat $I/key_type)" in *pid*) ok "default key_type pid" ;; *) bad "default key_type pid (got '$(cat $I/key_type)')" ;; esac

# 3. bounds: accepted values read back, rejected ones fail with EINVAL and change nothing
accept() { # file value
	if echo "$2" >"$I/$1" 2>/dev/null && grep -q "$2" "$I/$1"; then ok "accepts $1=$2"
	else bad "accepts $1=$2 (reads '$(cat "$I/$1")')"; fi
}
reject() { # file value
	before=$(cat "$I/$1")
	# one write(2) of exactly these bytes; dd reports the errno text
	if printf '%s' "$2" | dd of="$I/$1" bs=4096 2>/tmp/err; then bad "rejects $1='$2' (write succeeded)"
	elif ! grep -q 'Invalid argument' /tmp/err; then bad "rejects $1='$2' with EINVAL (got: $(cat /tmp/err))"
	elif [ "$(cat "$I/$1")" != "$before" ]; then bad "rejects $1='$2' and keeps '$before' (now '$(cat "$I/$1")')"
	else ok "rejects $1='$2' with EINVAL"; fi
}
accept slice_idle 0; accept slice_idle 50; reject slice_idle 51; accept slice_idle 4
accept max_depth 2; reject max_depth 1; reject max_depth 0; accept max_depth 4
accept back_seek_penalty 1; reject back_seek_penalty 0; accept back_seek_penalty 2
accept quantum 1; reject quantum 0; accept quantum 4
accept find_best_request 0; reject find_best_request 2; accept find_best_request 1
reject slice_sync 0; reject slice_async 0; reject slice_async_rq 0
for k in pgid tgid uid gid pid; do accept key_type $k; done
reject key_type nosuch
for v in abc -1 99999999999999999999 " " 4x "1 2"; do reject slice_sync "$v"; done
reject slice_sync 7 # slice_idle 4 is fine, but 7/2 < 4
st=$(cat $I/show_status 2>&1)
n=$(printf '%s' "$st" | wc -c)
[ "$n" -gt 20 ] && [ "$n" -lt 4096 ] && ok "show_status readable ($n bytes)" || bad "show_status readable ($n bytes)"
printf '%s\n' "$st" | grep -qi 'key' && ok "show_status names the key type" || bad "show_status names the key type"
printf '%s\n' "$st" | sed 's/^/#   /' | head -8 >&3

# 4. switching under I/O, on both devices
for d in vdb nullb0; do
	size=$(blockdev --getsize64 /dev/$d)
	readers --dev /dev/$d --size $((size / 2)) --clients 2 --engine aio --qd 4 --pattern rand \
		--duration 20 --seed 7 >/tmp/r.$d 2>&1 &
	rp=$!
	writers --dev /dev/$d --offset $((size / 2)) --size $((size / 8)) --clients 2 --mode buffered \
		--fsync-every 32 --duration 20 --seed 7 >/tmp/w.$d 2>&1 &
	wp=$!
	fails=0 n=0
	while kill -0 $rp 2>/dev/null || kill -0 $wp 2>/dev/null; do
		for s in cfq mq-deadline cfq none cfq kyber cfq bfq; do
			sw $d $s || fails=$((fails + 1))
			n=$((n + 1))
			sleep 0.2
		done
	done
	wait $rp; rrc=$?
	wait $wp; wrc=$?
	expect "$fails" 0 "$n switches on $d under I/O"
	expect "$rrc/$wrc" 0/0 "readers/writers on $d through switches (data verified)"
	grep -h '^result ' /tmp/r.$d /tmp/w.$d >&3
done

# 5. rmmod while in use fails, after switching away succeeds, reload works
sw vdb cfq
rmmod cfq-iosched 2>/dev/null && bad "rmmod fails while vdb uses cfq" || ok "rmmod fails while vdb uses cfq"
for d in vdb nullb0; do sw $d mq-deadline; done
rmmod cfq-iosched && ok "rmmod after switching away" || bad "rmmod after switching away"
grep -qw cfq /sys/block/vdb/queue/scheduler && bad "cfq gone after rmmod" || ok "cfq gone after rmmod"
modprobe cfq-iosched && sw nullb0 cfq && ok "reload and switch" || bad "reload and switch"

# 6. slicing: two sync O_DIRECT readers on a fixed-latency device dispatch in
# runs per process under cfq, interleaved under mq-deadline. Runs are counted
# from the block tracer's dispatch events (each reader owns half the device).
T=/sys/kernel/debug/tracing
# the block tracer's read dispatches ("D R sector + n"), one line each: the
# region of the device it falls in, regions of SECTORS sectors
dispatched_regions() { # SECTORS
	awk -v s="$1" '{ for (i = 1; i < NF - 2; i++) if ($i == "D" && $(i + 1) ~ /R/ && $(i + 3) == "+") {
		print int($(i + 2) / s); break } }' $T/trace
}
# what the audit's summary line ends with when no rule was broken
audit_clean='short=0 length=0 idle=0 nonrot=0 timeout=0 round=0 class=0 preempt=0 grace=0'
run_length() { # scheduler -> average dispatch run length per reader
	sw nullb0 "$1"
	[ "$1" = cfq ] && echo 20 >/sys/block/nullb0/queue/iosched/slice_idle
	echo 0 >$T/tracing_on; echo >$T/trace
	echo 8192 >$T/buffer_size_kb
	echo blk >$T/current_tracer
	echo 1 >/sys/block/nullb0/trace/enable
	echo 1 >$T/tracing_on
	readers --dev /dev/nullb0 --clients 2 --engine sync --pattern seq --bs 4096 \
		--duration 5 --seed 3 >/tmp/slice.$1 2>&1
	echo 0 >$T/tracing_on
	echo 0 >/sys/block/nullb0/trace/enable
	half=$(($(blockdev --getsize64 /dev/nullb0) / 1024))   # in 512-byte sectors
	dispatched_regions "$half" | awk '{ if ($1 != last) runs++; last = $1; n++ }
		END { if (runs) printf "%d %d\n", n, n / runs; else print "0 0" }'
}
r=$(run_length cfq); cfq_n=${r% *} cfq_run=${r#* }
r=$(run_length mq-deadline); dl_n=${r% *} dl_run=${r#* }
rig_result "# slicing: cfq $cfq_n dispatches, mean run $cfq_run; mq-deadline $dl_n dispatches, mean run $dl_run"
[ "$cfq_n" -gt 50 ] && [ "$dl_n" -gt 50 ] && ok "slicing test dispatched ($cfq_n, $dl_n)" || bad "slicing test dispatched ($cfq_n, $dl_n)"
[ "$cfq_run" -ge 4 ] && ok "cfq dispatches in runs per process (mean run $cfq_run)" || bad "cfq dispatches in runs per process (mean run $cfq_run)"
[ "$dl_run" -lt 3 ] && ok "mq-deadline interleaves (mean run $dl_run)" || bad "mq-deadline interleaves (mean run $dl_run)"
sw nullb0 mq-deadline

# Trace helpers for the sections below: the block tracer on one device, its
# cfq messages ("cfq<key> slice_start ... prio=be/0") and dispatch events.
trace_on() { # dev
	echo 0 >$T/tracing_on; echo >$T/trace
	echo 8192 >$T/buffer_size_kb
	echo blk >$T/current_tracer
	echo 1 >/sys/block/$1/trace/enable
	echo 1 >$T/tracing_on
}
trace_off() { echo 0 >$T/tracing_on; echo 0 >/sys/block/$1/trace/enable; }
# the soak's slice audit (guest/slice-audit.awk) of the trace, with the
# device's tunables now: its summary line "audit slices=N ... timeout=N"
audit_trace() { # dev
	{ cat $T/trace; echo rig-audit-end; } | awk -v conf="$(audit_device "$1")" -f /rig/slice-audit.awk | tail -n 1
}
# the audit's class rules on a real trace of two classes at once: clean,
# and at least one slice chosen while both had queues waiting (BUSY, a
# regex of slice_select's busy=RT/BE/IDLE)
audit_classes() { # dev what BUSY
	ac_a=$(audit_trace "$1")
	ac_n=$(grep -cE " slice_select .* busy=$3( |\$)" $T/trace)
	case "$ac_a" in
	"audit slices=0 "*) ;;
	*" $audit_clean")
		[ "$ac_n" -gt 0 ] && { ok "slice audit: $2: the class rules hold ($ac_n slices chosen with both classes waiting; $ac_a)"; return; } ;;
	esac
	bad "slice audit: $2: the class rules hold ($ac_n slices chosen with both classes waiting; got '$ac_a')"
}
dd_reader() { # dev skip_blocks -> an O_DIRECT sequential 4 KiB reader (pid in $!)
	dd if=/dev/$1 of=/dev/null bs=4k iflag=direct skip="$2" count=200000 2>/dev/null &
}
# a reader that always has requests queued (libaio, depth 16), so its
# slices end by time even when the guest is slow to resubmit (TCG on a busy
# host). Random reads: sequential ones submitted together merge into one
# or two large requests, and the queue runs dry between them.
# dev MiB_offset class level secs
fio_reader() {
	fio --name=r --filename=/dev/$1 --rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth=16 \
		--offset=$(($2 << 20)) --size=256m --prioclass="$3" --prio="$4" --runtime="$5" --time_based \
		>/dev/null 2>&1 &
}
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
ms() { grep -o "slice_start sync=1 slice_ms=[0-9]* prio=$1" $T/trace | sed 's/.*slice_ms=\([0-9]*\).*/\1/' | sort -u | tr '\n' ' ' | sed 's/ $//'; }
expect "$(ms be/0)" 180 "BE level 0: sync slices of 180 ms (100 + 100/5 * 4)"
expect "$(ms be/7)" 40 "BE level 7: sync slices of 40 ms (100 - 100/5 * 3)"
a=$(audit_trace nullb0)
case "$a" in
"audit slices=0 "*) bad "slice audit: BE 0 and BE 7 slices of the real trace keep the rule (got '$a')" ;;
*" $audit_clean") ok "slice audit: BE 0 and BE 7 slices of the real trace keep the rule ($a)" ;;
*) bad "slice audit: BE 0 and BE 7 slices of the real trace keep the rule (got '$a')" ;;
esac
used() { awk -v p="prio=$1" '/ slice_expire reason=time / && index($0, p) { for (i = 1; i <= NF; i++) if ($i ~ /^used_us=/) { s += substr($i, 9); n++ } }
	END { if (n) printf "%d", s / n / 1000; else printf "0" }' $T/trace; }
# how the BE 0 / BE 7 slices ended: "time:12 empty:3 ..." (used counts only time)
ends() { awk -v p="prio=$1" '/ slice_expire / && index($0, p) { for (i = 1; i <= NF; i++) if ($i ~ /^reason=/) n[substr($i, 8)]++ }
	END { for (r in n) printf "%s:%d ", r, n[r] }' $T/trace; }
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
	[ "$share" -ge 80 ] && ok "RT reader gets >= 80% of the disk time against 3 BE readers (${share}%)" ||
		bad "RT reader gets >= 80% of the disk time against 3 BE readers (${share}%)"
	grep -q 'slice_expire reason=preempted .*prio=be/' $T/trace && ok "RT requests preempt BE slices" ||
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
	set -- $(awk '/rig: BE readers stop/ { after = 1 } / slice_start .*prio=idle/ { if (after) a++; else b++ }
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
	n=$(awk -v k="cfq$p1" '/rig: ioprio changed/ { after = 1 } after && index($0, k " slice_start") && /prio=rt\/2/ { n++ } END { print n + 0 }' $T/trace)
	[ "$n" -gt 0 ] && ok "ionice -p on a running reader: its queue is served as rt/2 ($n slices)" ||
		bad "ionice -p on a running reader: its queue is served as rt/2 (no slice)"
	sw rotdisk0 none; rmmod rotdisk
else
	bad "rotdisk module loads (ionice checks on the emulated disk)"
fi
ionice -c 2 -n 6 dd if=/dev/nullb0 of=/dev/null bs=4k iflag=direct count=200000 2>/dev/null & a=$!
sleep 1
st=$(cat /sys/block/nullb0/queue/iosched/show_status)
kill $a 2>/dev/null; wait $a 2>/dev/null
printf '%s\n' "$st" | grep -q "key=$a prio=be/6" && ok "show_status shows a queue's class and level (be/6)" ||
	bad "show_status shows a queue's class and level (no 'key=$a prio=be/6')"

# 9. merges stay inside a queue (insert merges in 6.1 have no allow hook):
#    two writers on interleaved 4 KiB blocks of one small region, many in
#    flight; a dispatched write larger than 4 KiB joined both processes.
cross_merges() { # scheduler -> "dispatched_writes merged_across"
	sw nullb0 "$1"
	trace_on nullb0
	fio --name=even --filename=/dev/nullb0 --rw=randwrite --bs=4k --blockalign=8k --offset=0 --size=256k \
		--direct=1 --ioengine=libaio --iodepth=16 --runtime=3 --time_based \
		--name=odd --filename=/dev/nullb0 --rw=randwrite --bs=4k --blockalign=8k --offset=4k --size=256k \
		--direct=1 --ioengine=libaio --iodepth=16 --runtime=3 --time_based >/tmp/fio.merge 2>&1 ||
		bad "fio ran under $1: $(tail -n2 /tmp/fio.merge)"
	trace_off nullb0
	awk '{ for (i = 1; i < NF - 3; i++) if ($i == "D" && $(i + 1) ~ /W/ && $(i + 3) == "+") {
		n++; if ($(i + 4) > 8) big++; break } } END { printf "%d %d\n", n, big }' $T/trace
}
# shellcheck disable=SC2046 # two numbers
set -- $(cross_merges mq-deadline); dl_w=$1 dl_x=$2
# shellcheck disable=SC2046 # two numbers
set -- $(cross_merges cfq); cfq_w=$1 cfq_x=$2
rig_result "# merges: interleaved writers, dispatched writes merged across processes: mq-deadline $dl_x of $dl_w, cfq $cfq_x of $cfq_w"
[ "$dl_x" -gt 0 ] && ok "the load merges across processes under mq-deadline ($dl_x of $dl_w)" ||
	bad "the load merges across processes under mq-deadline (0 of $dl_w: no opportunity)"
[ "$cfq_w" -gt 100 ] && [ "$cfq_x" = 0 ] && ok "cfq never merges requests of two queues (0 of $cfq_w)" ||
	bad "cfq never merges requests of two queues ($cfq_x of $cfq_w)"

# 10. an owner that moves to another queue ends its old queue's idle window:
#     the key-change load (setsid/setpgid, setresuid/setresgid between back-
#     to-back reads and writes) with a 5 s idle window. Every idle must end
#     by a move, an exit or new I/O, never by waiting the window out.
sw nullb0 cfq
N=/sys/block/nullb0/queue/iosched
echo 10000 >$N/slice_sync; echo 5000 >$N/slice_idle
trace_on nullb0
paths --dev /dev/nullb0 --modes key-change --clients 1 --duration 8 --seed 11 >/tmp/keychange 2>&1 ||
	bad "paths key-change ran: $(tail -n2 /tmp/keychange)"
trace_off nullb0
moved=$(grep -c 'slice_expire reason=owner_moved' $T/trace)
waited=$(grep -c 'slice_expire reason=idle_timeout' $T/trace)
rig_result "# key change: $(grep -h '^paths mode' /tmp/keychange); slices ended owner_moved $moved, idle_timeout $waited"
[ "$moved" -gt 0 ] && [ "$waited" = 0 ] && ok "a queue's owner moving away ends the idle window at once ($moved moves, 0 timeouts)" ||
	bad "a queue's owner moving away ends the idle window at once ($moved moves, $waited idle timeouts of 5 s)"
echo 4 >$N/slice_idle; echo 100 >$N/slice_sync; echo pid >$N/key_type

# 11. CLONE_IO siblings share an io_context: a live sibling's queue is idled
#     for, so its slices do not end "owner_exit" while it lives. Counted
#     against the processes forked during the load (each exits once).
f0=$(awk '/^processes/ { print $2 }' /proc/stat)
trace_on nullb0
paths --dev /dev/nullb0 --modes shared-ioc --clients 2 --duration 6 --seed 5 >/tmp/sharedioc 2>&1 ||
	bad "paths shared-ioc ran: $(tail -n2 /tmp/sharedioc)"
trace_off nullb0
forks=$(( $(awk '/^processes/ { print $2 }' /proc/stat) - f0 ))
exits=$(grep -c 'slice_expire reason=owner_exit' $T/trace)
rig_result "# shared io_context: $(grep -h '^paths mode' /tmp/sharedioc); $exits slices ended owner_exit, $forks processes forked"
[ "$forks" -gt 3 ] && [ "$exits" -le "$forks" ] && ok "CLONE_IO siblings: owner_exit only for owners that exit ($exits <= $forks)" ||
	bad "CLONE_IO siblings: owner_exit only for owners that exit ($exits > $forks forks)"
sw nullb0 mq-deadline

# 12. requeues (null_blk requeue injection): served in their queue's slice,
#     under max_depth (show_status: the high-water mark of in-driver requests)
nullb_load requeue=1,20,0,-1 || bad "null_blk loads with requeue injection"
sw nullb0 cfq
readers --dev /dev/nullb0 --size $((256 << 20)) --clients 3 --engine aio --qd 8 --pattern rand \
	--duration 5 --seed 9 >/tmp/requeue.r 2>&1 || bad "readers under requeue injection: $(tail -n1 /tmp/requeue.r)"
st=$(cat /sys/block/nullb0/queue/iosched/show_status)
rq=$(status_num "$st" requeued)
mx=$(printf '%s\n' "$st" | sed -n 's/^in driver: .*(max \([0-9]*\)).*/\1/p')
rig_result "# requeue: $rq requeues, at most ${mx:-?} requests in the driver (max_depth 4)"
[ "${rq:-0}" -gt 0 ] && [ -n "$mx" ] && [ "$mx" -le 4 ] && ok "requeued requests stay under max_depth ($rq requeues, max $mx in the driver)" ||
	bad "requeued requests stay under max_depth (${rq:-?} requeues, max ${mx:-?} in the driver)"
sw nullb0 mq-deadline

# 13. a failing disk (null_blk times out 50% of its requests; 2 s request
#     timeout here, 30 s by default) with 40 short O_DIRECT readers: cfq
#     must finish within a small multiple of mq-deadline's time, not wait
#     the timeouts out max_depth at a time.
nullb_load timeout=1,50,0,-1 || bad "null_blk loads with timeout injection"
echo 2000 >/sys/block/nullb0/queue/io_timeout
failing_disk() { # scheduler -> seconds for 40 readers of 4 blocks each
	sw nullb0 "$1"
	t0=$(cut -d' ' -f1 /proc/uptime)
	i=0; pids=
	while [ $i -lt 40 ]; do
		dd if=/dev/nullb0 of=/dev/null bs=4k count=4 skip=$((i * 256)) iflag=direct 2>/dev/null & pids="$pids $!"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	wait $pids
	awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%d", (b - a) * 10 }'
}
dl=$(failing_disk mq-deadline); cq=$(failing_disk cfq)
rig_result "# failing disk: 40 readers, 50% timeouts (2 s): mq-deadline $((dl / 10)).$((dl % 10)) s, cfq $((cq / 10)).$((cq % 10)) s"
[ "$cq" -le $((dl * 3 + 20)) ] && ok "failing disk: cfq within 3x mq-deadline's time (+2 s) ($cq vs $dl tenths)" ||
	bad "failing disk: cfq within 3x mq-deadline's time (+2 s) ($cq vs $dl tenths of s)"
sw nullb0 mq-deadline

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
all=$(grep -c ' slice_expire ' $T/trace)
bytime=$(grep -c ' slice_expire reason=time ' $T/trace)
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

# 16. requeues of prepared requests on SCSI: scsi_debug ends every 16th
#     command with ABORTED COMMAND, and sd retries it through
#     blk_mq_requeue_request. The request keeps RQF_DONTPREP, so it goes
#     back to the driver without the scheduler's insert and stays in
#     flight for cfq: the in-driver count must balance once the load ends.
if modprobe scsi_debug dev_size_mb=64 statistics=1 every_nth=16 opts=0x10; then
	sleep 1
	sd=$(devnode sdebug)
	if [ -b "$sd" ] && sw "${sd#/dev/}" cfq; then
		S=/sys/block/${sd#/dev/}/queue/iosched
		readers --dev "$sd" --size $((32 << 20)) --clients 3 --engine aio --qd 8 --pattern rand \
			--duration 4 --seed 5 >/tmp/sdreq.r 2>&1; rrc=$?
		writers --dev "$sd" --offset $((32 << 20)) --size $((16 << 20)) --clients 1 --mode direct \
			--qd 8 --duration 4 --seed 5 >/tmp/sdreq.w 2>&1; wrc=$?
		st=$(cat $S/show_status)
		rq=$(status_num "$st" requeued)
		dr=$(status_num "$st" "in driver")
		rig_result "# scsi_debug retries: requeued $rq, in driver after the load: $dr"
		expect "$rrc/$wrc" 0/0 "readers/writers on scsi_debug with retried commands (data verified)"
		[ "${rq:-0}" -gt 0 ] && [ "$dr" = 0 ] &&
			ok "SCSI retries requeue prepared requests ($rq) and the in-driver count balances" ||
			bad "SCSI retries requeue prepared requests and the in-driver count balances (requeued '$rq', in driver '$dr')"
		sw "${sd#/dev/}" none
	else
		bad "scsi_debug disk appears and takes cfq"
	fi
	rmmod scsi_debug || bad "rmmod scsi_debug"
else
	bad "scsi_debug loads with retry injection"
fi

# 17. a non-rotational device that queues (null_blk as it is: 64 tags): a
#     queue that runs dry ends its slice at once, without an idle window
#     (legacy CFQ's rule, patch 17); marked rotational, the same device
#     idles again, from the next decision on.
echo 0 >/sys/block/nullb0/queue/rotational
sw nullb0 cfq
trace_on nullb0
pids=; for i in 0 1; do dd_reader nullb0 $((i * 65536)); pids="$pids $!"; done
sleep 3
echo "rig: rotational" >$T/trace_marker
nullb_as_disk nullb0
sleep 3
# shellcheck disable=SC2086
kill $pids 2>/dev/null; wait $pids 2>/dev/null
trace_off nullb0
# shellcheck disable=SC2046 # four numbers
set -- $(awk '/rig: rotational/ { after = 1 } / idle_arm / { if (after) ia++; else ib++ }
	/ slice_expire / { if (after) ea++; else eb++ } END { printf "%d %d %d %d\n", ib, ia, eb, ea }' $T/trace)
rig_result "# 2 sync readers on null_blk: non-rotational: $1 idle windows in $3 slices; marked rotational: $2 in $4"
[ "$1" = 0 ] && [ "$3" -ge 20 ] && ok "no idle window on a non-rotational device that queues ($3 slices)" ||
	bad "no idle window on a non-rotational device that queues ($1 idle windows in $3 slices)"
[ "$2" -gt 0 ] && ok "the same device marked rotational idles again ($2 idle windows)" ||
	bad "the same device marked rotational idles again (no idle window in $4 slices)"
sw nullb0 mq-deadline

# 18. on a rotating disk a round takes its queues in sector order (C-SCAN,
#     patch 19): four sequential readers, one per quarter of the device,
#     started in the order 2, 0, 3, 1. Served in the order they came, each
#     round would go back down the disk twice (2 0 3 1); in sector order,
#     once (0 1 2 3). Counted on the regions of the dispatched requests.
#     10 ms requests and slice_idle 10: a reader's think time stays inside
#     the idle window on a slow guest, so slices end by time and every
#     queue waits on the rr list with its next request.
nullb_load completion_nsec=10000000 || bad "null_blk loads with 10 ms completions"
sw nullb0 cfq
echo 10 >$N/slice_idle
trace_on nullb0
qs=$(($(blockdev --getsize64 /dev/nullb0) / 4))
pids=; for r in 2 0 3 1; do dd_reader nullb0 $((r * qs / 4096)); pids="$pids $!"; sleep 0.3; done
sleep 6
# shellcheck disable=SC2086
kill $pids 2>/dev/null; wait $pids 2>/dev/null
trace_off nullb0
# shellcheck disable=SC2046 # two numbers
set -- $(dispatched_regions $((qs / 512)) | awk '$1 != last { if (n++ && $1 < last) down++; last = $1 }
	END { printf "%d %d\n", n, down }')
rig_result "# 4 readers started in region order 2 0 3 1: $1 runs of one region, $2 moves back down the disk; ends: $(ends be/4)"
[ "$1" -ge 20 ] && [ $(($2 * 3)) -lt "$1" ] && ok "a round serves its queues in sector order ($2 moves down in $1 runs)" ||
	bad "a round serves its queues in sector order ($2 moves down in $1 runs; served in arrival order it is 1 in 2)"
sw nullb0 mq-deadline
nullb_load || bad "null_blk loads again"

# 7. a switch to cfq whose Kth allocation fails (/proc/self/fail-nth; sleeping
#    allocations made failable with probability 0, so nothing else fails) must
#    fail cleanly, leave a working scheduler, and leak no module reference:
#    6.1 leaked one per switch that failed before the scheduler's init_sched
#    (fixed by the series' patch 5)
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
# with KMEMLEAK=1: every check above, the failed switches included, leaked
# no memory (a leak is also printed as a "BUG: memory leak" report)
leaks=none
rig_leaks
[ "$leaks" = skipped ] || expect "$leaks" 0 "kmemleak: no leak after every check (leaked objects are findings too)"
rmmod cfq-iosched && ok "final rmmod" || bad "final rmmod"
