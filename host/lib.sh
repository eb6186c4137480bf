# shellcheck shell=bash
# Shared settings and helpers for the host scripts. Sourced, never run.

RIG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RIG_CACHE=${RIG_CACHE:-$HOME/.cache/cfq-rig}
FLAVOR=${FLAVOR:-debug}
# KERNEL_SRC=/path/to/linux: a user's tree (6.1 or later) in place of the
# package; unless KVER is set, the newest series not newer than the tree.
KERNEL_SRC=${KERNEL_SRC:-}
# TREE_AS_IS=1: KERNEL_SRC is built as it is, without the series (it carries
# the scheduler, or the user's own change to it); only the rig's hooks
# (patch/$KVER/rig/) that apply go onto a copy
TREE_AS_IS=${TREE_AS_IS:-0}
EXTRA_CONFIG=${EXTRA_CONFIG:-}
# BUG=NAME: a bug of the real-bug corpus (bugs/NAME/), its fix reverted on a
# copy of the built tree (host/build/kernel.sh)
BUG=${BUG:-}
# UNDER_TEST=NAME: the code under test (host/report/under-test); FAIL_ON_OTHER=1:
# findings outside it fail the run too
UNDER_TEST=${UNDER_TEST:-cfq}
FAIL_ON_OTHER=${FAIL_ON_OTHER:-0}
src_makefile_version() { # DIR -> VERSION.PATCHLEVEL.SUBLEVEL of DIR/Makefile
	[ -f "$1/Makefile" ] || return 0
	awk '/^VERSION =/ {v = $3} /^PATCHLEVEL =/ {p = $3} /^SUBLEVEL =/ {s = $3}
		END {if (v != "" && p != "") print v "." p "." s}' "$1/Makefile" 2>/dev/null
}
src_series_line() { # VERSION -> the newest patch/<line> not newer than it
	local l best=
	for l in $(cd "$RIG_ROOT/patch" && ls -d [0-9]* | sort -V); do
		[ "$(printf '%s\n' "$l" "$1" | sort -V | tail -n1)" != "$1" ] || best=$l
	done
	echo "$best"
}
[ -n "${KVER:-}" ] || [ -z "$KERNEL_SRC" ] || KVER=$(src_series_line "$(src_makefile_version "$KERNEL_SRC")")
KVER=${KVER:-6.1}
LOGS=${LOGS:-$RIG_ROOT/logs}
export RIG_ROOT RIG_CACHE FLAVOR KVER KERNEL_SRC EXTRA_CONFIG BUG UNDER_TEST FAIL_ON_OTHER LOGS

# Console lines that start a kernel report (after the "[time][caller] "
# prefix), from the one table of reports, host/report/report-patterns (read by
# host/report/classify alone): SPLAT_RE, reports after which the guest may be
# wedged; REPORT_RE, every report. The guest gets REPORT_RE in its run.conf
# (RIG_REPORT_RE).
SPLAT_RE=$("$RIG_ROOT/host/report/classify" --re splat) || exit 2
REPORT_RE=$("$RIG_ROOT/host/report/classify" --re report) || exit 2
export SPLAT_RE REPORT_RE

say()  { printf '%s %s\n' "[$(date +%H:%M:%S)]" "$*" >&2; }
# a title of the rig's own findings: KEY's printf format in host/report/rig-titles
# (the guest's rig_finding reads the same table)
rig_title() { # KEY ARGS...
	local t
	t=$(awk -F'\t' -v k="$1" '$1 == k { print $2; exit }' "$RIG_ROOT/host/report/rig-titles")
	[ -n "$t" ] || die "host/report/rig-titles: no key '$1'"
	shift
	# shellcheck disable=SC2059 # the format is the table's
	printf "$t" "$@"
}
die()  { printf 'error: %s\n' "$*" >&2; exit 2; }

