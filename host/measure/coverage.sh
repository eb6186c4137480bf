#!/usr/bin/env bash
# Coverage of the scheduler (block/cfq-iosched.c) from the guest's gcov data.
#
# usage: host/measure/coverage.sh collect RUN_DIR BUILD_DIR
#          take the gcda blocks out of RUN_DIR/results.log (guest/lib.sh
#          rig_gcov_dump), then write RUN_DIR/coverage.info (lcov tracefile,
#          lines, branches, functions of cfq-iosched.c), RUN_DIR/coverage/
#          (genhtml) and RUN_DIR/reach (FILE TAB FUNCTION: every block/
#          function the round ran, host/measure/reach.sh). No gcda in the log: prints "coverage missing" and
#          writes no tracefile (missing, not 0 %).
#        host/measure/coverage.sh merge OUT_DIR INFO...
#          OUT_DIR/coverage.info as the union of the tracefiles, and its report
#        host/measure/coverage.sh line INFO
#          "coverage cfq-iosched.c: lines ...", then what was never reached
# exit: 0, 2 on usage errors or when lcov fails.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

SRC=block/cfq-iosched.c
LCOV=(lcov -q --rc lcov_branch_coverage=1 --gcov-tool gcov)

html() { # INFO OUT_DIR: the genhtml report (never fatal: the tracefile is the result)
	genhtml -q --branch-coverage --legend -o "$2" "$1" >"$2.log" 2>&1 ||
		say "coverage: genhtml failed, see $2.log"
}

# The only reader of the tracefile format: per-file totals and the functions
# and line ranges never reached (a range ends at the next line that ran).
line() {
	awk -v src="$(basename "$SRC")" '
	/^SF:/ { keep = ($0 ~ ("/" src "$")); if (keep) file = substr($0, 4) }
	!keep { next }
	/^FN:/ { split(substr($0, 4), a, ","); fnline[a[2]] = a[1] + 0 }
	/^FNDA:/ { split(substr($0, 6), a, ","); fnhit[a[2]] += a[1] }
	/^DA:/ { split(substr($0, 4), a, ","); l = a[1] + 0; hits[l] += a[2]; lines[l] = 1 }
	/^BRDA:/ { split(substr($0, 6), a, ","); k = a[1] SUBSEP a[2] SUBSEP a[3]
		br[k] = 1; if (a[4] != "-" && a[4] > 0) brhit[k] = 1 }
	END {
		nl = 0; hl = 0
		for (l in lines) { nl++; if (hits[l] > 0) hl++ }
		nb = 0; hb = 0
		for (k in br) { nb++; if (k in brhit) hb++ }
		nf = 0; hf = 0; miss = ""
		for (f in fnline) { nf++; if (fnhit[f] > 0) hf++; else miss = miss " " f }
		if (nl == 0) { print "coverage " src ": missing (no data for this file)"; exit }
		printf "coverage %s: lines %.1f%% (%d/%d), branches %.1f%% (%d/%d), functions %.1f%% (%d/%d)\n",
			src, 100 * hl / nl, hl, nl, nb ? 100 * hb / nb : 0, hb, nb, nf ? 100 * hf / nf : 0, hf, nf
		if (miss != "") print "  functions never called:" miss
		# sorted line numbers, then ranges of unreached ones
		n = 0; for (l in lines) s[++n] = l + 0
		for (i = 2; i <= n; i++) { v = s[i]; for (j = i - 1; j >= 1 && s[j] > v; j--) s[j + 1] = s[j]; s[j + 1] = v }
		out = ""; start = 0
		for (i = 1; i <= n + 1; i++) {
			l = s[i]
			if (i <= n && hits[l] == 0) { if (!start) start = l; last = l; continue }
			if (start) { out = out " " (start == last ? start : start "-" last); start = 0 }
		}
		if (out != "") print "  lines never reached:" out
		# branch outcomes never taken, and how many sit on assertion lines
		# (WARN/BUG/lockdep/refcount checks: their other side is a bug)
		nt = 0; na = 0
		for (k in br) if (!(k in brhit)) { split(k, a, SUBSEP); nt++; miss_br[a[1] + 0]++ }
		ln = 0
		while (nt && (getline t < file) > 0)
			if (((++ln) in miss_br) && t ~ /WARN|BUG_ON|lockdep_assert|refcount_/) na += miss_br[ln]
		if (ln) printf "  branch outcomes never taken: %d, %d of them on assertion lines (WARN, BUG_ON, lockdep, refcount)\n", nt, na
	}' "$1"
}

