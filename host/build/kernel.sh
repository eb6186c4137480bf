#!/usr/bin/env bash
# Build the guest kernel: extract linux-source-$KVER into the cache (outside
# the repository), apply the series patch/$KVER/*.patch and the rig-only
# patches patch/$KVER/rig/*.patch, merge the flavor's config fragments
# onto allnoconfig, build bzImage and modules. Inputs are hashed into a
# stamp: unchanged inputs skip the build, a changed patch rebuilds only what
# it touches.
#
# usage: host/build/kernel.sh    (KVER=6.1|6.12, FLAVOR=debug|fast|race|perf, RIG_CACHE=dir)
#   KERNEL_SRC=/path/to/linux  a user's tree (6.1 or later) in place of the
#       package. Nothing is written into it: a tree that carries the series
#       already is built as it is (O=, out of tree); otherwise the series goes
#       onto a copy in the cache (hard links, the patched files unlinked).
#   TREE_AS_IS=1  KERNEL_SRC without the series (it carries the scheduler or
#       the user's change to it): only the rig's hooks that apply.
#   EXTRA_CONFIG=file  a config fragment merged last, checked like the rig's.
#   BUG=NAME  a bug of the corpus (bugs/NAME): the package's tree is built
#       first, then its fix is reverted on a copy of tree and build (hard
#       links for the sources), which rebuilds only what the revert touches.
# Bad input (a tree the series does not apply to, a fragment line that does
# not survive the merge) is an error (exit 2) before anything is compiled.
# One build at a time per tree: a second command waits on the tree's lock.
# prints: the build directory on the last line of stdout
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

kernel_src_check
bug_check
ver=$(src_version)
tree=$(kernel_tree)
build=$(kernel_build)
frags=$(flavor_fragments "$FLAVOR")
[ -z "$EXTRA_CONFIG" ] || frags="$frags $(realpath "$EXTRA_CONFIG")"
# a corpus bug whose code the rig's config leaves out carries the symbols
# it needs (bugs/NAME/config), merged into its variant alone
[ -z "$BUG" ] || [ ! -f "$RIG_ROOT/bugs/$BUG/config" ] || frags="$frags $RIG_ROOT/bugs/$BUG/config"
rig_cache_init
want=$(series_hash)

