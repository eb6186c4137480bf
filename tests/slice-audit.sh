#!/usr/bin/env bash
# Tests of the slice audit (guest/slice-audit.awk) with the guest's awk
# (busybox) on small traces in the block tracer's format: what it counts as
# a breach, what it must let pass, and its summary line.
set -u
cd "$(dirname "$0")/.." || exit 2
awk_() { if command -v busybox >/dev/null; then busybox awk "$@"; else awk "$@"; fi; }
n=0
line() { # DEV KEY EVENT ARGS -> one trace line
	n=$((n + 1))
	printf '   fio-%d  [000] d..1.  %d.000100: %s    m   N %s %s %s\n' "$n" "$n" "$1" "$2" "$3" "$4"
}
start() { line "$1" "$2" slice_start "sync=1 slice_ms=$3 prio=$4"; }
expire() { line "$1" "$2" slice_expire "reason=$3 used_us=$4 rqs=4 prio=$5 timed_us=$4"; }
audit() { # [CONF]
	{ cat; echo '  sh-1 [000] ..... 99.0: tracing_mark_write: rig-audit-end'; } | awk_ -v conf="${1:-}" -f guest/slice-audit.awk
}
idle() { line "$1" "$2" idle_arm "wait_us=$3"; }
check() { # NAME WANT(regex) GOT
	if [[ "$3" =~ $2 ]]; then echo "ok - audit: $1"; else echo "not ok - audit: $1"; echo "#   want /$2/, got: $3" | head -5; fi
}

got=$({ start 8,0 cfq1 100 be/4; expire 8,0 cfq1 time 39999 be/4; } | audit)
check "a be/4 slice of 100 ms that ends by time after 39.999 ms is a breach (shortest: level 7, 40 ms)" \
	'^short 8,0 cfq1 used_us=39999 slice_ms=100 prio=be/4 min_us=40000'$'\n''audit slices=1 time=1 short=1 length=0 idle=0 nonrot=0 timeout=0$' "$got"
got=$({ start 8,0 cfq1 100 be/4; expire 8,0 cfq1 time 40000 be/7; } | audit)
check "the same slice after 40 ms is legal (its level may drop to 7 under it)" '^audit slices=1 time=1 short=0 length=0 idle=0 nonrot=0 timeout=0$' "$got"
got=$({ start 8,0 cfq2 40 rt/0; expire 8,0 cfq2 time 11999 rt/0; start 8,0 cfq3 40 rt/0; expire 8,0 cfq3 time 12000 rt/0; } | audit)
check "rt/0 with slice_ms 40 (base 24): shortest 12 ms" \
	'^short 8,0 cfq2 used_us=11999 slice_ms=40 prio=rt/0 min_us=12000'$'\n''audit slices=2 time=2 short=1 length=0 idle=0 nonrot=0 timeout=0$' "$got"
got=$({ start 8,0 cfq4 40 idle/7; expire 8,0 cfq4 time 39999 idle/7; } | audit)
check "an idle queue's slice (level 7) has no shorter form" '^short 8,0 cfq4 .*min_us=40000' "$got"
got=$({ start 8,0 cfq1 100 be/4; expire 8,0 cfq1 empty 10 be/4; expire 8,0 cfq5 time 10 be/4; } | audit)
check "ends other than time, and expiries whose start was not seen, are counted, not checked" \
	'^audit slices=2 time=1 short=0 length=0 idle=0 nonrot=0 timeout=0$' "$got"
got=$({ start 8,0 cfq1 100 be/4; start 253,0 cfq1 40 be/4; expire 8,0 cfq1 time 50000 be/4;
	expire 253,0 cfq1 time 100 be/4; } | audit)
check "slices are paired by device: each device's slice has its own length" \
	'^short 253,0 cfq1 used_us=100 slice_ms=40 .*'$'\n''audit slices=2 time=2 short=1 length=0 idle=0 nonrot=0 timeout=0$' "$got"
got=$({ start 8,0 cfq1 100 be/4; start 8,0 cfq6 100 be/4; expire 8,0 cfq1 time 10 be/4; } | audit)
check "an expiry of another queue than the last start is not checked" '^audit slices=1 time=1 short=0 length=0 idle=0 nonrot=0 timeout=0$' "$got"
got=$(printf 'junk\n\n  cfq1 slice_expire\n' | audit)
check "lines that are not cfq slice messages are ignored" '^audit slices=0 time=0 short=0 length=0 idle=0 nonrot=0 timeout=0$' "$got"

# the rules on the devices whose tunables the audit knows (conf)
conf="8,0:100:40:4:0 8,16:100,60:40:4,10:1"
got=$({ start 8,0 cfq1 180 be/0; expire 8,0 cfq1 empty 5 be/0; start 8,0 cfq2 40 be/7; expire 8,0 cfq2 empty 5 be/7
	start 8,0 cfq3 40 idle/7; expire 8,0 cfq3 empty 5 idle/7; start 8,0 cfq4 100 rt/4; expire 8,0 cfq4 empty 5 rt/4
	line 8,0 cfq5 slice_start "sync=0 slice_ms=72 prio=be/0"; expire 8,0 cfq5 empty 5 be/0
	start 8,16 cfq6 60 be/4; expire 8,16 cfq6 empty 5 be/4; idle 8,0 cfq7 4000; } | audit "$conf")
check "slice lengths of legacy CFQ's rule (sync 100, async 40; a scenario's 60) and an idle window of slice_idle pass" \
	'^audit slices=6 time=0 short=0 length=0 idle=0 nonrot=0 timeout=0$' "$got"
got=$({ start 8,0 cfq1 100 be/0; start 8,0 cfq2 20 be/7; line 8,0 cfq3 slice_start "sync=0 slice_ms=100 prio=be/4"; } | audit "$conf")
check "a slice whose length breaks the rule (be/0 of 100, be/7 of 20, an async slice of slice_sync) is a breach" \
	'^length 8,0 cfq1 slice_ms=100 prio=be/0 sync=1 bases=100'$'\n''length 8,0 cfq2 .*'$'\n''length 8,0 cfq3 slice_ms=100 prio=be/4 sync=0 bases=40'$'\n''audit .* length=3 idle=0 nonrot=0 timeout=0$' "$got"
got=$({ idle 8,0 cfq1 4001; idle 8,16 cfq2 10000; idle 253,0 cfq3 99999999; } | audit "$conf")
check "an idle window longer than slice_idle, and one on a non-rotational device that queues, are breaches" \
	'^idle 8,0 cfq1 wait_us=4001 slice_idle=4'$'\n''nonrot 8,16 cfq2 .*'$'\n''audit .* length=0 idle=1 nonrot=1 timeout=0$' "$got"
got=$({ start 8,0 cfq1 100 be/4; idle 8,0 cfq1 4000; expire 8,0 cfq1 idle_timeout 20000 be/4
	start 8,0 cfq2 100 be/4; expire 8,0 cfq2 idle_timeout 30000 be/4
	start 8,0 cfq3 100 be/4; idle 8,0 cfq3 4000; expire 8,0 cfq3 empty 5000 be/4; start 8,0 cfq4 100 be/4
	idle 8,0 cfq5 4000; expire 8,0 cfq4 idle_timeout 9000 be/4; } | audit)
check "a slice ended by the idle timer needs an idle window of its own queue in that slice" \
	'^timeout 8,0 cfq2 reason=idle_timeout without an idle window of its own'$'\n''timeout 8,0 cfq4 .* \(the last was cfq5.s\)'$'\n''audit slices=4 .* timeout=2$' "$got"
