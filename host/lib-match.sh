# Sourced by host/lib.sh: matching a finding against a report or a bug's
# Expect: line, the real-bug corpus (bugs/), and applying or reversing
# patches on a tree. Needs host/lib.sh's settings (RIG_ROOT, KVER, BUG).
# shellcheck shell=bash

# Does a finding's title match one of the Expect: alternatives ("a / b")
# of a mutant or a corpus bug? An alternative matches when each of its
# words occurs in the title.
title_expected() { # EXPECT TITLE
	awk -v e="$1" -v t="$2" 'BEGIN {
		t = tolower(t); gsub(/[:,()]/, " ", t); nt = split(t, tw, " ")
		for (i = 1; i <= nt; i++) have[tw[i]] = 1
		n = split(e, alt, " / ")
		for (a = 1; a <= n; a++) {
			s = tolower(alt[a]); gsub(/[:,()]/, " ", s); k = split(s, w, " "); ok = k > 0
			for (i = 1; i <= k; i++) if (!(w[i] in have)) ok = 0
			if (ok) exit 0
		}
		exit 1 }'
}

# Are titles A and B the same kind of report (the words before " in ",
# Read/Write and KASAN/KFENCE aside)? A bad memory access is one kind
# whatever caught it: the page fault or GPF that a kernel without KASAN
# (a distribution's, most reporters') oopses on is, on the rig's KASAN
# kernel, a KASAN report of the same access.
same_kind() { # A B
	awk -v a="$1" -v b="$2" '
	function kind(t) { sub(/ in .*/, "", t); t = tolower(t); sub(/^(kasan|kfence): /, "", t); sub(/ (read|write)$/, "", t)
		if (t ~ /^(ubsan: array-index-out-of-bounds|use-after-free|slab-out-of-bounds|out-of-bounds|global-out-of-bounds|stack-out-of-bounds|null-ptr-deref|wild-memory-access|invalid-free|double-free|invalid-access|bug: unable to handle kernel (paging request|null pointer dereference)|general protection fault)$/)
			return "bad memory access"
		return t }
	BEGIN { exit !(kind(a) == kind(b)) }'
}

# Is finding title B the bug that report title A names? The same title, or
# the same kind of report (the words before " in ", Read/Write aside) in
# the same function, one name the prefix of the other (a body that one
# build inlines and another does not: bfq_idle_slice_timer(_body)); a
# report whose function the classifier could not name ("corrupted": a
# posted excerpt without its trace) matches on its kind. KASAN and KFENCE
# reports of one access are the same kind (the rig's kernels have KASAN),
# and so are an index out of bounds (UBSAN) and the out-of-bounds access it
# makes (KASAN, whose redzone sees it first on the rig's kernels).
same_title() { # A B
	awk -v a="$1" -v b="$2" '
	function fn(t) { if (t !~ / in /) return ""; sub(/.* in /, "", t); sub(/[ .+].*/, "", t); return t }
	function kind(t) { sub(/ in .*/, "", t); t = tolower(t); sub(/^(kasan|kfence): /, "", t); sub(/ (read|write)$/, "", t)
		sub(/^(ubsan: array-index-|slab-|global-|stack-|vmalloc-)out-of-bounds$/, "out-of-bounds", t); return t }
	BEGIN { fa = fn(a); fb = fn(b)
		exit !(a == b || (fa != "" && fb != "" && kind(a) == kind(b) &&
			(fa == "corrupted" || index(fa, fb) == 1 || index(fb, fa) == 1))) }'
}

