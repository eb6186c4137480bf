#!/usr/bin/env bash
# Export a soak (or a merge of shards) as KCIDB I/O data, schema v5.3 (the
# kernelci/kcidb-io package; a copy of the schema with its source is in
# tests/kcidb/): one checkout (Debian's linux-source plus the cfq series),
# one build (the rig's kernel), one test per round (PASS clean, FAIL
# otherwise), one issue per distinct finding and one incident per round it
# was seen in. Validate with:  kcidb-validate < FILE  (or tests/results.sh).
#
# usage: host/report/export-kcidb.sh SOAK_DIR [OUT_FILE]    (default stdout)
# environment: KCIDB_ORIGIN (lower-case letters, digits, _; default cfqrig)
# exit: 0 written, 2 bad input
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage="usage: host/report/export-kcidb.sh SOAK_DIR [OUT_FILE]"
soak=${1:-}
[ -n "$soak" ] && [ $# -le 2 ] || die "$usage"
origin=${KCIDB_ORIGIN:-cfqrig}
[[ "$origin" =~ ^[a-z0-9_]+$ ]] || die "KCIDB_ORIGIN must be lower-case letters, digits and _ (got '$origin')"
[ -d "$soak" ] || die "no such directory '$soak'"
[ -f "$soak/summary.json" ] || die "$soak has no summary.json (a soak directory of this rig, or a merge)"
[ "$(python3 "$RIG_ROOT/host/report/results.py" json "$soak/summary.json" type 2>/dev/null)" = soak ] ||
	die "$soak/summary.json is not a soak's (host/hunt/soak.sh or host/report/merge.sh writes one)"
if [ -n "${2:-}" ]; then
	[ -d "$(dirname "$2")" ] || die "no directory for '$2'"
	python3 "$RIG_ROOT/host/report/results.py" kcidb "$soak" "$origin" >"$2.tmp" && mv "$2.tmp" "$2"
else
	python3 "$RIG_ROOT/host/report/results.py" kcidb "$soak" "$origin"
fi
