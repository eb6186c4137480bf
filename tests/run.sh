#!/usr/bin/env bash
# make test: run every test group, count "ok - " / "not ok - " lines and
# print the closing line "N passed, N failed". Exit 0 iff nothing failed.
# ONLY=group,group runs a subset (groups: static inputs classifier stress controls
# clean cfq smoke faults repro mutant race); an unknown group is an error (exit 2).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
stamp=$(date +%Y%m%d-%H%M%S)
out="logs/test-$stamp"
mkdir -p "$out"
export TEST_STAMP=$stamp
pass=0 fail=0
GROUPS_ALL="static inputs classifier stress controls clean cfq smoke faults repro mutant race"
ONLY=${ONLY:-}
for g in ${ONLY//,/ }; do
	case " $GROUPS_ALL " in *" $g "*) ;; *) echo "error: unknown test group '$g' (groups: $GROUPS_ALL)" >&2; exit 2 ;; esac
done

group() {
	local name=$1; shift
	case ",${ONLY:-$name}," in *",$name,"*) ;; *) return 0 ;; esac
	echo "== $name"
	local t0=$SECONDS rc
	"$@" 2>&1 | tee "$out/$name.log" | grep -E '^(ok|not ok) - |^#|^\[|^ ' || true
	rc=${PIPESTATUS[0]}
	local p f
	p=$(grep -c '^ok - ' "$out/$name.log")
	f=$(grep -c '^not ok - ' "$out/$name.log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "not ok - $name: exited $rc with no failed check (see $out/$name.log)"
		f=1
	fi
	if [ $((p + f)) = 0 ]; then
		echo "not ok - $name: ran no check"
		f=1
	fi
	echo "   $name: $p passed, $f failed in $((SECONDS - t0)) s"
	pass=$((pass + p)); fail=$((fail + f))
}

group static     tests/static.sh
group inputs     tests/inputs.sh
group classifier tests/classifier-test.sh
group stress     tests/stress-selftest.sh
group controls   tests/guest-controls.sh
group clean      tests/guest-clean.sh
group cfq        tests/guest-cfq.sh
group smoke      tests/guest-smoke.sh
group faults     tests/guest-faults.sh
group repro      tests/guest-repro.sh
group mutant     tests/guest-mutant.sh
group race       tests/guest-race.sh

echo "logs: $out"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