# Frames of a console log: each "f+0x../0x.." line's function, in order,
# once, without unreliable ones ("? f+0x..") and the generic ones (reporting, locking, interrupts, entry,
# allocators); from line FROM on, at most MAX. One rule for a posted report
# (host/hunt/report.sh) and for a round's console (finding_matches).
GENERIC_FRAMES='^(dump_|show_stack|print_|kasan|__kasan|__asan|kfence|check_|_raw_|lock_|lockdep|__lock|mark_|__warn|warn_|report_bug|handle_bug|exc_|asm_|do_error_trap|die|__die|oops|panic|printk|vprintk|__wake_up|try_to_wake_up|do_raw_spin|spin_|queued_spin|kthread|ret_from_fork|worker_thread|process_one_work|smp_|__sysvec|sysvec_|irq_|handle_|__handle|el[01]|gic_|arch_timer|__hrtimer|hrtimer_interrupt|entry_SYSCALL|do_syscall|__x64|x64_sys|__do_sys|__se_sys|__arm64|invoke_syscall|ubsan|__ubsan|refcount_|kmemleak|slab_|kmem_|kfree|kmalloc|__kmalloc|__slab|___slab|rcu_|call_rcu|debug_|__schedule|schedule|preempt_|do_idle|default_idle|cpuidle|cpu_startup|native_|__x86|common_startup|secondary_startup|start_kernel|rest_init|do_mem_abort|do_page_fault|__do_kernel_fault|do_translation_fault|el1h|el0t|stack_trace|save_stack|set_track|__kmem|kmem_cache|_printk|nmi_|__nmi)'
frames_of() { # CONSOLE [FROM] [MAX]
	tail -n +"${2:-1}" "$1" | sed -nE 's/^\[[^]]*\]( ?\[[^]]*\])?[[:space:]]+(\[<[0-9a-f]+>\] )?([A-Za-z_][A-Za-z0-9_.]*)\+0x[0-9a-f]+\/0x[0-9a-f]+.*/\3/p' |
		sed -E 's/\.(isra|constprop|part|cold|llvm)(\.[0-9]+)?//g' |
		awk -v g="$GENERIC_FRAMES" -v max="${3:-100000}" '$0 !~ g && !seen[$0]++ && n++ < max'
}

# Has a round (RUN_DIR) found the bug that report title A names? A finding
# with the same title (same_title), or of the same kind whose first four
# frames hold A's function: a build that does not inline what the
# reporter's did (bic_set_bfqq under bfq_exit_icq_bfqq).
finding_matches() { # A RUN_DIR: prints the matching finding's title
	local a=$1 run=$2 t line fa
	fa=$(sed -n 's/.* in \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' <<<"$a")
	"$RIG_ROOT/host/report/classify" --json "$run/console.log" 2>/dev/null |
		python3 -c 'import json, sys
for f in json.load(sys.stdin): print("%d\t%s" % (f["first_line"], f["title"]))' 2>/dev/null |
	while IFS=$'\t' read -r line t; do
		if same_title "$a" "$t"; then echo "$t"; return; fi
		[ -n "$fa" ] && [ "$line" -gt 0 ] && same_kind "$a" "$t" || continue
		if frames_of "$run/console.log" "$line" 4 | grep -qx "$fa"; then echo "$t"; return; fi
	done || true # classify exits 1 when it finds something: no error here
}

# REPORT=FILE as the finding to look for (host/hunt/report.sh --analyse): sets
# UNTIL_TITLE and UNDER_TEST (the user's, else the report's) and writes the
# report's rotation to ROT. Used by host/hunt/verify-fix.sh and host/hunt/bisect.sh.
# shellcheck disable=SC2034 # UNTIL_TITLE is for the caller (exported there)
report_finding() { # FILE USER_UNDER_TEST ROT
	local a
	a=$(UNDER_TEST=$2 REPORT_ROT=$3 "$RIG_ROOT/host/hunt/report.sh" --analyse "$1") || exit 2
	UNTIL_TITLE=$(sed -n 's/^title=//p' <<<"$a")
	UNDER_TEST=$(sed -n 's/^under_test=//p' <<<"$a")
}