case "${1:-}" in
collect)
	[ $# -eq 3 ] || die "usage: host/measure/coverage.sh collect RUN_DIR BUILD_DIR"
	run=$2 build=$3 res="$2/results.log"
	rm -rf "$run/gcov" "$run/coverage" "$run/coverage.info"
	# gcda-begin /ABS/BUILD/block/x.gcda, base64 lines, gcda-end. An object
	# of a kernel variant (BUG=) that its revert did not touch was compiled
	# in the base build and names that one: any build-*/ prefix goes
	awk -v out="$run/gcov" -v build="$build" '
		/^gcda-begin / { p = $2; if (!sub("^" build "/", "", p)) sub(/^.*\/build-[^\/]+\//, "", p); f = out "/" p ".b64"
			d = f; sub("/[^/]*$", "", d); system("mkdir -p \"" d "\""); next }
		/^gcda-end/ { close(f); f = ""; next }
		f != "" { print > f }' "$res"
	sed -i '/^gcda-begin /,/^gcda-end/d' "$res"
	found=0
	while IFS= read -r b; do
		base64 -d <"$b" >"${b%.b64}" || die "coverage: corrupt gcda block ${b#"$run"/}"
		rm -f "$b"
		g="${b%.gcda.b64}.gcno"
		cp "$build/${g#"$run/gcov/"}" "$g" 2>/dev/null || die "coverage: no ${g#"$run/gcov/"} in $build (kernel without gcov?)"
		found=1
	done < <(find "$run/gcov" -name '*.gcda.b64' 2>/dev/null)
	if [ "$found" = 0 ]; then
		echo "coverage $(basename "$SRC"): missing (the guest sent no gcov data)"
		exit 0
	fi
	"${LCOV[@]}" --ignore-errors gcov,source --capture --directory "$run/gcov" --output-file "$run/coverage.all.info" >"$run/coverage.log" 2>&1 ||
		{ cat "$run/coverage.log" >&2; die "coverage: lcov --capture failed"; }
	# the round's reach: every block function it ran (host/measure/reach.sh)
	awk '/^SF:/ { f = $0; sub(/.*\//, "", f) }
		/^FNDA:/ { split(substr($0, 6), a, ","); if (a[1] > 0) print f "\t" a[2] }' \
		"$run/coverage.all.info" | sort -u >"$run/reach"
	"${LCOV[@]}" --extract "$run/coverage.all.info" "*/$SRC" --output-file "$run/coverage.info" >>"$run/coverage.log" 2>&1 ||
		die "coverage: lcov --extract failed (see $run/coverage.log)"
	rm -f "$run/coverage.all.info"
	html "$run/coverage.info" "$run/coverage"
	line "$run/coverage.info"
	;;
merge)
	[ $# -ge 3 ] || die "usage: host/measure/coverage.sh merge OUT_DIR INFO..."
	out=$2; shift 2
	args=()
	for f in "$@"; do [ -s "$f" ] && args+=(-a "$f"); done
	[ ${#args[@]} -gt 0 ] || { echo "coverage $(basename "$SRC"): missing (no round sent gcov data)"; exit 0; }
	mkdir -p "$out"
	"${LCOV[@]}" "${args[@]}" --output-file "$out/coverage.info" >"$out/coverage.log" 2>&1 ||
		die "coverage: lcov merge failed (see $out/coverage.log)"
	html "$out/coverage.info" "$out/coverage"
	line "$out/coverage.info"
	;;
line)
	[ $# -eq 2 ] && [ -f "$2" ] || die "usage: host/measure/coverage.sh line INFO"
	line "$2"
	;;
*) die "usage: host/measure/coverage.sh collect RUN_DIR BUILD_DIR | merge OUT_DIR INFO... | line INFO" ;;
esac
