#!/usr/bin/env bash
# Choose the QEMU accelerator: KVM where a short boot probe proves it boots
# our kernel, TCG otherwise. The probe result is cached per host and kernel
# build; ACCEL=tcg|kvm forces a choice. Prints "kvm" or "tcg".
# usage: host/vm/accel.sh BUILD_DIR IMAGE_DIR
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
build=$1 image=$2

case "${ACCEL:-auto}" in
tcg | kvm) echo "$ACCEL"; exit 0 ;;
auto) ;;
*) die "ACCEL must be auto, kvm or tcg (got '$ACCEL')" ;;
esac
if [ ! -w /dev/kvm ]; then
	say "accel: /dev/kvm missing or not writable, using TCG" >&2
	echo tcg; exit 0
fi
# whether KVM boots a 6.1 kernel is a property of the host's hypervisor and
# QEMU, not of our kernel: probe once per host kernel and QEMU version
key="$RIG_CACHE/kvm-probe.$( (cat /proc/version; qemu-system-x86_64 --version) | sha256sum | cut -c1-12)"
if [ ! -f "$key" ]; then
	say "accel: probing KVM with a 40 s boot (once per kernel build)" >&2
	tmp=$(mktemp -d)
	printf 'RIG_JOB=probe\n' >"$tmp/run.conf"
	mkdir -p "$tmp/r/rig/jobs" && cp "$RIG_ROOT"/guest/{init,lib.sh} "$tmp/r/rig/" &&
		cp "$RIG_ROOT/guest/jobs/probe.sh" "$tmp/r/rig/jobs/" && cp "$tmp/run.conf" "$tmp/r/rig/" &&
		mv "$tmp/r/rig/init" "$tmp/r/init"
	(cd "$tmp/r" && find . | cpio -o -H newc --quiet -R 0:0) | cat "$image/base.cpio" - >"$tmp/initrd"
	timeout 40 qemu-system-x86_64 -M pc -accel kvm -cpu host -smp 2 -m 1024 -nodefaults \
		-display none -no-reboot -kernel "$build/arch/x86/boot/bzImage" -initrd "$tmp/initrd" \
		-append "console=ttyS0 panic=-1" -serial "file:$tmp/console" -serial "file:$tmp/results" \
		>/dev/null 2>&1 || true
	if grep -q RIG-DONE "$tmp/results" 2>/dev/null; then echo kvm >"$key"; else echo tcg >"$key"; fi
	rm -rf "$tmp"
fi
a=$(cat "$key")
[ "$a" = kvm ] && say "accel: KVM boot probe passed, using KVM" >&2 ||
	say "accel: KVM boot probe failed on this host (see README), using TCG" >&2
echo "$a"
