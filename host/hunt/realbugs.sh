#!/usr/bin/env bash
# The real-bug corpus as a benchmark (bugs/NAME/: a fix of the kernel's own
# history, reverted). Each bug is built as a kernel variant (BUG=NAME) and
# hunted by the default soak, class-blind, with the code under test its
# Code: line names; then, where a public report exists, from that report
# alone (host/hunt/report.sh). A clean control runs the same soaks on the tree
# with every fix in place. Prints a table and, per bug, how often it was
# caught and how fast.
#
# usage: host/hunt/realbugs.sh [--check]
#        host/hunt/realbugs.sh --table REALBUGS_DIR...   (the table again, from records)
# settings: BUGS=a,b (bug names; default all), SEEDS=3, BUDGET=1800 (s per
#   soak), REPORTS=1 (also REPORT= runs), CONTROL=1 (the clean control; with
#   COVER=1 its rounds record their reach, host/measure/reach.sh), SCENARIO (hunt)
# A bug's soak goes on past findings that are not the bug, as KEEP_GOING=1
# would, and stops at its first finding that the bug's Expect: line names
# (UNTIL_EXPECT): the load is the same whatever the bug is; only the stop
# knows it. A bug whose revert does not apply (a new linux-source) is "does
# not apply", never "missed". A finding that matches the bug's Expect: line is
# "caught"; another finding in the code under test is "caught-other".
# exit: 0 every bug applied was caught and the control is clean, 1 otherwise,
#   2 bad input
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

fmt='%-34s %-13s %-15s %-11s %-7s %4s %-12s %6s %6s  %s\n'
# one row: a soak's outcome against the bug's Expect: line. Its findings
# come in order (host/report/results.py timeline; a stall that followed another
# report of its round is that report's consequence and skipped): the first one Expect: names is
# "caught" at its time; else the first other finding in the code under
# test is "caught-other"; a REPORT= run counts the title that came back.
row() { # BUG HOW SEED SOAK_DIR EXPECT SECS_IF_UNKNOWN
	local b=$1 how=$2 seed=$3 d=$4 expect=$5 result=missed title=- secs=$6 rounds want s label t
	IFS=$'\t' read -r _ want _ rounds < <(python3 "$RIG_ROOT/host/report/results.py" brief "$d" 2>/dev/null ||
		printf -- '-\t-\t-\t0\n')
	while IFS=$'\t' read -r s _ label t; do
		# a stall after another report of its round is no catch of its own
		[ "$label" != consequence ] || continue
		if [ "$how" = report ]; then
			[ "$t" = "$want" ] || continue
		elif ! title_expected "$expect" "$t"; then
			[ "$label" != finding ] || [ "$result" != missed ] || result=caught-other title=$t secs=$s
			continue
		fi
		result=caught title=$t secs=$s
		break
	done < <(python3 "$RIG_ROOT/host/report/results.py" timeline "$d" 2>/dev/null)
	[ "$result" != missed ] || ok_all=0
	printf "$fmt" "$b" "$(bug_info "$b" Commit | cut -c1-12)" "$(bug_info "$b" Class)" \
		"$(bug_info "$b" Code)" "$how" "$seed" "$result" "$secs" "${rounds:-0}" "$title" | tee -a "$table"
}

# the table's totals: per bug and way of hunting, caught k/N (a finding its
# Expect: line names; caught-other apart), median and max seconds; builds
summarize() { # TABLE [BUILDS]
	echo
	printf '%-34s %-7s %-9s %-6s %8s %8s\n' bug how caught other "median s" "max s"
	awk 'NR > 1 && NF >= 8 && $5 ~ /^(soak|report)$/ && $1 !~ /^control/ {
		k = $1 SUBSEP $5; key[k] = 1; n[k]++
		if ($7 == "caught") { c[k]++; t[k] = t[k] " " $8 } else if ($7 == "caught-other") o[k]++ }
	END { for (k in key) { split(k, p, SUBSEP); m = split(t[k], v, " ")
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] + 0 < v[i] + 0) { x = v[i]; v[i] = v[j]; v[j] = x }
		med = m ? ((m % 2) ? v[(m + 1) / 2] : int((v[m / 2] + v[m / 2 + 1]) / 2)) : "-"
		printf "%-34s %-7s %-9s %-6s %8s %8s\n", p[1], p[2], (c[k] + 0) "/" n[k], o[k] + 0, med, m ? v[m] : "-" } }' "$1" | sort
	[ ! -f "${2:-}" ] || awk '{ s += $3; n++; if ($3 > m) m = $3 } END { if (n) printf "variant builds (warm cache, every flavor the soak boots): mean %d s, max %d s over %d bugs\n", s / n, m, n }' "$2"
}

