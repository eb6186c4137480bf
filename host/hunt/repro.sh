#!/usr/bin/env bash
# Re-run a recorded round (same kernel flavor, plan, faults, seed and, for a
# mutant hunt, the same scheduler module) N times and report how often its finding
# comes back, and how fast. MINIMIZE=1 then drops stressors and fault sets
# one at a time while the finding still comes back, and prints the smallest
# scenario that still shows it (saved as minimal.scn).
#
# usage: host/hunt/repro.sh RUN [N]            RUN: a round directory under logs/
#                                         (e.g. soak-...-mix/r003) or its summary
#        TITLE=... host/hunt/repro.sh "" [N]  the latest run with that finding (logs/index)
#        host/hunt/repro.sh SCENARIO SEED [N] [DURATION]   SCENARIO: a name in
#                                         stress/scenarios/ or a .scn file
#        host/hunt/repro.sh --check ...       only check the input (exit 0 or 2)
# environment: TITLE (the finding to look for; default: the recorded one, or
#   any finding), MINIMIZE=1, TRIES (runs per minimizing step, default 2),
#   FAULTS (fault sets of a SCENARIO SEED replay), FLAVOR (of a SCENARIO
#   SEED replay; a RUN replays on its own), COVER, LOGS
# Every input is checked before anything is built; works from any directory.
# exit: 0 when the finding reproduced at least once (or, with no finding to
# look for, when every run was clean), 1 otherwise, 2 on bad input.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage="usage: host/hunt/repro.sh [--check] RUN [N] | SCENARIO SEED [N] [DURATION] | \"\" [N] with TITLE=..."
check_only=''
[ "${1:-}" != --check ] || { check_only=1; shift; }
[ $# -ge 1 ] && [ $# -le 4 ] || die "$usage"
# every setting is checked before anything is built or booted
MINIMIZE=${MINIMIZE:-0} TRIES=${TRIES:-2}
[[ "$MINIMIZE" =~ ^[01]$ ]] || die "MINIMIZE must be 0 or 1 (got '$MINIMIZE')"
[[ "$TRIES" =~ ^[1-9][0-9]*$ ]] || die "TRIES must be a positive number (got '$TRIES')"
kver_check
flavor_fragments "$FLAVOR" >/dev/null
cover_check
recorded='' mutant='' title=${TITLE:-}
[[ "$title" != *$'\t'* && "$title" != *$'\n'* ]] || die "TITLE must be one line without tabs"
# TITLE alone: the latest run in logs/index whose finding contains it
if [ -z "$1" ]; then
	[ -n "$title" ] || die "$usage"
	[ $# -le 2 ] || die "$usage"
	found=$(awk -F'\t' -v t="$title" 'index($4, t) { r = $1 } END { print r }' "$LOGS/index" 2>/dev/null || true)
	[ -n "$found" ] || die "no run in $LOGS/index has a finding with '$title'"
	say "repro: latest run with '$title': $found"
	set -- "$found" "${2:-}"
fi
if [ -d "$LOGS/$1" ] || [ -d "$1" ] || [[ "$1" == */summary && -f "$1" ]]; then
	[ $# -le 2 ] || die "$usage"
	[ -z "${FAULTS:-}" ] || die "FAULTS applies to a SCENARIO SEED replay; a recorded RUN replays its own fault sets"
	run=$1; [ -d "$LOGS/$run" ] && run="$LOGS/$run"; [ -f "$run" ] && run=$(dirname "$run")
	[ -f "$run/summary" ] || die "$run has no summary"
	scn=$(sed -n 's/^scenario=//p' "$run/summary")
	seed=$(sed -n 's/^seed=//p' "$run/summary")
	dur=$(sed -n 's/^duration=//p' "$run/summary")
	[ -n "$title" ] || title=$(grep -P '^finding\t' "$run/summary" | head -n1 | cut -f3 || true)
	[ -f "$run/files/plan" ] && recorded=$run/files
	[ -f "$run/files/cfq-iosched.ko" ] && mutant=$run/files/cfq-iosched.ko
	# its own kernel: a soak's rounds need not all run on one flavor
	rfl=$(sed -n 's/^flavor=//p' "$run/summary")
	[ -z "$rfl" ] || { FLAVOR=$rfl && flavor_fragments "$FLAVOR" >/dev/null && cover_check; }
	# and its corpus bug and code under test (run.conf: RIG_BUG, RIG_UNDER_TEST)
	BUG=$(sed -n 's/^bug=//p' "$run/summary") && bug_check
	UNDER_TEST=$(sed -n 's/^under_test=//p' "$run/summary") UNDER_TEST=${UNDER_TEST:-cfq} && under_test_check
	# and the sources of its kernel (KVER, KERNEL_SRC, EXTRA_CONFIG: the
	# run's summary records them, host/lib.sh source_facts); a series or a
	# tree that changed since is said, not refused
	rkv=$(sed -n 's/^kver=//p' "$run/summary")
	[ -z "$rkv" ] || [ "$rkv" = "$KVER" ] || { say "repro: the run was on KVER=$rkv: replaying on that line"; KVER=$rkv; kver_check; }
	rsrc=$(sed -n 's/^kernel_src=//p' "$run/summary") rxc=$(sed -n 's/^extra_config=//p' "$run/summary")
	[ -z "$rsrc" ] || KERNEL_SRC=$rsrc
	[ -z "$rxc" ] || EXTRA_CONFIG=$rxc
	TREE_AS_IS=$(sed -n 's/^tree_as_is=//p' "$run/summary") TREE_AS_IS=${TREE_AS_IS:-0}
	export KVER KERNEL_SRC EXTRA_CONFIG TREE_AS_IS
	kernel_src_check
	rser=$(sed -n 's/^series=//p' "$run/summary")
	[ -z "$rser" ] || [ "$rser" = "$(series_hash)" ] ||
		say "repro: warning: the series changed since the run (recorded $rser, now $(series_hash))"
	for k in kernel_src_commit extra_config_sha256; do
		was=$(sed -n "s/^$k=//p" "$run/summary") now=$(source_facts | sed -n "s/^$k=//p")
		[ -z "$was" ] || [ "$was" = "$now" ] || say "repro: warning: $k was $was, now ${now:-none}"
	done
	n=${2:-3}
	[ -n "$scn" ] && [ -n "$seed" ] || die "cannot tell scenario and seed of '$1'"
else
	[ $# -ge 2 ] || die "'$1' is no run directory (under $LOGS or here); a scenario needs a SEED ($usage)"
	scn=$1 seed=$2 n=${3:-3} dur=${4:-}
	[ ! -f "$RIG_ROOT/stress/scenarios/$scn.rot" ] ||
		die "'$scn' is a rotation: repro replays one scenario (SCENARIO=a .scn name or path) or one round (RUN=soak-.../rNNN)"
fi
[[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || die "N must be a positive number (got '$n')"
file=$scn
[[ "$file" == */* || "$file" == *.scn ]] || file="$RIG_ROOT/stress/scenarios/$scn.scn"
# the plan (made once: it checks the scenario, SEED, DURATION and FAULTS=)
# is the one every run replays
checked=$(mktemp -d)
trap 'rm -rf "$checked"' EXIT
if [ -z "$recorded" ]; then
	(plan_dir "$file" "$seed" "$dur" "$checked/plan") || exit 2
else
	mkdir -p "$checked/plan"
	cp "$recorded/plan" "$checked/plan/plan"
	[ ! -f "$recorded/faults.sh" ] || cp "$recorded/faults.sh" "$checked/plan/faults.sh"
fi
[ -z "$check_only" ] || exit 0

id="repro-$(date +%Y%m%d-%H%M%S)-$(basename "${scn%.scn}")"
dir="$LOGS/$id"
mkdir -p "$dir"
mv "$checked/plan" "$dir/plan"


# one run of the plan in $1 (label $2): 0 when the finding came back
attempt() {
	local p=$1 label=$2 s st
	t0=$SECONDS
	MUTANT_KO=$mutant run_plan "$p" "$id/$label" RIG_STOP_ON_SPLAT=1 >"$dir/$label.out" 2>&1 || true
	s="$dir/$label/summary"
	st=$(sed -n 's/^status=//p' "$s" 2>/dev/null || echo none)
	say "repro $id: $label: $st${title:+, $(grep -qF -- "$title" "$s" 2>/dev/null && echo found || echo "not found")}"
	if [ -n "$title" ]; then grep -qF -- "$title" "$s" 2>/dev/null; else [ "$st" != clean ]; fi
}

d=$(plan_value "$dir/plan/plan" DURATION)
say "repro $id: scenario $scn, seed $seed, $d s, $FLAVOR kernel, $n runs${mutant:+, mutant $(sed -n 's/^mutant=//p' "$run/summary")}; looking for: ${title:-any finding}"
hits=0 clean=0 times=''
for i in $(seq "$n"); do
	if attempt "$dir/plan" "run$i"; then
		hits=$((hits + 1)); times="$times $((SECONDS - t0))"
	elif grep -q '^status=clean' "$dir/run$i/summary" 2>/dev/null; then clean=$((clean + 1)); fi
done

# minimizing: the plan as a scenario, then drop one stressor or fault set at
# a time, keeping each drop after which the finding still comes back
minimal=''
if [ "$MINIMIZE" = 1 ] && [ "$hits" -gt 0 ]; then
	[ -n "$title" ] || title=$(grep -hP '^finding\t' "$dir"/run*/summary | head -n1 | cut -f3)
	v() { plan_value "$dir/plan/plan" "$1"; }
	faults=$(v FAULTS)
	mapfile -t st < <(for i in $(seq "$(v N)"); do v "S$i"; done)
	scn_text() { # stressor list (indices into st) and fault sets -> scenario text
		local k
		echo "# minimal scenario of $id (seed $seed): $title"
		echo "duration  = $(v DURATION)"
		echo "seed      = $seed"
		echo "devices   = $(v DEVICES)"
		echo "scheduler = $(v SCHED)"
		[ -z "$(v NULLB)" ] || echo "nullb     = $(v NULLB)"
		[ -z "$(v SDEBUG)" ] || echo "sdebug    = $(v SDEBUG)"
		echo "faults    = ${2:-none}"
		for k in $1; do echo "stressor  = ${st[$k]}"; done
	}
	keep=$(seq 0 $((${#st[@]} - 1)) | tr '\n' ' ')
	step=0
	try() { # keep faults -> 0 if the finding still comes back
		local t
		step=$((step + 1))
		scn_text "$1" "$2" >"$dir/step$step.scn"
		FAULTS='' plan_dir "$dir/step$step.scn" "$seed" "$dur" "$dir/step$step"
		for t in $(seq "$TRIES"); do attempt "$dir/step$step" "step$step-try$t" && return 0; done
		return 1
	}
	for k in $keep; do
		[ "$(wc -w <<<"$keep")" -gt 1 ] || break
		cand=$(tr ' ' '\n' <<<"$keep" | grep -vx "$k" | tr '\n' ' ')
		if try "$cand" "$faults"; then keep=$cand; say "repro $id: not needed: stressor ${st[$k]}"; fi
	done
	for f in $faults; do
		[ "$f" != none ] || continue
		# no fault set left: grep finds nothing, which is no error here
		cand=$(tr ' ' '\n' <<<"$faults" | { grep -vx "$f" || true; } | tr '\n' ' ' | sed 's/ *$//')
		if try "$keep" "${cand:-none}"; then faults=${cand:-none}; say "repro $id: not needed: fault set $f"; fi
	done
	scn_text "$keep" "$faults" >"$dir/minimal.scn"
	minimal="$dir/minimal.scn"
fi

echo "========================================================================"
echo " repro $id: scenario $scn seed $seed, $FLAVOR kernel${mutant:+ (mutant module of the recorded run)}"
echo " finding: ${title:-any}"
echo " reproduced $hits of $n runs (clean $clean); wall seconds per hit:${times:- none}"
if [ -n "$minimal" ]; then
	echo " minimal scenario after $step steps ($TRIES tries each): $minimal"
	grep -v '^#' "$minimal" | sed 's/^/   /'
	echo " run it: make repro SCENARIO=$minimal SEED=$seed$([ "$FLAVOR" = debug ] || echo " FLAVOR=$FLAVOR")${BUG:+ BUG=$BUG}$([ "$UNDER_TEST" = cfq ] || echo " UNDER_TEST=$UNDER_TEST")"
fi
echo " logs: $dir"
echo "========================================================================"
if [ -n "$title" ] || [ "$hits" -gt 0 ]; then [ "$hits" -gt 0 ]; else [ "$clean" = "$n" ]; fi
