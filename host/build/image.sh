#!/usr/bin/env bash
# Build what the guest boots besides the kernel:
#   base.cpio   busybox, the rig's static stressors, kernel modules and the
#               test-only modules of guest/modules (the guest scripts and the run's
#               settings come per run, appended by host/vm/run.sh);
#   tools.img   ext4 image with Debian's fio and stress-ng and the shared
#               libraries they need (attached read-only as /dev/vda; loading
#               them from a disk is fast, unlike 9p under TCG).
# usage: host/build/image.sh BUILD_DIR     (prints the image directory)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] && [ -d "$1" ] || die "usage: host/build/image.sh BUILD_DIR (a kernel build directory, printed by host/build/kernel.sh)"
build=$1
out="$build/rig-image"
mkdir -p "$out"
# one image build at a time: the kernel tree's lock (the modules come from a
# build of that tree), then the image lock (the tools disk is per cache)
cache_lock "$(basename "$(kernel_tree)")"
cache_lock image

# 1. static stressors
make -s -C "$RIG_ROOT/stress" >/dev/null || die "stressors did not build (make -C stress)"

# 2. test-only modules (guest/modules/*: the positive controls, the
#    emulated rotating disk), built against this kernel
for src in "$RIG_ROOT"/guest/modules/*/; do
	m=$(basename "$src")
	[ -f "$src/Kbuild" ] && compgen -G "$src/*.c" >/dev/null || continue
	ext="$build/extmod/$m"
	mkdir -p "$ext"
	cp "$src"/*.[ch] "$src"/Kbuild "$ext/"
	make -s -C "$(kernel_tree)" O="$build" M="$ext" modules >"$ext/build.log" 2>&1 ||
		{ cat "$ext/build.log" >&2; die "test module $m did not build (guest/modules/$m)"; }
done

# 3. base initramfs, staged per process and renamed into place: runs that
#    start while another builds it read a whole file, old or new
root="$out/root.$$"
trap 'rm -rf "$root" "$out/base.cpio.$$"' EXIT
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,rig/bin,rig/modules,lib,usr/bin,usr/sbin,tools}
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$RIG_ROOT"/stress/bin/* "$root/rig/bin/"
# the classifier (with its program and report table) and the known-issue
# filter: a round ends early only at a report that counts (guest/jobs/scenario.sh)
cp "$RIG_ROOT"/host/report/{classify,classify.awk,report-patterns,suppress,under-test} "$root/rig/bin/"
cp "$RIG_ROOT/host/report/known-issues" "$root/rig/"
cp -a "$build/modroot/lib/modules" "$root/lib/"
cp "$build"/extmod/*/*.ko "$root/rig/modules/"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$out/base.cpio.$$"
mv -f "$out/base.cpio.$$" "$out/base.cpio"
rm -rf "$root"

# 4. tools disk, rebuilt only when the tools change
# (mawk: the slice audit's awk in the guest, when the host has it)
stamp=$( (dpkg-query -W fio stress-ng mawk; ls -l /usr/bin/fio /usr/bin/stress-ng /usr/bin/mawk) 2>/dev/null | sha256sum | cut -c1-12)
if [ "$(cat "$RIG_CACHE/tools.stamp" 2>/dev/null)" != "$stamp" ] || [ ! -f "$RIG_CACHE/tools.img" ]; then
	t="$RIG_CACHE/tools.tmp"
	rm -rf "$t" && mkdir -p "$t/bin" "$t/lib"
	for b in /usr/bin/fio /usr/bin/stress-ng /usr/bin/mawk; do
		[ -x "$b" ] || continue
		cp "$b" "$t/bin/"
		ldd "$b" | awk '/=>/ {print $3} /^\t\/lib64/ {print $1}' | while read -r l; do
			cp -L "$l" "$t/lib/"
		done
	done
	rm -f "$RIG_CACHE/tools.img"
	mke2fs -q -t ext4 -d "$t" -L rigtools "$RIG_CACHE/tools.img" 160M >/dev/null
	rm -rf "$t"
	echo "$stamp" >"$RIG_CACHE/tools.stamp"
fi
ln -sf "$RIG_CACHE/tools.img" "$out/tools.img"
echo "$out"