# Kernel lines: KVER picks the Debian source package linux-source-$KVER
# and the series patch/$KVER/ (with its rig-only patches and mutants).
kver_check() {
	[ -d "$RIG_ROOT/patch/$KVER" ] && [[ "$KVER" =~ ^[0-9]+\.[0-9]+$ ]] ||
		die "unknown KVER '$KVER' (choose: $(cd "$RIG_ROOT/patch" && ls -d [0-9]* | tr '\n' ' '))"
}

# Source version of the installed linux-source-$KVER package, or with
# KERNEL_SRC the tree's version and a key of its path ("6.12.58-src-1a2b3c4d").
src_version() {
	kver_check
	if [ -n "$KERNEL_SRC" ]; then
		echo "$(src_makefile_version "$KERNEL_SRC")-src-$(realpath "$KERNEL_SRC" | sha256sum | cut -c1-8)"
		return
	fi
	dpkg-query -W -f='${Version}' "linux-source-$KVER" 2>/dev/null ||
		die "linux-source-$KVER is not installed (run: make deps)"
}

# KERNEL_SRC and EXTRA_CONFIG are checked before anything is built.
kernel_src_check() {
	local v
	case $TREE_AS_IS in 0 | 1) ;; *) die "TREE_AS_IS must be 0 or 1 (got '$TREE_AS_IS')" ;; esac
	[ "$TREE_AS_IS" = 0 ] || [ -n "$KERNEL_SRC" ] || die "TREE_AS_IS=1 builds a user's tree as it is: it needs KERNEL_SRC=/path/to/linux"
	if [ -n "$KERNEL_SRC" ]; then
		[ -d "$KERNEL_SRC" ] || die "KERNEL_SRC: no directory '$KERNEL_SRC'"
		v=$(src_makefile_version "$KERNEL_SRC")
		[ -n "$v" ] && [ -f "$KERNEL_SRC/block/elevator.c" ] ||
			die "KERNEL_SRC: '$KERNEL_SRC' is not a Linux source tree (no Makefile with VERSION, or no block/elevator.c)"
		[ "$(printf '%s\n' 6.1 "$v" | sort -V | head -n1)" = 6.1 ] ||
			die "KERNEL_SRC: '$KERNEL_SRC' is Linux $v; the series needs 6.1 or later"
	fi
	if [ -n "$EXTRA_CONFIG" ]; then
		[ -f "$EXTRA_CONFIG" ] && [ -r "$EXTRA_CONFIG" ] || die "EXTRA_CONFIG: no readable file '$EXTRA_CONFIG'"
		v=$(grep -nvE '^(CONFIG_[A-Za-z0-9_]+=.*|# CONFIG_[A-Za-z0-9_]+ is not set|#.*|[[:space:]]*)$' "$EXTRA_CONFIG" | head -n3 || true)
		[ -z "$v" ] || die "EXTRA_CONFIG: $EXTRA_CONFIG: not a config fragment line (CONFIG_X=y, # CONFIG_X is not set, # comment):
$v"
	fi
	return 0
}
src_tarball() { echo "/usr/src/linux-source-$KVER.tar.xz"; }

# The cache is the rig's when it holds the marker .cfq-rig-cache (made with
# it): make distclean removes nothing else.
rig_cache_init() {
	[ -f "$RIG_CACHE/.cfq-rig-cache" ] && return 0
	# a cache made before the marker existed has the rig's tree locks
	if [ -n "$(ls -A "$RIG_CACHE" 2>/dev/null)" ] && ! compgen -G "$RIG_CACHE/linux-*.lock" >/dev/null; then
		die "RIG_CACHE=$RIG_CACHE holds files that are not the rig's: name an empty or new directory"
	fi
	mkdir -p "$RIG_CACHE" && echo "cfq-rig kernel cache (make distclean removes this directory)" >"$RIG_CACHE/.cfq-rig-cache"
}