# how many patches of the series (from the first) TREE carries already
series_carried() { # TREE
	local n k i tmp f ok ps
	mapfile -t ps < <(series_files)
	n=${#ps[@]}
	for ((k = n; k > 0; k--)); do
		tmp=$(mktemp -d) ok=1
		for f in $(sed -n 's|^+++ b/||p' "${ps[@]:0:k}" | sort -u); do
			[ ! -f "$1/$f" ] || install -D -m 644 "$1/$f" "$tmp/$f"
		done
		for ((i = k - 1; i >= 0; i--)); do
			patch -d "$tmp" -p1 -R -f -s --no-backup-if-mismatch -r - <"${ps[i]}" >/dev/null 2>&1 || { ok=0; break; }
		done
		rm -rf "$tmp"
		[ "$ok" = 0 ] || break
	done
	echo "$k"
}

# 1+2. a user's tree (KERNEL_SRC): as it is, or a patched copy in the cache
user_tree() {
	local src copy k fail clean cstamp e f p ps rest what
	src=$(realpath "$KERNEL_SRC")
	copy="$RIG_CACHE/linux-$ver"
	cache_lock "$(basename "$copy")"
	mapfile -t ps < <(series_files)
	k=$(series_carried "$src")
	rest=("${ps[@]:k}")
	if [ "$TREE_AS_IS" = 1 ]; then
		# the tree as it is: of the rig's hooks, only those that apply
		mapfile -t rest < <(for p in "${rest[@]}"; do [ -n "$(series_failure "$src" "$p")" ] || echo "$p"; done)
		say "kernel: TREE_AS_IS=1: $src without the series; of the rig's ${#ps[@]} hook patch(es), $k carried, ${#rest[@]} to apply"
	elif [ "${#rest[@]}" -gt 0 ]; then
		fail=$(series_failure "$src" "${rest[@]}")
		[ -z "$fail" ] || die "KERNEL_SRC: the series does not apply to $src:
$fail"
	fi
	clean=1
	[ ! -f "$src/.config" ] && [ ! -d "$src/include/config" ] || clean=0
	if [ "${#rest[@]}" = 0 ] && [ "$clean" = 1 ]; then
		what="carries the series ($k patches)"
		[ "$TREE_AS_IS" = 0 ] || what="as it is (TREE_AS_IS=1)"
		say "kernel: $src $what: building it as it is, out of tree"
		tree=$src
	else
		tree=$copy
		cstamp="$src series=$want"
		if [ "$(cat "$copy/.rig-copy" 2>/dev/null)" != "$cstamp" ] ||
			[ -n "$(find "$src" -path "$src/.git" -prune -o -newer "$copy/.rig-copy" -print -quit)" ]; then
			say "kernel: copying $src into $copy (hard links), then the ${#rest[@]} patches it lacks"
			rm -rf "$copy" && mkdir -p "$copy"
			for e in "$src"/* "$src"/.[!.]*; do
				[ -e "$e" ] && [ "$(basename "$e")" != .git ] || continue
				cp -al "$e" "$copy/" 2>/dev/null || cp -a "$e" "$copy/"
			done
			# unlink what the patches change, so the user's files stay as they are
			for f in $(sed -n 's|^+++ b/||p' /dev/null "${rest[@]}" | sort -u); do
				[ ! -f "$copy/$f" ] || { cp -p "$copy/$f" "$copy/$f.rig" && mv -f "$copy/$f.rig" "$copy/$f"; }
			done
			for p in "${rest[@]}"; do patch -d "$copy" -p1 -s -f --no-backup-if-mismatch <"$p" >/dev/null; done
			[ "$clean" = 1 ] || make -s -C "$copy" mrproper
			echo "$cstamp" >"$copy/.rig-copy"
		fi
	fi
	echo "$tree" >"$copy.tree"
}

# 1+2. the package's tree: extracted into the cache, the series applied
package_tree() {
	local applied have p q n
	cache_lock "$(basename "$tree")"

	# 1. source tree (extracted again when an old series cannot be reverted:
	#    the archive's mtimes keep the build incremental)
	extract() {
		say "kernel: extracting linux-source $ver into $tree"
		rm -rf "$tree" "$tree.tmp" && mkdir -p "$tree.tmp"
		tar -xJf "$(src_tarball)" -C "$tree.tmp"
		mv "$tree.tmp/linux-source-$KVER" "$tree" && rm -rf "$tree.tmp"
	}
	[ -f "$tree/Makefile" ] || extract

	# 2. patch series: revert what is applied if it differs, apply the new one
	applied="$tree/.rig-series"
	have=$(cat "$applied/hash" 2>/dev/null || echo none)
	if [ "$want" != "$have" ]; then
		if [ -d "$applied" ]; then
			say "kernel: series changed ($have -> $want), reverting the old one"
			# applied copies are numbered in the order they were applied
			for p in $(ls "$applied"/*.patch 2>/dev/null | sort -r); do
				patch -d "$tree" -p1 -R -s --no-backup-if-mismatch <"$p" >/dev/null || {
					say "kernel: $(basename "$p") does not revert cleanly"
					extract
					break
				}
			done
			rm -rf "$applied"
		fi
		mkdir -p "$applied.new"
		n=0
		for p in $(series_files); do
			if ! patch -d "$tree" -p1 -s --no-backup-if-mismatch --dry-run <"$p" >/dev/null; then
				for q in $(ls "$applied.new"/*.patch 2>/dev/null | sort -r); do
					patch -d "$tree" -p1 -R -s --no-backup-if-mismatch <"$q"
				done
				rm -rf "$applied.new"
				die "patch $(basename "$p") does not apply to linux-source $ver:
$(series_failure "$tree" "$p")"
			fi
			patch -d "$tree" -p1 -s --no-backup-if-mismatch <"$p"
			n=$((n + 1))
			cp "$p" "$applied.new/$(printf %03d "$n")-$(basename "$p")"
		done
		echo "$want" >"$applied.new/hash"
		mv "$applied.new" "$applied"
		say "kernel: series $want applied ($(series_files | wc -l) patches)"
	fi
}

# 1+2 with BUG= (or RIG_PATCHES): a variant, the built package tree copied
# with the variant's patches on top
variant_tree() {
	local base base_build vstamp e f fail ps
	mapfile -t ps < <(variant_patches)
	base_build=$(BUG='' RIG_PATCHES='' "$RIG_ROOT/host/build/kernel.sh" | tail -n1)
	base=$(dirname "$base_build")
	cache_lock "$(basename "$base")"
	cache_lock "$(basename "$tree")"
	vstamp="$(cat "$base/.rig-series/hash") $(cat "${ps[@]}" | sha256sum | cut -c1-12)"
	if [ "$(cat "$tree/.rig-variant" 2>/dev/null)" != "$vstamp" ]; then
		fail=$(series_failure "$base" "${ps[@]}")
		[ -z "$fail" ] || die "${BUG:+BUG=$BUG: }a variant patch does not apply to linux-source $ver:
$fail"
		say "kernel: variant $(basename "$tree"): copying $base (hard links), then ${#ps[@]} patch(es)"
		rm -rf "$tree" && mkdir -p "$tree"
		for e in "$base"/* "$base"/.[!.]*; do
			[ -e "$e" ] && [[ "${e##*/}" != build-* ]] || continue
			cp -al "$e" "$tree/"
		done
		# unlink what the patches change: the base tree stays as it is
		for f in $(sed -n 's|^+++ b/||p' "${ps[@]}" | sort -u); do
			[ ! -f "$tree/$f" ] || { cp -p "$tree/$f" "$tree/$f.rig" && mv -f "$tree/$f.rig" "$tree/$f"; }
		done
		for f in "${ps[@]}"; do patch -d "$tree" -p1 -s -f --no-backup-if-mismatch <"$f" >/dev/null; done
		echo "$vstamp" >"$tree/.rig-variant"
	fi
	if [ ! -f "$build/.rig-stamp" ]; then
		say "kernel: variant $(basename "$tree"): copying the $FLAVOR build $base_build"
		rm -rf "$build" && cp -a "$base_build" "$build"
		# objtool's own build (tools/) names its files by absolute paths:
		# rename them, or objtool and then every object are built again
		grep -rlIF "$base/" "$build/tools" | xargs -r sed -i "s|$base/|$tree/|g"
	fi
}