# The real-bug corpus: bugs/NAME/info (Subject, Commit, Class, Code, Expect,
# ...: key: value lines), bugs/NAME/$KVER.patch (the revert of the fix) and,
# where a public report exists, bugs/NAME/report.txt.
bug_names() { local i; for i in "$RIG_ROOT"/bugs/*/info; do [ ! -f "$i" ] || basename "$(dirname "$i")"; done; }
# shellcheck disable=SC2120 # NAME is optional (default BUG)
bug_patch() { echo "$RIG_ROOT/bugs/${1:-$BUG}/$KVER.patch"; }
bug_info()  { sed -n "s/^$2: *//p" "$RIG_ROOT/bugs/$1/info" | head -n1; } # NAME KEY
bug_check() {
	[ -n "$BUG" ] || return 0
	[ -f "$RIG_ROOT/bugs/$BUG/info" ] ||
		die "unknown BUG '$BUG' (choose: $(bug_names | tr '\n' ' '))"
	[ -f "$(bug_patch)" ] || die "BUG=$BUG has no revert for the $KVER line (bugs/$BUG/$KVER.patch)"
	[ -z "$KERNEL_SRC" ] || die "BUG= reverts a fix in the package's tree; it does not go with KERNEL_SRC"
}
# the first patch of PATCH... that does not apply in order onto a scratch
# copy of the files they touch in TREE: "name: file: Hunk #n FAILED at l"
series_failure() { # TREE PATCH...
	local t=$1 tmp p f out
	shift
	tmp=$(mktemp -d)
	for f in $(sed -n 's|^+++ b/||p' "$@" | sort -u); do
		[ ! -f "$t/$f" ] || install -D -m 644 "$t/$f" "$tmp/$f"
	done
	for p in "$@"; do
		for f in $(grep -A1 '^--- /dev/null' "$p" | sed -n 's|^+++ b/||p'); do
			[ ! -e "$tmp/$f" ] || { echo "$(basename "$p"): $f: the tree has it already (another version of the series?)"; rm -rf "$tmp"; return; }
		done
		if ! out=$(patch -d "$tmp" -p1 -f --no-backup-if-mismatch -r - <"$p" 2>&1); then
			awk -v p="$(basename "$p")" '/^patching file / {f = $3}
				/FAILED at|can.t find file/ {sub(/\.$/, ""); print p ": " f ": " $0}' <<<"$out" | head -n5
			[ -n "$out" ] || echo "$(basename "$p"): does not apply"
			rm -rf "$tmp"
			return
		fi
	done
	rm -rf "$tmp"
}

# A unified diff turned round (what `patch -R` applies): the fix a corpus
# bug's revert undid, for verify-fix on that bug.
patch_reverse() { # PATCH
	awk '/^--- / { old = $0; next }
		/^\+\+\+ / { sub(/^\+\+\+ b\//, "--- a/"); print; sub(/^--- a\//, "+++ b/", old); sub(/^--- a\//, "+++ b/"); print old; next }
		/^@@ / { match($0, /^@@ -[0-9,]+ \+[0-9,]+ @@/); h = substr($0, 4, RLENGTH - 6); split(h, r, " ")
			print "@@ -" substr(r[2], 2) " +" substr(r[1], 2) " @@" substr($0, RLENGTH + 1); next }
		/^-/ { print "+" substr($0, 2); next }
		/^\+/ { print "-" substr($0, 2); next }
		{ print }' "$1"
}

# Do PATCH... apply, in order, on top of the series? The first failing hunk,
# or nothing. Checked on the package's tree when it carries this series,
# else on the files they touch, taken from the package's archive (a few
# seconds, nothing built): bad input is found before any build.
patch_failure() { # PATCH...
	local t tmp files
	t="$RIG_CACHE/linux-$(src_version)"
	if [ "$(cat "$t/.rig-series/hash" 2>/dev/null)" = "$(series_hash)" ]; then
		series_failure "$t" "$@"
		return
	fi
	tmp=$(mktemp -d)
	# shellcheck disable=SC2046 # patch paths have no spaces
	files=$(sed -n 's|^+++ b/||p' $(series_files) "$@" | sort -u | sed "s|^|linux-source-$KVER/|")
	# shellcheck disable=SC2086 # the archive's member names have no spaces
	tar -xJf "$(src_tarball)" -C "$tmp" $files 2>/dev/null || true
	mkdir -p "$tmp/linux-source-$KVER"
	# shellcheck disable=SC2046
	series_failure "$tmp/linux-source-$KVER" $(series_files) "$@"
	rm -rf "$tmp"
}
