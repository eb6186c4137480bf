#!/usr/bin/env bash
# Start from a report someone else wrote: a console log, a dmesg or a syzbot
# report e-mail, as pasted. Title it (host/report/classify), name the code under
# test from its stack, pick the scenarios of the default soak whose measured
# load reaches its top block frames (stress/scenarios/reach.tsv, host/measure/reach.sh),
# soak them until the same title comes back (host/lib.sh same_title) or
# BUDGET ends, then minimize (host/hunt/repro.sh MINIMIZE=1) and print the command
# that replays it. Says what it does at each step, and why.
#
# usage: host/hunt/report.sh [--check | --analyse] FILE
#   --check     check FILE and the settings, build nothing (exit 0 or 2)
#   --analyse   print the analysis (title=, kind=, under_test=, scenarios=
#               lines) and stop; REPORT_ROT=FILE: also write the rotation
# settings: BUDGET (seconds of soak, default 1800), SEED (default random),
#   UNDER_TEST (default: from the report's stack), MINIMIZE (default 1),
#   BUG (a corpus bug the kernel carries), FLAVOR, KVER, LOGS
# exit (what git bisect run understands): 0 not reproduced, 1 reproduced,
#   125 this revision cannot be built or booted; 2 bad input (run directly)
set -euo pipefail
user_ut=${UNDER_TEST:-}
. "$(dirname "$0")/../lib.sh"

