#!/usr/bin/env bash
# The reach table: which block/ functions each scenario's clean rounds ran
# (a round that ended early at a finding ran only part of its load), from
# soaks run with COVER=1 (every round keeps RUN_DIR/reach, host/measure/coverage.sh).
# host/hunt/report.sh reads it to pick the scenarios whose load reaches a
# report's frames. The table the rig ships is stress/scenarios/reach.tsv,
# made by the clean control of make realbugs (COVER=1, the default soak):
#   host/measure/reach.sh logs/realbugs-.../control-*/soak-* >stress/scenarios/reach.tsv
#
# usage: host/measure/reach.sh SOAK_DIR...     (prints the table on stdout)
# table: '#' comment lines, then SCENARIO TAB UNDER_TEST TAB FILE TAB
#   FUNCTION, sorted (the scheduler under test decides much of the reach)
# exit: 0, 2 when no round of the soaks has a reach file
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -gt 0 ] || die "usage: host/measure/reach.sh SOAK_DIR... (soaks run with COVER=1)"
out=$(for s in "$@"; do
	[ -d "$s" ] || die "no soak directory '$s'"
	for r in "$s"/r[0-9]*/; do
		# a round that ended early at a finding ran only part of its load
		[ -s "$r/reach" ] && [ -f "$r/files/plan" ] && grep -qx 'status=clean' "$r/summary" 2>/dev/null || continue
		scn=$(plan_value "$r/files/plan" SCENARIO)
		ut=$(plan_value "$r/files/plan" UNDER_TEST)
		sed "s/^/$scn\t${ut:-cfq}\t/" "$r/reach"
	done
done | sort -u)
[ -n "$out" ] || die "no round of $* has a reach file (run the soak with COVER=1)"
echo "# made by: host/measure/reach.sh on $(for s in "$@"; do echo "$(basename "$(dirname "$(realpath "$s")")")/$(basename "$s")"; done | tr '\n' ' ')"
echo "# scenario	under_test	file	function: each block/ function a clean round of the scenario ran with that UNDER_TEST"
printf '%s\n' "$out"
