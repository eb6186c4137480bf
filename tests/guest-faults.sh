#!/usr/bin/env bash
# One short round per fault set (faults/*.flt) on the faultcheck scenario:
# the faults must fire (counters read back in the guest) and the correct
# scheduler must show no finding (I/O errors are expected, not findings).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
for f in faults/*.flt; do
	name=$(basename "$f" .flt)
	FAULTS=$name host/soak.sh faultcheck 30 1 >"logs/test-${TEST_STAMP:-x}-faults-$name.out" 2>&1
	rc=$?
	dir=$(ls -d logs/soak-*-faultcheck | tail -n1)
	r="$dir/r001"
	if [ ! -f "$r/summary" ]; then echo "not ok - faults $name: no summary (soak exit $rc)"; continue; fi
	fired=$(awk '/^fault /{split($3, kv, "="); s += kv[2]} END {print s + 0}' "$r/results.log")
	kinds=$(grep -c '^fault ' "$r/results.log")
	[ "$kinds" -gt 0 ] && [ "$fired" -gt 0 ] && echo "ok - faults $name: fired $fired times ($(grep '^fault ' "$r/results.log" | tr '\n' ' '))" ||
		echo "not ok - faults $name: fired $fired times"
	st=$(sed -n 's/^status=//p' "$r/summary")
	[ "$rc" = 0 ] && [ "$st" = clean ] && echo "ok - faults $name: no finding on cfq ($(sed -n 's/^io_errors=//p' "$r/summary") I/O errors)" ||
		{ echo "not ok - faults $name: no finding on cfq (status $st)"; grep -P '^finding' "$r/summary" | sed 's/^/#   /'; }
done
