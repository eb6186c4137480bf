#!/usr/bin/env bash
# test: ktap 30 host
# tests/run.sh prints KTAP version 1: the version line, the plan (one test
# per group), each group's checks as numbered subtests, the group's result,
# and still the closing line "N passed, N failed". Checked on the entry
# group (quick, no guest).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
ktap=$(ONLY=entry tests/run.sh 2>&1)
krc=$?
n=$(grep -c '^  ok [0-9]* - entry: ' <<<"$ktap")
[ "$(head -n2 <<<"$ktap" | tr '\n' ' ')" = "KTAP version 1 1..1 " ] &&
	echo "ok - ktap: version line and plan 1..1" || echo "not ok - ktap: version line and plan 1..1"
[ "$(sed -n 3,4p <<<"$ktap" | tr '\n' ' ')" = "# entry   KTAP version 1 " ] &&
	echo "ok - ktap: the group's subtests start with an indented version line" ||
	echo "not ok - ktap: the group's subtests start with an indented version line"
if [ "$n" -gt 10 ] && [ "$(grep -o '^  ok [0-9]*' <<<"$ktap" | awk '{print $2}' | tr '\n' ' ')" = "$(seq -s ' ' 1 "$n") " ] &&
	grep -qx 'ok 1 entry' <<<"$ktap"; then
	echo "ok - ktap: $n checks as subtests numbered 1..$n, then 'ok 1 entry'"
else
	echo "not ok - ktap: the checks as numbered subtests, then 'ok 1 entry'"; head -8 <<<"$ktap" | sed 's/^/#   /'
fi
[ "$(tail -n1 <<<"$ktap")" = "$n passed, 0 failed" ] && [ "$krc" = 0 ] &&
	echo "ok - ktap: the closing line '$n passed, 0 failed' (exit 0)" ||
	echo "not ok - ktap: the closing line '$n passed, 0 failed' (exit $krc: '$(tail -n1 <<<"$ktap")')"

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
	echo "ok - ktap: a skipped check keeps '# SKIP reason' and counts as passed"
else
	echo "not ok - ktap: a skipped check keeps '# SKIP reason' and counts as passed"; sed 's/^/#   /' <<<"$out" | head -8
fi