# cache_lock NAME: hold an exclusive lock on $RIG_CACHE/NAME.lock until the
# calling script exits (flock on an inherited descriptor). A second rig
# command that needs the same tree or image waits and says for whom.
cache_lock() {
	local f="$RIG_CACHE/$1.lock"
	rig_cache_init
	exec {RIG_LOCK_FD}>>"$f"
	if ! flock -n "$RIG_LOCK_FD"; then
		say "waiting for $1 (locked by $(cat "$f.owner" 2>/dev/null || echo another rig command))"
		flock "$RIG_LOCK_FD"
	fi
	echo "pid $$ ($(basename "$0"), since $(date +%T))" >"$f.owner"
}

# Flavors: which config fragments make up each kernel. A kernel line that
# needs more symbols has an overlay NAME-$KVER.config, merged right after
# NAME.config (debug-6.12.config: what 6.12's Kconfig asks in addition).
flavor_fragments() {
	local names f
	case "$1" in
	debug) names="base debug" ;;
	fast)  names="base debug fast" ;;
	race)  names="base debug race" ;;
	perf)  names="base perf" ;;
	*) die "unknown FLAVOR '$1' (choose: debug, fast, race, perf)" ;;
	esac
	for f in $names; do
		echo "$RIG_ROOT/host/config/$f.config"
		[ ! -f "$RIG_ROOT/host/config/$f-$KVER.config" ] || echo "$RIG_ROOT/host/config/$f-$KVER.config"
	done | tr '\n' ' ' | sed 's/ $//'
}

# The series meant for merge (patch/$KVER/NNNN-*.patch; its cover letter,
# 0000-cover-letter.patch, carries no diff), then the rig-only patches
# (patch/$KVER/rig/*.patch: test hooks) that only the rig's kernels carry.
# Mutants (patch/$KVER/mutants/) are applied by host/hunt/mutants.sh alone.
merge_series() {
	local p
	[ "$TREE_AS_IS" = 1 ] && return
	for p in "$RIG_ROOT/patch/$KVER"/[0-9]*.patch; do
		[ -f "$p" ] && [ "${p##*/}" != 0000-cover-letter.patch ] && echo "$p"
	done
	return 0
}
cover_letter() { echo "$RIG_ROOT/patch/$KVER/0000-cover-letter.patch"; }
rig_series()   { ls "$RIG_ROOT/patch/$KVER"/rig/*.patch 2>/dev/null | sort; }
series_files() { merge_series; rig_series; }
mutant_dir()   { echo "$RIG_ROOT/patch/$KVER/mutants"; }

# The sources a kernel is built from besides the package and the series, as
# key=value lines for a summary (run.sh's facts, soak.sh's summary; repro
# restores them, KCIDB takes the commit): KERNEL_SRC with its git commit
# ("-dirty" when its work tree differs), EXTRA_CONFIG with its hash.
source_facts() {
	if [ -n "$KERNEL_SRC" ]; then
		echo "kernel_src=$(realpath "$KERNEL_SRC")"
		[ "$TREE_AS_IS" = 0 ] || echo "tree_as_is=1"
		local c
		if c=$(git -C "$KERNEL_SRC" rev-parse -q --verify HEAD 2>/dev/null); then
			[ -z "$(git -C "$KERNEL_SRC" status --porcelain --untracked-files=no 2>/dev/null | head -n1)" ] || c="$c-dirty"
			echo "kernel_src_commit=$c"
		fi
	fi
	if [ -n "$EXTRA_CONFIG" ]; then
		echo "extra_config=$(realpath "$EXTRA_CONFIG")"
		echo "extra_config_sha256=$(sha256sum <"$EXTRA_CONFIG" | cut -c1-12)"
	fi
	return 0
}

series_hash() {
	local f
	for f in $(series_files); do sha256sum "$f"; done | sed 's|  .*/|  |' | sha256sum | cut -c1-12
}

