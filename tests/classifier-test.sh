#!/usr/bin/env bash
# test: classifier 40 host
# Tests of host/report/classify against the sample console logs in tests/classifier/.
#
# For each tests/classifier/NAME.log: runs
#     host/report/classify $(cat NAME.args) NAME.log [NAME.results]
# (NAME.args and NAME.results are optional) and compares its output with
# NAME.expected; the exit status must be 1 if NAME.expected lists findings, else 0.
# Then a few checks of the exit status contract. Prints "ok - classifier: ..." or
# "not ok - classifier: ..." (with a diff) per check; exits 0 iff all passed.
#
# To add a case: drop NAME.log in tests/classifier/, check the output of
# host/report/classify on it by hand, and save that output as NAME.expected.
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
classify=$root/host/report/classify
dir=$root/tests/classifier
TEST_GROUP=classifier
. "$root/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


for log in "$dir"/*.log; do
	name=$(basename "$log" .log)
	args=()
	if [ -f "$dir/$name.args" ]; then
		read -r -a args <"$dir/$name.args"
	fi
	files=("$log")
	[ -f "$dir/$name.results" ] && files+=("$dir/$name.results")
	if [ ! -f "$dir/$name.expected" ]; then
		fail "$name"
		echo "#   missing $name.expected"
		continue
	fi
	rc=0
	"$classify" "${args[@]}" "${files[@]}" >"$tmp/out" 2>"$tmp/err" || rc=$?
	want_rc=0
	[ -s "$dir/$name.expected" ] && want_rc=1
	if diff -u "$dir/$name.expected" "$tmp/out" >"$tmp/diff" && [ "$rc" -eq "$want_rc" ]; then
		pass "$name"
	else
		fail "$name"
		echo "#   exit status $rc (want $want_rc)"
		sed 's/^/#   /' "$tmp/diff" "$tmp/err"
	fi
done

# Exit status contract: 0 = no finding, 1 = findings, 2 = usage error or unreadable file.
check_rc() { # name want_rc want_empty_output classify-args...
	local name=$1 want=$2 empty=$3 rc=0
	shift 3
	"$classify" "$@" >"$tmp/out" 2>/dev/null || rc=$?
	if [ "$rc" -eq "$want" ] && { [ "$empty" = no ] || [ ! -s "$tmp/out" ]; }; then
		pass "$name"
	else
		fail "$name"
		echo "#   exit status $rc (want $want)"
		sed 's/^/#   /' "$tmp/out"
	fi
}
check_rc "clean log exits 0 with no output" 0 yes "$dir/clean-boot.log"
check_rc "findings exit 1" 1 no "$dir/kasan-uaf.log"
check_rc "missing file exits 2" 2 yes "$tmp/no-such-console.log"
check_rc "missing results file exits 2" 2 yes "$dir/kasan-uaf.log" "$tmp/no-such-results"
check_rc "no argument exits 2" 2 yes
check_rc "unknown option exits 2" 2 yes --frobnicate "$dir/kasan-uaf.log"

# The one table (host/report/report-patterns) behind the watchdog's regexes: every
# kernel finding of every sample starts on a line that REPORT_RE matches (so
# the host and the guest see each report the classifier titles), "kernel BUG
# at" is a splat, a hung task a report only.
splat_re=$("$classify" --re splat) report_re=$("$classify" --re report)
missed=''
for log in "$dir"/*.log; do
	args=(); [ -f "${log%.log}.results" ] && args=("${log%.log}.results")
	for n in $("$classify" --json "$log" "${args[@]}" | sed -n '/"kind": "rig"/d; s/.*"first_line": \([1-9][0-9]*\)}.*/\1/p'); do
		sed -n "${n}p" "$log" | grep -qE "\] ($report_re)" || missed="$missed $(basename "$log"):$n"
	done
done
[ -z "$missed" ] && pass "every finding's first line matches REPORT_RE" || { fail "every finding's first line matches REPORT_RE"; echo "#   missed:$missed"; }
line='[  255.862498][  T702] kernel BUG at block/cfq-iosched.c:1187!'
grep -qE "\] ($splat_re)" <<<"$line" && pass "kernel BUG at is in SPLAT_RE" || fail "kernel BUG at is in SPLAT_RE"
line='[  120.1][   T52] INFO: task fio:733 blocked for more than 30 seconds.'
grep -qE "\] ($report_re)" <<<"$line" && ! grep -qE "\] ($splat_re)" <<<"$line" &&
	pass "a hung task is in REPORT_RE, not SPLAT_RE" || fail "a hung task is in REPORT_RE, not SPLAT_RE"
