#!/usr/bin/env bash
# Soak: run a scenario round after round (one boot per round, a fresh seed
# per round; SEED fixes the first) until DURATION has passed. Stops at the
# first finding unless KEEP_GOING=1; findings are deduplicated by title.
#
# usage: host/soak.sh SCENARIO DURATION [SEED]
#   SCENARIO  name in stress/scenarios/ (or a path to a .scn file)
#   DURATION  total time: 90s, 30m, 8h
# exit: 0 clean, 1 findings, 2 bad input
set -euo pipefail
. "$(dirname "$0")/lib.sh"

scn=${1:?usage: host/soak.sh SCENARIO DURATION [SEED]}
total=${2:?usage: host/soak.sh SCENARIO DURATION [SEED]}
seed=${3:-}
file=$scn
[ -f "$file" ] || file="$RIG_ROOT/stress/scenarios/$scn.scn"
[ -f "$file" ] || die "unknown scenario '$scn' (have: $(cd "$RIG_ROOT/stress/scenarios" && ls ./*.scn | sed 's|./||; s|\.scn||' | tr '\n' ' '))"
[ -z "$seed" ] || [[ "$seed" =~ ^[0-9]{1,18}$ ]] || die "SEED must be a number (got '$seed')"
host/scenario.sh check "$file" || exit 2
case "$total" in
*[!0-9smh]* | "" | [smh]*) die "DURATION must look like 90s, 30m or 8h (got '$total')" ;;
*s) secs=${total%s} ;; *m) secs=$((${total%m} * 60)) ;; *h) secs=$((${total%h} * 3600)) ;; *) secs=$total ;;
esac
[ "$secs" -ge 30 ] || die "DURATION must be at least 30 s (got '$total')"

id="soak-$(date +%Y%m%d-%H%M%S)-$(basename "${file%.scn}")"
dir="$LOGS/$id"
mkdir -p "$dir"
: >"$dir/rounds"
scn_dur=$(plan_value <(host/scenario.sh plan "$file" 1) DURATION)
say "soak $id: scenario $(basename "$file"), $secs s in rounds of up to $scn_dur s$([ "${KEEP_GOING:-0}" = 1 ] && echo ', keep going')"

start=$SECONDS round=0 ops=0 status=clean first_s=''
# guest uptime of the first kernel report or rig finding in a console log
first_report_uptime() {
	grep -a -m1 -E "\] ($REPORT_RE|RIG-FINDING)" "$1" |
		sed -n 's/^\[ *\([0-9]*\)\..*/\1/p'
}
while [ $((SECONDS - start)) -lt "$secs" ]; do
	round=$((round + 1))
	left=$((secs - (SECONDS - start)))
	d=$scn_dur; [ "$left" -lt "$d" ] && d=$left; [ "$d" -lt 30 ] && d=30
	s=$seed
	if [ "$round" -gt 1 ] || [ -z "$s" ]; then s=$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); fi
	rdir="$dir/r$(printf %03d "$round")"
	tmp=$(mktemp -d)
	plan_dir "$file" "$s" "$d" "$tmp"
	say "soak $id: round $round, seed $s, $d s (elapsed $((SECONDS - start)) s of $secs, $ops ops, $(cut -f2 "$dir/findings" 2>/dev/null | sort -u | grep -c .) findings)"
	set +e
	r0=$SECONDS
	run_plan "$tmp" "$id/r$(printf %03d "$round")" \
		"RIG_STOP_ON_SPLAT=$([ "${KEEP_GOING:-0}" = 1 ] && echo 0 || echo 1)" 2>&1 |
		tee "$dir/round$round.out" | grep --line-buffered -E '^\[[0-9:]+\] run .*: [0-9]+ s, ' >&2
	rc=${PIPESTATUS[0]}
	set -e
	rm -rf "$tmp"
	[ -f "$rdir/summary" ] || { cat "$dir/round$round.out" >&2; die "round $round did not produce a summary"; }
	rops=$(sed -n 's/^ops=//p' "$rdir/summary")
	ops=$((ops + rops))
	rstat=$(sed -n 's/^status=//p' "$rdir/summary")
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$s" "$d" "$rstat" "$rops" "$((SECONDS - r0))" >>"$dir/rounds"
	if [ -z "$first_s" ] && [ "$rstat" != clean ]; then
		# time to detection: the rounds before, plus the guest uptime of
		# the first report (or this whole round when none is in the log)
		u=$(first_report_uptime "$rdir/console.log")
		first_s=$((r0 - start + ${u:-$((SECONDS - r0))}))
	fi
	grep -P '^finding\t' "$rdir/summary" | while IFS=$'\t' read -r _ kind title _; do
		printf '%s\t%s\t%s\t%s\n' "$kind" "$title" "r$(printf %03d "$round")" "$s" >>"$dir/findings"
	done || true
	if [ "$rc" != 0 ]; then
		status=findings
		say "soak $id: round $round ended '$rstat' (seed $s)"
		[ "${KEEP_GOING:-0}" = 1 ] || break
	fi
done

{
	echo "soak=$id"
	echo "scenario=$(basename "${file%.scn}")"
	echo "first_seed=${seed:-random}"
	echo "duration_s=$((SECONDS - start))"
	echo "rounds=$round"
	echo "ops=$ops"
	echo "status=$status"
	echo "first_finding_s=${first_s:-none}"
	[ -f "$dir/findings" ] && awk -F'\t' '!seen[$2]++' "$dir/findings" | sed 's/^/finding\t/'
} >"$dir/summary"
echo "========================================================================"
echo " soak $id: $status after $round rounds, $((SECONDS - start)) s, $ops ops"
echo " rounds (round, seed, seconds, status, ops, wall seconds):"
sed 's/^/   /' "$dir/rounds" | tail -10
if [ -f "$dir/findings" ]; then
	echo " findings (deduplicated by title; first round and seed):"
	echo " first finding after ${first_s} s"
	awk -F'\t' '!seen[$2]++ {printf "   [%s] %s  (%s, seed %s)\n", $1, $2, $3, $4}' "$dir/findings" | head -15
	r=$(head -n1 "$dir/findings" | cut -f4)
	echo " reproduce: make repro RUN=${dir#"$LOGS"/}/$(head -n1 "$dir/findings" | cut -f3) N=3   (MINIMIZE=1: smallest scenario)"
	echo "       or:  make repro SCENARIO=$(basename "${file%.scn}") SEED=$r"
fi
echo " logs: $dir"
echo "========================================================================"
[ "$status" = clean ]
