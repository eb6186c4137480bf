#!/usr/bin/env bash
# Soak: run rounds back to back (one boot per round) until DURATION has
# passed. SCENARIO is a scenario (stress/scenarios/NAME.scn: every round runs
# it) or a rotation (NAME.rot: round i runs line i of it, cyclically, each a
# scenario with its own duration and fault sets). Round seeds derive from
# the soak's seed (SEED, or a random one that the summary prints), so
# SEED=S replays a whole soak; ROUNDS=a-b runs only those rounds of it.
# Stops at the first finding unless KEEP_GOING=1; findings are deduplicated
# by title.
#
# usage: host/soak.sh SCENARIO DURATION [SEED]
#   SCENARIO  name in stress/scenarios/ (.rot or .scn), or a path to one
#   DURATION  total time: 90s, 30m, 8h
# environment: KEEP_GOING=1, ROUNDS=a-b, FAULTS= (overrides every round's),
#   COVER=1 (coverage, merged over the rounds)
# exit: 0 clean, 1 findings, 2 bad input
set -euo pipefail
. "$(dirname "$0")/lib.sh"

scn=${1:?usage: host/soak.sh SCENARIO DURATION [SEED]}
total=${2:?usage: host/soak.sh SCENARIO DURATION [SEED]}
seed=${3:-}
file=$scn
[ -f "$file" ] || file="$RIG_ROOT/stress/scenarios/$scn.rot"
[ -f "$file" ] || file="$RIG_ROOT/stress/scenarios/$scn.scn"
[ -f "$file" ] || die "unknown scenario '$scn' (have: $(cd "$RIG_ROOT/stress/scenarios" && ls ./*.scn ./*.rot | sed 's|./||; s|\.scn$||; s|\.rot$| (rotation)|' | tr '\n' ' '))"
[ -z "$seed" ] || [[ "$seed" =~ ^[0-9]{1,18}$ ]] || die "SEED must be a number (got '$seed')"
name=$(basename "${file%.*}")
# the rotation: entries "scenario-file duration faults" (one per round, cyclic)
rot=()
if [[ "$file" == *.rot ]]; then
	n=0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1)); line=${line%%#*}
		read -r r_scn r_dur r_faults extra <<<"$line" || true
		[ -n "${r_scn:-}" ] || continue
		[ -z "${extra:-}" ] || die "$file:$n: expected 'SCENARIO [DURATION] [FAULTS|-]'"
		f="$RIG_ROOT/stress/scenarios/$r_scn.scn"
		[ -f "$f" ] || die "$file:$n: no scenario stress/scenarios/$r_scn.scn"
		host/scenario.sh check "$f" || exit 2
		r_dur=${r_dur:--}; r_faults=${r_faults:--}
		[ "$r_dur" = - ] || [[ "$r_dur" =~ ^[0-9]+$ && "$r_dur" -ge 30 ]] || die "$file:$n: duration '$r_dur' must be at least 30 (seconds) or -"
		if [ "$r_faults" != - ] && [ -z "${FAULTS:-}" ]; then
			FAULTS=${r_faults//,/ } host/scenario.sh plan "$f" 1 >/dev/null || die "$file:$n: bad fault sets '$r_faults'"
		fi
		rot+=("$f $r_dur $r_faults")
	done <"$file"
	[ ${#rot[@]} -gt 0 ] || die "$file: no entry"
else
	host/scenario.sh check "$file" || exit 2
	rot=("$file - -")
fi
first=1 last=0
if [ -n "${ROUNDS:-}" ]; then
	[[ "$ROUNDS" =~ ^([1-9][0-9]*)(-([1-9][0-9]*))?$ ]] || die "ROUNDS must look like 3 or 2-5 (got '$ROUNDS')"
	first=${BASH_REMATCH[1]} last=${BASH_REMATCH[3]:-$first}
	[ "$last" -ge "$first" ] || die "ROUNDS: $last is before $first"
fi
case "$total" in
*[!0-9smh]* | "" | [smh]*) die "DURATION must look like 90s, 30m or 8h (got '$total')" ;;
*s) secs=${total%s} ;; *m) secs=$((${total%m} * 60)) ;; *h) secs=$((${total%h} * 3600)) ;; *) secs=$total ;;
esac
[ "$secs" -ge 30 ] || die "DURATION must be at least 30 s (got '$total')"
flavor_fragments "$FLAVOR" >/dev/null
cover_check