( . "$root/host/lib.sh" && [ "$SPLAT_RE" = "$splat_re" ] && [ "$REPORT_RE" = "$report_re" ] ) &&
	pass "host/lib.sh SPLAT_RE and REPORT_RE come from the table" || fail "host/lib.sh SPLAT_RE and REPORT_RE come from the table"
check_rc "--re with an unknown set exits 2" 2 yes --re all
# a bad rule is an error with its line, before any log is read
mkdir -p "$tmp/bad"
cp "$root/host/report/classify" "$root/host/report/classify.awk" "$tmp/bad/"
printf 'bug\tsplat\t^BUG: \tBUG in @X@\tfrom=rip\n' >"$tmp/bad/report-patterns"
rc=0; "$tmp/bad/classify" "$dir/kasan-uaf.log" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "report-patterns:1: unknown option 'from=rip'" "$tmp/err" &&
	pass "a bad rule in the table exits 2 with its line" || { fail "a bad rule in the table exits 2 with its line"; sed 's/^/#   /' "$tmp/err"; }
printf 'hung\treport\t^INFO: task can'"'"'t die\tx\n' >"$tmp/bad/report-patterns"
rc=0; "$tmp/bad/classify" --re report >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "single quote" "$tmp/err" &&
	pass "a header with a quote (it travels in run.conf) exits 2" || fail "a header with a quote (it travels in run.conf) exits 2"

# host/report/suppress: known issues are split off; a KCSAN race in a cfq_ function
# always counts, even when a rule matches it
printf '%s\tnot a bug of the scheduler\n' '^inconsistent lock state in crng_make_state$' '^KCSAN: data-race in ' >"$tmp/known"
printf 'finding\tlockdep\tinconsistent lock state in crng_make_state\nfinding\tkcsan\tKCSAN: data-race in cfq_dispatch_request / cfq_completed_request\nfinding\tkcsan\tKCSAN: data-race in __mod_timer / run_timer_softirq\nfinding\twarning\tWARNING in cfq_put_queue\n' >"$tmp/f"
got=$("$root/host/report/suppress" "$tmp/known" <"$tmp/f" | cut -f3 | tr '\n' '|')
[ "$got" = "KCSAN: data-race in cfq_dispatch_request / cfq_completed_request|WARNING in cfq_put_queue|" ] &&
	pass "suppress keeps the findings that count, and every cfq_ race" || { fail "suppress keeps the findings that count"; echo "#   got: $got"; }
got=$("$root/host/report/suppress" --suppressed "$tmp/known" <"$tmp/f" | cut -f3 | tr '\n' '|')
[ "$got" = "inconsistent lock state in crng_make_state|KCSAN: data-race in __mod_timer / run_timer_softirq|" ] &&
	pass "suppress --suppressed lists the known issues" || { fail "suppress --suppressed lists the known issues"; echo "#   got: $got"; }
# other kernel findings: outside the code under test (host/report/under-test)
printf '%s\tbenign\n' '^KCSAN: data-race in bfq_limit_depth' >"$tmp/known2"
printf 'finding\tkcsan\tKCSAN: data-race in blk_mq_run_hw_queue / blk_mq_run_hw_queue\nfinding\tkasan\tKASAN: use-after-free Read in bfq_idle_slice_timer_body\nfinding\thung\tINFO: task hung in blk_mq_freeze_queue_wait\nfinding\tkcsan\tKCSAN: data-race in bfq_limit_depth / bfq_add_bfqq_busy\n' >"$tmp/o"
got=$("$root/host/report/suppress" --label "$tmp/known2" <"$tmp/o" | cut -f1 | tr '\n' ' ')
[ "$got" = "other other finding suppressed " ] &&
	pass "suppress: under cfq, a block-core race and a bfq report are other kernel findings" ||
	{ fail "suppress: under cfq, a block-core race and a bfq report are other kernel findings"; echo "#   got: $got"; }
