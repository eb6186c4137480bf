#!/usr/bin/env bash
# Check a fix: the finding comes back without the fix (k of N seeds) and
# never with it, in the same rounds (same rotation, seeds and rounds). The
# kernel "without" is this one (BUG= carries a corpus bug); "with" is a
# variant with PATCH on top (host/build/kernel.sh, RIG_PATCHES).
#
# usage: host/hunt/verify-fix.sh [--check] [PATCH]     (make verify-fix FIX=PATCH)
#   PATCH  the fix; with BUG=NAME and no PATCH, that bug's own fix
# the finding: TITLE=... (host/lib.sh same_title), or REPORT=FILE (its title,
#   code under test and scenarios, host/hunt/report.sh --analyse), or with BUG=
#   alone the bug's report, else its Expect: words
# settings: SEEDS=3, BUDGET=1800 (s per soak without the fix), SCENARIO
#   (default hunt, or the report's pick), UNDER_TEST
# prints one verdict line: "verify-fix: fixed|not fixed|inconclusive: ..."
# exit: 0 fixed, 1 not fixed, 3 inconclusive (it never came back without
#   the fix, or a round with the fix ended early at another bug's crash), 125 a kernel does not build or boot, 2 bad input
set -euo pipefail
user_ut=${UNDER_TEST:-}
. "$(dirname "$0")/../lib.sh"

