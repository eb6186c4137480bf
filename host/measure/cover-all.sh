#!/usr/bin/env bash
# Coverage of block/cfq-iosched.c by every scenario: one round of each
# (its own duration, SEED, COVER=1), then the union of them all. Prints a
# markdown table (the README's) and writes it with the merged report to
# logs/cover-<id>/.
#
# usage: host/measure/cover-all.sh [--check] [SCENARIO...]   (default: every stress/scenarios/*.scn;
#        --check: only check the input, exit 0 or 2)
# environment: SEED (default 1), FLAVOR (with gcov: debug, fast, race)
# exit: 0, 1 when a round had findings, 2 on bad input.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$RIG_ROOT"

check_only=''
[ "${1:-}" != --check ] || { check_only=1; shift; }
kver_check
seed=${SEED:-1}
[[ "$seed" =~ ^[0-9]{1,18}$ ]] || die "SEED must be a number (got '$seed')"
export COVER=1
cover_check
names=("$@")
if [ ${#names[@]} = 0 ]; then
	for f in stress/scenarios/*.scn; do names+=("$(basename "$f" .scn)"); done
fi
for n in "${names[@]}"; do
	[ -f "stress/scenarios/$n.scn" ] || die "unknown scenario '$n'"
	host/hunt/scenario.sh check "stress/scenarios/$n.scn" || exit 2
done
[ -z "$check_only" ] || exit 0

id="cover-$(date +%Y%m%d-%H%M%S)"
out="$LOGS/$id"
mkdir -p "$out"
rc=0 infos=()
table="$out/table.md"
{
	echo "| scenario | status | lines | branches | functions |"
	echo "|---|---|---|---|---|"
} >"$table"
for n in "${names[@]}"; do
	dur=$(plan_value <(host/hunt/scenario.sh plan "stress/scenarios/$n.scn" "$seed") DURATION)
	[ "$dur" -ge 30 ] || dur=30	# a soak's shortest (faultcheck's own is 25 s)
	say "cover: $n ($dur s, seed $seed)"
	mkdir -p "$out/$n"
	LOGS="$out/$n" host/hunt/soak.sh "$n" "$dur" "$seed" >"$out/$n.out" 2>&1 || rc=1
	s=$(echo "$out/$n"/soak-*/summary)
	st=$(sed -n 's/^status=//p' "$s" 2>/dev/null || echo none)
	cov=$(sed -n 's/^coverage=//p' "$s" 2>/dev/null || true)	# no summary: "missing"
	f=$(echo "$out/$n"/soak-*/coverage.info)
	[ -f "$f" ] && infos+=("$f")
	# "lines 83.4% (611/733), branches 61.1% (430/704), functions 85.4% (76/89)" -> cells
	sed -E 's/^lines ([^,]*), branches ([^,]*), functions (.*)$/\1 | \2 | \3/' <<<"${cov:-missing | missing | missing}" |
		sed "s/^/| $n | $st | /; s/$/ |/" >>"$table"
	tail -n1 "$table"
done
union=$(host/measure/coverage.sh merge "$out/union" "${infos[@]}")
echo "$union" >"$out/union.txt"
head -n1 <<<"$union" | sed -E 's/^coverage [^:]*: lines ([^,]*), branches ([^,]*), functions (.*)$/| union | | \1 | \2 | \3 |/' >>"$table"
echo
cat "$table"
echo
cut -c1-600 "$out/union.txt"
echo "report: $out/union/coverage/index.html"
exit "$rc"
