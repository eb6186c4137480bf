#!/usr/bin/env bash
# test: clean 65 guest
# Negative control: O_DIRECT readers and buffered writers on the scratch disk
# under mq-deadline for 60 s must end clean, with I/O done and data verified.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=clean
. tests/lib.sh
id="test-${TEST_STAMP:-$(date +%Y%m%d-%H%M%S)}-clean"
RUN_ID=$id TIMEOUT=400 host/vm/run.sh clean RIG_SCHED=mq-deadline RIG_DURATION=60 RIG_SEED=1 >/dev/null
rc=$?
s="logs/$id/summary"
v() { sed -n "s/^$1=//p" "$s"; }
[ -f "$s" ] || { fail "no summary"; exit 1; }
[ "$rc" = 0 ] && [ "$(v status)" = clean ] && pass "run is clean" ||
	fail "run is clean (status $(v status))" "$(grep -P '^finding' "$s")"
[ "$(v ops)" -gt 100 ] && pass "stressors did I/O ($(v ops) ops)" ||
	fail "stressors did I/O ($(v ops) ops)"
n=$(grep -c '^summary .*status=ok' "logs/$id/results.log")
[ "$n" = 2 ] && pass "readers and writers verified ok" ||
	fail "readers and writers verified ok ($n of 2 summaries ok)"
