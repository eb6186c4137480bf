#!/usr/bin/env bash
# What coverage and KCSAN cost, side by side in one run: the same round
# (SCENARIO, SEED, DURATION) three times:
#   base   debug kernel, the scheduler module built without gcov, COVER=0
#   cover  debug kernel, the gcov-instrumented module, COVER=1 (data sent,
#          lcov report made)
#   race   race kernel (KCSAN instead of KASAN), COVER=0
# and prints wall seconds per round and ops done, with ratios to base. Run
# it on an otherwise idle machine.
#
# usage: host/measure/detector-cost.sh [--check] [SCENARIO] [DURATION] [SEED]   (default: smoke 60 1;
#        --check: only check the input, exit 0 or 2)
# exit: 0, 1 when a round was not clean, 2 on bad input.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$RIG_ROOT"

check_only=''
[ "${1:-}" != --check ] || { check_only=1; shift; }
[ $# -le 3 ] || die "usage: host/measure/detector-cost.sh [--check] [SCENARIO] [DURATION] [SEED]"
scn=${1:-smoke} dur=${2:-60} seed=${3:-1}
[ -f "stress/scenarios/$scn.scn" ] || die "unknown scenario '$scn'"
[[ "$dur" =~ ^[0-9]+$ ]] && [ "$dur" -ge 30 ] || die "DURATION must be at least 30 (seconds, got '$dur')"
[[ "$seed" =~ ^[0-9]{1,18}$ ]] || die "SEED must be a number (got '$seed')"
"$RIG_ROOT/host/hunt/scenario.sh" check "stress/scenarios/$scn.scn" || exit 2
kver_check
[ -z "$check_only" ] || exit 0

# the uninstrumented module: the series' cfq-iosched.c built out of tree
build=$(FLAVOR=debug host/build/kernel.sh | tail -n1)
FLAVOR=race host/build/kernel.sh >/dev/null
ko=$(build_cfq_module "$build" "$build/nogcov")

id="cost-$(date +%Y%m%d-%H%M%S)"
out="$LOGS/$id"
mkdir -p "$out"
rc=0
one() { # NAME ENV...
	local name=$1 t0 s
	shift
	mkdir -p "$out/$name"
	t0=$SECONDS
	# KEEP_GOING: every round runs its full length, whatever it reports
	env "$@" KEEP_GOING=1 LOGS="$out/$name" host/hunt/soak.sh "$scn" "$dur" "$seed" >"$out/$name.out" 2>&1 || rc=1
	s=$(echo "$out/$name"/soak-*/r001/summary)
	printf '%s\t%s\t%s\t%s\n' "$name" "$((SECONDS - t0))" "$(sed -n 's/^ops=//p' "$s")" \
		"$(sed -n 's/^status=//p' "$s")" >>"$out/table"
	say "cost: $name done"
}
one base FLAVOR=debug COVER=0 MUTANT_KO="$ko"
one cover FLAVOR=debug COVER=1
one race FLAVOR=race COVER=0
echo "round: $scn, $dur s, seed $seed (wall s includes boot and, for cover, the lcov report)"
awk -F'\t' '{ n[NR] = $1; w[NR] = $2; o[NR] = $3; st[NR] = $4 }
	END { printf "%-6s %8s %9s %8s %8s  %s\n", "kernel", "wall s", "ops", "wall/base", "ops/base", "status"
		for (i = 1; i <= NR; i++)
			printf "%-6s %8d %9d %8.2f %8.2f  %s\n", n[i], w[i], o[i], w[i] / w[1], o[i] / (o[1] ? o[1] : 1), st[i] }' \
	"$out/table" | tee "$out/summary.txt"
echo "logs: $out"
exit "$rc"