if [ -n "$BUG$RIG_PATCHES" ]; then variant_tree
elif [ -n "$KERNEL_SRC" ]; then user_tree
else package_tree; fi

# 3. config and build, skipped when the stamp matches
# shellcheck disable=SC2086
stamp="$ver series=$want flavor=$FLAVOR config=$(cat $frags | sha256sum | cut -c1-12)"
# shellcheck disable=SC2086
kargs=$(kcsan_args "$tree" $frags | tr '\n' ' ')
[ -z "$kargs" ] || stamp="$stamp kcsan=$(sha256sum <<<"$kargs" | cut -c1-12)"
# shellcheck disable=SC2086
! fragments_on CONFIG_GCOV_KERNEL $frags || stamp="$stamp gcov=block"
[ -z "$KERNEL_SRC" ] || stamp="$stamp tree=$tree"
[ -z "$BUG$RIG_PATCHES" ] || stamp="$stamp variant=${BUG:-}:$(variant_patches | xargs cat | sha256sum | cut -c1-12)"
mkdir -p "$build"
# objects of another tree are no base for an incremental build
[ "$(sed -n 's/.* tree=//p' "$build/.rig-stamp" 2>/dev/null)" = "$(sed -n 's/.* tree=//p' <<<"$stamp")" ] ||
	find "$build" -mindepth 1 -delete
if [ "$(cat "$build/.rig-stamp" 2>/dev/null)" = "$stamp" ] && [ -f "$build/arch/x86/boot/bzImage" ] &&
	{ [ -z "$KERNEL_SRC" ] || [ -z "$(find "$tree" -path "$tree/.git" -prune -o -newer "$build/.rig-stamp" -print -quit)" ]; }; then
	say "kernel: up to date ($FLAVOR, $stamp)"
	echo "$build"
	exit 0
fi

# later fragments override earlier ones: keep the last setting of each symbol
# shellcheck disable=SC2086
cat $frags | awk '
	/^CONFIG_[A-Z0-9_]+=/ { sym = $0; sub(/=.*/, "", sym) }
	/^# CONFIG_[A-Z0-9_]+ is not set/ { sym = $2 }
	sym != "" { if (!(sym in last)) order[++n] = sym; last[sym] = $0; sym = "" }
	END { for (i = 1; i <= n; i++) print last[order[i]] }' >"$build/rig.fragment"
make -s -C "$tree" O="$build" KCONFIG_ALLCONFIG="$build/rig.fragment" allnoconfig >/dev/null
missing=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$build/rig.fragment" | sort -u |
	while IFS= read -r line; do grep -qxF "$line" "$build/.config" || echo "  $line"; done)
[ -z "$missing" ] || die "config: these fragment lines did not survive the merge (missing dependency?):
$missing${EXTRA_CONFIG:+
(fragments: $frags)}"

say "kernel: building $FLAVOR kernel in $build (log: $build/build.log)"
t0=$SECONDS
# shellcheck disable=SC2046,SC2086 # gcov_args, kargs: words
if ! run_with_progress "kernel: make" "$build/build.log" \
	make -C "$tree" O="$build" -j"$(nproc)" $(gcov_args "$build" "$tree") $kargs bzImage modules; then
	grep -E 'error|Error' "$build/build.log" | head -20 >&2
	die "kernel build failed, see $build/build.log"
fi
rm -rf "$build/modroot"
make -s -C "$tree" O="$build" INSTALL_MOD_PATH="$build/modroot" INSTALL_MOD_STRIP=1 \
	modules_install >/dev/null
echo "$stamp" >"$build/.rig-stamp"
say "kernel: built in $((SECONDS - t0)) s"
echo "$build"
