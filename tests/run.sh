#!/usr/bin/env bash
# make test: run every test group and print KTAP (version 1): the plan is
# the number of groups, each group is a test whose subtests are its checks
# (the "ok - " / "not ok - " lines a group prints, numbered here). The
# closing line "N passed, N failed" counts the checks. Exit 0 iff nothing
# failed.
# ONLY=group,group runs a subset (the groups are GROUPS_ALL below); an
# unknown group is an error (exit 2).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
pass=0 fail=0
GROUPS_ALL="static inputs entry rig pipeline ktap kernelsrc classifier bugs audit stress controls clean cfq smoke faults repro interrupt realbug concurrency results mutant race"
ONLY=${ONLY:-}
for g in ${ONLY//,/ }; do
	case " $GROUPS_ALL " in *" $g "*) ;; *) echo "error: unknown test group '$g' (groups: $GROUPS_ALL)" >&2; exit 2 ;; esac
done
selected() { case ",${ONLY:-$1}," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
# --check: the groups are known (exit 0, else 2 above); --needs-guest: exit
# 0 when a selected group boots a guest, so make builds the kernel only then
HOST_ONLY="static inputs entry rig pipeline ktap classifier bugs audit stress"
case "${1:-}" in
--check) exit 0 ;;
--needs-guest)
	for g in $GROUPS_ALL; do
		selected "$g" && [[ " $HOST_ONLY " != *" $g "* ]] && exit 0
	done
	exit 1 ;;
esac
out=$(mkdir -p logs && mktemp -d "logs/test-$(date +%Y%m%d-%H%M%S)-XXXX") || exit 2
export TEST_STAMP=${out#logs/test-}
n=0
for g in $GROUPS_ALL; do selected "$g" && n=$((n + 1)); done
echo "KTAP version 1"
echo "1..$n"
k=0

# group NAME CMD...: one KTAP test; the group's checks are its subtests
group() {
	local name=$1; shift
	selected "$name" || return 0
	k=$((k + 1))
	echo "# $name"
	local t0=$SECONDS rc
	echo "  KTAP version 1"
	"$@" 2>&1 | tee "$out/$name.log" | grep --line-buffered -E '^(ok|not ok) - |^#|^\[|^ ' |
		awk '/^(ok|not ok) - / { sub(/ - /, " " ++i " - "); gsub(/#/, "%") } { print "  " $0; fflush() }'
	rc=${PIPESTATUS[0]} # (no "|| true" here: it would reset PIPESTATUS to that of true)
	local p f
	p=$(grep -c '^ok - ' "$out/$name.log")
	f=$(grep -c '^not ok - ' "$out/$name.log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "  not ok $((p + 1)) - $name: exited $rc with no failed check (the end of $out/$name.log follows)"
		tail -n 8 "$out/$name.log" | sed 's/^/  #   /'
		f=1
	fi
	if [ $((p + f)) = 0 ]; then
		echo "  not ok 1 - $name: ran no check (exit $rc; the end of $out/$name.log follows)"
		tail -n 8 "$out/$name.log" | sed 's/^/  #   /'
		f=1
	fi
	echo "# $name: $p passed, $f failed in $((SECONDS - t0)) s"
	[ "$f" = 0 ] && echo "ok $k $name" || echo "not ok $k $name"
	pass=$((pass + p)); fail=$((fail + f))
}

group static      tests/static.sh
group inputs      tests/inputs.sh
group entry       tests/entry-inputs.sh
group rig         tests/rig.sh
group pipeline    tests/pipeline.sh
group ktap        tests/ktap.sh
group kernelsrc   tests/kernel-src.sh
group classifier  tests/classifier-test.sh
group bugs        tests/bugs.sh
group audit       tests/slice-audit.sh
group stress      tests/stress-selftest.sh
group controls    tests/guest-controls.sh
group clean       tests/guest-clean.sh
group cfq         tests/guest-cfq.sh
group smoke       tests/guest-smoke.sh
group faults      tests/guest-faults.sh
group interrupt   tests/guest-interrupt.sh
group repro       tests/guest-repro.sh
group realbug     tests/guest-realbug.sh
group concurrency tests/concurrency.sh
group results     tests/results.sh
group mutant      tests/guest-mutant.sh
group race        tests/guest-race.sh

echo "# logs: $out"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
