# shellcheck shell=sh
# Helpers for the guest's jobs (busybox sh). Sourced by init and by jobs.
. /rig/run.conf

# A line on the console (for the person watching) and in the kernel log.
rig_log() { echo "RIG: $*" >/dev/kmsg 2>/dev/null || echo "RIG: $*" >/dev/console; }

# A finding of the rig's own (data mismatch, stressor failure, stuck I/O):
# rig_finding KEY ARGS..., its title from the table host/report/rig-titles (KEY's
# printf format, with ARGS). The console copy is what the classifier reads.
rig_finding() {
	t=$(awk -F'\t' -v k="$1" '$1 == k { print $2; exit }' /rig/rig-titles)
	shift
	# shellcheck disable=SC2059 # the format is the table's
	[ -n "$t" ] && t=$(printf "$t" "$@") || t="rig: no title for this finding in host/report/rig-titles"
	echo "RIG-FINDING: $t" >/dev/kmsg
	echo "RIG-FINDING: $t" >&3
}

# A result line for the host (stressor results, test assertions).
rig_result() { echo "$*" >&3; }

# One assertion of an in-guest test: "ok - name" or "not ok - name".
rig_check() {
	name=$1; shift
	if "$@" >/tmp/check.out 2>&1; then
		rig_result "ok - $name"
	else
		rig_result "not ok - $name"
		sed 's/^/#   /' /tmp/check.out | head -20 >&3
	fi
}

rig_setup() {
	echo 1 >/proc/sys/kernel/sysrq
	echo "${RIG_HUNG_TIMEOUT:-30}" >/proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
	echo -1 >/proc/sys/kernel/hung_task_warnings 2>/dev/null
	echo 1 >/proc/sys/kernel/hung_task_all_cpu_backtrace 2>/dev/null
	if [ -b /dev/vda ]; then mount -o ro /dev/vda /tools 2>/dev/null || rig_log "no tools disk"; fi
	# fio, stress-ng and mawk are Debian's dynamic binaries, on the tools
	# disk with their libraries: run them through that disk's loader.
	for t in fio stress-ng mawk; do
		[ -x /tools/bin/$t ] || continue
		printf '#!/bin/sh\nexec /tools/lib/ld-linux-x86-64.so.2 --library-path /tools/lib /tools/bin/%s "$@"\n' $t >/usr/bin/$t
		chmod +x /usr/bin/$t
	done
}

# The slice audit's awk (guest/slice-audit.awk): Debian's mawk from the
# tools disk (rig_setup), else busybox awk. Under TCG busybox awk fell
# behind the trace and the round waited for it (doc/guide.md, the slice
# audit; tests/slice-audit.sh: both print the same). "-W interactive":
# mawk reads stdin a line at a time; a file or pipe it would read until
# its buffer is full, past the end marker of a trace_pipe that stays open.
# shellcheck disable=SC2034 # read by the jobs that source this file
if [ -x /usr/bin/mawk ]; then audit_awk="mawk -W interactive"; else audit_awk="awk"; fi

# Progress heartbeat while a job runs: one console line every $2 seconds.
rig_heartbeat() {
	label=$1 every=${2:-15}
	while :; do
		sleep "$every"
		rig_log "progress: $label uptime=$(cut -d' ' -f1 /proc/uptime)"
	done
}

# Name of the scratch disk (virtio-blk, second drive).
scratch_dev() { echo /dev/vdb; }

# null_blk stands in for a rotating disk wherever the rig hunts or checks
# slices: cfq idles only where it saves a seek, not on a non-rotational
# device that queues (the series' patch 17), and null_blk is one. Marked
# through sysfs once the disk is there; scsi_debug stays non-rotational.
nullb_as_disk() { # disk name, e.g. nullb0
	echo 1 >"/sys/block/$1/queue/rotational"
}

# The slice audit's view of a disk (guest/slice-audit.awk's conf).
# slice_sync:slice_async:slice_idle of a disk on cfq, empty on another
slice_tunables() {
	io=/sys/block/$1/queue/iosched
	[ -f $io/slice_sync ] && echo "$(cat $io/slice_sync):$(cat $io/slice_async):$(cat $io/slice_idle)"
}
# the disk as the audit's conf names it, DEV:SYNC:ASYNC:IDLE:NONROT: DEV as
# the trace prints it, each tunable "earlier,now" (the defaults a switch
# brings back, and the scenario's), NONROT 1 where cfq must not idle
# (non-rotational with 5 tags or more, patch 17)
audit_device() { # disk [earlier tunables, default: now]
	cur=$(slice_tunables "$1")
	mm=$(tr : , <"/sys/block/$1/dev")
	tags=$(cat "/sys/block/$1/mq/0/nr_tags" 2>/dev/null || echo 0)
	nonrot=0
	[ "$(cat "/sys/block/$1/queue/rotational")" = 0 ] && [ "$tags" -ge 5 ] && nonrot=1
	echo "${2:-$cur}:$cur" | awk -F: -v d="$mm" -v r="$nonrot" '{ printf "%s:%s,%s:%s,%s:%s,%s:%s", d, $1, $4, $2, $5, $3, $6, r }'
}

# A test device of a scenario (virtio, nullb, sdebug, sdebug2) -> its /dev node, once
# it exists. Used by guest/jobs/scenario.sh and by the fault code that
# host/hunt/faults.sh generates (target=DEV).
devnode() {
	case "$1" in
	virtio) scratch_dev ;;
	nullb) echo /dev/nullb0 ;;
	sdebug) for b in /sys/block/sd*; do [ -e "$b" ] && echo "/dev/${b##*/}" && return; done ;;
	sdebug2) # scsi_debug's second disk (the scenario's max_luns=2)
		set -- /sys/block/sd*; [ -e "${2:-}" ] && echo "/dev/${2##*/}" ;;
	esac
}

