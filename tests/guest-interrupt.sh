#!/usr/bin/env bash
# test: interrupt 85 guest
# An overnight soak that is cut short keeps what it did: a SIGTERM while a
# round runs, and a SIGKILL of the guest's QEMU, each leave a soak summary,
# a summary.json and a KCIDB export that validates (make kcidb accepts it).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=interrupt
. tests/lib.sh
logs=$PWD/logs/test-${TEST_STAMP:-x}-interrupt
rm -rf "$logs"
mkdir -p "$logs"

# wait up to $2 s until file $1 has a line matching $3
wait_for() {
	local t=0
	while [ $t -lt "$2" ]; do
		grep -qE "$3" "$1" 2>/dev/null && return 0
		sleep 2; t=$((t + 2))
	done
	return 1
}
# the soak directory's record: status, JSON, a KCIDB export that validates
kept() { # SOAK_DIR STATUS
	[ "$(sed -n 's/^status=//p' "$1/summary" 2>/dev/null)" = "$2" ] &&
		[ "$(python3 host/report/results.py json "$1/summary.json" status 2>/dev/null)" = "$2" ] &&
		host/report/export-kcidb.sh "$1" "$1/kcidb.json" >/dev/null 2>&1 &&
		python3 tests/kcidb/validate.py tests/kcidb/kcidb-io.schema.v5.3.json "$1/kcidb.json" >/dev/null 2>&1
}

# 1. SIGTERM to the soak while its first round's stressors run
LOGS=$logs SOAK_ID=term host/hunt/soak.sh smoke 5m 3 >"$logs/term.out" 2>&1 &
pid=$!
if wait_for "$logs/term/r001/console.log" 400 'RIG: stressor 1:'; then
	sleep 5
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	kept "$logs/term" interrupted
	r=$?
	[ "$r" = 0 ] && [ "$rc" != 0 ] && ! pgrep -f "$logs/term/" >/dev/null
	r=$?
else
	kill -TERM "$pid" 2>/dev/null; wait "$pid"
	r=1 rc=none
fi
[ "$r" = 0 ] && pass "a soak ended by SIGTERM mid-round keeps status=interrupted, its JSON and a valid KCIDB export, and leaves no QEMU (exit $rc)" ||
	fail "a soak ended by SIGTERM mid-round keeps its record (exit $rc)" "$(tail -n 5 "$logs/term.out")"

# 2. SIGKILL of the guest: the round ends, the soak writes its record
LOGS=$logs SOAK_ID=kill host/hunt/soak.sh smoke 60s 4 >"$logs/kill.out" 2>&1 &
pid=$!
if wait_for "$logs/kill/r001/console.log" 400 'RIG: stressor 1:'; then
	# the kill must hit a guest: else the soak ends clean and proves nothing
	pkill -KILL -f "qemu-system.*$logs/kill/"
	killed=$?
	wait "$pid"
	rc=$?
	[ "$killed" = 0 ] && [ -f "$logs/kill/summary" ] && s=$(sed -n 's/^status=//p' "$logs/kill/summary") &&
		[ "$s" != clean ] && kept "$logs/kill" "$s"
	r=$?
else
	kill -TERM "$pid" 2>/dev/null; wait "$pid"
	r=1 rc=none s=none
fi
[ "$r" = 0 ] && pass "a soak whose guest was killed (SIGKILL) writes its record (status=$s, exit $rc) and KCIDB accepts it" ||
	fail "a soak whose guest was killed writes its record (exit $rc)" "$(tail -n 5 "$logs/kill.out")"