got=$(UNDER_TEST=bfq "$root/host/report/suppress" --label "$tmp/known2" <"$tmp/o" | cut -f1 | tr '\n' ' ')
[ "$got" = "other finding finding suppressed " ] &&
	pass "suppress: UNDER_TEST=bfq counts bfq's report; its race known-issues lists stays suppressed" ||
	{ fail "suppress: UNDER_TEST=bfq counts bfq's report; its listed race stays suppressed"; echo "#   got: $got"; }
printf 'finding\tkcsan\tKCSAN: data-race in cfq_dispatch_request / cfq_insert_requests\n' >"$tmp/o2"
printf '%s\tbenign\n' '^KCSAN: data-race in cfq_' >"$tmp/known3"
got=$("$root/host/report/suppress" --label "$tmp/known3" <"$tmp/o2" | cut -f1)
[ "$got" = finding ] && pass "suppress: a cfq_ race counts even when known-issues lists it (the series' own code)" ||
	{ fail "suppress: a cfq_ race counts even when known-issues lists it"; echo "#   got: $got"; }
got=$(UNDER_TEST=core "$root/host/report/suppress" --other "$tmp/known2" <"$tmp/o" | wc -l)
[ "$got" = 0 ] && pass "suppress: UNDER_TEST=core has no other kernel finding in the block layer" ||
	{ fail "suppress: UNDER_TEST=core has no other kernel finding"; echo "#   got: $got"; }
got=$(FAIL_ON_OTHER=1 "$root/host/report/suppress" "$tmp/known2" <"$tmp/o" | wc -l)
[ "$got" = 3 ] && pass "suppress: FAIL_ON_OTHER=1 counts the other kernel findings" ||
	{ fail "suppress: FAIL_ON_OTHER=1 counts the other kernel findings"; echo "#   got: $got"; }
rc=0; UNDER_TEST=xfs "$root/host/report/suppress" "$tmp/known2" </dev/null 2>/dev/null || rc=$?
[ "$rc" = 2 ] && pass "suppress: an unknown UNDER_TEST exits 2" || fail "suppress: an unknown UNDER_TEST exits 2 (got $rc)"
"$root/host/report/suppress" >/dev/null 2>&1 </dev/null; rc=$?
[ "$rc" = 2 ] && pass "suppress without a file exits 2" || fail "suppress without a file exits 2 (got $rc)"

# the rig's own titles (host/report/rig-titles): every key the code names is in
# the table and every key of the table is named; each title, as the guest
# or the host writes it, is classified once as a rig finding with that title
keys=$(awk -F'\t' '!/^#/ && NF >= 3 { print $1 }' "$root/host/report/rig-titles" | sort)
used=$( (grep -rhoE 'rig_finding [a-z][a-z-]+' "$root/guest"; grep -rhoE 'rig_title [a-z][a-z-]+' "$root/host") |
	awk '{ print $2 }'; grep -rhoE 'rig_finding "audit-' "$root/guest" >/dev/null &&
	awk '/^function breach/ { f = 1 } f && match($0, /breach\("[a-z]+"/) { print "audit-" substr($0, RSTART + 8, RLENGTH - 9) }' \
		"$root/guest/slice-audit.awk")
used=$(echo "$used" | sort -u)
[ -n "$keys" ] && [ "$keys" = "$used" ] && pass "rig-titles: every key the code names is in the table, and each is used" ||
	{ fail "rig-titles: every key the code names is in the table, and each is used"; diff <(echo "$keys") <(echo "$used") | sed 's/^/#   /'; }
bad=''
while IFS=$'\t' read -r key fmt _; do
	n=$(grep -o "%s" <<<"$fmt" | wc -l)
	# shellcheck disable=SC2046,SC2059 # one word per %s of the table's format
	t=$(printf "$fmt" $(seq -f "arg%g" 1 "$n"))
	case $key in host-*) line="RIG-HANG: $t" want="hang: $t" ;; *) line="[   1.000000][  T61] RIG-FINDING: $t" want=$t ;; esac
	printf '%s\n' "$line" >"$tmp/t.log"
	got=$("$classify" "$tmp/t.log" 2>/dev/null | awk -F'\t' '$1 == "finding"' )
	[ "$got" = "$(printf 'finding\trig\t%s' "$want")" ] || bad="$bad $key"
done < <(grep -v '^#' "$root/host/report/rig-titles")
[ -z "$bad" ] && pass "rig-titles: each title is classified once as a rig finding with that title" ||
	fail "rig-titles: each title is classified once as a rig finding with that title (not:$bad)"

tests_done
