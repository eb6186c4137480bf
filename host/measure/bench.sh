#!/usr/bin/env bash
# make bench: the seed's read_files/write_files tables (issue #7) on the
# emulated rotating disk, a dispatch-cost test on null_blk, a cfq slice
# timeline and a disk-is-the-bottleneck check. Boots the guest job
# guest/jobs/bench.sh (once, or a few times when the estimate exceeds
# BENCH_BOOT_MAX), then runs host/measure/bench-report.sh on the results.
#
# usage: FLAVOR=perf host/measure/bench.sh        (settings in the environment)
#   BENCH_DEVS     rotdisk virtio nulllat        ("rotdisk")
#   BENCH_SCHEDS   cfq bfq mq-deadline kyber none (all five)
#   BENCH_CASES    read-seq read-rand write-seq write-rand (all four)
#   BENCH_CLIENTS  1..8                          ("1 2 4 8")
#   BENCH_TIME     seconds per point (5)         BENCH_REPS (3)
#   BENCH_SCALE    rotdisk time_scale_pct (100)
#   BENCH_IOPS     jobs of the dispatch-cost points ("1 4"; "" skips them)
#   BENCH_TIMEOUTS io_timeout (s) of the failing-disk points (30; "" skips them)
#   BENCH_IONICE   1: the I/O priority points on the slow device (1; 0 skips them)
#   BENCH_BOOT_MAX estimated seconds of guest work per boot (1800)
#   BENCH_DRY=1    print the plan (boots, estimated time) and stop
#   RUN_ID         the run's directory under logs/ (bench-DATE-TIME)
# output: logs/RUN_ID/{results.csv,points.csv,tables.txt,summary.txt,*.png}
#   and one run directory per boot (b1, b2, ...)
# exit: 0 done, 1 a boot had findings or lost points, 2 bad settings
set -euo pipefail
FLAVOR=${FLAVOR:-perf}
. "$(dirname "$0")/../lib.sh"
cd "$RIG_ROOT"

DEVS=${BENCH_DEVS-rotdisk}
SCHEDS=${BENCH_SCHEDS-cfq bfq mq-deadline kyber none}
CASES=${BENCH_CASES-read-seq read-rand write-seq write-rand}
CLIENTS=${BENCH_CLIENTS-1 2 4 8}
TIME=${BENCH_TIME-5}
REPS=${BENCH_REPS-3}
SCALE=${BENCH_SCALE-100}
IOPS=${BENCH_IOPS-1 4}
TIMEOUTS=${BENCH_TIMEOUTS-30}
IONICE=${BENCH_IONICE-1}
BOOT_MAX=${BENCH_BOOT_MAX-1800}

posint() {
	if ! [[ "$2" =~ ^[1-9][0-9]{0,5}$ ]] || [ "$2" -gt "$3" ]; then die "$1 must be a whole number from 1 to $3 (got '$2')"; fi
}
words() { # NAME VALUE ALLOWED [empty-ok]
	[ -n "${2// /}" ] || [ -n "${4:-}" ] || die "$1 is empty (choose from: $3)"
	local w
	for w in $2; do [[ " $3 " == *" $w "* ]] || die "$1: unknown '$w' (choose from: $3)"; done
}
words BENCH_DEVS "$DEVS" "rotdisk virtio nulllat"
words BENCH_SCHEDS "$SCHEDS" "cfq bfq mq-deadline kyber none"
words BENCH_CASES "$CASES" "read-seq read-rand write-seq write-rand"
words BENCH_CLIENTS "$CLIENTS" "1 2 3 4 5 6 7 8"
words BENCH_IOPS "$IOPS" "1 2 3 4 5 6 7 8" empty-ok
posint BENCH_TIME "$TIME" 3600
posint BENCH_REPS "$REPS" 100
posint BENCH_SCALE "$SCALE" 100000
posint BENCH_BOOT_MAX "$BOOT_MAX" 86400
[ -z "$TIMEOUTS" ] || posint BENCH_TIMEOUTS "$TIMEOUTS" 600
case "$IONICE" in 0 | 1) ;; *) die "BENCH_IONICE must be 0 or 1 (got '$IONICE')" ;; esac
[ "$FLAVOR" = perf ] || say "bench: FLAVOR=$FLAVOR: figures from a kernel with debug options are not the benchmark's"

# Plan the boots: the matrix of one device and a run of schedulers per boot,
# cut where the estimate passes BOOT_MAX; the first boot also runs the extras
# (dispatch cost, bottleneck check, slice timeline). PER = guest seconds of
# one point besides its run time (fio start, module loads, the result lines).
PER=2
n() { wc -w <<<"$1"; }
per_sched=$(($(n "$CASES") * $(n "$CLIENTS") * REPS * (TIME + PER)))
slow=''
for d in $DEVS; do case $d in rotdisk | nulllat) slow=${slow:-$d} ;; esac; done
extras=$(($(n "$SCHEDS") * $(n "$IOPS") * REPS * (TIME + PER)))
[ -n "$slow" ] && extras=$((extras + 2 * (TIME + PER) + 30))   # the check, the timeline
[ -n "$slow" ] && [ "$IONICE" = 1 ] && extras=$((extras + 3 * (TIME + PER) + 10))
[ -z "$TIMEOUTS" ] || extras=$((extras + $(n "$SCHEDS") * (TIMEOUTS * 3 + 10)))
boots=() est=()
for d in $DEVS; do
	chunk='' t=0
	for s in $SCHEDS; do
		if [ -n "$chunk" ] && [ $((t + per_sched)) -gt "$BOOT_MAX" ]; then
			boots+=("$d|$chunk") est+=("$t"); chunk='' t=0
		fi
		chunk="${chunk:+$chunk }$s" t=$((t + per_sched))
	done
	boots+=("$d|$chunk") est+=("$t")
