#!/usr/bin/env bash
# test: faults 80 guest
# One short round per fault set (faults/*.flt) on the faultcheck scenario:
# the faults must fire (counters read back in the guest), the correct
# scheduler must show no finding (I/O errors are expected, not findings),
# and lockdep must still be on at the end of the round. Then every fault
# set at once with a lockdep control planted late (late-control): lockdep
# must still catch it.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=faults
. tests/lib.sh
logs=$PWD/logs/test-${TEST_STAMP:-x}-faults
mkdir -p "$logs"
for f in faults/*.flt; do
	name=$(basename "$f" .flt)
	mkdir -p "$logs/$name"
	FAULTS=$name LOGS=$logs/$name host/hunt/soak.sh faultcheck 30 1 >"$logs/$name.out" 2>&1
	rc=$?
	r=$(echo "$logs/$name"/soak-*/r001)
	if [ ! -f "$r/summary" ]; then fail "$name: no summary (soak exit $rc)"; continue; fi
	fired=$(awk '/^fault /{split($3, kv, "="); s += kv[2]} END {print s + 0}' "$r/results.log")
	kinds=$(grep -c '^fault ' "$r/results.log")
	[ "$kinds" -gt 0 ] && [ "$fired" -gt 0 ] && pass "$name: fired $fired times ($(grep '^fault ' "$r/results.log" | tr '\n' ' '))" ||
		fail "$name: fired $fired times"
	st=$(sed -n 's/^status=//p' "$r/summary")
	[ "$rc" = 0 ] && [ "$st" = clean ] && pass "$name: no finding on cfq ($(sed -n 's/^io_errors=//p' "$r/summary") I/O errors)" ||
		fail "$name: no finding on cfq (status $st)" "$(grep -P '^finding|^suppressed' "$r/summary")"
	dl=$(sed -n 's/^lockdep debug_locks=//p' "$r/results.log")
	[ "$dl" = 1 ] && pass "$name: lockdep still on at the end of the round" ||
		fail "$name: lockdep still on at the end of the round (debug_locks=${dl:-missing})"
done

# every set at once, the lockdep control 40 s into the round
want='possible deadlock in rig_splat_lockdep_inversion'
mkdir -p "$logs/late"
LOGS=$logs/late host/hunt/soak.sh late-control 50 1 >"$logs/late.out" 2>&1
rc=$?
r=$(echo "$logs/late"/soak-*/r001)
if [ ! -f "$r/summary" ]; then
	fail "all: a late lockdep control is caught (no summary, soak exit $rc)"
else
	n=$(sed -n 's/^findings=//p' "$r/summary")
	[ "$rc" = 1 ] && grep -qF "$want" "$r/summary" && [ "$n" = 1 ] &&
		pass "all: a lockdep control 40 s into an all-fault round is caught, and nothing else" ||
		fail "all: a late lockdep control is caught, and nothing else (exit $rc, $n findings)" \
			"$(grep -P '^finding|^suppressed' "$r/summary")"
	if grep -q '^suppressed' "$r/summary"; then fail "all: no suppressed report" "$(grep '^suppressed' "$r/summary")"
	else pass "all: no suppressed report (fail_function no longer trips lockdep)"; fi
	fired=$(awk '/^fault /{split($3, kv, "="); s += kv[2]} END {print s + 0}' "$r/results.log")
	[ "$fired" -gt 0 ] && pass "all: $fired injections fired in the round" || fail "all: no injection fired"
fi