mode=run
case "${1:-}" in --check) mode=check; shift ;; --analyse) mode=analyse; shift ;; esac
[ $# -eq 1 ] || die "usage: host/hunt/report.sh [--check|--analyse] FILE (make repro REPORT=FILE)"
file=$1
[ -f "$file" ] && [ -r "$file" ] || die "REPORT: no readable file '$file'"
BUDGET=${BUDGET:-1800} MINIMIZE=${MINIMIZE:-1} SEED=${SEED:-}
[[ "$BUDGET" =~ ^[0-9]+$ ]] && [ "$BUDGET" -ge 30 ] || die "BUDGET must be at least 30 (seconds; got '$BUDGET')"
[[ "$MINIMIZE" =~ ^[01]$ ]] || die "MINIMIZE must be 0 or 1 (got '$MINIMIZE')"
[ -z "$SEED" ] || [[ "$SEED" =~ ^[0-9]{1,18}$ ]] || die "SEED must be a number (got '$SEED')"
kver_check
flavor_fragments "$FLAVOR" >/dev/null
bug_check
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. the report as a console log: mail quotes, other loggers' prefixes
#    ("22150.386550:   <6> ") and a commit message's indent go; a line
#    without a printk time stamp gets one, as host/report/classify expects
tr -d '\r' <"$file" | sed -E 's/^(> ?)+//; s/^[0-9]+\.[0-9]+:[[:space:]]+<[0-9]>[[:space:]]?//' | awk '
	{ l[++n] = $0 }
	# the indent of the kernel lines (not of the prose around them)
	!/^\[ *[0-9]+\.[0-9]+\]/ && /(BUG|WARNING|INFO|Call [Tt]race|RIP|Oops|CPU:|Hardware name|\+0x[0-9a-f]+\/0x)/ {
		match($0, /^[ \t]*/); if (ind == "" || RLENGTH < ind) ind = RLENGTH }
	END { for (i = 1; i <= n; i++) {
		s = l[i]
		if (s ~ /^\[ *[0-9]+\.[0-9]+\]/) print s
		else print "[    0.000000] " substr(s, ind + 1) } }' >"$tmp/console.log"
found=$("$RIG_ROOT/host/report/classify" --count "$tmp/console.log" 2>/dev/null || true)
[ -n "$found" ] || die "REPORT: $file is not a kernel log: expected a console log, a dmesg or a syzbot report e-mail with a kernel report in it (a 'BUG: KASAN: ...', 'WARNING: ...', 'BUG: unable to handle ...', 'INFO: task ... blocked ...' line and its call trace); host/report/classify found none"
title=$(head -n1 <<<"$found" | cut -f3)
kind=$(head -n1 <<<"$found" | cut -f2)

# 2. its frames (host/lib.sh frames_of), the report's own stack (its first
#    "Call Trace:") first: a lockdep report prints the stacks where a lock
#    was used before it; block frames are those of host/report/under-test's
#    broadest scope (core)
scope() { under_test_field "$1" 3; }
ct=$(grep -n -m1 'Call Trace:' "$tmp/console.log" | cut -d: -f1 || true)
{ [ -z "$ct" ] || frames_of "$tmp/console.log" "$ct"; frames_of "$tmp/console.log"; } | awk '!seen[$0]++' >"$tmp/frames"
grep -E "$(scope core)" "$tmp/frames" | head -n8 >"$tmp/block" || true
# the function the title names is a frame too (some reports print no trace)
fn=$(sed -n 's/.* in \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' <<<"$title")
if [ -n "$fn" ] && grep -qE "$(scope core)" <<<"$fn" && ! grep -qx "$fn" "$tmp/block"; then
	{ echo "$fn"; cat "$tmp/block"; } | head -n8 >"$tmp/b2" && mv "$tmp/b2" "$tmp/block"
fi

# 3. the code under test: the scheduler whose function is the top block
#    frame, else the block core; UNDER_TEST= set by the user wins
if [ -n "$user_ut" ]; then
	code=$UNDER_TEST why="UNDER_TEST=$UNDER_TEST as set"
else
	top=$(head -n1 "$tmp/block")
	[ -n "$top" ] || die "REPORT: the stack of '$title' names no block code (frames: $(head -n6 "$tmp/frames" | tr '\n' ' ')); say which code to test: UNDER_TEST=$(grep -v '^#' "$RIG_ROOT/host/report/under-test" | cut -f1 | tr '\n' '|' | sed 's/|$//')"
	code=core
	for c in cfq bfq kyber mq-deadline; do
		grep -qE "$(scope "$c")" <<<"$top" && { code=$c; break; }
	done
	why="the top block frame, $top, is $([ "$code" = core ] && echo "block core" || echo "$code's")"
fi
UNDER_TEST=$code
under_test_check

# 4. the scenarios: the (at most three) lines of the default soak's rotation
#    whose measured reach has the most of the report's block frames
rot="$RIG_ROOT/stress/scenarios/hunt.rot" reach="$RIG_ROOT/stress/scenarios/reach.tsv"
sed 's/#.*//' "$rot" | awk 'NF' >"$tmp/hunt"
# the reach measured with this code under test, else with any
ut_reach=$code
awk -F'\t' -v u="$code" '$2 == u {f = 1} END {exit !f}' "$reach" 2>/dev/null || ut_reach=''
: >"$tmp/scores"
while read -r scn _; do
	hits=$(awk -F'\t' -v s="$scn" -v u="$ut_reach" 'NR == FNR { want[$1] = 1; next }
		$1 == s && (u == "" || $2 == u) && ($4 in want) { print $4 }' \
		"$tmp/block" "$reach" 2>/dev/null | sort -u | tr '\n' ' ' || true)
	printf '%s\t%s\t%s\n' "$scn" "$(wc -w <<<"$hits" | tr -d ' ')" "$hits" >>"$tmp/scores"
done <"$tmp/hunt"
best=$(cut -f2 "$tmp/scores" | sort -n | tail -n1)
# the three that reach the most frames (the rotation's order on a tie)
third=$(cut -f2 "$tmp/scores" | sort -rn | sed -n 3p)
third=$((third > 0 ? third : 1))
if [ ! -f "$reach" ] || [ "${best:-0}" = 0 ]; then
	pick_why="no scenario's measured reach ($([ -f "$reach" ] && echo stress/scenarios/reach.tsv || echo "no stress/scenarios/reach.tsv")) has a block frame of the report: the whole default soak"
	cp "$tmp/hunt" "$tmp/report.rot"
else
	pick_why="they reach the most of the report's $(wc -l <"$tmp/block") block frames, $best at best (stress/scenarios/reach.tsv)"
	sort -t$'\t' -k2,2nr -s "$tmp/scores" | awk -F'\t' -v t="$third" '$2 >= t {print $1}' | head -n3 |
		while read -r s; do awk -v s="$s" '$1 == s' "$tmp/hunt"; done >"$tmp/report.rot"
fi
# the report's kind picks the kernel: a data race shows only on the race
# kernel (KCSAN), every other report on the debug kernel (KASAN, lockdep)
awk -v k="$([ "$kind" = kcsan ] && echo race || echo -)" \
	'{ $2 = ($2 == "" ? "-" : $2); $3 = ($3 == "" ? "-" : $3); $4 = k; print }' "$tmp/report.rot" >"$tmp/r2"
mv "$tmp/r2" "$tmp/report.rot"

say "report: $file: '$title' ($kind)"
say "report: block frames, top first: $(tr '\n' ' ' <"$tmp/block")"
say "report: code under test: $code ($why)"
while IFS=$'\t' read -r s n h; do say "report:   $s reaches $n: ${h:--}"; done <"$tmp/scores"
say "report: scenarios: $(cut -d' ' -f1 "$tmp/report.rot" | tr '\n' ' ')- $pick_why"
[ "$mode" = run ] || {
	[ "$mode" = analyse ] && { echo "title=$title"; echo "kind=$kind"; echo "under_test=$code"
		echo "scenarios=$(cut -d' ' -f1 "$tmp/report.rot" | tr '\n' ' ' | sed 's/ $//')"
		[ -z "${REPORT_ROT:-}" ] || cp "$tmp/report.rot" "$REPORT_ROT"; }
	exit 0
}

# 5. soak the scenarios until it comes back (host/hunt/hunt.sh: 125 when the
#    kernel does not build or boot)
[ -n "$SEED" ] || SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
id="report-$(date +%Y%m%d-%H%M%S)-$code"
mkdir -p "$LOGS"
cp "$tmp/report.rot" "$LOGS/$id.rot"
cp "$file" "$LOGS/$id.report"
say "report: soaking for at most $BUDGET s, seed $SEED, until '$title' comes back"
rc=0
UNTIL_TITLE=$title UNDER_TEST=$code HUNT_ID=$id \
	"$RIG_ROOT/host/hunt/hunt.sh" "$LOGS/$id.rot" "$SEED" "$BUDGET" >"$tmp/hunt.out" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || exit "$rc"
s="$LOGS/$id/summary"
rep=$(sed -n 's/^reproduced=//p' "$s")
echo "------------------------------------------------------------------------"
echo " report $file: $title"
echo " code under test: $code; scenarios: $(cut -d' ' -f1 "$tmp/report.rot" | tr '\n' ' ')(seed $SEED)"
echo " $(head -n1 "$tmp/hunt.out")"
if [ -z "$rep" ]; then
	echo " again: make repro REPORT=$file SEED=$SEED BUDGET=$BUDGET${BUG:+ BUG=$BUG}"
	echo "------------------------------------------------------------------------"
	exit 0
fi
r=${rep%%$'\t'*}
echo " replay:  make repro RUN=$id/$r N=3"
echo "------------------------------------------------------------------------"
if [ "$MINIMIZE" = 1 ]; then
	TITLE=${rep#*$'\t'} MINIMIZE=1 "$RIG_ROOT/host/hunt/repro.sh" "$id/$r" 2 || true
fi
exit 1
