#!/usr/bin/env bash
# test: realbug 95 guest
# The real-bug machinery end to end, on a corpus bug that fires in seconds
# (bfq-exit-icq-uaf: 246cf66e300b reverted, the default soak's first round
# catches it at about 10 s of guest uptime): BUG= builds it as a kernel
# variant; make repro REPORT= starts from its public report (a KFENCE splat
# of another build) and must bring the bug back (exit 1); verify-fix with
# the bug's own fix must find it without the fix and never with it (exit 0);
# host/rig bisect with a patch that breaks the build exits 125.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. host/lib.sh
TEST_GROUP=realbug
. tests/lib.sh
b=bfq-exit-icq-uaf
logs=$PWD/logs/test-${TEST_STAMP:-x}-realbug
rm -rf "$logs" && mkdir -p "$logs"

t0=$SECONDS
if BUG=$b host/build/kernel.sh >"$logs/build.out" 2>&1; then
	pass "BUG=$b builds as a kernel variant ($((SECONDS - t0)) s)"
else
	fail "BUG=$b builds as a kernel variant" "$(tail -5 "$logs/build.out")"
fi

# The bug's use-after-free leaves the guest printing reports, then wedged:
# the host gives a guest REPORT_GRACE s from a report to end its round (240
# by default, for rounds that go on after a report outside the code under
# test). These runs stop at the bug's report, which a guest ends within 40 s
# when it can: 60 s here, not the 140 to 175 s a wedged one took.
export REPORT_GRACE=60

# REPORT=: from the report alone (the kernel carries the bug)
rc=0
LOGS=$logs BUG=$b UNDER_TEST='' BUDGET=240 SEED=1 MINIMIZE=0 \
	host/hunt/report.sh "bugs/$b/report.txt" >"$logs/report.out" 2>&1 || rc=$?
grep -E '^ (hunt|report|code)' "$logs/report.out" | sed 's/^/# /'
if [ "$rc" = 1 ] && grep -q 'code under test: bfq' "$logs/report.out" && grep -q 'hunt: came back in r' "$logs/report.out"; then
	pass "make repro REPORT= reproduces $b from its public report (exit 1)"
else
	fail "make repro REPORT= reproduces $b from its public report (exit $rc)" "$(tail -n 5 "$logs/report.out")"
fi

# verify-fix: without the fix it comes back, with it never (the same round)
rc=0
LOGS=$logs BUG=$b SEEDS=1 BUDGET=60 SCENARIO=exit-race UNDER_TEST='' \
	host/hunt/verify-fix.sh >"$logs/verify.out" 2>&1 || rc=$?
grep '^verify-fix:' "$logs/verify.out" | sed 's/^/# /'
if [ "$rc" = 0 ] && grep -q '^verify-fix: fixed: .* 1/1 seeds and never with it' "$logs/verify.out"; then
	pass "verify-fix with the bug's own fix says fixed (exit 0)"
else
	fail "verify-fix with the bug's own fix says fixed (exit $rc)" "$(tail -n 5 "$logs/verify.out")"
fi

# 125: a probe whose kernel does not build is "cannot test this revision"
# (what git bisect run skips), through the front end; the variant it made
# is removed from the cache again
mkdir -p "$logs/series" && cp tests/fixtures/no-build.patch "$logs/series/0001-no-build.patch"
before=$(ls "$RIG_CACHE")
rc=0
LOGS=$logs host/rig bisect SERIES="$logs/series" EXPECT='no such finding' SCENARIO=exit-race BUDGET=60 \
	>"$logs/bisect.out" 2>&1 || rc=$?
for e in $(comm -13 <(echo "$before") <(ls "$RIG_CACHE")); do rm -rf "${RIG_CACHE:?}/$e"; done
if [ "$rc" = 125 ] && grep -q 'the kernel does not build or boot' "$logs/bisect.out"; then
	pass "a revision that does not build: host/rig bisect exits 125"
else
	fail "a revision that does not build: host/rig bisect exits 125 (exit $rc)" "$(tail -n 5 "$logs/bisect.out")"
fi
