# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 6. slicing: two sync O_DIRECT readers on a fixed-latency device dispatch in
# runs per process under cfq, interleaved under mq-deadline. Runs are counted
# from the block tracer's dispatch events (each reader owns half the device).
# the block tracer's read dispatches ("D R sector + n"), one line each: the
# region of the device it falls in, regions of SECTORS sectors
dispatched_regions() { # SECTORS
	awk -v s="$1" '{ for (i = 1; i < NF - 2; i++) if ($i == "D" && $(i + 1) ~ /R/ && $(i + 3) == "+") {
		print int($(i + 2) / s); break } }' $T/trace
}
# what the audit's summary line ends with when no rule was broken
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
