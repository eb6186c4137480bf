#!/usr/bin/env bash
# test: kernelsrc 35 guest
# KERNEL_SRC (a user's tree) and EXTRA_CONFIG (a user's config fragment):
# bad input is an error (exit 2) before anything is compiled, a tree the
# series does not apply to names the patch and the hunk, the series line
# follows the tree's version, and nothing is ever written into the user's
# tree, whether it carries the series already, gets a patched copy, or is
# built as it is with its own change to the scheduler (TREE_AS_IS=1). The
# last cases extract linux-source-$KVER into a scratch directory and run
# host/build/kernel.sh up to its config check (a symbol that cannot survive the
# merge stops it there); nothing is built.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. host/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export RIG_CACHE="$tmp/cache"

TEST_GROUP=kernel-src
. tests/lib.sh
# a directory that looks like a kernel tree of VERSION (Makefile, block/)
fake() { # DIR VERSION
	mkdir -p "$1/block"
	IFS=. read -r v p s <<<"$2"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION =\n' "$v" "$p" "$s" >"$1/Makefile"
	touch "$1/block/elevator.c"
}
# DIR's state: how many entries it has and the checksums of the files the
# series touches (with find -newer: equal before and after means untouched)
mapfile -t patches < <(series_files)
sums() { (cd "$1" && find . | wc -l && sed -n 's|^+++ b/||p' "${patches[@]}" | sort -u | xargs sha256sum 2>&1) | sha256sum; }

expect "KERNEL_SRC: no such directory" 2 "KERNEL_SRC: no directory '$tmp/none'" env KERNEL_SRC="$tmp/none" host/build/kernel.sh
mkdir -p "$tmp/empty"
expect "KERNEL_SRC: not a kernel tree" 2 "is not a Linux source tree" env KERNEL_SRC="$tmp/empty" host/build/kernel.sh
fake "$tmp/old" 5.10.0
expect "KERNEL_SRC: a tree older than 6.1" 2 "is Linux 5.10.0; the series needs 6.1 or later" env KERNEL_SRC="$tmp/old" host/build/kernel.sh
expect "EXTRA_CONFIG: no such file" 2 "EXTRA_CONFIG: no readable file" env EXTRA_CONFIG="$tmp/none.config" host/build/kernel.sh
printf '# mine\nCONFIG_BLK_DEV_LOOP=y\nhello\n' >"$tmp/bad.config"
expect "EXTRA_CONFIG: a line that is no config line" 2 "bad.config: not a config fragment line.*|^3:hello" \
	env EXTRA_CONFIG="$tmp/bad.config" host/build/kernel.sh
printf 'CONFIG_BLK_DEV_LOOP=y\n' >"$tmp/good.config"
x=$(EXTRA_CONFIG="$tmp/good.config" bash -c '. host/lib.sh; kernel_build')
if [[ "$x" == */build-"$FLAVOR"-x* ]] && [ "$x" != "$(kernel_build)" ]; then pass "an EXTRA_CONFIG kernel has a build directory of its own"; else fail "an EXTRA_CONFIG kernel has a build directory of its own (got $x)"; fi

# the series line follows the tree's version unless KVER is set
for c in 6.1.100:6.1 6.6.30:6.1 6.12.58:6.12 6.13.2:6.12; do
	fake "$tmp/v${c%%:*}" "${c%%:*}"
	got=$(env -u KVER KERNEL_SRC="$tmp/v${c%%:*}" bash -c '. host/lib.sh; echo "$KVER"')
	if [ "$got" = "${c#*:}" ]; then pass "a ${c%%:*} tree takes the ${c#*:} series"; else fail "a ${c%%:*} tree takes the ${c#*:} series (got '$got')"; fi
done
got=$(KVER=6.1 KERNEL_SRC="$tmp/v6.12.58" bash -c '. host/lib.sh; echo "$KVER"')
if [ "$got" = 6.1 ]; then pass "KVER set by the user wins over the tree's version"; else fail "KVER set by the user wins over the tree's version (got '$got')"; fi

# the files the series touches, from the package, one of them broken
mapfile -t files < <(sed -n "s|^--- a/|linux-source-$KVER/|p" "${patches[@]}" | sort -u)
mkdir -p "$tmp/pkg"
tar -xJf "$(src_tarball)" -C "$tmp/pkg" "linux-source-$KVER/Makefile" "${files[@]}" 2>/dev/null
bad="$tmp/pkg/linux-source-$KVER"
touch "$bad/block/elevator.c"
sed -i '/iosched/d' "$bad/block/Makefile"
# the first patch of the series that changes block/Makefile
first=$(basename "$(series_files | xargs grep -l '^+++ b/block/Makefile' | head -n1)")
before=$(sums "$bad")
expect "KERNEL_SRC: a tree the series does not apply to names the patch and the hunk" 2 \
	"^$first: block/Makefile: Hunk #1 FAILED at" env KERNEL_SRC="$bad" host/build/kernel.sh
