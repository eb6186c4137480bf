#!/usr/bin/env bash
# test: cfq 70 guest
# The scheduler's own checks, run in the guest (guest/jobs/cfq.sh): each
# in-guest check is one test line here; the run must also be finding-free.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=cfq
. tests/lib.sh
id="test-${TEST_STAMP:-$(date +%Y%m%d-%H%M%S)}-cfq"
RUN_ID=$id TIMEOUT=600 host/vm/run.sh cfq >/dev/null
s="logs/$id/summary"
[ -f "$s" ] || { fail "no summary"; exit 1; }
grep -a -E '^(ok|not ok) - |^#' "logs/$id/results.log"
st=$(sed -n 's/^status=//p' "$s")
case "$st" in
clean | failed) pass "no kernel finding during the checks" ;;
*) fail "no kernel finding during the checks (status $st)" "$(grep -P '^finding' "$s")" ;;
esac
