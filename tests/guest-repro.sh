#!/usr/bin/env bash
# test: repro 90 guest
# Repro from a run directory, and the minimizer: a soak round of the control
# scenario (a planted lockdep report among ordinary I/O) records a finding;
# host/hunt/repro.sh replays that round from its directory and must bring the
# same finding back, then MINIMIZE=1 must reduce the scenario to the one
# stressor that causes it.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=repro
. tests/lib.sh
want='possible deadlock in rig_splat_lockdep_inversion'
logs=logs/test-${TEST_STAMP:-x}-repro
rm -rf "$logs"
LOGS=$PWD/$logs host/hunt/soak.sh control 40 1 >"$logs.soak.out" 2>&1
rc=$?
round=$(ls -d "$logs"/soak-*-control/r001 2>/dev/null | head -n1)
[ "$rc" = 1 ] && grep -qF "$want" "$round/summary" 2>/dev/null &&
	pass "a soak round of 'control' records the planted finding (soak exit 1)" ||
	fail "a soak round of 'control' records the planted finding (exit $rc)" "$(tail -5 "$logs.soak.out")"
check "the round keeps its plan" [ -f "$round/files/plan" ]

out=$(LOGS=$PWD/$logs MINIMIZE=1 TRIES=1 host/hunt/repro.sh "$round" 1 2>&1)
rc=$?
sed -n '/^=====/,/^=====/p' <<<"$out" | sed 's/^/# /'
[ "$rc" = 0 ] && grep -q "reproduced 1 of 1 runs" <<<"$out" && grep -qF "finding: $want" <<<"$out" &&
	pass "the finding comes back from the round's directory (exit 0)" ||
	fail "the finding comes back from the round's directory (exit $rc)" "$(tail -n 5 <<<"$out")"
min=$(sed -n 's/^ minimal scenario after .*: //p' <<<"$out")
if [ -f "$min" ] && [ "$(grep -c '^stressor' "$min")" = 1 ] && grep -q '^stressor  = splat --kind lockdep' "$min"; then
	pass "MINIMIZE=1 reduces the scenario to the splat stressor"
else
	fail "MINIMIZE=1 reduces the scenario to the splat stressor" "$(cat "$min" 2>/dev/null)"
fi
host/hunt/scenario.sh check "$min" >/dev/null 2>&1 && pass "the minimal scenario is a valid scenario file" ||
	fail "the minimal scenario is a valid scenario file"
