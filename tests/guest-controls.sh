#!/usr/bin/env bash
# test: controls 60 guest
# Positive controls, end to end: boot the debug kernel, make it print one
# real report of each kind (guest/jobs/controls.sh) and check the classifier
# names each with the right title.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=controls
. tests/lib.sh
id="test-${TEST_STAMP:-$(date +%Y%m%d-%H%M%S)}-controls"
RUN_ID=$id TIMEOUT=400 host/vm/run.sh controls >/dev/null
rc=$?
s="logs/$id/summary"
[ -f "$s" ] || { fail "no summary (run.sh exit $rc)"; exit 1; }
# (the diagnostics can be more than fail's 5 lines: the kmemleak ones come last)
found() { # KIND TITLE (an extended regex)
	if grep -qE -- "$2" "$s"; then pass "$1 -> $2"
	else
		fail "$1 -> $2"
		grep -P '^finding\t' "$s" | sed 's/^/#   /'
		grep -h '^kmemleak' "logs/$id/results.log" | sed 's/^/#   /'
		grep -h 'kmemleak:' "logs/$id/console.log" | head -3 | sed 's/^/#   /'; fi
}
# 6.12's KASAN names the object's kind (slab-use-after-free), as syzkaller's titles do
found kasan        "KASAN: (slab-)?use-after-free Read in rig_splat_kasan_uaf"
found odebug       "WARNING: ODEBUG bug in rig_splat_"
found atomic-sleep "BUG: sleeping function called from invalid context in rig_splat_atomic_sleep"
found hung         "INFO: task hung in rig_splat_hung_thread"
found lockdep      "possible deadlock in rig_splat_lockdep_inversion"
found kmemleak     "memory leak in rig_splat_leak"
if [ "$rc" = 1 ]; then pass "run exits 1 on findings"
else fail "run exits 1 on findings (got $rc)"; fi

# A guest that goes silent (rig_splat's wedge: every CPU spins with IRQs
# off, nothing is printed any more) is taken for a hang by the host's
# console watchdog (SILENCE), and the soak records it and goes on: two
# rounds of it, each with a summary, the soak with its own.
logs=$PWD/logs/$id-wedge
rm -rf "$logs" && mkdir -p "$logs"
cat >"$logs/wedge.scn" <<'SCN'
# test-only: the guest wedges 5 s into the round
duration  = 30
devices   = nullb
scheduler = cfq
faults    = none
stressor  = churn@nullb --clients 1
stressor  = splat --kind wedge --after 5
SCN
KEEP_GOING=1 ROUNDS=1-2 SILENCE=30 LOGS=$logs host/hunt/soak.sh "$logs/wedge.scn" 30s 1 >"$logs.out" 2>&1
rc=$?
soak=$(echo "$logs"/soak-*)
if [ -f "$soak/summary" ] && [ "$(wc -l <"$soak/rounds")" = 2 ] && [ "$rc" = 1 ]; then
	pass "a silent guest ends its round, and the soak goes on (2 rounds, exit 1)"
else
	fail "a silent guest ends its round, and the soak goes on (exit $rc, $(wc -l <"$soak/rounds" 2>/dev/null) rounds)" \
		"$(tail -5 "$logs.out")"
fi
if grep -qP '^finding\t.*hang: no console output for 30 s' "$soak/summary" 2>/dev/null; then
	pass "wedge -> hang: no console output for 30 s"
else
	fail "wedge -> hang: no console output for 30 s" "$(grep -P '^finding' "$soak/summary" 2>/dev/null)"
fi