done
total=$extras
for t in "${est[@]}"; do total=$((total + t)); done
points=$(($(n "$DEVS") * $(n "$SCHEDS") * per_sched / (TIME + PER)))
id=${RUN_ID:-bench-$(date +%Y%m%d-%H%M%S)}
out="$LOGS/$id"
if [ "${BENCH_DRY:-0}" = 1 ]; then
	for i in "${!boots[@]}"; do echo "boot $((i + 1)): ${boots[$i]%%|*}: ${boots[$i]#*|} (about ${est[$i]} s$([ "$i" = 0 ] && echo " + $extras s extras"))"; done
	say "bench: $points points x ${TIME} s + extras, ${#boots[@]} boot(s), about $((total / 60 + 1)) min of guest time"
	exit 0
fi
[ ! -e "$out" ] || die "logs/$id exists already (choose another RUN_ID)"

# gnuplot for the plots, installed only when missing
if ! dpkg-query -W -f='${Status}\n' gnuplot-nox 2>/dev/null | grep -q 'ok installed' && ! command -v gnuplot >/dev/null; then
	[ "$(id -u)" = 0 ] || die "gnuplot is missing and not root (apt-get install gnuplot-nox)"
	say "bench: installing gnuplot-nox"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnuplot-nox >/dev/null ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnuplot-nox >/dev/null; }
fi

# never build a kernel alongside someone else's build (2 cores)
while pgrep -f "host/build/kernel.sh" >/dev/null; do
	say "bench: a kernel build (host/build/kernel.sh) is running; waiting for it"
	sleep 30
done

mkdir -p "$out"
{
	echo "flavor=$FLAVOR"
	echo "devs=$DEVS"; echo "scheds=$SCHEDS"; echo "cases=$CASES"; echo "clients=$CLIENTS"
	echo "time=$TIME"; echo "reps=$REPS"; echo "scale=$SCALE"; echo "iops=$IOPS"
	echo "timeouts=$TIMEOUTS"; echo "ionice=$IONICE"
	echo "boots=${#boots[@]}"; echo "estimate_s=$total"
} >"$out/settings"
say "bench $id: $points points x ${TIME} s + extras, ${#boots[@]} boot(s), about $((total / 60 + 1)) min of guest time ($FLAVOR kernel)"

rc=0
for i in "${!boots[@]}"; do
	b=$((i + 1)) dev=${boots[$i]%%|*} sch=${boots[$i]#*|} t=${est[$i]}
	args=("RIG_BENCH_DEVS=$dev" "RIG_BENCH_SCHEDS=$sch" "RIG_BENCH_CASES=$CASES" "RIG_BENCH_CLIENTS=$CLIENTS"
		"RIG_BENCH_TIME=$TIME" "RIG_BENCH_REPS=$REPS" "RIG_BENCH_SCALE=$SCALE")
	if [ "$b" = 1 ]; then
		# dispatch cost over every scheduler; check and timeline on the slow device
		args+=("RIG_BENCH_IOPS=$IOPS" "RIG_BENCH_CHECK=$slow" "RIG_BENCH_TRACE=$slow" "RIG_BENCH_EXTRA_SCHEDS=$SCHEDS"
			"RIG_BENCH_TRACE_CLIENTS=$(tr -s ' \t' '\n\n' <<<"$CLIENTS" | sort -n | tail -1)"
			"RIG_BENCH_IONICE=$([ "$IONICE" = 0 ] || echo "$slow")" "RIG_BENCH_TIMEOUTS=$TIMEOUTS")
		t=$((t + extras))
	else
		args+=("RIG_BENCH_IOPS=" "RIG_BENCH_CHECK=" "RIG_BENCH_TRACE=" "RIG_BENCH_IONICE=" "RIG_BENCH_TIMEOUTS=")
	fi
	say "bench $id: boot $b of ${#boots[@]}: $dev, $sch (about $((t / 60 + 1)) min)"
	set +e
	RUN_ID="$id/b$b" TIMEOUT=$((t * 2 + 300)) DISK_MB=${DISK_MB:-8192} host/vm/run.sh bench "${args[@]}" 2>&1 |
		tee "$out/b$b.out" | grep --line-buffered -E '^\[[0-9:]+\] run .*: [0-9]+ s, |^ run |status:' >&2
	r=${PIPESTATUS[0]}
	set -e
	[ "$r" = 2 ] && { cat "$out/b$b.out" >&2; die "boot $b: setup error (see $out/b$b.out)"; }
	[ "$r" = 0 ] || { say "bench $id: boot $b ended with status $r (see $out/b$b/summary)"; rc=1; }
done

host/measure/bench-report.sh "$out" || rc=1
exit "$rc"
