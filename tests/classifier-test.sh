#!/usr/bin/env bash
# Tests of host/classify against the sample console logs in tests/classifier/.
#
# For each tests/classifier/NAME.log: runs
#     host/classify $(cat NAME.args) NAME.log [NAME.results]
# (NAME.args and NAME.results are optional) and compares its output with
# NAME.expected; the exit status must be 1 if NAME.expected lists findings, else 0.
# Then a few checks of the exit status contract. Prints "ok - classifier: ..." or
# "not ok - classifier: ..." (with a diff) per check; exits 0 iff all passed.
#
# To add a case: drop NAME.log in tests/classifier/, check the output of
# host/classify on it by hand, and save that output as NAME.expected.
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
classify=$root/host/classify
dir=$root/tests/classifier
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - classifier: $1"; }
not_ok() { echo "not ok - classifier: $1"; failed=1; }

for log in "$dir"/*.log; do
	name=$(basename "$log" .log)
	args=()
	if [ -f "$dir/$name.args" ]; then
		read -r -a args <"$dir/$name.args"
	fi
	files=("$log")
	[ -f "$dir/$name.results" ] && files+=("$dir/$name.results")
	if [ ! -f "$dir/$name.expected" ]; then
		not_ok "$name"
		echo "#   missing $name.expected"
		continue
	fi
	rc=0
	"$classify" "${args[@]}" "${files[@]}" >"$tmp/out" 2>"$tmp/err" || rc=$?
	want_rc=0
	[ -s "$dir/$name.expected" ] && want_rc=1
	if diff -u "$dir/$name.expected" "$tmp/out" >"$tmp/diff" && [ "$rc" -eq "$want_rc" ]; then
		ok "$name"
	else
		not_ok "$name"
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
		ok "$name"
	else
		not_ok "$name"
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

# host/suppress: known issues are split off; a KCSAN race in a cfq_ function
# always counts, even when a rule matches it
printf '%s\tnot a bug of the scheduler\n' '^inconsistent lock state in crng_make_state$' '^KCSAN: data-race in ' >"$tmp/known"
printf 'finding\tlockdep\tinconsistent lock state in crng_make_state\nfinding\tkcsan\tKCSAN: data-race in cfq_dispatch_request / cfq_completed_request\nfinding\tkcsan\tKCSAN: data-race in __mod_timer / run_timer_softirq\nfinding\twarning\tWARNING in cfq_put_queue\n' >"$tmp/f"
got=$("$root/host/suppress" "$tmp/known" <"$tmp/f" | cut -f3 | tr '\n' '|')
[ "$got" = "KCSAN: data-race in cfq_dispatch_request / cfq_completed_request|WARNING in cfq_put_queue|" ] &&
	ok "suppress keeps the findings that count, and every cfq_ race" || { not_ok "suppress keeps the findings that count"; echo "#   got: $got"; }
got=$("$root/host/suppress" --suppressed "$tmp/known" <"$tmp/f" | cut -f3 | tr '\n' '|')
[ "$got" = "inconsistent lock state in crng_make_state|KCSAN: data-race in __mod_timer / run_timer_softirq|" ] &&
	ok "suppress --suppressed lists the known issues" || { not_ok "suppress --suppressed lists the known issues"; echo "#   got: $got"; }
"$root/host/suppress" >/dev/null 2>&1 </dev/null; rc=$?
[ "$rc" = 2 ] && ok "suppress without a file exits 2" || not_ok "suppress without a file exits 2 (got $rc)"

exit "$failed"
