# shellcheck shell=bash
# The kernel build's helpers: gcov and KCSAN make variables, config
# fragments, and the scheduler as an out-of-tree module. Sourced by
# host/lib.sh, never run.

# gcov for the block layer's objects (block/*.c: the schedulers, blk-mq,
# the elevator, blk-ioc, rq-qos) on kernels built with GCOV_KERNEL: make
# variables for the kernel build. COVER=1 reports the scheduler's file; every
# round's reach (the block functions it ran) is kept for REPORT= (host/measure/reach.sh).
gcov_args() { # BUILD_DIR TREE
	local f
	grep -qx 'CONFIG_GCOV_KERNEL=y' "$1/.config" 2>/dev/null || return 0
	for f in "$2"/block/*.c; do
		f=${f##*/}
		echo "GCOV_PROFILE_${f%.c}.o=y"
	done
}

# do config fragments FRAG... leave SYMBOL on (their last setting of it)?
fragments_on() { # SYMBOL FRAG...
	local sym=$1
	shift
	[ "$(grep -h "${sym}[= ]" "$@" | tail -n1)" = "$sym=y" ]
}

# KCSAN on the block layer alone, on kernels whose fragments turn KCSAN on:
# the objects of block/*.c and drivers/block/*.c (by name, so a same-named
# object elsewhere, such as fs/ioctl.o, comes along), and every module built
# out of tree against the kernel (the series' module for mutants, the rig's
# test modules), since these variables reach only this build. A data race in
# the scheduler has a cfq_ function on one side, and KCSAN's watchpoints
# (every CONFIG_KCSAN_SKIP_WATCH-th instrumented access) then land in the
# block layer instead of all over the kernel; the core kernel's own races go
# unseen (see "The race flavor" in README.md).
kcsan_args() { # TREE FRAGMENT...
	local t=$1 f
	shift
	fragments_on CONFIG_KCSAN "$@" || return 0
	echo KCSAN_SANITIZE=n
	for f in "$t"/block/*.c "$t"/drivers/block/*.c; do
		f=${f##*/}
		echo "KCSAN_SANITIZE_${f%.c}.o=y"
	done
}

# COVER=1 (coverage of the scheduler) needs a flavor whose fragments end
# with GCOV_KERNEL on; checked before any build.
cover_check() {
	case "${COVER:-0}" in
	0) return 0 ;;
	1) ;;
	*) die "COVER must be 0 or 1 (got '$COVER')" ;;
	esac
	# shellcheck disable=SC2046 # fragment paths have no spaces
	fragments_on CONFIG_GCOV_KERNEL $(flavor_fragments "$FLAVOR") ||
		die "COVER=1 needs a kernel with gcov; FLAVOR=$FLAVOR has none (use FLAVOR=debug, fast or race)"
}

# The scheduler as an out-of-tree module: cfq_module_dir fills DIR/block with
# a cfq-iosched.c (FILE, default the series' in the kernel tree), PATCH (a
# mutant or a defect) applied if given, and its Kbuild; cfq_module_make builds
# it against BUILD_DIR (make's output on stdout, ARGS such as W=1 C=2 passed
# on). build_cfq_module does both and prints the .ko path (no gcov). Used by
# host/hunt/mutants.sh, defects.sh, soak.sh, host/measure/detector-cost.sh,
# host/build/cfq-static.sh and tests/static.sh.
cfq_module_dir() { # DIR [FILE [PATCH]]
	local m=$1 f=${2:-$(kernel_tree)/block/cfq-iosched.c} p=${3:-}
	rm -rf "$m" && mkdir -p "$m/block"
	cp "$f" "$m/block/cfq-iosched.c"
	[ -z "$p" ] || patch -d "$m" -p1 -s --no-backup-if-mismatch <"$p" || die "$(basename "$p") does not apply to the series"
	printf 'obj-m := cfq-iosched.o\nccflags-y := -I$(srctree)/block\n' >"$m/block/Kbuild"
}
cfq_module_make() { # BUILD_DIR DIR [ARGS...]
	local build=$1 m=$2
	shift 2
	make -s -C "$build" M="$m/block" "$@" modules 2>&1
}
build_cfq_module() { # BUILD_DIR DIR [PATCH]
	local build=$1 m=$2
	cfq_module_dir "$m" "" "${3:-}"
	cfq_module_make "$build" "$m" >"$m/build.log" ||
		{ cat "$m/build.log" >&2; die "cfq-iosched.ko did not build out of tree (see $m/build.log)"; }
	echo "$m/block/cfq-iosched.ko"
}
