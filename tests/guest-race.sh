#!/usr/bin/env bash
# The race flavor (KCSAN in place of KASAN, with lockdep, debug objects and
# fault injection): its kernel boots, a planted data race (rig_splat "race":
# two threads, one counter, no lock) is reported and titled the way syzbot
# does, and the other detectors (kmemleak among them) still report on it.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
id="test-${TEST_STAMP:-$(date +%Y%m%d-%H%M%S)}-race"
FLAVOR=race RUN_ID=$id TIMEOUT=600 host/run.sh controls "RIG_CONTROLS=lockdep race odebug atomic_sleep leak" >/dev/null
rc=$?
s="logs/$id/summary"
[ -f "$s" ] || { echo "not ok - race: no summary (run.sh exit $rc)"; exit 1; }
grep -qx 'flavor=race' "$s" && echo "ok - race: the race flavor booted" || echo "not ok - race: the race flavor booted"
check() {
	if grep -qF -- "$2" "$s"; then echo "ok - race: $1 -> $2"
	else
		echo "not ok - race: $1 -> $2"
		grep -P '^finding\t' "$s" | sed 's/^/#   /'
		grep -h '^kmemleak' "logs/$id/results.log" | sed 's/^/#   /'
		grep -h 'kmemleak:' "logs/$id/console.log" | head -3 | sed 's/^/#   /'; fi
}
check kcsan        "KCSAN: data-race in rig_splat_race_thread / rig_splat_race_thread"
check lockdep      "possible deadlock in rig_splat_lockdep_inversion"
check odebug       "WARNING: ODEBUG bug in rig_splat_"
check atomic-sleep "BUG: sleeping function called from invalid context in rig_splat_atomic_sleep"
check kmemleak     "memory leak in rig_splat_leak"
grep -q 'KASAN' "logs/$id/console.log" && echo "not ok - race: no KASAN in the race kernel" ||
	echo "ok - race: no KASAN in the race kernel"
