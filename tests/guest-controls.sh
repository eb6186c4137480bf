#!/usr/bin/env bash
# Positive controls, end to end: boot the debug kernel, make it print one
# real report of each kind (guest/jobs/controls.sh) and check the classifier
# names each with the right title.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
id="test-${TEST_STAMP:-$(date +%Y%m%d-%H%M%S)}-controls"
RUN_ID=$id TIMEOUT=400 host/run.sh controls >/dev/null
rc=$?
s="logs/$id/summary"
[ -f "$s" ] || { echo "not ok - controls: no summary (run.sh exit $rc)"; exit 1; }
check() { # KIND TITLE (an extended regex)
	if grep -qE -- "$2" "$s"; then echo "ok - controls: $1 -> $2"
	else echo "not ok - controls: $1 -> $2"; grep -P '^finding\t' "$s" | sed 's/^/#   /'; fi
}
# 6.12's KASAN names the object's kind (slab-use-after-free), as syzkaller's titles do
check kasan        "KASAN: (slab-)?use-after-free Read in rig_splat_kasan_uaf"
check odebug       "WARNING: ODEBUG bug in rig_splat_"
check atomic-sleep "BUG: sleeping function called from invalid context in rig_splat_atomic_sleep"
check hung         "INFO: task hung in rig_splat_hung_thread"
check lockdep      "possible deadlock in rig_splat_lockdep_inversion"
if [ "$rc" = 1 ]; then echo "ok - controls: run exits 1 on findings"
else echo "not ok - controls: run exits 1 on findings (got $rc)"; fi
