#!/usr/bin/env bash
# test: static 05 host
# Static checks: checkpatch --strict on every patch of the series, the
# series applies in order, shellcheck on every shell script.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. host/lib.sh
TEST_GROUP=static
. tests/lib.sh
tree=$(kernel_tree)
[ -x "$tree/scripts/checkpatch.pl" ] || { fail "kernel tree missing (run make kernel)"; exit 1; }
n=0
for p in $(series_files); do
	n=$((n + 1))
	out=$(perl "$tree/scripts/checkpatch.pl" --strict --no-tree --no-color --terse "$p" 2>&1)
	errs=$(grep -c ': ERROR:' <<<"$out")
	# a warning counts as justified when the commit message quotes it
	# (after "checkpatch:"), as the guide asks
	msg=$(sed '/^---$/q' "$p" | tr '\n' ' ' | tr -s ' ')
	warns=0 justified=0
	while IFS= read -r w; do
		text=${w#*: WARNING: }; text=${text#*: CHECK: }
		if [[ "$msg" == *checkpatch:* && "$msg" == *"$text"* ]]; then justified=$((justified + 1)); else warns=$((warns + 1)); fi
	done < <(grep ': WARNING:\|: CHECK:' <<<"$out")
	if [ "$errs" = 0 ] && [ "$warns" = 0 ]; then
		pass "checkpatch --strict clean ($justified justified in the commit message): $(basename "$p")"
	else
		fail "checkpatch --strict: $(basename "$p"): $errs errors, $warns warnings/checks"
		sed 's/^/#   /' <<<"$out" | head -10
	fi
	grep -q '^Subject: \[PATCH' "$p" && grep -q '^Signed-off-by: ' "$p" &&
		pass "format-patch form with sign-off: $(basename "$p")" ||
		fail "format-patch form with sign-off: $(basename "$p")"
done
[ "$n" -gt 0 ] && pass "series has $n patches" || fail "series is empty"
nm=$(merge_series | wc -l)
[ "$nm" -ge 1 ] && [ "$nm" -le 8 ] && pass "the series for merge has $nm patches (at most 8)" ||
	fail "the series for merge has $nm patches (at most 8)"
cl=$(cover_letter)
if grep -q "^Subject: \[PATCH 0/$nm\] " "$cl" 2>/dev/null && ! grep -q '\*\*\*' "$cl"; then
	pass "cover letter: $(sed -n 's/^Subject: //p' "$cl")"
else
	fail "cover letter $cl: a filled 'Subject: [PATCH 0/$nm]' (git format-patch --cover-letter)"
fi

# the series applies in order onto a pristine copy of the files it touches
tmp=$(mktemp -d)
mapfile -t patches < <(series_files)
mapfile -t files < <(cat "${patches[@]}" /dev/null | sed -n "s|^--- a/|linux-source-$KVER/|p" | sort -u)
tar -xJf "$(src_tarball)" -C "$tmp" "${files[@]}" 2>/dev/null
ok=1
for p in $(series_files); do
	patch -d "$tmp/linux-source-$KVER" -p1 -s --dry-run <"$p" >/dev/null 2>&1 &&
		patch -d "$tmp/linux-source-$KVER" -p1 -s <"$p" >/dev/null 2>&1 || { ok=0; echo "#   $(basename "$p") does not apply"; }
done
if [ $ok = 1 ]; then pass "series applies in order with patch -p1"; else fail "series applies in order with patch -p1"; fi
# bisectable: the scheduler builds (W=1, no warning) at every patch that
# changes it, as a module against this line's built kernel
build=$(kernel_build)
if [ -f "$build/Module.symvers" ]; then
	rm -rf "$tmp/src" && mkdir -p "$tmp/src" && tar -xJf "$(src_tarball)" -C "$tmp/src" "${files[@]}" 2>/dev/null
	for p in $(merge_series); do
		patch -d "$tmp/src/linux-source-$KVER" -p1 -s <"$p" >/dev/null 2>&1 || break
		grep -q '^+++ b/block/cfq-iosched.c' "$p" || continue
		cfq_module_dir "$tmp/mod" "$tmp/src/linux-source-$KVER/block/cfq-iosched.c"
		out=$(cfq_module_make "$build" "$tmp/mod" W=1)
		[ $? = 0 ] && [ -z "$(grep -i 'warning:\|error:' <<<"$out")" ] &&
			pass "cfq-iosched.c builds with W=1, no warning, at $(basename "$p")" ||
			fail "cfq-iosched.c builds with W=1, no warning, at $(basename "$p")" "$(head -20 <<<"$out")"
	done
	# the final file: sparse, and the rules a compiler does not check
	while IFS= read -r l; do
		case $l in
		"ok - static: "*) pass "${l#ok - static: }" ;;
		"not ok - static: "*) fail "${l#not ok - static: }" ;;
		esac
	done < <(host/build/cfq-static.sh "$tmp/src/linux-source-$KVER/block/cfq-iosched.c" "$build" 2>&1)
else
	skip "the series builds at every patch" "no built kernel in $build (make kernel)"
fi
# every planted mutant of this line applies on top of the series
nm=0 bad=""
for m in "$(mutant_dir)"/*.patch; do
	[ -f "$m" ] || continue
	nm=$((nm + 1))
	patch -d "$tmp/linux-source-$KVER" -p1 -s --dry-run <"$m" >/dev/null 2>&1 || bad="$bad $(basename "$m" .patch)"
done
rm -rf "$tmp"
if [ "$nm" -gt 0 ] && [ -z "$bad" ]; then pass "the $nm mutants of $KVER apply on top of the series"; else fail "the mutants of $KVER apply on top of the series (failing:${bad:- no mutants})"; fi

scripts=$(ls host/*.sh host/*/*.sh tests/*.sh .ci/run host/report/classify host/report/suppress host/rig 2>/dev/null)
if out=$(shellcheck -x -S warning $scripts 2>&1); then
	pass "shellcheck ($(wc -w <<<"$scripts") scripts)"
else
	fail "shellcheck" "$out"
fi
if out=$(shellcheck -s sh -S warning guest/init guest/lib.sh guest/jobs/*.sh guest/jobs/cfq/*.sh 2>&1); then
	pass "shellcheck guest scripts"
else
	fail "shellcheck guest scripts" "$out"
fi
# every command a user, make or tests/run.sh runs is executable in the
# checkout (a group that cannot be run used to show only as "ran no check")
noexec=$(for f in host/*.sh host/*/*.sh host/report/classify host/report/suppress host/rig tests/*.sh .ci/run stress/splat.sh guest/init; do
	[ -x "$f" ] || [ "$f" = tests/lib.sh ] || echo "$f"; done)
[ -z "$noexec" ] && pass "every script is executable" ||
	fail "not executable: $(tr '\n' ' ' <<<"$noexec")"
