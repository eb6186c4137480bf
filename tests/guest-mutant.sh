#!/usr/bin/env bash
# test: mutant 110 guest
# Positive control for the hunt: one quick mutant (GFP_KERNEL under the
# scheduler's spinlock) must be caught, with the right title, on the same
# smoke scenario that the clean series passes (tests/guest-smoke.sh), and
# its finding must match the mutant's Expect: line ("caught", not
# "caught-other"). The class-blind column is not part of make test (BLIND=0).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=mutant
. tests/lib.sh
out=$(MUTANTS=07 BUDGET=60 BLIND=0 host/hunt/mutants.sh 2>&1)
rc=$?
row=$(grep '^07-.* smoke ' <<<"$out" | head -n1)
echo "# $row"
[[ "$row" == *" caught "* ]] && pass "07-alloc-gfp-kernel is caught" ||
	fail "07-alloc-gfp-kernel is caught" "$(tail -5 <<<"$out")"
[[ "$row" == *"sleeping function called from invalid context in cfq_"* ]] &&
	pass "07 finding names the scheduler function" ||
	fail "07 finding names the scheduler function"
[ "$rc" = 0 ] && pass "host/hunt/mutants.sh exits 0 when every mutant is caught" ||
	fail "host/hunt/mutants.sh exits 0 when every mutant is caught (got $rc)"
