#!/usr/bin/env bash
# test: race 115 guest
# The race flavor (KCSAN in place of KASAN, with lockdep, debug objects and
# fault injection): its kernel boots, a planted data race (rig_splat "race":
# two threads, one counter, no lock) is reported and titled the way syzbot
# does, and the other detectors (kmemleak among them) still report on it;
# a soak's rotation can put one round on it.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=race
. tests/lib.sh
id="test-${TEST_STAMP:-$(date +%Y%m%d-%H%M%S)}-race"
FLAVOR=race RUN_ID=$id TIMEOUT=600 host/vm/run.sh controls "RIG_CONTROLS=lockdep race odebug atomic_sleep leak" >/dev/null
rc=$?
s="logs/$id/summary"
[ -f "$s" ] || { fail "no summary (run.sh exit $rc)"; exit 1; }
check "the race flavor booted" grep -qx 'flavor=race' "$s"
# (the diagnostics can be more than fail's 5 lines: the kmemleak ones come last)
found() { # KIND TITLE
	if grep -qF -- "$2" "$s"; then pass "$1 -> $2"
	else
		fail "$1 -> $2"
		grep -P '^finding\t' "$s" | sed 's/^/#   /'
		grep -h '^kmemleak' "logs/$id/results.log" | sed 's/^/#   /'
		grep -h 'kmemleak:' "logs/$id/console.log" | head -3 | sed 's/^/#   /'; fi
}
found kcsan        "KCSAN: data-race in rig_splat_race_thread / rig_splat_race_thread"
found lockdep      "possible deadlock in rig_splat_lockdep_inversion"
found odebug       "WARNING: ODEBUG bug in rig_splat_"
found atomic-sleep "BUG: sleeping function called from invalid context in rig_splat_atomic_sleep"
found kmemleak     "memory leak in rig_splat_leak"
if ! [ -s "logs/$id/console.log" ] || grep -q 'KASAN' "logs/$id/console.log"; then fail "no KASAN in the race kernel"
else pass "no KASAN in the race kernel"; fi
# KCSAN instruments the block layer alone (kcsan_args in host/lib.sh):
# the scheduler, blk-mq and virtio-blk are built with it, the core kernel
# is not
b=$(FLAVOR=race host/build/kernel.sh 2>/dev/null | tail -n1)
tsan() { local f; for f in "$@"; do grep -q -- -fsanitize=thread "$b/$f" 2>/dev/null && echo "$f"; done; }
in=$(tsan block/.cfq-iosched.o.cmd block/.blk-mq.o.cmd drivers/block/.virtio_blk.o.cmd | wc -l)
out=$(tsan kernel/.fork.o.cmd mm/.filemap.o.cmd kernel/time/.hrtimer.o.cmd | wc -l)
if [ "$in $out" = "3 0" ]; then pass "KCSAN instruments the block layer, not the core kernel"
else fail "KCSAN instruments the block layer, not the core kernel (block objects $in of 3, core $out of 0, build '$b')"; fi

# A rotation line names its round's kernel (the default soak's smoke round
# runs on this one): two rounds at once, the first on debug, the second on
# race with a lockdep report planted 8 s into it; each round records its
# flavor, the KCIDB export has one build per kernel, and the time to the
# first finding is the planted report's, not a suppressed report's (the
# whole-kernel race kernel's boot-time APIC race, at 2 s, once was)
logs=$PWD/logs/$id-rot
rm -rf "$logs" && mkdir -p "$logs"
printf 'faultcheck 30 - -\ncontrol 30 - race\n' >"$logs/two.rot"
SOAK_ID=two ROUNDS=1-2 JOBS=2 KEEP_GOING=1 LOGS=$logs host/hunt/soak.sh "$logs/two.rot" 1h 5 >"$logs/two.out" 2>&1
rc=$?
s=$logs/two
fl() { sed -n 's/^flavor=//p' "$s/$1/summary" 2>/dev/null; }
if [ "$(fl r001) $(fl r002)" = "debug race" ] && [ "$(cut -f11 "$s/rounds" 2>/dev/null | tr '\n' ' ')" = "debug race " ]; then
	pass "a rotation line's flavor boots that kernel for its round (debug, race)"
else
	fail "a rotation line's flavor boots that kernel for its round (got '$(fl r001) $(fl r002)', exit $rc)" \
		"$(tail -5 "$logs/two.out")"
fi
j() { python3 host/report/results.py json "$@" 2>/dev/null; }
k=$logs/kcidb.json
host/report/export-kcidb.sh "$s" "$k" 2>/dev/null
# rounds 1 and 2 in summary.json; in the export, two builds (no third), in
# round order, and each round's test on its own build
if [ "$(j "$s/summary.json" rounds.0.flavor) $(j "$s/summary.json" rounds.1.flavor)" = "debug race" ] &&
	[ "$(j "$k" builds.0.config_name) $(j "$k" builds.1.config_name)" = "debug race" ] && ! j "$k" builds.2.id >/dev/null &&
	[ "$(j "$k" tests.0.build_id) $(j "$k" tests.1.build_id)" = "$(j "$k" builds.0.id) $(j "$k" builds.1.id)" ]; then
	pass "summary.json and the KCIDB export give each round its own kernel"
else
	fail "summary.json and the KCIDB export give each round its own kernel"
fi
ff=$(sed -n 's/^first_finding_s=//p' "$s/summary" 2>/dev/null)
if grep -P -m1 '^finding\t' "$s/summary" 2>/dev/null | grep -q 'possible deadlock in rig_splat_lockdep_inversion' &&
	[[ "$ff" =~ ^[0-9]+$ ]] && [ "$ff" -ge 8 ]; then
	pass "the planted report is the soak's first finding, after $ff s (suppressed reports do not count)"
else
	fail "the planted report is the soak's first finding, after at least 8 s (got '$ff')"
fi
if [ -f "$s/summary" ] && ! grep -qP '^finding\t.*cfq_' "$s/summary"; then
	pass "no finding in a cfq_ function in either round ($(cut -f4 "$s/rounds" | tr '\n' ' '))"
else
	fail "no finding in a cfq_ function in either round" "$(grep -P '^finding\t' "$s/summary" 2>/dev/null)"
fi