[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
# the input is good: build the kernel and the images once, not per round
build=$(host/kernel.sh | tail -n1)
host/image.sh "$build" >/dev/null
# round i's seed: the soak's seed for round 1, then a fixed mix of (seed, i)
round_seed() { [ "$1" = 1 ] && echo "$seed" || echo $((((seed % 4294967296) * 69069 + $1 * 1013904223) % 4294967296)); }
# round i's entry of the rotation -> file, duration, faults
round_entry() { read -r r_file r_dur r_faults <<<"${rot[$((($1 - 1) % ${#rot[@]}))]}"; }

id="soak-$(date +%Y%m%d-%H%M%S)-$name"
dir="$LOGS/$id"
mkdir -p "$dir"
: >"$dir/rounds"
say "soak $id: $name (${#rot[@]} scenario(s) in rotation), seed $seed, $secs s$([ -n "${ROUNDS:-}" ] && echo ", rounds $first-$last")$([ "${KEEP_GOING:-0}" = 1 ] && echo ', keep going')"

start=$SECONDS round=0 ops=0 status=clean first_s=''
# guest uptime of the first kernel report or rig finding in a console log
first_report_uptime() {
	grep -a -m1 -E "\] ($REPORT_RE|RIG-FINDING)" "$1" |
		sed -n 's/^\[ *\([0-9]*\)\..*/\1/p'
}
round=$((first - 1))
while if [ -n "${ROUNDS:-}" ]; then [ "$round" -lt "$last" ]; else [ $((SECONDS - start)) -lt "$secs" ]; fi; do
	round=$((round + 1))
	round_entry "$round"
	d=$r_dur; [ "$d" = - ] && d=$(plan_value <(host/scenario.sh plan "$r_file" 1) DURATION)
	if [ -z "${ROUNDS:-}" ]; then
		left=$((secs - (SECONDS - start)))
		# the last round is cut to what is left (a few seconds over are not worth it)
		[ "$left" -lt $((d - 15)) ] && d=$left; [ "$d" -lt 30 ] && d=30
	fi
	s=$(round_seed "$round")
	rdir="$dir/r$(printf %03d "$round")"
	tmp=$(mktemp -d)
	if [ "$r_faults" != - ] && [ -z "${FAULTS:-}" ]; then
		FAULTS=${r_faults//,/ } plan_dir "$r_file" "$s" "$d" "$tmp"
	else
		plan_dir "$r_file" "$s" "$d" "$tmp"
	fi
	say "soak $id: round $round, $(basename "$r_file" .scn) (faults $(plan_value "$tmp/plan" FAULTS)), seed $s, $d s (elapsed $((SECONDS - start)) s of $secs, $ops ops, $(cut -f2 "$dir/findings" 2>/dev/null | sort -u | grep -c .) findings)"
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
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$s" "$d" "$rstat" "$rops" "$((SECONDS - r0))" \
		"$(plan_value "$rdir/files/plan" SCENARIO)" "$(plan_value "$rdir/files/plan" FAULTS | tr ' ' ,)" >>"$dir/rounds"
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

# coverage of the whole soak: the union of its rounds
[ "${COVER:-0}" = 0 ] || host/coverage.sh merge "$dir" "$dir"/r*/coverage.info >"$dir/coverage.txt"
{
	echo "soak=$id"
	echo "scenario=$name"
	echo "seed=$seed"
	echo "duration_s=$((SECONDS - start))"
	echo "rounds=$round"
	echo "ops=$ops"
	echo "status=$status"
	echo "first_finding_s=${first_s:-none}"
	[ ! -f "$dir/coverage.txt" ] || echo "coverage=$(head -n1 "$dir/coverage.txt" | sed 's/^coverage [^:]*: //')"
	[ -f "$dir/findings" ] && awk -F'\t' '!seen[$2]++' "$dir/findings" | sed 's/^/finding\t/'
} >"$dir/summary"
echo "========================================================================"
echo " soak $id: $status after $round rounds, $((SECONDS - start)) s, $ops ops"
echo " soak seed $seed: make soak SCENARIO=$name SEED=$seed DURATION=$total replays it (ROUNDS=a-b: some rounds)"
echo " rounds (round, seed, seconds, status, ops, wall seconds, scenario, faults):"
sed 's/^/   /' "$dir/rounds" | tail -10
if [ -f "$dir/findings" ]; then
	echo " findings (deduplicated by title; first round and seed):"
	echo " first finding after ${first_s} s"
	awk -F'\t' '!seen[$2]++ {printf "   [%s] %s  (%s, seed %s)\n", $1, $2, $3, $4}' "$dir/findings" | head -15
	r=$(head -n1 "$dir/findings" | cut -f4)
	echo " reproduce: make repro RUN=${dir#"$LOGS"/}/$(head -n1 "$dir/findings" | cut -f3) N=3   (MINIMIZE=1: smallest scenario)"
	echo "       or:  make repro SCENARIO=$(plan_value "$dir/$(head -n1 "$dir/findings" | cut -f3)/files/plan" SCENARIO) SEED=$r"
fi
[ ! -f "$dir/coverage.txt" ] || { cut -c1-400 "$dir/coverage.txt" | sed 's/^/ /'; echo " coverage report: $dir/coverage/index.html"; }
echo " logs: $dir"
echo "========================================================================"
[ "$status" = clean ]
