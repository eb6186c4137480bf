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