# --table DIR...: the table again from the records of earlier runs (each
# REALBUGS_DIR/BUG-sN/soak and BUG-rN/report-*), matched against today's
# Expect: lines; seconds of a miss are the soak's own
if [ "${1:-}" = --table ]; then
	shift
	[ $# -gt 0 ] || die "usage: host/hunt/realbugs.sh --table REALBUGS_DIR..."
	table=$(mktemp) ok_all=1
	trap 'rm -f "$table"' EXIT
	printf "$fmt" bug fix class code how seed result secs rounds "first finding" | tee "$table"
	for d in "$@"; do
		[ -d "$d" ] || die "no directory '$d'"
		for s in "$d"/*-s[0-9]*/soak "$d"/*-r[0-9]*/report-*; do
			[ -f "$s/summary.json" ] || continue
			n=$(basename "$(dirname "$s")") how=soak
			[[ "$n" =~ ^(.*)-([sr])([0-9]+)$ ]] || continue
			[ "${BASH_REMATCH[2]}" = s ] || how=report
			[ -f "$RIG_ROOT/bugs/${BASH_REMATCH[1]}/info" ] || continue
			row "${BASH_REMATCH[1]}" "$how" "${BASH_REMATCH[3]}" "$s" "$(bug_info "${BASH_REMATCH[1]}" Expect)" \
				"$(python3 "$RIG_ROOT/host/report/results.py" json "$s/summary.json" duration_s 2>/dev/null || echo -)"
		done
	done
	summarize "$table"
	exit 0
fi

check_only=''
[ "${1:-}" != --check ] || { check_only=1; shift; }
[ $# -eq 0 ] || die "usage: host/hunt/realbugs.sh [--check] (settings: BUGS SEEDS BUDGET REPORTS CONTROL)"
kver_check
flavor_fragments "$FLAVOR" >/dev/null
cover_check
SEEDS=${SEEDS:-3} BUDGET=${BUDGET:-1800} REPORTS=${REPORTS:-1} CONTROL=${CONTROL:-1} BUGS=${BUGS:-}
SCENARIO=${SCENARIO:-hunt}
[[ "$SEEDS" =~ ^[1-9][0-9]*$ ]] || die "SEEDS must be a positive number (got '$SEEDS')"
[[ "$BUDGET" =~ ^[0-9]+$ ]] && [ "$BUDGET" -ge 30 ] || die "BUDGET must be at least 30 s (got '$BUDGET')"
[[ "$REPORTS" =~ ^[01]$ ]] || die "REPORTS must be 0 or 1 (got '$REPORTS')"
[[ "$CONTROL" =~ ^[01]$ ]] || die "CONTROL must be 0 or 1 (got '$CONTROL')"
mapfile -t all < <(bug_names)
[ "${#all[@]}" -gt 0 ] || die "no bugs in $RIG_ROOT/bugs"
bugs=("${all[@]}")
if [ -n "$BUGS" ]; then
	bugs=()
	for b in ${BUGS//,/ }; do
		[ -f "$RIG_ROOT/bugs/$b/info" ] || die "BUGS: no bug '$b' (have: ${all[*]})"
		bugs+=("$b")
	done
fi
for b in "${bugs[@]}"; do
	for k in Subject Commit Class Code Expect; do
		[ -n "$(bug_info "$b" "$k")" ] || die "bugs/$b/info: no $k: line"
	done
	UNDER_TEST=$(bug_info "$b" Code) under_test_check
done
"$RIG_ROOT/host/hunt/soak.sh" --check "$SCENARIO" "${BUDGET}s" || exit 2
[ -z "$check_only" ] || exit 0

dir=$(new_dir "$LOGS/realbugs-$(date +%Y%m%d-%H%M%S)")
table="$dir/table"
printf "$fmt" bug fix class code how seed result secs rounds "first finding" | tee "$table"
ok_all=1
# flavors the rotation boots: each bug's variant is built for every one
f="$RIG_ROOT/stress/scenarios/$SCENARIO.rot"
[ -f "$f" ] || f="$RIG_ROOT/stress/scenarios/$SCENARIO.scn"
flavors=$(rotation_flavors "$f")

for b in "${bugs[@]}"; do
	code=$(bug_info "$b" Code) expect=$(bug_info "$b" Expect)
	fail=$(patch_failure "$(bug_patch "$b")")
	if [ ! -f "$(bug_patch "$b")" ] || [ -n "$fail" ]; then
		say "realbugs: $b: bugs/$b/$KVER.patch does not apply: ${fail:-no revert for $KVER}"
		printf "$fmt" "$b" "$(bug_info "$b" Commit | cut -c1-12)" "$(bug_info "$b" Class)" "$code" - - \
			"no-apply" - - "bugs/$b/$KVER.patch does not apply" | tee -a "$table"
		continue
	fi
	t0=$SECONDS
	for f in $flavors; do
		FLAVOR=$f BUG=$b "$RIG_ROOT/host/build/kernel.sh" >"$dir/$b-build-$f.log" 2>&1 ||
			{ say "realbugs: $b: the $f kernel did not build (see $dir/$b-build-$f.log)"; ok_all=0; continue 2; }
	done
	say "realbugs: $b: built in $((SECONDS - t0)) s (${flavors//$'\n'/, }); code under test $code"
	echo "build $b $((SECONDS - t0))" >>"$dir/builds"
	for seed in $(seq "$SEEDS"); do
		t0=$SECONDS
		mkdir -p "$dir/$b-s$seed"
		LOGS="$dir/$b-s$seed" SOAK_ID=soak BUG=$b UNDER_TEST=$code UNTIL_EXPECT=$expect \
			"$RIG_ROOT/host/hunt/soak.sh" "$SCENARIO" "${BUDGET}s" "$seed" >"$dir/$b-s$seed.out" 2>&1 || true
		row "$b" soak "$seed" "$dir/$b-s$seed/soak" "$expect" "$((SECONDS - t0))"
		if [ "$REPORTS" = 1 ] && [ -f "$RIG_ROOT/bugs/$b/report.txt" ]; then
			t0=$SECONDS rc=0
			mkdir -p "$dir/$b-r$seed"
			LOGS="$dir/$b-r$seed" BUG=$b MINIMIZE=0 SEED=$seed BUDGET=$BUDGET UNDER_TEST='' \
				"$RIG_ROOT/host/hunt/report.sh" "$RIG_ROOT/bugs/$b/report.txt" >"$dir/$b-r$seed.out" 2>&1 || rc=$?
			if [ "$rc" = 2 ]; then
				printf "$fmt" "$b" - - "$code" report "$seed" "bad-report" - - "$(grep -m1 '^error:' "$dir/$b-r$seed.out" | cut -c1-60)" | tee -a "$table"
			else
				row "$b" report "$seed" "$(echo "$dir/$b-r$seed"/report-*)" "$expect" "$((SECONDS - t0))"
			fi
		fi
	done
done

# the control: the same soaks on the tree with every fix in place, once
# per code under test of the corpus: no finding in the code under test
if [ "$CONTROL" = 1 ]; then
	for code in $(for b in "${bugs[@]}"; do bug_info "$b" Code; done | sort -u); do
		t0=$SECONDS
		mkdir -p "$dir/control-$code"
		LOGS="$dir/control-$code" SOAK_ID=soak UNDER_TEST=$code KEEP_GOING=1 \
			"$RIG_ROOT/host/hunt/soak.sh" "$SCENARIO" "${BUDGET}s" 1 >"$dir/control-$code.out" 2>&1 || true
		status=- title=- rounds=0 result=clean
		IFS=$'\t' read -r status title _ rounds < <(python3 "$RIG_ROOT/host/report/results.py" brief \
			"$dir/control-$code/soak" 2>/dev/null || printf -- '-\t-\t-\t0\n')
		[ "$status" = clean ] || result=FLAGGED
		[ "$status" != - ] || result=no-summary
		[ "$result" = clean ] || ok_all=0
		printf "$fmt" "control (every fix in)" - - "$code" soak 1 "$result" "$((SECONDS - t0))" \
			"$rounds" "$title" | tee -a "$table"
	done
fi

# per bug and way of hunting: caught k/N, median and max seconds
summarize "$table" "$dir/builds" | tee -a "$table"
echo "table: $table"
[ "$ok_all" = 1 ]
