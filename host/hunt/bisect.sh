#!/usr/bin/env bash
# Find the patch that brings a finding: given a series (a directory of
# patches, applied in name order on top of the package's tree, after BUG's
# revert if one is set) and a finding, the first patch with which it comes
# back. Each probe is a kernel variant with the first K patches
# (RIG_PATCHES, built incrementally) soaked by host/hunt/hunt.sh; a binary search
# over K, after checking that it does not come back with none of them and
# does with all of them.
#
# usage: host/hunt/bisect.sh [--check] SERIES_DIR     (make bisect SERIES=DIR)
# the finding: TITLE=..., REPORT=FILE, or EXPECT='words / words'
# settings: SEED=1, BUDGET=1800 (s per probe), SCENARIO (default hunt, or the
#   report's pick), UNDER_TEST
# prints: "bisect: first bad patch: NAME (K of N)"; every probe on the way
# exit: 0 found, 1 not found (it comes back with no patch, or not with all),
#   125 a probe's kernel does not build or boot, 2 bad input
set -euo pipefail
user_ut=${UNDER_TEST:-}
. "$(dirname "$0")/../lib.sh"

check_only=''
[ "${1:-}" != --check ] || { check_only=1; shift; }
[ $# -eq 1 ] || die "usage: host/hunt/bisect.sh [--check] SERIES_DIR (make bisect SERIES=DIR TITLE=...|REPORT=FILE|EXPECT=...)"
[ -d "$1" ] || die "SERIES: no directory '$1'"
mapfile -t ps < <(ls "$(realpath "$1")"/*.patch 2>/dev/null | sort)
[ "${#ps[@]}" -gt 0 ] || die "SERIES: no *.patch in '$1'"
SEED=${SEED:-1} BUDGET=${BUDGET:-1800} TITLE=${TITLE:-} REPORT=${REPORT:-} EXPECT=${EXPECT:-}
[[ "$SEED" =~ ^[0-9]{1,18}$ ]] || die "SEED must be a number (got '$SEED')"
[[ "$BUDGET" =~ ^[0-9]+$ ]] && [ "$BUDGET" -ge 30 ] || die "BUDGET must be at least 30 (seconds; got '$BUDGET')"
[ "$(printf '%s' "$TITLE$REPORT$EXPECT" | wc -c)" -gt 0 ] || die "bisect needs the finding: TITLE=..., REPORT=FILE or EXPECT=..."
kver_check
bug_check
[ -z "$KERNEL_SRC" ] || die "bisect builds variants of the package's tree; it does not go with KERNEL_SRC"
# the whole series must apply before any probe is built
# shellcheck disable=SC2046 # patch paths have no spaces
fail=$(patch_failure $(variant_patches) "${ps[@]}")
[ -z "$fail" ] || die "SERIES: does not apply on top of this kernel:
$fail"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rot=${SCENARIO:-hunt}
export UNTIL_TITLE=$TITLE UNTIL_EXPECT=$EXPECT
if [ -n "$REPORT" ]; then
	report_finding "$REPORT" "$user_ut" "$tmp/report.rot"
	[ -n "${SCENARIO:-}" ] || rot="$tmp/report.rot"
fi
under_test_check
"$RIG_ROOT/host/hunt/soak.sh" --check "$rot" "${BUDGET}s" || exit 2
[ -z "$check_only" ] || exit 0

id="bisect-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$LOGS"
if [ -f "$rot" ]; then cp "$rot" "$LOGS/$id.rot" && rot="$LOGS/$id.rot"; fi
n=${#ps[@]}
base_patches=$RIG_PATCHES
# does the finding come back with the first K patches? 0 no, 1 yes
probe() { # K
	local k=$1 rc=0 extra=''
	[ "$k" = 0 ] || extra=$(printf '%s ' "${ps[@]:0:k}")
	RIG_PATCHES="$base_patches $extra" HUNT_ID="$id-k$k" \
		"$RIG_ROOT/host/hunt/hunt.sh" "$rot" "$SEED" "$BUDGET" >"$tmp/out" || rc=$?
	case $rc in
	0 | 1) say "bisect: with $k of $n patches: $(head -n1 "$tmp/out")"; return "$rc" ;;
	*) say "bisect: with $k of $n patches: the kernel does not build or boot ($rc)"; exit 125 ;;
	esac
}
say "bisect: $n patches of $1, looking for ${UNTIL_TITLE:-$UNTIL_EXPECT}, seed $SEED, $BUDGET s a probe"
if ! probe "$n"; then
	echo "bisect: not found: it does not come back with all $n patches"
	exit 1
fi
if probe 0; then :; else
	echo "bisect: not found: it comes back with none of the patches (the tree has it)"
	exit 1
fi
good=0 bad=$n
while [ $((bad - good)) -gt 1 ]; do
	mid=$(((good + bad) / 2))
	if probe "$mid"; then good=$mid; else bad=$mid; fi
done
echo "bisect: first bad patch: $(basename "${ps[bad - 1]}") ($bad of $n); logs: $LOGS/$id-k*"
