#!/usr/bin/env bash
# test: smoke 75 guest
# The smoke scenario on cfq (every stressor, lightly, 60 s, seed 1), with
# coverage: no finding, every stressor reports and verifies ok, and the
# scheduler's gcov data comes back as an lcov tracefile and a summary line.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=smoke
. tests/lib.sh
logs=$PWD/logs/test-${TEST_STAMP:-x}-smoke
mkdir -p "$logs"
COVER=1 LOGS=$logs host/hunt/soak.sh smoke 60 1 >"$logs.out" 2>&1
rc=$?
dir=$(echo "$logs"/soak-*-smoke)
r="$dir/r001"
[ -f "$r/summary" ] || { fail "no round summary (soak exit $rc)" "$(tail -5 "$logs.out")"; exit 1; }
v() { sed -n "s/^$1=//p" "$r/summary"; }
[ "$rc" = 0 ] && [ "$(v status)" = clean ] && pass "clean run on cfq" ||
	fail "clean run on cfq (status $(v status))" "$(grep -P '^finding' "$r/summary")"
want=$(sed -n "s/^PLAN_N=//p" "$r/files/plan")
got=$(grep -c '^summary .*status=ok' "$r/results.log")
nstress=$(grep -c "^PLAN_S.*='\(readers\|writers\|churn\|paths\|switcher\|teardown\|tunables\|hotplug\)" "$r/files/plan")
[ "$nstress" -gt 0 ] && [ "$got" = "$nstress" ] && pass "all $got stressors report status=ok" ||
	fail "all $nstress stressors report status=ok (got $got of $want)"
[ "$(v ops)" -gt 100 ] && pass "$(v ops) ops" || fail "ops $(v ops)"
check "summary prints the seed" grep -q 'reproduce\|seed' "$logs.out"
# the guest's clock: given the host's TSC rate under TCG, it keeps time
# with the TSC (host/vm/run.sh). Its hrtimers run in high-resolution mode
# when the local APIC timer passed the kernel's check at boot, which under
# TCG fails about one boot in four: host/vm/run.sh boots again until it
# passes, HRES_BOOTS (4) boots at most
if [ "$(v accel)" = tcg ] && [ "$(v tsc_khz)" != 0 ]; then
	[ "$(v clock)" = tsc ] &&
		pass "the guest keeps time with the TSC ($(v tsc_khz) kHz)" ||
		fail "the guest keeps time with the TSC (clock $(v clock), tsc_khz $(v tsc_khz))"
	{ [ "$(v hres)" = 1 ] || [ "$(v boots)" -ge "${HRES_BOOTS:-4}" ]; } &&
		pass "high-resolution timers on, in boot $(v boots) (or every boot failed the APIC check)" ||
		fail "high-resolution timers off after $(v boots) of ${HRES_BOOTS:-4} boots"
fi
grep -q '^lockdep debug_locks=1' "$r/results.log" && pass "lockdep still on at the end" ||
	fail "lockdep still on at the end ($(grep '^lockdep' "$r/results.log"))"
grep -q '^kmemleak leaks=0 ' "$r/results.log" && pass "kmemleak scanned at the end: no leak" ||
	fail "kmemleak scanned at the end: no leak ($(grep '^kmemleak' "$r/results.log" || echo 'no scan'))"
check "the module unloads once no queue uses it" grep -q 'cfq-iosched unloaded after the round' "$r/console.log"
# coverage: a tracefile of cfq-iosched.c, the line in both summaries, the
# gcda blocks taken out of results.log, an HTML report
grep -q '^SF:.*/block/cfq-iosched.c$' "$r/coverage.info" 2>/dev/null && pass "coverage.info of cfq-iosched.c" ||
	fail "coverage.info of cfq-iosched.c" "$(cat "$r/coverage.txt" "$r/coverage.log" 2>/dev/null)"
pct=$(v coverage | sed -n 's/^lines \([0-9]*\)\..*/\1/p')
[ "${pct:-0}" -ge 60 ] && pass "the round reaches ${pct}% of the scheduler's lines ($(v coverage))" ||
	fail "the round reaches at least 60% of the scheduler's lines (got '$(v coverage)')"
grep -q '^coverage=lines' "$dir/summary" && [ -f "$dir/coverage/index.html" ] &&
	pass "the soak merges its rounds' coverage (HTML report)" || fail "the soak merges its rounds' coverage"
if ! [ -s "$r/results.log" ] || grep -q '^gcda-' "$r/results.log"; then fail "gcda blocks removed from results.log"
else pass "gcda blocks removed from results.log"; fi