check_only=''
[ "${1:-}" != --check ] || { check_only=1; shift; }
[ $# -le 1 ] || die "usage: host/hunt/verify-fix.sh [--check] [PATCH] (make verify-fix FIX=PATCH [TITLE=...|REPORT=FILE])"
fix=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# with BUG= and no PATCH: the bug's own fix (bugs/NAME/fix.patch, else its
# revert turned round: the upstream fix)
if [ -z "$fix" ]; then
	bug_check
	[ -n "$BUG" ] || die "verify-fix needs FIX=PATCH (or BUG=NAME: that bug's own fix)"
	fix="$RIG_ROOT/bugs/$BUG/fix.patch"
	[ -f "$fix" ] || { fix="$tmp/$BUG-fix.patch"; patch_reverse "$(bug_patch)" >"$fix"; }
fi
[ -f "$fix" ] && [ -r "$fix" ] || die "FIX: no readable patch '$fix'"
grep -q '^+++ ' "$fix" || die "FIX: '$fix' is not a patch (no '+++ ' line)"
SEEDS=${SEEDS:-3} BUDGET=${BUDGET:-1800} TITLE=${TITLE:-} REPORT=${REPORT:-}
[[ "$SEEDS" =~ ^[1-9][0-9]*$ ]] || die "SEEDS must be a positive number (got '$SEEDS')"
[[ "$BUDGET" =~ ^[0-9]+$ ]] && [ "$BUDGET" -ge 30 ] || die "BUDGET must be at least 30 (seconds; got '$BUDGET')"
[ -z "$TITLE" ] || [ -z "$REPORT" ] || die "TITLE and REPORT both name the finding: give one"
kver_check
bug_check
[ -z "$KERNEL_SRC" ] || die "verify-fix builds variants of the package's tree; it does not go with KERNEL_SRC"
[ "${fix#"$tmp"}" != "$fix" ] || fix=$(realpath "$fix")
# FIX must apply on top of this kernel's variant patches, before any build
# shellcheck disable=SC2046 # patch paths have no spaces
fail=$(patch_failure $(variant_patches) "$fix")
[ -z "$fail" ] || die "FIX: $fix does not apply on top of this kernel${BUG:+ (BUG=$BUG)}:
$fail"

rot=${SCENARIO:-hunt}
[ -z "$REPORT" ] && [ -z "$TITLE" ] && [ -n "$BUG" ] && [ -f "$RIG_ROOT/bugs/$BUG/report.txt" ] && REPORT=$RIG_ROOT/bugs/$BUG/report.txt
export UNTIL_TITLE='' UNTIL_EXPECT=''
if [ -n "$REPORT" ]; then
	report_finding "$REPORT" "$user_ut" "$tmp/report.rot"
	[ -n "${SCENARIO:-}" ] || rot="$tmp/report.rot"
	what="'$UNTIL_TITLE' (REPORT=$REPORT)"
elif [ -n "$TITLE" ]; then
	UNTIL_TITLE=$TITLE what="'$TITLE'"
elif [ -n "$BUG" ]; then
	UNTIL_EXPECT=$(bug_info "$BUG" Expect) what="BUG=$BUG's Expect: $UNTIL_EXPECT"
	[ -n "$user_ut" ] || UNDER_TEST=$(bug_info "$BUG" Code)
else
	die "verify-fix needs the finding: TITLE=..., REPORT=FILE or BUG=NAME"
fi
under_test_check
"$RIG_ROOT/host/hunt/soak.sh" --check "$rot" "${BUDGET}s" || exit 2
[ -z "$check_only" ] || exit 0

id="verify-fix-$(date +%Y%m%d-%H%M%S)"
# the rotation (or scenario), kept beside the runs
src=$rot
[ -f "$src" ] || src="$RIG_ROOT/stress/scenarios/$rot.rot"
[ -f "$src" ] || src="$RIG_ROOT/stress/scenarios/$rot.scn"
mkdir -p "$LOGS"
cp "$src" "$LOGS/$id.${src##*.}"
rot="$LOGS/$id.${src##*.}"
say "verify-fix: looking for $what, $SEEDS seed(s) of $(basename "$rot"), $BUDGET s each, without and with $(basename "$fix")"
without=0 with=0 t0=$SECONDS masked=''
for seed in $(seq "$SEEDS"); do
	rc=0
	HUNT_ID="$id-without-s$seed" "$RIG_ROOT/host/hunt/hunt.sh" "$rot" "$seed" "$BUDGET" >"$tmp/out" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || exit "$rc"
	rounds=$(python3 "$RIG_ROOT/host/report/results.py" brief "$LOGS/$id-without-s$seed" | cut -f4)
	say "verify-fix: without the fix, seed $seed: $(head -n1 "$tmp/out")"
	[ "$rc" = 0 ] || without=$((without + 1))
	rc=0
	ROUNDS="1-$rounds" RIG_PATCHES="$RIG_PATCHES $fix" HUNT_ID="$id-with-s$seed" \
		"$RIG_ROOT/host/hunt/hunt.sh" "$rot" "$seed" "$BUDGET" >"$tmp/out" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || exit "$rc"
	say "verify-fix: with the fix, seed $seed, the same $rounds round(s): $(head -n1 "$tmp/out")"
	[ "$rc" = 0 ] || with=$((with + 1))
	# a round with the fix that a crash or hang of another bug ended
	# early ran only part of its load: it proves nothing either way
	cut=$(python3 "$RIG_ROOT/host/report/results.py" cut "$LOGS/$id-with-s$seed" | head -n1)
	[ "$rc" != 0 ] || [ -z "$cut" ] || {
		masked="$masked seed $seed (${cut/$'\t'/: })"
		say "verify-fix: with the fix, seed $seed: round ${cut%%$'\t'*} ended at another bug's crash or hang"; }
done
runs="$SEEDS seed(s), $((SECONDS - t0)) s; logs: $LOGS/$id-*"
if [ "$with" -gt 0 ]; then
	echo "verify-fix: not fixed: $what came back with the fix in $with/$SEEDS seeds (without it: $without/$SEEDS); $runs"
	exit 1
elif [ -n "$masked" ]; then
	echo "verify-fix: inconclusive: with the fix, rounds ended early at another bug:$masked; $what came back without the fix in $without/$SEEDS seeds; $runs"
	exit 3
elif [ "$without" = 0 ]; then
	echo "verify-fix: inconclusive: $what did not come back without the fix (0/$SEEDS) within $BUDGET s; $runs"
	exit 3
fi
echo "verify-fix: fixed: $what came back without the fix in $without/$SEEDS seeds and never with it (0/$SEEDS, the same rounds); $runs"
