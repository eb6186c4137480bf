#!/usr/bin/env bash
# test: bugs 45 host
# The real-bug corpus and the report machinery, without a guest: every
# bugs/NAME/ is complete and its revert applies on top of the series; every
# public report is titled and names the bug's code under test; bad input to
# REPORT=, FIX= and SERIES= exits 2 before any build; the title rules that
# decide "the same finding came back".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. host/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TEST_GROUP=bugs
. tests/lib.sh

# 1. the corpus: complete entries, its spread, and each revert applies
classes="use-after-free refcount timer-teardown lock-order irq-safety preemption lost-wakeup hang list-corruption data-race leak"
mapfile -t bugs < <(bug_names)
check "the corpus has at least 12 bugs (${#bugs[@]})" [ "${#bugs[@]}" -ge 12 ]
n_classes=$(for b in "${bugs[@]}"; do bug_info "$b" Class; done | sort -u | wc -l)
check "the corpus spans at least 6 classes ($n_classes)" [ "$n_classes" -ge 6 ]
n_files=$(for b in "${bugs[@]}"; do bug_info "$b" Files; done | tr ' ' '\n' | grep '^block/' | sort -u | wc -l)
check "the corpus touches at least 4 files of block/ ($n_files)" [ "$n_files" -ge 4 ]
for b in "${bugs[@]}"; do
	miss=''
	for k in Subject Commit Release In-6.1 CVE Fixes Class Code Files Expect Report Load; do
		[ -n "$(bug_info "$b" "$k")" ] || miss="$miss $k"
	done
	c=$(bug_info "$b" Class) code=$(bug_info "$b" Code)
	[[ " $classes " == *" $c "* ]] || miss="$miss Class($c)"
	UNDER_TEST=$code under_test_check 2>/dev/null || miss="$miss Code($code)"
	[[ "$(bug_info "$b" Commit)" =~ ^[0-9a-f]{12,40}$ ]] || miss="$miss Commit"
	check "$b: info has every key and a known class and code${miss:+ (wrong:$miss)}" [ -z "$miss" ]
	if [ -f "$(bug_patch "$b")" ]; then
		fail=$(patch_failure "$(bug_patch "$b")" 2>&1)
		check "$b: its revert applies on top of the series${fail:+ ($fail)}" [ -z "$fail" ]
	else
		pass "$b: no revert for the $KVER line # SKIP"
	fi
	if [ -f "bugs/$b/report.txt" ]; then
		out=$(UNDER_TEST='' host/hunt/report.sh --analyse "bugs/$b/report.txt" 2>&1)
		got=$(sed -n 's/^under_test=//p' <<<"$out")
		check "$b: its public report is titled and names its code, $code (got '${got:-none}': $(sed -n 's/^title=//p' <<<"$out"))" [ "$got" = "$code" ]
	fi
done
# a lockdep report prints the stacks where its lock was used before its own
# (the completion path every round runs): the scenarios follow its own stack,
# __blk_mq_tag_busy, which only tag-set reaches
got=$(UNDER_TEST='' host/hunt/report.sh --analyse bugs/core-tag-busy-irq-unsafe/report.txt 2>&1 | sed -n 's/^scenarios=//p')
check "REPORT=: a lockdep report's scenarios follow its own stack: tag-set first (got '$got')" [ "${got%% *}" = tag-set ]
# kyber_bio_merge under kyber: only migrate's reach holds it
got=$(UNDER_TEST='' host/hunt/report.sh --analyse bugs/kyber-bio-merge-preempt-oob/report.txt 2>&1 | sed -n 's/^scenarios=//p')
check "REPORT=: kyber's UBSAN report picks migrate, the round that reaches kyber_bio_merge (got '$got')" [ "${got%% *}" = migrate ]
[ ! -f "$(bug_patch live-ioc-clear-queue)" ] || {
	fail=$(patch_failure "$(bug_patch live-ioc-clear-queue)" bugs/live-ioc-clear-queue/fix.patch 2>&1)
	check "live-ioc-clear-queue: the backport applies on top of its window${fail:+ ($fail)}" [ -z "$fail" ]
}

