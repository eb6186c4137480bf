#!/usr/bin/env bash
# Build the guest kernel: extract linux-source-$KVER into the cache (outside
# the repository), apply the series patch/$KVER/*.patch and the rig-only
# patches patch/$KVER/rig/*.patch, merge the flavor's config fragments
# onto allnoconfig, build bzImage and modules. Inputs are hashed into a
# stamp: unchanged inputs skip the build, a changed patch rebuilds only what
# it touches.
#
# usage: host/kernel.sh    (KVER=6.1, FLAVOR=debug|fast|race|perf, RIG_CACHE=dir)
# One build at a time per tree: a second command waits on the tree's lock.
# prints: the build directory on the last line of stdout
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ver=$(src_version)
tree=$(kernel_tree)
build=$(kernel_build)
frags=$(flavor_fragments "$FLAVOR")
mkdir -p "$RIG_CACHE"
cache_lock "$(basename "$tree")"

# 1. source tree
if [ ! -f "$tree/Makefile" ]; then
	say "kernel: extracting linux-source $ver into $tree"
	rm -rf "$tree.tmp" && mkdir -p "$tree.tmp"
	tar -xJf "$(src_tarball)" -C "$tree.tmp"
	mv "$tree.tmp/linux-source-$KVER" "$tree" && rm -rf "$tree.tmp"
fi

# 2. patch series: revert what is applied if it differs, apply the new one
applied="$tree/.rig-series"
want=$(series_hash)
have=$(cat "$applied/hash" 2>/dev/null || echo none)
if [ "$want" != "$have" ]; then
	if [ -d "$applied" ]; then
		say "kernel: series changed ($have -> $want), reverting the old one"
		for p in $(ls "$applied"/*.patch 2>/dev/null | sort -r); do
			patch -d "$tree" -p1 -R -s --no-backup-if-mismatch <"$p" >/dev/null || {
				say "kernel: $(basename "$p") does not revert cleanly: extracting a fresh tree"
				rm -rf "$tree" && mkdir -p "$tree.tmp"
				tar -xJf "$(src_tarball)" -C "$tree.tmp"
				mv "$tree.tmp/linux-source-$KVER" "$tree" && rm -rf "$tree.tmp"
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
			die "patch $(basename "$p") does not apply to linux-source $ver"
		fi
		patch -d "$tree" -p1 -s --no-backup-if-mismatch <"$p"
		n=$((n + 1))
		cp "$p" "$applied.new/$(printf %03d "$n")-$(basename "$p")"
	done
	echo "$want" >"$applied.new/hash"
	mv "$applied.new" "$applied"
	say "kernel: series $want applied ($(series_files | wc -l) patches)"
fi

# 3. config and build, skipped when the stamp matches
# shellcheck disable=SC2086
stamp="$ver series=$want flavor=$FLAVOR config=$(cat $frags | sha256sum | cut -c1-12)"
mkdir -p "$build"
if [ "$(cat "$build/.rig-stamp" 2>/dev/null)" = "$stamp" ] && [ -f "$build/arch/x86/boot/bzImage" ]; then
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
$missing"

say "kernel: building $FLAVOR kernel in $build (log: $build/build.log)"
t0=$SECONDS
# shellcheck disable=SC2046 # gcov_args: no word, or one
if ! run_with_progress "kernel: make" "$build/build.log" \
	make -C "$tree" O="$build" -j"$(nproc)" $(gcov_args "$build") bzImage modules; then
	grep -E 'error|Error' "$build/build.log" | head -20 >&2
	die "kernel build failed, see $build/build.log"
fi
rm -rf "$build/modroot"
make -s -C "$tree" O="$build" INSTALL_MOD_PATH="$build/modroot" INSTALL_MOD_STRIP=1 \
	modules_install >/dev/null
echo "$stamp" >"$build/.rig-stamp"
say "kernel: built in $((SECONDS - t0)) s"
echo "$build"
