# Scheduler checks for cfq: module load, defaults and bounds of every
# tunable, its debugfs state, switching under I/O on a virtio disk and a null_blk
# device, rmmod while in use and after, and the slicing behaviour itself.
# Each check prints "ok - cfq: ..." or "not ok - cfq: ..." to the results.
# This file holds the helpers and the setup; the checks are in sections,
# guest/jobs/cfq/NN-what.sh, sourced in the order of their names.

ok()  { rig_result "ok - cfq: $*"; }
bad() { rig_result "not ok - cfq: $*"; }
expect() { if [ "$1" = "$2" ]; then ok "$3"; else bad "$3 (got '$1', want '$2')"; fi; }
cur_sched() { sed 's/.*\[\(.*\)\].*/\1/' "/sys/block/$1/queue/scheduler"; }
sw() { echo "$2" >"/sys/block/$1/queue/scheduler" 2>/dev/null && [ "$(cur_sched "$1")" = "$2" ]; }
# the scheduler's state in debugfs: sched_state DISK [FILE] (queues, the
# default: "queues=N busy=N oom_allocs=N requeued=N max_in_driver=N" and a
# line a queue; active_queue; rr_list)
sched_state() { cat "/sys/kernel/debug/block/$1/sched/${2:-queues}" 2>&1; }
# the first "NAME=N" of such a text: state_num "$st" requeued
state_num() {
	printf '%s\n' "$1" | awk -v k="$2=" '{ for (i = 1; i <= NF; i++) if (index($i, k) == 1) { print substr($i, length(k) + 1); exit } }'
}
# the high-water mark of in-driver requests
driver_max() { state_num "$1" max_in_driver; }
# nullb0's scheduler directory (the sections' device)
# shellcheck disable=SC2034 # read by the sections
N=/sys/block/nullb0/queue/iosched

# null_blk for the checks (1 ms timer completions), loaded again with more
# parameters where a section needs them (a later one wins); marked
# rotational, as a disk (section 17 checks it as it is, non-rotational)
# shellcheck disable=SC2120 # the sections pass parameters
nullb_load() {
	rmmod null_blk 2>/dev/null
	modprobe null_blk queue_mode=2 irqmode=2 completion_nsec=1000000 nr_devices=1 gb=1 \
		memory_backed=1 hw_queue_depth=64 "$@" && nullb_as_disk nullb0
}
nullb_load || bad "null_blk loads"

# kmemleak: what the boot left unreferenced is not these checks' (the scan
# at the end, rig_leaks in guest/lib.sh)
rig_leaks_mark

# the tracer and the slice audit's summary of a clean trace
T=/sys/kernel/debug/tracing
audit_clean='short=0 length=0 idle=0 nonrot=0 timeout=0 round=0 class=0 preempt=0 grace=0'

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
# shellcheck disable=SC2154 # audit_awk: guest/lib.sh
audit_trace() { # dev
	{ cat $T/trace; echo rig-audit-end; } | $audit_awk -v conf="$(audit_device "$1")" -f /rig/trace.awk -f /rig/slice-audit.awk | tail -n 1
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
# how many of the trace's cfq messages are EVENT ending with REASON (or any)
trace_count() { # EVENT [REASON]
	rig_trace 'trace_cfq() && tr_ev == ev && (r == "" || tr["reason"] == r) { n++ } END { print n + 0 }' \
		-v ev="$1" -v r="${2:-}" $T/trace
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
# the sections, in the order of their names (guest/jobs/cfq/NN-what.sh),
# each a group of checks that later ones may build on (the devices and
# modules as a section leaves them). RIG_CFQ_SECTIONS="20 23" runs only
# those (host/hunt/defects.sh, for a defect whose check is in a section
# that needs no earlier one)
for s in /rig/jobs/cfq/*.sh; do
	n=$(basename "$s"); n=${n%%-*}
	[ -z "${RIG_CFQ_SECTIONS:-}" ] || case " $RIG_CFQ_SECTIONS " in *" $n "*) ;; *) continue ;; esac
	rig_log "cfq: section $(basename "$s" .sh)"
	# shellcheck disable=SC1090 # one file per section
	. "$s"
done

# with KMEMLEAK=1: every check above, the failed switches included, leaked
# no memory (a leak is also printed as a "BUG: memory leak" report)
leaks=none
rig_leaks
[ "$leaks" = skipped ] || expect "$leaks" 0 "kmemleak: no leak after every check (leaked objects are findings too)"
rmmod cfq-iosched && ok "final rmmod" || bad "final rmmod"