# Coverage (RIG_COVER=1, a kernel with gcov): every .gcda under debugfs goes
# to the host on the results channel as base64 between "gcda-begin PATH"
# and "gcda-end" (host/measure/coverage.sh takes them out of results.log). gcov
# keeps an unloaded module's counts (gcov_persist=1), so a round whose
# teardown unloaded the scheduler still hands them over.
rig_gcov_dump() {
	[ "${RIG_COVER:-0}" = 1 ] || return 0
	find /sys/kernel/debug/gcov -name '*.gcda' 2>/dev/null >/tmp/gcda.list
	while IFS= read -r f; do
		echo "gcda-begin ${f#/sys/kernel/debug/gcov}" >&3
		base64 <"$f" >&3
		echo "gcda-end" >&3
	done </tmp/gcda.list
	rig_log "coverage: $(grep -c . /tmp/gcda.list) gcda file(s) sent"
}

# kmemleak (every kernel but perf). kmemleak reports an object only once
# it is 5 s old and was unreferenced and unchanged in the scan before, and
# takes for a leak an object whose one pointer sat in a register during the
# scan: so a report needs two scans at least 5 s apart after the leak, and
# if something is left, syzkaller's executor scans once more. Under TCG
# the two scans take 19 s on an idle host, 46 s beside another guest
# (scan_s= in the results).
#   rig_leaks_mark  in the background as a round starts: what the boot left
#                   unreferenced is not the round's
#   rig_leaks       the scans; prints every object still unreferenced as a
#                   "BUG: memory leak" report on the console, as syzkaller
#                   does (host/report/report-patterns titles it), and "kmemleak
#                   leaks=N" (or "kmemleak off") on the results channel,
#                   and sets leaks (N, off, or skipped in a boot without
#                   kmemleak=on: host/vm/run.sh KMEMLEAK).
#                   Call it after the queues left the scheduler (what its
#                   exit leaks shows then) and before its module unloads
#                   (a leak's backtrace names the module's functions only
#                   while it is loaded).
KMEMLEAK=/sys/kernel/debug/kmemleak
leaks_on() { [ -e $KMEMLEAK ] && grep -qw 'kmemleak=on' /proc/cmdline; }
rig_leaks_mark() {
	leaks_on || return 0
	(echo scan >$KMEMLEAK && echo clear >$KMEMLEAK) 2>/dev/null &
	leaks_mark=$!
}
rig_leaks() {
	leaks_on || { leaks=skipped; return 0; }
	[ -z "${leaks_mark:-}" ] || wait "$leaks_mark"
	leaks_mark=''
	t0=$(cut -d. -f1 /proc/uptime)
	if ! echo scan >$KMEMLEAK 2>/dev/null; then
		rig_result "kmemleak off (it disabled itself: see the console)"
		leaks=off
		return 0
	fi
	t=$(($(cut -d. -f1 /proc/uptime) - t0))
	[ "$t" -ge 6 ] || sleep $((6 - t))
	echo scan >$KMEMLEAK
	if grep -q '^unreferenced object' $KMEMLEAK; then
		sleep 1
		echo scan >$KMEMLEAK
	fi
	cat $KMEMLEAK >/tmp/kmemleak.out
	leaks=$(grep -c '^unreferenced object' /tmp/kmemleak.out)
	rig_result "kmemleak leaks=$leaks scan_s=$(($(cut -d. -f1 /proc/uptime) - t0))"
	[ "$leaks" = 0 ] && return 0
	# one report per object, each line a kernel log line of this shell
	# (the classifier follows a report by its caller tag); the first 20
	awk '/^unreferenced object/ { n++ } n <= 20' /tmp/kmemleak.out >/tmp/kmemleak.top
	while IFS= read -r l; do
		case "$l" in 'unreferenced object'*) echo "BUG: memory leak" >/dev/kmsg ;; esac
		echo "$l" >/dev/kmsg
	done </tmp/kmemleak.top
	echo clear >$KMEMLEAK
}

# cfq: used_us of the slices that ended while the RT queue was being served
# (from its first slice_start to its last slice_expire), per class:
# "rt be idle total". Before and after that window the BE readers have the
# disk to themselves, which says nothing about priorities.
rig_rt_window_slice_time() { # TRACE (ftrace blk tracer output with cfq messages)
	rig_trace 'NR == FNR { if (trace_cfq() && tr["prio"] ~ /^rt\//) {
				if (tr_ev == "slice_start" && t0 == "") t0 = tr_ts
				if (tr_ev == "slice_expire") t1 = tr_ts }
			next }
		trace_cfq() && tr_ev == "slice_expire" { if (t0 == "" || tr_ts <= t0 || tr_ts > t1) next
			c = tr["prio"]; sub(/\/.*/, "", c)
			s[c] += tr["used_us"]; tot += tr["used_us"] }
		END { printf "%d %d %d %d\n", s["rt"], s["be"], s["idle"], tot }' "$1" "$1"
}

# an awk PROGRAM over the scheduler's trace messages, after their grammar
# and reader (guest/trace.awk: trace_cfq(), tr_ev, tr[NAME], ...)
rig_trace() { # PROGRAM [awk arguments and files]
	rt_prog=$1
	shift
	awk -f /rig/trace.awk -e "$rt_prog" "$@"
}