# The tree the kernel is built from: the package's, extracted and patched in
# the cache; with KERNEL_SRC, the user's tree itself when it carries the
# series already, else a patched copy in the cache (host/build/kernel.sh records
# which in the .tree file). An EXTRA_CONFIG kernel has its own build.
kernel_tree() {
	local t
	t="$RIG_CACHE/linux-$(src_version)"
	[ -z "$KERNEL_SRC" ] || t=$(cat "$t.tree" 2>/dev/null || echo "$t")
	if [ -n "${RIG_PATCHES:-}" ]; then
		echo "$t-v$(variant_patches | xargs cat | sha256sum | cut -c1-10)"
	else
		echo "$t${BUG:+-bug-$BUG}"
	fi
}
# A kernel variant: the package's tree with patches on top, built as a copy
# of the tree and its build (host/build/kernel.sh). Its patches: BUG's revert,
# then RIG_PATCHES (files, space-separated; set by host/hunt/verify-fix.sh, a fix
# to check, and host/hunt/bisect.sh, the first patches of a series).
RIG_PATCHES=${RIG_PATCHES:-}
export RIG_PATCHES
variant_patches() {
	local p
	[ -z "$BUG" ] || bug_patch
	for p in $RIG_PATCHES; do echo "$p"; done
}
# A tree in the cache holds its builds (build-FLAVOR): kbuild then names the
# sources relative to the build (srctree "..") and a copy of tree and build
# builds incrementally (BUG=). A user's tree is never written to: its builds
# live beside it in the cache.
kernel_build() {
	local x='' t
	[ -z "$EXTRA_CONFIG" ] || x="-x$(sha256sum <"$EXTRA_CONFIG" | cut -c1-8)"
	t=$(kernel_tree)
	case $t in
	"$RIG_CACHE"/*) echo "$t/build-$FLAVOR$x" ;;
	*) echo "$RIG_CACHE/build-$(src_version)-$FLAVOR$x" ;;
	esac
}

under_test_check() {
	awk -F'\t' -v n="$UNDER_TEST" '!/^#/ && $1 == n {f = 1} END {exit !f}' "$RIG_ROOT/host/report/under-test" ||
		die "unknown UNDER_TEST '$UNDER_TEST' (choose: $(grep -v '^#' "$RIG_ROOT/host/report/under-test" | cut -f1 | tr '\n' ' '))"
	case $FAIL_ON_OTHER in 0 | 1) ;; *) die "FAIL_ON_OTHER must be 0 or 1 (got '$FAIL_ON_OTHER')" ;; esac
}
# a column of host/report/under-test's line NAME (2 SCHED, 3 SCOPE, 4 OWN)
under_test_field() { awk -F'\t' -v n="$1" -v c="$2" '!/^#/ && $1 == n {print $c}' "$RIG_ROOT/host/report/under-test"; } # NAME COLUMN
# the scheduler that scenarios written for cfq run on (- : their own)
under_test_sched() { under_test_field "$UNDER_TEST" 2; }

# The kernels a rotation (or scenario) FILE boots, as host/hunt/soak.sh picks
# them: a line's FLAVOR column when the soak's FLAVOR is the default
# (debug), else FLAVOR for every round
rotation_flavors() { # FILE
	[[ "$1" == *.rot ]] || { echo "$FLAVOR"; return; }
	sed 's/#.*//' "$1" | awk -v f="$FLAVOR" 'NF { print (f == "debug" && $4 != "" && $4 != "-") ? $4 : f }' | sort -u
}

# matching findings, the corpus, patches: host/lib-match.sh
. "$RIG_ROOT/host/lib-match.sh"

# Run a long command with its output in a log, printing one progress line
# every PROGRESS seconds: "label: elapsed, N lines of log, last: ...".
run_with_progress() {
	local label=$1 log=$2; shift 2
	local start=$SECONDS pid
	"$@" >"$log" 2>&1 &
	pid=$!
	local every=${PROGRESS:-30} n=0
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		n=$((n + 1))
		[ $((n % every)) -eq 0 ] && kill -0 "$pid" 2>/dev/null &&
			say "$label: $((SECONDS - start)) s, $(wc -l <"$log") log lines, last: $(tail -n1 "$log" | cut -c1-60)"
	done
	wait "$pid"
}

