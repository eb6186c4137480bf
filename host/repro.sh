#!/usr/bin/env bash
# Re-run a recorded round (same kernel inputs, scenario, faults and seed)
# N times and report how often its finding comes back, and how fast.
#
# usage: host/repro.sh RUN N              RUN: a round directory under logs/
#                                         (e.g. soak-...-mix/r003) or its summary
#        host/repro.sh SCENARIO SEED N [DURATION]
# exit: 0 when the finding reproduced at least once (or, with no finding to
# look for, when every run was clean), 1 otherwise, 2 on bad input.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ -d "$LOGS/${1:-}" ] || [ -f "${1:-}" ]; then
	run=$1; [ -d "$LOGS/$run" ] && run="$LOGS/$run"; [ -f "$run" ] && run=$(dirname "$run")
	[ -f "$run/summary" ] || die "$run has no summary"
	scn=$(sed -n 's/^scenario=//p' "$run/summary")
	seed=$(sed -n 's/^seed=//p' "$run/summary")
	dur=$(sed -n 's/^duration=//p' "$run/summary")
	title=$(grep -P '^finding\t' "$run/summary" | head -n1 | cut -f3)
	n=${2:-3}
else
	scn=${1:?usage: host/repro.sh RUN N | SCENARIO SEED N [DURATION]}
	seed=${2:?SEED missing}
	n=${3:-3} dur=${4:-} title=${TITLE:-}
fi
[ -n "$scn" ] && [ -n "$seed" ] || die "cannot tell scenario and seed of '$1'"
[[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || die "N must be a positive number (got '$n')"
file="$RIG_ROOT/stress/scenarios/$scn.scn"
host/scenario.sh check "$file" || exit 2

id="repro-$(date +%Y%m%d-%H%M%S)-$scn"
dir="$LOGS/$id"
mkdir -p "$dir"
host/scenario.sh plan "$file" "$seed" "$dur" >"$dir/plan"
faults=$(sed -n "s/^PLAN_FAULTS='\(.*\)'/\1/p" "$dir/plan")
extra="$dir/plan"
if [ "$faults" != none ]; then
	# shellcheck disable=SC2046 # fault set names are plain words
	host/faults.sh guest $(fault_files "$faults") >"$dir/faults.sh"
	extra="$extra $dir/faults.sh"
fi
d=$(sed -n "s/^PLAN_DURATION='\(.*\)'/\1/p" "$dir/plan")
say "repro $id: scenario $scn, seed $seed, $d s, $n runs; looking for: ${title:-any finding}"
hits=0 clean=0 times=
for i in $(seq "$n"); do
	t0=$SECONDS
	RUN_ID="$id/run$i" TIMEOUT=$((d + 400)) EXTRA_FILES="$extra" host/run.sh scenario \
		"RIG_SCENARIO=$scn" "RIG_SEED=$seed" "RIG_DURATION=$d" >"$dir/run$i.out" 2>&1 || true
	s="$dir/run$i/summary"
	st=$(sed -n 's/^status=//p' "$s" 2>/dev/null || echo none)
	if [ -n "$title" ] && grep -qF -- "$title" "$s" 2>/dev/null; then
		hits=$((hits + 1)); times="$times $((SECONDS - t0))"
	elif [ -z "$title" ] && [ "$st" != clean ]; then
		hits=$((hits + 1)); times="$times $((SECONDS - t0))"
	elif [ "$st" = clean ]; then clean=$((clean + 1)); fi
	say "repro $id: run $i: $st"
done
echo "========================================================================"
echo " repro $id: scenario $scn seed $seed"
echo " finding: ${title:-any}"
echo " reproduced $hits of $n runs (clean $clean); wall seconds per hit:${times:- none}"
echo " logs: $dir"
echo "========================================================================"
if [ -n "$title" ] || [ "$hits" -gt 0 ]; then [ "$hits" -gt 0 ]; else [ "$clean" = "$n" ]; fi
