#!/usr/bin/env bash
# The scheduler's static checks, on one block/cfq-iosched.c built as a module
# against a built kernel of this line:
#   - it builds with W=1 and sparse (C=2) finds nothing in it: no warning of
#     either (an RCU pointer written without rcu_assign_pointer(), the
#     review's S6, is one: "different address spaces");
#   - cfq_limit_depth() never reads data->hctx: 6.1 trees before 6.1.105
#     call .limit_depth() before they set it (the review's S1), and
#     KERNEL_SRC takes any 6.1.
# usage: host/build/cfq-static.sh FILE BUILD_DIR
# prints: "ok - static: ..." / "not ok - static: ..." lines
# exit: 0 all ok, 1 one failed, 2 bad input
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ $# = 2 ] && [ -f "$1" ] && [ -f "$2/Module.symvers" ] ||
	die "usage: host/build/cfq-static.sh FILE BUILD_DIR (a cfq-iosched.c and a built kernel)"
file=$1 build=$2 rc=0
ok()  { echo "ok - static: $*"; }
bad() { echo "not ok - static: $*"; rc=1; }
command -v sparse >/dev/null || die "sparse is not installed (host/deps.sh installs it)"

m=$(mktemp -d) && trap 'rm -rf "$m"' EXIT
cfq_module_dir "$m" "$file"
out=$(cfq_module_make "$build" "$m" W=1 C=2) || { bad "cfq-iosched.c builds: $(head -n3 <<<"$out")"; exit 1; }
w=$(grep -c 'cfq-iosched\.c:[0-9]*:[0-9]*: \(warning\|error\)' <<<"$out" || true)
[ "$w" = 0 ] && ok "W=1 and sparse: no warning in cfq-iosched.c" ||
	bad "W=1 and sparse: $w warning(s) in cfq-iosched.c, first: $(grep -m1 'cfq-iosched\.c:[0-9]*:[0-9]*:' <<<"$out" | sed 's|.*cfq-iosched\.c:||')"

body=$(awk '/^static void cfq_limit_depth\(/ {f = 1} f {print} f && /^}/ {exit}' "$file")
[ -n "$body" ] || die "$file: no cfq_limit_depth()"
if grep -q 'data->hctx' <<<"$body"; then
	bad "cfq_limit_depth() reads data->hctx, NULL there before 6.1.105"
else
	ok "cfq_limit_depth() does not read data->hctx"
fi
exit "$rc"