# fault set names ("a b", or none) -> their files faults/NAME.flt
fault_files() {
	local f
	for f in $1; do [ "$f" = none ] || echo "$RIG_ROOT/faults/$f.flt"; done
}

# A round's plan lives in a directory: plan (host/hunt/scenario.sh plan) and,
# when it arms faults, faults.sh (host/hunt/faults.sh guest). host/vm/run.sh keeps a
# copy of both in the run's files/, which host/hunt/repro.sh replays.
plan_value() { sed -n "s/^PLAN_$2='\{0,1\}\([^']*\)'\{0,1\}$/\1/p" "$1"; } # FILE KEY

plan_dir() { # SCENARIO_FILE SEED DURATION DIR
	local faults
	mkdir -p "$4"
	"$RIG_ROOT/host/hunt/scenario.sh" plan "$1" "$2" "$3" >"$4/plan" || exit 2
	faults=$(plan_value "$4/plan" FAULTS)
	# shellcheck disable=SC2046 # fault set names are plain words
	[ "$faults" = none ] || "$RIG_ROOT/host/hunt/faults.sh" guest $(fault_files "$faults") >"$4/faults.sh"
}

run_plan() { # DIR RUN_ID [RIG_KEY=VALUE ...]: one guest run of that plan
	local p=$1 id=$2 d extra
	shift 2
	d=$(plan_value "$p/plan" DURATION)
	extra="$p/plan"; [ ! -f "$p/faults.sh" ] || extra="$extra $p/faults.sh"
	RUN_ID="$id" TIMEOUT=$((d + 400)) EXTRA_FILES="$extra" "$RIG_ROOT/host/vm/run.sh" scenario \
		"RIG_SCENARIO=$(plan_value "$p/plan" SCENARIO)" "RIG_SEED=$(plan_value "$p/plan" SEED)" \
		"RIG_DURATION=$d" "$@"
}

# gcov, KCSAN, config fragments, the out-of-tree module: host/build/lib.sh
. "$RIG_ROOT/host/build/lib.sh"

# new_dir BASE: create the directory BASE, or BASE-2, BASE-3, ... when a
# command started in the same second took the name first (mkdir is atomic);
# prints the directory made. Callers use the directory they made, never
# "the latest" one.
new_dir() {
	local d=$1 n=1
	mkdir -p "$(dirname "$1")"
	until mkdir "$d" 2>/dev/null; do
		n=$((n + 1)); d="$1-$n"
		[ "$n" -lt 100 ] || die "cannot create a directory $1-N"
	done
	echo "$d"
}

# The slice audit's round lines in results.log files (guest/jobs/scenario.sh:
# "audit slices=N time=N RULE=N... lost=N devices=...", the rules named by
# guest/slice-audit.awk) -> "slices N, ended by time N, breaches N, notes N,
# lost events N, in N rounds", or nothing when no round audited. Every
# RULE=N counts as breaches, except that a round's timeout and round
# breaches are notes when it lost events (those rules need every event)
audit_totals() { # RESULTS_LOG...
	awk '/^audit slices=[0-9]/ { r++
			for (i = 2; i <= NF; i++) { split($i, kv, "=")
				if (kv[1] == "slices") s += kv[2]; else if (kv[1] == "time") t += kv[2]
				else if (kv[1] == "lost") { l += kv[2]; rl = kv[2] }
				else if (kv[1] == "timeout" || kv[1] == "round") rt += kv[2]
				else if (kv[1] != "devices") b += kv[2] }
			if (rl > 0) k += rt; else b += rt
			rl = rt = 0 }
		END { if (r) printf "slices %d, ended by time %d, breaches %d, notes %d, lost events %d, in %d round(s)\n", s, t, b, k, l, r }' "$@" 2>/dev/null
}