if [ "$(sums "$bad")" = "$before" ]; then pass "the tree is untouched after the refusal"; else fail "the tree is untouched after the refusal"; fi

# a whole plain tree: patched in a copy; the same tree with the series: as it is
printf '# a symbol no kernel has: stops host/build/kernel.sh at its config check\nCONFIG_RIG_NO_SUCH_SYMBOL=y\n' >"$tmp/stop.config"
mkdir -p "$tmp/src"
tar -xJf "$(src_tarball)" -C "$tmp/src"
plain="$tmp/src/linux-source-$KVER"
before=$(sums "$plain")
touch "$tmp/mark"
# one run, two checks on what it printed
# (names of their own: expect's locals would hide out and rc)
plain_out=$(KERNEL_SRC="$plain" EXTRA_CONFIG="$tmp/stop.config" host/build/kernel.sh 2>&1)
plain_rc=$?
replay() { echo "$plain_out"; return "$plain_rc"; }
expect "KERNEL_SRC: a plain tree gets the series in a copy" 2 "copying $plain into .*then the ${#patches[@]} patches" \
	replay
expect "EXTRA_CONFIG: a line that does not survive the merge is named" 2 "^  CONFIG_RIG_NO_SUCH_SYMBOL=y" \
	replay
if [ -z "$(find "$plain" -newer "$tmp/mark" -print -quit)" ] && [ "$(sums "$plain")" = "$before" ]; then pass "nothing was written into the plain tree"; else fail "nothing was written into the plain tree" "$(find "$plain" -newer "$tmp/mark" | head -n3)"; fi
if grep -q 'ALLOW_ERROR_INJECTION(cfq_alloc_queue' "$(cat "$RIG_CACHE"/linux-*-src-*.tree)/block/cfq-iosched.c" 2>/dev/null; then pass "the copy carries the series and the rig's patches"; else fail "the copy carries the series and the rig's patches"; fi
for p in $(series_files); do patch -d "$plain" -p1 -s <"$p" >/dev/null; done
before=$(sums "$plain")
touch "$tmp/mark"
expect "KERNEL_SRC: a tree that carries the series is used as it is" 2 "$plain carries the series \(${#patches[@]} patches\)" \
	env KERNEL_SRC="$plain" EXTRA_CONFIG="$tmp/stop.config" host/build/kernel.sh
if [ -z "$(find "$plain" -newer "$tmp/mark" -print -quit)" ] && [ "$(sums "$plain")" = "$before" ]; then pass "nothing was written into the tree that carries the series (out of tree, O=)"; else fail "nothing was written into the tree that carries the series" "$(find "$plain" -newer "$tmp/mark" | head -n3)"; fi

# TREE_AS_IS=1: a tree with the user's own change to the scheduler is built
# as it is (refused without it: the series is there, changed); of the rig's
# hooks only those it lacks and that apply would go on top (this tree
# carries them), and nothing is written into the tree
echo '/* my change to the scheduler */' >>"$plain/block/cfq-iosched.c"
before=$(sums "$plain")
touch "$tmp/mark"
expect "KERNEL_SRC: a tree with its own change to the scheduler is refused without TREE_AS_IS" 2 \
	"the tree has it already|FAILED" env KERNEL_SRC="$plain" EXTRA_CONFIG="$tmp/stop.config" host/build/kernel.sh
expect "TREE_AS_IS=1: that tree as it is, with the rig's hooks that apply" 2 \
	"TREE_AS_IS=1: $plain without the series; of the rig's $(rig_series | wc -l) hook patch\(es\), $(rig_series | wc -l) carried, 0 to apply" \
	env KERNEL_SRC="$plain" TREE_AS_IS=1 EXTRA_CONFIG="$tmp/stop.config" host/build/kernel.sh
if [ -z "$(find "$plain" -newer "$tmp/mark" -print -quit)" ] && [ "$(sums "$plain")" = "$before" ]; then pass "TREE_AS_IS=1 wrote nothing into the tree"; else fail "TREE_AS_IS=1 wrote nothing into the tree" "$(find "$plain" -newer "$tmp/mark" | head -n3)"; fi
expect "TREE_AS_IS=1 needs KERNEL_SRC" 2 "TREE_AS_IS=1 builds a user's tree as it is: it needs KERNEL_SRC" \
	env TREE_AS_IS=1 host/build/kernel.sh
expect "TREE_AS_IS takes 0 or 1" 2 "TREE_AS_IS must be 0 or 1" env KERNEL_SRC="$plain" TREE_AS_IS=yes host/build/kernel.sh
