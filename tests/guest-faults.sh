#!/usr/bin/env bash
# test: faults 80 guest
# One round of the faultcheck scenario with every fault set at once
# (faults/*.flt): each set's faults must fire (counters read back in the
# guest), the correct scheduler must show no finding (I/O errors are
# expected, not findings), and lockdep must still be on at the end of the
# round. Then every fault set again with a lockdep control planted late
# (late-control): lockdep must still catch it. (One round per set cost
# five boots, about 6 minutes, and every set runs beside the others in the
# soak's mix round anyway.)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=faults
. tests/lib.sh
logs=$PWD/logs/test-${TEST_STAMP:-x}-faults
mkdir -p "$logs/all"
FAULTS=all LOGS=$logs/all host/hunt/soak.sh faultcheck 45 1 >"$logs/all.out" 2>&1
rc=$?
r=$(echo "$logs/all"/soak-*/r001)
if [ ! -f "$r/summary" ]; then
	fail "all sets: no summary (soak exit $rc)"
else
	for f in faults/*.flt; do
		name=$(basename "$f" .flt) got='' miss=''
		for k in $(host/hunt/faults.sh names "$f"); do
			n=$(awk -v k="$k" '$1 == "fault" && $2 == k { split($3, kv, "="); s += kv[2] } END { print s + 0 }' "$r/results.log")
			if [ "$n" -gt 0 ]; then got="$got $k=$n"; else miss="$miss $k"; fi
		done
		[ -n "$got" ] && [ -z "$miss" ] && pass "$name: its faults fired ($got )" ||
			fail "$name: its faults fired (fired:${got:- none}; never:$miss)"
	done
	st=$(sed -n 's/^status=//p' "$r/summary")
	[ "$rc" = 0 ] && [ "$st" = clean ] && pass "all sets: no finding on cfq ($(sed -n 's/^io_errors=//p' "$r/summary") I/O errors)" ||
		fail "all sets: no finding on cfq (status $st)" "$(grep -P '^finding|^suppressed' "$r/summary")"
	dl=$(sed -n 's/^lockdep debug_locks=//p' "$r/results.log")
	[ "$dl" = 1 ] && pass "all sets: lockdep still on at the end of the round" ||
		fail "all sets: lockdep still on at the end of the round (debug_locks=${dl:-missing})"
fi

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
