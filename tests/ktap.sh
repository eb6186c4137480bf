#!/usr/bin/env bash
# test: ktap 30 host
# tests/run.sh prints KTAP version 1: the version line, the plan (one test
# per group), each group's checks as numbered subtests, the group's result,
# and still the closing line "N passed, N failed". Checked on the entry
# group (quick, no guest).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=ktap
. tests/lib.sh
ktap=$(ONLY=entry tests/run.sh 2>&1)
krc=$?
n=$(grep -c '^  ok [0-9]* - entry: ' <<<"$ktap")
check "version line and plan 1..1" [ "$(head -n2 <<<"$ktap" | tr '\n' ' ')" = "KTAP version 1 1..1 " ]
check "the group's subtests start with an indented version line" \
	[ "$(sed -n 3,4p <<<"$ktap" | tr '\n' ' ')" = "# entry   KTAP version 1 " ]
if [ "$n" -gt 10 ] && [ "$(grep -o '^  ok [0-9]*' <<<"$ktap" | awk '{print $2}' | tr '\n' ' ')" = "$(seq -s ' ' 1 "$n") " ] &&
	grep -qx 'ok 1 entry' <<<"$ktap"; then
	pass "$n checks as subtests numbered 1..$n, then 'ok 1 entry'"
else
	fail "the checks as numbered subtests, then 'ok 1 entry'" "$ktap"
fi
[ "$(tail -n1 <<<"$ktap")" = "$n passed, 0 failed" ] && [ "$krc" = 0 ] &&
	pass "the closing line '$n passed, 0 failed' (exit 0)" ||
	fail "the closing line '$n passed, 0 failed' (exit $krc: '$(tail -n1 <<<"$ktap")')"

# a skipped check keeps its KTAP directive ("# SKIP reason"), counts as
# passed and is named in its group's line (a group in a scratch copy)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tests" && cp tests/run.sh tests/lib.sh "$tmp/tests/"
printf '%s\n' '#!/usr/bin/env bash' '# test: skipper 1 host' 'cd "$(dirname "$0")/.." || exit 2' \
	'TEST_GROUP=skipper; . tests/lib.sh' 'pass "one # with a hash"' 'skip "two" "no such device here"' >"$tmp/tests/skipper.sh"
chmod +x "$tmp/tests/skipper.sh"
out=$(env -u ONLY "$tmp/tests/run.sh" 2>&1)
if grep -qx '  ok 2 - skipper: two # SKIP no such device here' <<<"$out" &&
	grep -qx '  ok 1 - skipper: one % with a hash' <<<"$out" &&
	grep -q '^# skipper: 2 passed (1 skipped), 0 failed' <<<"$out" && [ "$(tail -n1 <<<"$out")" = "2 passed, 0 failed" ]; then
	pass "a skipped check keeps '# SKIP reason' and counts as passed"
else
	fail "a skipped check keeps '# SKIP reason' and counts as passed" "$out"
fi
