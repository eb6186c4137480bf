#!/usr/bin/env bash
# Install what the rig needs from Debian, only what is missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
kver_check
pkgs="linux-source-$KVER qemu-system-x86 busybox-static fio stress-ng libaio-dev bc bison flex
libelf-dev libssl-dev cpio kmod xz-utils e2fsprogs gcc make perl python3 shellcheck sparse dwarves lcov liburing-dev
util-linux parallel openssh-server openssh-client strace mawk"
# DEPS=skip: a host without apt (or without root) brings its own tools; the
# rig checks the commands it runs and the kernel source, installs nothing
# --check: only whether DEPS is one of those (host/rig, before any work)
case "${DEPS:-apt}" in
apt | skip) [ "${1:-}" != --check ] || exit 0 ;;&
apt) ;;
skip)
	need="qemu-system-x86_64 busybox fio stress-ng gcc make bc bison flex cpio xz perl python3 lcov
strace pahole ssh sshd parallel mkfs.ext4 depmod"
	miss=''
	for c in $need; do command -v "$c" >/dev/null 2>&1 || [ -x "/usr/sbin/$c" ] || miss="$miss $c"; done
	[ -f /usr/include/libaio.h ] || miss="$miss libaio.h"
	[ -f /usr/include/liburing.h ] || miss="$miss liburing.h"
	[ -n "$KERNEL_SRC" ] || [ -f "/usr/src/linux-source-$KVER.tar.xz" ] ||
		miss="$miss /usr/src/linux-source-$KVER.tar.xz (or KERNEL_SRC=tree)"
	[ -z "$miss" ] || { echo "error: DEPS=skip: missing:$miss (README: host requirements)" >&2; exit 2; }
	exit 0 ;;
*) echo "error: DEPS must be apt or skip (got '$DEPS')" >&2; exit 2 ;;
esac
command -v dpkg-query >/dev/null || { echo "error: no dpkg-query: not a Debian host; install the tools (README: host requirements) and set DEPS=skip" >&2; exit 2; }
missing=$(for p in $pkgs; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || echo "$p"; done)
[ -z "$missing" ] && exit 0
echo "deps: installing $(echo "$missing" | tr '\n' ' ')"
[ "$(id -u)" = 0 ] || { echo "error: missing packages and not root: $missing" >&2; exit 2; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq $missing >/dev/null