# 2. bad input: exit 2 with a reason, nothing built (an empty RIG_CACHE stays empty)
mkdir -p "$tmp/cache" "$tmp/logs"
refused() { # NAME PATTERN CMD...: exit 2 with PATTERN, nothing in the cache
	local name=$1 pat=$2 out rc
	shift 2
	out=$(RIG_CACHE="$tmp/cache" LOGS="$tmp/logs" "$@" 2>&1)
	rc=$?
	if [ "$rc" = 2 ] && grep -qE -- "$pat" <<<"$out" && [ -z "$(ls -A "$tmp/cache")" ]; then pass "$name (exit 2)"
	else fail "$name (exit $rc, want 2 and /$pat/)"; sed 's/^/#   /' <<<"$out" | head -3; fi
}
printf 'hello\nthis is no kernel log\n' >"$tmp/prose.txt"
printf '[  1.0] BUG: KASAN: use-after-free in ext4_find_entry+0x10/0x20\n[  1.0] Call Trace:\n[  1.0]  ext4_find_entry+0x10/0x20\n[  1.0]  ext4_lookup+0x10/0x20\n' >"$tmp/ext4.log"
printf -- '--- a/block/blk-ioc.c\n+++ b/block/blk-ioc.c\n@@ -1,3 +1,3 @@\n-no such line\n+x\n context\n' >"$tmp/bad.patch"
refused "REPORT: no such file" "no readable file" host/hunt/report.sh "$tmp/none.log"
refused "REPORT: not a kernel log" "is not a kernel log: expected a console log" host/hunt/report.sh "$tmp/prose.txt"
refused "REPORT: a stack with no block code asks for UNDER_TEST" "names no block code.*UNDER_TEST=" env UNDER_TEST= host/hunt/report.sh "$tmp/ext4.log"
refused "REPORT: a bad BUDGET" "BUDGET must be at least 30" env BUDGET=5 host/hunt/report.sh "bugs/bfq-idle-timer-uaf/report.txt"
refused "BUG: an unknown bug" "unknown BUG 'nosuch'" env BUG=nosuch host/build/kernel.sh
refused "FIX: not a patch" "is not a patch" host/hunt/verify-fix.sh "$tmp/prose.txt"
refused "FIX: a patch that does not apply" "does not apply on top of this kernel" env TITLE=x host/hunt/verify-fix.sh "$tmp/bad.patch"
refused "verify-fix: no finding named" "needs the finding" host/hunt/verify-fix.sh "$(bug_patch live-ioc-clear-queue)"
mkdir -p "$tmp/empty"
refused "SERIES: no patches" "no \\*.patch" env TITLE=x host/hunt/bisect.sh "$tmp/empty"
refused "UNDER_TEST: unknown" "unknown UNDER_TEST 'xfs'" env UNDER_TEST=xfs host/hunt/soak.sh smoke 1m
refused "realbugs: an unknown bug" "BUGS: no bug 'nosuch'" env BUGS=nosuch host/hunt/realbugs.sh --check

# 3. when has a finding come back? (host/lib.sh same_title, title_expected)
same() { same_title "$1" "$2"; }
differs() { ! same_title "$1" "$2"; }
no_match() { ! title_expected "$1" "$2"; }
check "same_title: KFENCE and KASAN reports of one access in one function" same "KFENCE: use-after-free read in bfq_exit_icq_bfqq" "KASAN: use-after-free Read in bfq_exit_icq_bfqq"
check "same_title: an inlined body is the same function" same "KASAN: use-after-free Read in bfq_idle_slice_timer" "KASAN: use-after-free Read in bfq_idle_slice_timer_body"
check "same_title: an index out of bounds (UBSAN) and its access (KASAN) in one function" same "UBSAN: array-index-out-of-bounds in kyber_bio_merge" "KASAN: slab-out-of-bounds Read in kyber_bio_merge"
check "same_title: UBSAN's other reports are not out-of-bounds accesses" differs "UBSAN: shift-out-of-bounds in kyber_bio_merge" "KASAN: slab-out-of-bounds Read in kyber_bio_merge"
check "same_title: out of bounds is not use-after-free" differs "KASAN: slab-out-of-bounds Read in kyber_bio_merge" "KASAN: use-after-free Read in kyber_bio_merge"
check "same_title: another kind of report is not" differs "KASAN: use-after-free Read in bt_iter" "KASAN: slab-out-of-bounds Read in bt_iter"
check "same_title: another function is not" differs "WARNING in bfq_put_queue" "WARNING in cfq_put_queue"
check "title_expected: one alternative's words all in the title" title_expected "use-after-free ioc_clear_queue / list_del corruption" "KASAN: use-after-free Write in ioc_clear_queue"
check "title_expected: a word missing is no match" no_match "use-after-free bfq_exit_icq" "KASAN: use-after-free Read in bfq_exit_icq_bfqq"

# 4. a report against a round's console (host/lib.sh finding_matches): the
#    rig's KASAN report of bfq-exit-icq-uaf (tests/bugs/console.log, from a
#    default-soak round) names bic_set_bfqq, which the reporter's build
#    inlined into bfq_exit_icq_bfqq, the function its KFENCE report names
mkdir -p "$tmp/round" && cp tests/bugs/console.log "$tmp/round/console.log"
got=$(finding_matches "KFENCE: use-after-free read in bfq_exit_icq_bfqq" "$tmp/round")
check "finding_matches: a KFENCE report's function among the first frames of the rig's KASAN report (got '$got')" \
	[ "$got" = "KASAN: use-after-free Read in bic_set_bfqq" ]
got=$(finding_matches "KFENCE: use-after-free read in do_group_exit" "$tmp/round")
check "finding_matches: a function deeper than four frames is no match (got '$got')" [ -z "$got" ]
got=$(finding_matches "BUG: unable to handle kernel paging request in bfq_exit_icq_bfqq" "$tmp/round")
check "finding_matches: an oops of a kernel without KASAN is the rig's KASAN report of that access (got '$got')" \
	[ "$got" = "KASAN: use-after-free Read in bic_set_bfqq" ]
got=$(finding_matches "WARNING in bfq_exit_icq_bfqq" "$tmp/round")
check "finding_matches: another kind of report is no match (got '$got')" [ -z "$got" ]
out=$(bash -c 'set -euo pipefail; . host/lib.sh; t=$(finding_matches "WARNING in nothing" "$1"); echo "went on [$t]"' _ "$tmp/round" 2>&1)
check "finding_matches: no match under set -e and pipefail (as in host/hunt/soak.sh) goes on (got '$out')" [ "$out" = "went on []" ]
