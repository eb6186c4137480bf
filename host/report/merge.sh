#!/usr/bin/env bash
# Merge soak directories of one soak (same scenario and seed: shards that ran
# round ranges, on this host or others) into one soak summary: rounds in
# order, findings deduplicated by title with each one's first round, seed,
# host and log path, ops and faults added up.
#
# usage: host/report/merge.sh [-o OUT_DIR] SOAK_DIR...
#   OUT_DIR  where the merged summary goes (default LOGS/merge-DATE); it
#            refers to the soak directories by relative paths
# output: OUT_DIR/{summary,summary.json,rounds}
# exit: 0 clean, 1 findings, 2 bad input (not soak directories, another
#   soak's shard, a round in two of them)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage="usage: host/report/merge.sh [-o OUT_DIR] SOAK_DIR..."
out=''
if [ "${1:-}" = -o ]; then
	[ -n "${2:-}" ] || die "$usage"
	out=$2; shift 2
fi
[ $# -ge 1 ] || die "$usage"
for d in "$@"; do
	[ -d "$d" ] || die "no such directory '$d'"
	[ -f "$d/summary.json" ] && [ -f "$d/rounds" ] || die "$d is not a finished soak directory (no summary.json and rounds)"
done
[ "$(printf '%s\n' "$@" | xargs -n1 realpath | sort | uniq -d)" = "" ] || die "a soak directory is named twice"
if [ -z "$out" ]; then
	out=$(new_dir "$LOGS/merge-$(date +%Y%m%d-%H%M%S)")
else
	[ ! -e "$out/summary.json" ] || die "$out already holds a summary"
	mkdir -p "$out"
fi
python3 "$RIG_ROOT/host/report/results.py" merge "$out" "$@"
[ "$(python3 "$RIG_ROOT/host/report/results.py" json "$out/summary.json" status)" = clean ]
