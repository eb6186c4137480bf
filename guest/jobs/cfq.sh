# Scheduler checks for cfq: module load, defaults and bounds of every
# tunable, show_status, switching under I/O on a virtio disk and a null_blk
# device, rmmod while in use and after, and the slicing behaviour itself.
# Each check prints "ok - cfq: ..." or "not ok - cfq: ..." to the results.

ok()  { rig_result "ok - cfq: $*"; }
bad() { rig_result "not ok - cfq: $*"; }
expect() { if [ "$1" = "$2" ]; then ok "$3"; else bad "$3 (got '$1', want '$2')"; fi; }
cur_sched() { sed 's/.*\[\(.*\)\].*/\1/' "/sys/block/$1/queue/scheduler"; }
sw() { echo "$2" >"/sys/block/$1/queue/scheduler" 2>/dev/null && [ "$(cur_sched "$1")" = "$2" ]; }

modprobe null_blk queue_mode=2 irqmode=2 completion_nsec=1000000 nr_devices=1 gb=1 \
	memory_backed=1 hw_queue_depth=64 || bad "null_blk loads"

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
	awk -v half="$half" '
		{ for (i = 1; i < NF - 2; i++) if ($i == "D" && $(i + 1) ~ /R/ && $(i + 3) == "+") {
			who = ($(i + 2) < half) ? 0 : 1
			if (who != last) runs++
			last = who; n++; break } }
		END { if (runs) printf "%d %d\n", n, n / runs; else print "0 0" }' $T/trace
}
r=$(run_length cfq); cfq_n=${r% *} cfq_run=${r#* }
r=$(run_length mq-deadline); dl_n=${r% *} dl_run=${r#* }
rig_result "# slicing: cfq $cfq_n dispatches, mean run $cfq_run; mq-deadline $dl_n dispatches, mean run $dl_run"
[ "$cfq_n" -gt 50 ] && [ "$dl_n" -gt 50 ] && ok "slicing test dispatched ($cfq_n, $dl_n)" || bad "slicing test dispatched ($cfq_n, $dl_n)"
[ "$cfq_run" -ge 4 ] && ok "cfq dispatches in runs per process (mean run $cfq_run)" || bad "cfq dispatches in runs per process (mean run $cfq_run)"
[ "$dl_run" -lt 3 ] && ok "mq-deadline interleaves (mean run $dl_run)" || bad "mq-deadline interleaves (mean run $dl_run)"
sw nullb0 mq-deadline

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
rmmod cfq-iosched && ok "final rmmod" || bad "final rmmod"
