#!/usr/bin/env bash
# Install what the rig needs from Debian, only what is missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
kver_check
pkgs="linux-source-$KVER qemu-system-x86 busybox-static fio stress-ng libaio-dev bc bison flex
libelf-dev libssl-dev cpio kmod xz-utils e2fsprogs gcc make perl python3 shellcheck dwarves lcov liburing-dev
util-linux parallel openssh-server openssh-client strace"
missing=$(for p in $pkgs; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || echo "$p"; done)
[ -z "$missing" ] && exit 0
echo "deps: installing $(echo "$missing" | tr '\n' ' ')"
[ "$(id -u)" = 0 ] || { echo "error: missing packages and not root: $missing" >&2; exit 2; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq $missing >/dev/null
