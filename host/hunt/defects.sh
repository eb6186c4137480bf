#!/usr/bin/env bash
# The review's defects (issue #12), put back one at a time: each
# patch/$KVER/defects/NN-name.patch undoes one fix in cfq-iosched.c (rig-only,
# never part of the series). The scheduler's guest checks (guest/jobs/cfq.sh)
# run against a module built with it, or, for a "Check: not ok - static:"
# line, its static checks (host/build/cfq-static.sh) on the file; the check
# named on its "Check:" line must fail: the proof that the check fails
# without the fix.
#
# usage: host/hunt/defects.sh [--check] [NN[,NN]]   (KVER, FLAVOR, RIG_CACHE as usual)
#   --check: only check the input (exit 0 or 2), before any build
# prints: one line per defect: name, caught|missed, the failing check
# exit: 0 every defect caught, 1 one was missed, 2 bad input
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

check=0
[ "${1:-}" != --check ] || { check=1; shift; }
only=${1:-}
[[ "$only" =~ ^([0-9]{2}(,[0-9]{2})*)?$ ]] || die "usage: host/hunt/defects.sh [NN[,NN]] (got '$only')"
kver_check
dir="$RIG_ROOT/patch/$KVER/defects"
mapfile -t all < <(ls "$dir"/*.patch 2>/dev/null)
[ ${#all[@]} -gt 0 ] || die "no defects in $dir"
picked=()
for p in "${all[@]}"; do
	n=$(basename "$p"); n=${n%%-*}
	[ -z "$only" ] || [[ ",$only," == *",$n,"* ]] || continue
	grep -q '^Check: ' "$p" || die "$(basename "$p"): no Check: line"
	picked+=("$p")
done
[ ${#picked[@]} -gt 0 ] || die "no defect matches '$only' (have: $(cd "$dir" && ls ./*.patch | sed 's|^\./||; s/-.*//' | tr '\n' ' '))"
flavor_fragments "$FLAVOR" >/dev/null
[ "$check" = 0 ] || exit 0

build=$("$RIG_ROOT/host/build/kernel.sh" | tail -n1)
"$RIG_ROOT/host/build/image.sh" "$build" >/dev/null
id="defects-$(date +%Y%m%d-%H%M%S)"
out="$LOGS/$id"
mkdir -p "$out"
say "defects $id: ${#picked[@]} defect(s), one guest run of the cfq checks each"
rc=0
for p in "${picked[@]}"; do
	name=$(basename "$p" .patch)
	check=$(sed -n 's/^Check: //p' "$p")
	if [[ "$check" == "not ok - static: "* ]]; then
		# a static check (host/build/cfq-static.sh) on the file with the defect
		cfq_module_dir "$build/defects/$name" "" "$p"
		"$RIG_ROOT/host/build/cfq-static.sh" "$build/defects/$name/block/cfq-iosched.c" "$build" >"$out/$name.out" 2>&1 || true
		line=$(grep -aF -- "$check" "$out/$name.out" | head -n1 || true)
	else
		ko=$(build_cfq_module "$build" "$build/defects/$name" "$p")
		# "Section: NN": the check's section needs no earlier one, run it alone
		sec=$(sed -n 's/^Section: \([0-9][0-9]\)$/\1/p' "$p")
		RUN_ID="$id/$name" TIMEOUT=1500 MUTANT_KO="$ko" "$RIG_ROOT/host/vm/run.sh" cfq \
			${sec:+RIG_CFQ_SECTIONS=$sec} >"$out/$name.out" 2>&1 || true
		line=$(grep -aF -- "$check" "$out/$name/results.log" 2>/dev/null | head -n1 || true)
	fi
	if [ -n "$line" ]; then r=caught; else r=missed; rc=1; line="(no '$check' in $out/$name)"; fi
	printf '%-36s %-7s %s\n' "$name" "$r" "$line" | tee -a "$out/table"
done
say "defects $id: $(grep -c ' caught ' "$out/table" || true) of ${#picked[@]} caught (table: $out/table)"
exit "$rc"
