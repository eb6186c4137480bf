#!/usr/bin/env bash
# test: rig 20 host
# The front end host/rig keeps the exit codes make loses: each code it
# promises, asserted on a real outcome. 0 and 1 through a host-only test
# group, 2 for bad input (nothing built, nothing in the cache), 3 for a
# build that fails (a copy of the rig whose stressor does not compile), and
# the settings table (host/knobs) it checks names against is the README's.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=rig
. tests/lib.sh
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/cache" "$tmp/logs"
exits() { # RC WANT DESCRIPTION
	if [ "$1" = "$2" ]; then pass "$3 (exit $1)"; else fail "$3 (exit $1, want $2)" "$(tail -n 5 "$tmp/out")"; fi
}
rig() { # DIR ARGS...: host/rig of that copy, output in $tmp/out
	local d=$1
	shift
	RIG_CACHE="$tmp/cache" LOGS="$tmp/logs" "$d/host/rig" "$@" >"$tmp/out" 2>&1
}

# 2: bad input, before anything is installed or built
for args in "" "nosuch" "soak NOSUCH=1" "soak scenario=hunt" "soak DURATION=1m5" \
	"soak SCENARIO=nosuch" "repro" "verify-fix" "bisect" "kcidb" "test ONLY=nosuch" \
	"realbugs BUGS=nosuch" "soak MEM=2G" "show SOAK=$tmp/none" "knobs --nosuch"; do
	# shellcheck disable=SC2086 # the words are the arguments
	rig "$root" $args
	rc=$?
	[ "$rc" != 2 ] || [ -z "$(ls -A "$tmp/cache")" ] || rc="2 with a cache entry"
	exits "$rc" 2 "bad input '$args' refused before any work"
done
grep -q "unknown setting 'NOSUCH'" < <(RIG_CACHE="$tmp/cache" "$root/host/rig" soak NOSUCH=1 2>&1)
exits $? 0 "an unknown setting is named"

# DEPS=skip: nothing installed, the tools checked; a missing one is named
mkdir "$tmp/bin"
for f in /usr/bin/* /bin/*; do
	[ "$(basename "$f")" = qemu-system-x86_64 ] || ln -sf "$f" "$tmp/bin/" 2>/dev/null
done
PATH=$tmp/bin DEPS=skip "$root/host/deps.sh" >"$tmp/out" 2>&1
rc=$?
grep -q "DEPS=skip: missing: qemu-system-x86_64" "$tmp/out" || rc="$rc without naming qemu"
exits "$rc" 2 "DEPS=skip on a host without QEMU names it"
DEPS=skip "$root/host/deps.sh" >"$tmp/out" 2>&1
exits $? 0 "DEPS=skip on this host: every tool is there"
rig "$root" soak DEPS=yum
exits $? 2 "DEPS=yum is refused"

# 0 and 1: a test group's outcome comes through (make would turn 1 into 2)
mkdir "$tmp/copy"
git -C "$root" ls-files -z --cached --others --exclude-standard |
	(cd "$root" && xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$tmp/copy"
rig "$tmp/copy" test ONLY=ktap
exits $? 0 "test ONLY=ktap passes"
printf 'echo "not ok - planted failure"\n' >>"$tmp/copy/tests/ktap.sh"
rig "$tmp/copy" test ONLY=ktap
exits $? 1 "a failed check is exit 1, not make's 2"

# 3: a build that fails (the stressors do not compile) after a good check
printf 'this is not C\n' >>"$tmp/copy/stress/readers.c"
rig "$tmp/copy" soak SCENARIO=smoke DURATION=60s
rc=$?
[ -z "$(ls -A "$tmp/cache")" ] || rc="$rc with a cache entry"
exits "$rc" 3 "a stressor that does not build is exit 3, before any kernel"

# show: a soak's end screen; knobs: the README's settings table is host/knobs
mkdir -p "$tmp/logs/soak-x"
printf 'status=clean\n' >"$tmp/logs/soak-x/summary"
rig "$root" show SOAK=soak-x && grep -qx 'status=clean' "$tmp/out"
exits $? 0 "show SOAK=NAME prints that soak's summary"
"$root/host/rig" knobs --markdown >"$tmp/knobs.md"
awk '/^\| knob \| default/ { on = 1 } on && !/^\|/ { exit } on' "$root/README.md" | diff - "$tmp/knobs.md" >"$tmp/out"
exits $? 0 "the README's settings table is host/rig knobs --markdown"

# every make command the README shows is one the rig accepts: its settings
# and files pass host/rig --check (placeholders stand for real files here)
fixture=$tmp/fixture
cp -r "$root/tests/fixtures/soak-bfq-exit-icq" "$fixture"
python3 "$root/host/report/results.py" run "$fixture/r001" >/dev/null 2>&1
python3 "$root/host/report/results.py" soak "$fixture" >/dev/null 2>&1
# a tree that passes the KERNEL_SRC check (a Makefile of 6.1, block/)
mkdir -p "$tmp/linux/block" && touch "$tmp/linux/block/elevator.c"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\nEXTRAVERSION =\n' >"$tmp/linux/Makefile"
n=0 bad=''
while IFS= read -r line; do
	line=${line//oops.txt/$root/bugs/bfq-exit-icq-uaf/report.txt}
	line=${line//my.patch/$root/bugs/core-nr-hw-queues-shrink-tags-leak/6.1.patch}
	line=${line//dir\//$root/tests/bugs/bisect-series/}
	line=${line//soak-20261203-101706-smoke\/r001/$fixture/r001}
	line=${line//SOAK=.../SOAK=$fixture}
	line=${line//KERNEL_SRC=~\/linux/KERNEL_SRC=$tmp/linux}
	[[ "$line" != *...* && "$line" != *"<"* && "$line" != *"["* ]] || continue
	read -ra w <<<"$line"
	pre=() i=0
	while [[ "${w[i]}" == *=* ]]; do pre+=("${w[i]}"); i=$((i + 1)); done
	[ "${w[i]}" = make ] || continue
	t=${w[i + 1]:-help} n=$((n + 1))
	case "$t" in
	soak | cover | test | repro | verify-fix | bisect | realbugs | mutants | kcidb)
		# (ONLY of make test's own run is not the README's)
		(cd "$tmp" && env -u ONLY RIG_CACHE="$tmp/cache" LOGS="$tmp/logs" "$root/host/rig" --check "$t" "${pre[@]}" \
			"${w[@]:i+2}") >"$tmp/out" 2>&1 || bad="$bad [$line]" ;;
	*) grep -q "^$t:" "$root/Makefile" || bad="$bad [$line: no make target]" ;;
	esac
done < <({ grep -E '^    ([A-Z_]+=[^ ]+ )*make [a-z]' "$root/README.md" | sed 's/#.*//; s/^ *//'
	grep -oE '`([A-Z_]+=[^ `]+ )*make [a-z][^`]*`' "$root/README.md" | tr -d '`'; } | sed 's/ *$//' | sort -u)
[ "$n" -ge 10 ] && [ -z "$bad" ] && [ -z "$(ls -A "$tmp/cache")" ]
exits $? 0 "the README's $n make commands pass host/rig --check, nothing built${bad:+ (refused:$bad)}"
