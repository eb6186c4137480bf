#!/usr/bin/env bash
# Does a finding come back on this kernel? Builds the kernels a rotation
# boots, then soaks it until the finding comes back (UNTIL_TITLE: that title,
# host/lib.sh same_title; UNTIL_EXPECT: Expect: words, title_expected) or
# BUDGET seconds end. The step that host/hunt/report.sh, host/hunt/verify-fix.sh and
# host/hunt/bisect.sh share; usable as it is with git bisect run.
#
# usage: host/hunt/hunt.sh [--check] ROTATION SEED BUDGET
#   ROTATION  a rotation or scenario (stress/scenarios/NAME, or a file)
# settings: UNTIL_TITLE or UNTIL_EXPECT (one is needed), ROUNDS=a-b (exactly
#   those rounds, whatever BUDGET says), HUNT_ID (the soak's directory under
#   LOGS), UNDER_TEST, BUG, RIG_PATCHES, FLAVOR, KVER
# prints: "hunt: came back in ROUND after SECS s: TITLE" or "hunt: did not
#   come back in N rounds, SECS s", and the soak directory on the last line
# exit (as git bisect run reads it): 0 did not come back, 1 came back,
#   125 this kernel cannot be built or booted, 2 bad input
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

check_only=''
[ "${1:-}" != --check ] || { check_only=1; shift; }
[ $# -eq 3 ] || die "usage: host/hunt/hunt.sh [--check] ROTATION SEED BUDGET (UNTIL_TITLE= or UNTIL_EXPECT=)"
rot=$1 seed=$2 budget=$3
[ -n "${UNTIL_TITLE:-}${UNTIL_EXPECT:-}" ] || die "hunt: UNTIL_TITLE or UNTIL_EXPECT names the finding to look for"
[[ "$budget" =~ ^[0-9]+$ ]] && [ "$budget" -ge 30 ] || die "BUDGET must be at least 30 (seconds; got '$budget')"
"$RIG_ROOT/host/hunt/soak.sh" --check "$rot" "${budget}s" "$seed" || exit 2
[ -z "$check_only" ] || exit 0

# 125: a kernel of the rotation does not build (a bisect skips this step)
file=$rot
[ -f "$file" ] || file="$RIG_ROOT/stress/scenarios/$rot.rot"
[ -f "$file" ] || file="$RIG_ROOT/stress/scenarios/$rot.scn"
for f in $(rotation_flavors "$file"); do
	FLAVOR=$f "$RIG_ROOT/host/build/kernel.sh" >/dev/null || { say "hunt: the $f kernel does not build"; exit 125; }
done

id=${HUNT_ID:-hunt-$(date +%Y%m%d-%H%M%S)}
rc=0
KEEP_GOING=1 SOAK_ID=$id "$RIG_ROOT/host/hunt/soak.sh" "$rot" "${budget}s" "$seed" >"$LOGS/$id.out" 2>&1 || rc=$?
[ "$rc" != 3 ] || { say "hunt: a kernel or image of the rotation does not build"; exit 125; }
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { tail -n5 "$LOGS/$id.out" >&2; exit "$rc"; }
s="$LOGS/$id/summary"
# 125: the first round's guest never reached init
if [ "$(sed -n 's/^status=//p' "$LOGS/$id/r001/summary" 2>/dev/null)" = crash ] &&
	[ "$(sed -n 's/^boot_to_init_s=//p' "$LOGS/$id/r001/summary")" = none ]; then
	say "hunt: the kernel does not boot (see $LOGS/$id/r001/console.log)"
	exit 125
fi
rep=$(sed -n 's/^reproduced=//p' "$s")
if [ -n "$rep" ]; then
	echo "hunt: came back in ${rep%%$'\t'*} after $(sed -n 's/^first_finding_s=//p' "$s") s: ${rep#*$'\t'}"
else
	echo "hunt: did not come back in $(sed -n 's/^rounds=//p' "$s") rounds, $(sed -n 's/^duration_s=//p' "$s") s"
fi
echo "$LOGS/$id"
[ -z "$rep" ]
