#!/usr/bin/env bash
# The smoke scenario on cfq (every stressor, lightly, 60 s, seed 1): no
# finding, every stressor reports and verifies ok.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
host/soak.sh smoke 60 1 >"logs/test-${TEST_STAMP:-x}-smoke.out" 2>&1
rc=$?
dir=$(ls -d logs/soak-*-smoke | tail -n1)
r="$dir/r001"
[ -f "$r/summary" ] || { echo "not ok - smoke: no round summary (soak exit $rc)"; tail -5 "logs/test-${TEST_STAMP:-x}-smoke.out"; exit 1; }
v() { sed -n "s/^$1=//p" "$r/summary"; }
[ "$rc" = 0 ] && [ "$(v status)" = clean ] && echo "ok - smoke: clean run on cfq" ||
	{ echo "not ok - smoke: clean run on cfq (status $(v status))"; grep -P '^finding' "$r/summary" | sed 's/^/#   /'; }
want=$(sed -n "s/^PLAN_N=//p" "$r/files/plan")
got=$(grep -c '^summary .*status=ok' "$r/results.log")
nstress=$(grep -c "^PLAN_S.*='\(readers\|writers\|churn\|switcher\|teardown\|tunables\|hotplug\)" "$r/files/plan")
[ "$got" = "$nstress" ] && echo "ok - smoke: all $got stressors report status=ok" ||
	echo "not ok - smoke: all $nstress stressors report status=ok (got $got of $want)"
[ "$(v ops)" -gt 100 ] && echo "ok - smoke: $(v ops) ops" || echo "not ok - smoke: ops $(v ops)"
grep -q 'reproduce\|seed' "logs/test-${TEST_STAMP:-x}-smoke.out" && echo "ok - smoke: summary prints the seed" ||
	echo "not ok - smoke: summary prints the seed"
