#!/usr/bin/env bash
# test: concurrency 100 guest
# Two rig commands at once on one cache (the real one, RIG_CACHE): two boot
# probes started in the same second. Each checks the kernel (the tree's
# lock) and rebuilds the base initramfs (the tree's lock, then the image
# lock), then boots. Both must succeed, in two run directories of their own
# (the same second gives them the same default name), and one of them must
# have waited for the other's lock ("waiting for ...") instead of building
# into the same tree.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=concurrency
. tests/lib.sh
logs=$PWD/logs/test-${TEST_STAMP:-x}-concurrency
rm -rf "$logs" && mkdir -p "$logs"
LOGS=$logs host/vm/run.sh probe >"$logs/a.out" 2>&1 &
a=$!
LOGS=$logs host/vm/run.sh probe >"$logs/b.out" 2>&1 &
b=$!
wait "$a"; rca=$?
wait "$b"; rcb=$?
# each command names the directory it made (its summary's "logs" line)
da=$(sed -n 's|^ logs      \(.*\)/{.*|\1|p' "$logs/a.out")
db=$(sed -n 's|^ logs      \(.*\)/{.*|\1|p' "$logs/b.out")
st() { sed -n 's/^status=//p' "$1/summary" 2>/dev/null; }
if [ "$rca" = 0 ] && [ "$rcb" = 0 ] && [ "$(st "$da")" = clean ] && [ "$(st "$db")" = clean ]; then
	pass "two probes at once on one cache both boot clean"
else
	fail "two probes at once on one cache both boot clean (exit $rca and $rcb)"
	# (both files' ends, headed, are more than fail's 5 lines of detail)
	tail -4 "$logs/a.out" "$logs/b.out" | sed 's/^/#   /'
fi
if [ -n "$da" ] && [ -n "$db" ] && [ "$da" != "$db" ] && grep -q 'probe ok' "$da/console.log" "$db/console.log" 2>/dev/null &&
	[ "$(grep -l 'probe ok' "$da/console.log" "$db/console.log" | wc -l)" = 2 ]; then
	pass "each run has its own directory ($(basename "$da"), $(basename "$db"))"
else
	fail "each run has its own directory ('$da', '$db')"
fi
w=$(grep -h 'waiting for' "$logs/a.out" "$logs/b.out")
if [ -n "$w" ]; then
	pass "a command waited for the other's lock"
	sed 's/^/#   /' <<<"$w" | head -3
else
	fail "a command waited for the other's lock (no 'waiting for' line)"
fi
