# shellcheck shell=bash
# What the test groups share: the lines of their checks, which tests/run.sh
# numbers as KTAP subtests and counts. A group sets its name and sources
# this file:
#     TEST_GROUP=inputs; . tests/lib.sh
#   pass DESC              "ok - GROUP: DESC"
#   fail DESC [DETAIL]     "not ok - GROUP: DESC", DETAIL's first lines as
#                          KTAP diagnostics ("#   ...")
#   skip DESC REASON       "ok - GROUP: DESC # SKIP REASON" (counted apart)
#   check DESC CMD...      pass when CMD succeeds, else fail
#   verdict STATUS DESC [DETAIL]   pass when STATUS is 0
#   expect DESC STATUS PATTERN CMD...  CMD exits STATUS and prints a line
#                          that PATTERN (an ERE) matches
#   tests_done             exit 0 when no check of the group failed, else 1
: "${TEST_GROUP:?set TEST_GROUP before sourcing tests/lib.sh}"
TEST_FAILED=0
pass() { echo "ok - $TEST_GROUP: $1"; }
fail() {
	echo "not ok - $TEST_GROUP: $1"
	[ -z "${2:-}" ] || sed 's/^/#   /' <<<"$2" | head -n 5
	TEST_FAILED=1
}
skip() { echo "ok - $TEST_GROUP: $1 # SKIP $2"; }
check() {
	local d=$1
	shift
	if "$@"; then pass "$d"; else fail "$d"; fi
}
verdict() { if [ "$1" = 0 ]; then pass "$2"; else fail "$2" "${3:-}"; fi; }
expect() {
	local desc=$1 want=$2 pat=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ] && grep -qE -- "$pat" <<<"$out"; then
		pass "$desc"
	else
		fail "$desc (exit $rc, want $want and /$pat/)" "$out"
	fi
}
tests_done() { exit "$TEST_FAILED"; }
