#!/usr/bin/env bash
# Soak: run rounds back to back (one boot per round) until DURATION has
# passed. SCENARIO is a scenario (stress/scenarios/NAME.scn: every round runs
# it) or a rotation (NAME.rot: round i runs line i of it, cyclically, each a
# scenario with its own duration, fault sets and kernel flavor). Round seeds derive from
# the soak's seed (SEED, or a random one that the summary prints), so
# SEED=S replays a whole soak; ROUNDS=a-b runs only those rounds of it.
# JOBS=N runs N guests at once (round i keeps its seed whatever N is).
# Stops at the first finding unless KEEP_GOING=1 (rounds already running
# finish); findings are deduplicated by title.
#
# usage: host/hunt/soak.sh [--check] SCENARIO DURATION [SEED]
#   --check   only check the input (exit 0 or 2), build and run nothing
#   SCENARIO  name in stress/scenarios/ (.rot or .scn), or a path to one
#   DURATION  total time: 90s, 30m, 8h (with ROUNDS=, only the last round's
#             cut: every round of the range runs)
# environment: KEEP_GOING=1, ROUNDS=a-b, FAULTS= (overrides every round's),
#   FLAVOR (the kernel of every round; on the default, debug, a rotation
#   line's FLAVOR column picks a round's kernel), MUTANT_PATCH (a mutant of
#   the scheduler, built for each kernel the rounds boot: host/hunt/mutants.sh),
#   COVER=1 (coverage, merged over the rounds), JOBS=N (guests at once;
#   default what the host carries: cores / VCPUS and memory / MEM, at least
#   1), VCPUS (per guest, default 2), SOAK_ID (the directory's name under
#   LOGS; default soak-DATE-SCENARIO), RIG_HOST (the host's name in the
#   summary), UNTIL_TITLE (go on until a finding with that title, same_title
#   in host/lib.sh, comes back; others are recorded), UNTIL_EXPECT (the
#   same with Expect: words, title_expected), UNDER_TEST, BUG, RIG_PATCHES;
#   host/vm/run.sh's settings (MEM, SILENCE, ACCEL, ...)
# output: LOGS/SOAK_ID/{summary,summary.json,rounds,findings,rNNN/}
# exit: 0 clean, 1 findings, 2 bad input, 3 a kernel or image did not build
#   (UNTIL_TITLE: 1 when it came back, else 0)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage="usage: host/hunt/soak.sh [--check] SCENARIO DURATION [SEED]"
check_only=''
[ "${1:-}" != --check ] || { check_only=1; shift; }
scn=${1:-} total=${2:-} seed=${3:-}
[ -n "$scn" ] && [ -n "$total" ] && [ $# -le 3 ] || die "$usage"
file=$scn
[ -f "$file" ] || file="$RIG_ROOT/stress/scenarios/$scn.rot"
[ -f "$file" ] || file="$RIG_ROOT/stress/scenarios/$scn.scn"
[ -f "$file" ] || die "unknown scenario '$scn' (have: $(cd "$RIG_ROOT/stress/scenarios" && ls ./*.scn ./*.rot | sed 's|./||; s|\.scn$||; s|\.rot$| (rotation)|' | tr '\n' ' '))"
[ -z "$seed" ] || [[ "$seed" =~ ^[0-9]{1,18}$ ]] || die "SEED must be a number (got '$seed')"
name=$(basename "${file%.*}")
# the rotation: entries "scenario-file duration faults flavor" (one per
# round, cyclic); a flavor other than - runs that round on its kernel when
# the soak's FLAVOR is the default (debug), and any other FLAVOR runs every
# round on its own
rot=()
if [[ "$file" == *.rot ]]; then
	n=0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1)); line=${line%%#*}
		read -r r_scn r_dur r_faults r_flavor extra <<<"$line" || true
		[ -n "${r_scn:-}" ] || continue
		[ -z "${extra:-}" ] || die "$file:$n: expected 'SCENARIO [DURATION] [FAULTS|-] [FLAVOR|-]'"
		f="$RIG_ROOT/stress/scenarios/$r_scn.scn"
		[ -f "$f" ] || die "$file:$n: no scenario stress/scenarios/$r_scn.scn"
		"$RIG_ROOT/host/hunt/scenario.sh" check "$f" || exit 2
		r_dur=${r_dur:--}; r_faults=${r_faults:--} r_flavor=${r_flavor:--}
		[ "$r_flavor" = - ] || (flavor_fragments "$r_flavor" >/dev/null) 2>/dev/null ||
			die "$file:$n: unknown flavor '$r_flavor' (choose: debug, fast, race, perf, or -)"
		[ "$r_dur" = - ] || [[ "$r_dur" =~ ^[0-9]+$ && "$r_dur" -ge 30 ]] || die "$file:$n: duration '$r_dur' must be at least 30 (seconds) or -"
		if [ "$r_faults" != - ] && [ -z "${FAULTS:-}" ]; then
			FAULTS=${r_faults//,/ } "$RIG_ROOT/host/hunt/scenario.sh" plan "$f" 1 >/dev/null || die "$file:$n: bad fault sets '$r_faults'"
		fi
		rot+=("$f $r_dur $r_faults $r_flavor")
	done <"$file"
	[ ${#rot[@]} -gt 0 ] || die "$file: no entry"
else
	"$RIG_ROOT/host/hunt/scenario.sh" check "$file" || exit 2
	rot=("$file - - -")
fi
# FAULTS= overrides every round's sets: check it once
[ -z "${FAULTS:-}" ] || "$RIG_ROOT/host/hunt/scenario.sh" plan "${rot[0]%% *}" 1 >/dev/null || exit 2
# round i's entry of the rotation -> file, duration, faults, flavor
round_entry() {
	read -r r_file r_dur r_faults r_flavor <<<"${rot[$((($1 - 1) % ${#rot[@]}))]}"
	[ "$r_flavor" != - ] && [ "$FLAVOR" = debug ] || r_flavor=$FLAVOR
}
# the kernels the rounds boot, each able to do what COVER= asks
flavors=$(for ((i = 1; i <= ${#rot[@]}; i++)); do round_entry "$i"; echo "$r_flavor"; done | sort -u)
for f in $flavors; do FLAVOR=$f cover_check; done
first=1 last=0
if [ -n "${ROUNDS:-}" ]; then
	[[ "$ROUNDS" =~ ^([1-9][0-9]{0,5})(-([1-9][0-9]{0,5}))?$ ]] || die "ROUNDS must look like 3 or 2-5 (got '$ROUNDS')"
	first=${BASH_REMATCH[1]} last=${BASH_REMATCH[3]:-${BASH_REMATCH[1]}}
	[ "$last" -ge "$first" ] || die "ROUNDS: $last is before $first"
fi
[ "${#total}" -le 8 ] || die "DURATION is too long (got '$total')"
case "$total" in
*[!0-9smh]* | "" | [smh]* | *[smh]?*) die "DURATION must look like 90s, 30m or 8h (got '$total')" ;;
*s) secs=${total%s} ;; *m) secs=$((${total%m} * 60)) ;; *h) secs=$((${total%h} * 3600)) ;; *) secs=$total ;;
esac
[ "$secs" -ge 30 ] || die "DURATION must be at least 30 s (got '$total')"
under_test_check
bug_check
case "${KEEP_GOING:-0}" in 0 | 1) ;; *) die "KEEP_GOING must be 0 or 1 (got '$KEEP_GOING')" ;; esac
VCPUS=${VCPUS:-2}
[[ "$VCPUS" =~ ^[1-9][0-9]?$ ]] && [ "$VCPUS" -le 64 ] || die "VCPUS must be 1 to 64 (got '$VCPUS')"
export VCPUS
# JOBS: guests at once; by default what the host carries (cores per guest,
# memory per guest with 512 MiB for QEMU itself), at least 1
[[ "${MEM:-2048}" =~ ^[1-9][0-9]{0,6}$ ]] || die "MEM must be a number of MiB (got '$MEM')"
carry=$(($(nproc) / VCPUS))
mem_jobs=$(($(awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo) / (${MEM:-2048} + 512)))
[ "$mem_jobs" -ge "$carry" ] || carry=$mem_jobs
[ "$carry" -ge 1 ] || carry=1
JOBS=${JOBS:-$carry}
[[ "$JOBS" =~ ^[1-9][0-9]?$ ]] || die "JOBS must be 1 to 99 guests at once (got '$JOBS')"
[ -z "${SOAK_ID:-}" ] || [[ "$SOAK_ID" =~ ^[A-Za-z0-9._-]+$ && "$SOAK_ID" != .* ]] ||
	die "SOAK_ID must be a name of letters, digits, . _ - (got '$SOAK_ID')"
# host/vm/run.sh's own settings (MEM, SILENCE, ACCEL, RIG_HOST, ...), checked
# now rather than after the build
"$RIG_ROOT/host/vm/run.sh" --check || exit 2
host=${RIG_HOST:-$(hostname)}
[ -z "$check_only" ] || exit 0

[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
series=$(series_hash)	# the summary records it: a replay warns when it differs
[ -z "${MUTANT_PATCH:-}" ] || [ -f "$MUTANT_PATCH" ] || die "MUTANT_PATCH: no such file '$MUTANT_PATCH'"
# the input is good: build each kernel the rounds boot, its images and the
# mutant's module for it once, not per round
declare -A k_build=() k_image=() k_ko=()
for f in $flavors; do
	k_build[$f]=$(FLAVOR=$f "$RIG_ROOT/host/build/kernel.sh" | tail -n1) && [ -n "${k_build[$f]}" ] ||
		{ echo "error: the $f kernel did not build" >&2; exit 3; }
	k_image[$f]=$(FLAVOR=$f "$RIG_ROOT/host/build/image.sh" "${k_build[$f]}" | tail -n1) && [ -n "${k_image[$f]}" ] ||
		{ echo "error: the $f guest image did not build" >&2; exit 3; }
	[ -z "${MUTANT_PATCH:-}" ] || k_ko[$f]=$(build_cfq_module "${k_build[$f]}" \
		"${k_build[$f]}/mutants/$(basename "$MUTANT_PATCH" .patch)" "$MUTANT_PATCH")
done
# round i's seed: the soak's seed for round 1, then a fixed mix of (seed, i)
round_seed() { [ "$1" = 1 ] && echo "$seed" || echo $((((seed % 4294967296) * 69069 + $1 * 1013904223) % 4294967296)); }
rname() { printf 'r%03d' "$1"; }

if [ -n "${SOAK_ID:-}" ]; then
	dir="$LOGS/$SOAK_ID"
	mkdir -p "$LOGS" && mkdir "$dir" 2>/dev/null || die "$dir exists already (SOAK_ID names a new soak directory)"
else
	dir=$(new_dir "$LOGS/soak-$(date +%Y%m%d-%H%M%S)-$name")
fi
id=$(basename "$dir")
: >"$dir/rounds"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
say "soak $id: $name (${#rot[@]} scenario(s) in rotation), seed $seed, $secs s$([ -n "${ROUNDS:-}" ] && echo ", rounds $first-$last"), $JOBS guest(s) at once, $VCPUS vCPUs each$([ "${KEEP_GOING:-0}" = 1 ] && echo ', keep going')"

start=$SECONDS ops=0 status=clean first_s='' next=$first stop='' done_n=0 reproduced=
declare -A pid_round=() r_start=() r_plan=() r_d=() r_s=() r_date=() r_fl=()
# on an early exit (an error, ^C) the rounds still running go too, QEMU included
kill_tree() { local c; for c in $(pgrep -P "$1"); do kill_tree "$c"; done; kill "$1" 2>/dev/null || true; }
finished=''
on_exit() {
	local p
	for p in "${!pid_round[@]}"; do kill_tree "$p"; done
	for p in "${r_plan[@]}"; do rm -rf "$p"; done
	[ -n "$finished" ] || { status=interrupted; write_summary >/dev/null 2>&1 || true; }
}
trap on_exit EXIT
trap 'exit 130' INT TERM
# guest uptime of a round's first counted finding (a report that
# host/report/known-issues suppresses is none); nothing for a guest that went
# silent (the host's watchdog wrote RIG-HANG)
first_report_uptime() { python3 "$RIG_ROOT/host/report/results.py" first-uptime "$1" 2>/dev/null || true; }
more_rounds() {
	[ -z "$stop" ] || return 1
	if [ -n "${ROUNDS:-}" ]; then [ "$next" -le "$last" ]; else [ $((SECONDS - start)) -lt "$secs" ]; fi
}
nfindings() { cut -f2 "$dir/findings" 2>/dev/null | sort -u | grep -c . || true; }

# The soak's summary and summary.json from what its rounds recorded so far:
# after every round, at the end (final: with the merged coverage), and from
# the trap of an interrupted soak (status interrupted), so ^C, a SIGTERM or
# a dropped session keeps every round it finished (make kcidb reads it).
write_summary() { # [final]
	sort -n -o "$dir/rounds" "$dir/rounds"
	for t in findings others; do [ ! -f "$dir/$t" ] || sort -t$'\t' -k3,3 -s -o "$dir/$t" "$dir/$t"; done

	# what the slice audit checked, over every round
	audit=$(audit_totals "$dir"/r*/results.log)
	# coverage of the whole soak: the union of its rounds
	[ "${1:-}" != final ] || [ "${COVER:-0}" = 0 ] ||
		"$RIG_ROOT/host/measure/coverage.sh" merge "$dir" "$dir"/r*/coverage.info >"$dir/coverage.txt"
	{
		echo "soak=$id"
		echo "scenario=$name"
		echo "seed=$seed"
		echo "duration_s=$((SECONDS - start))"
		echo "rounds=$done_n"
		echo "ops=$ops"
		echo "status=$status"
		echo "first_finding_s=${first_s:-none}"
		echo "jobs=$JOBS"
		echo "vcpus=$VCPUS"
		echo "host=$host"
		echo "started=$started"
		echo "kver=$KVER"
		echo "series=$series"
		source_facts
		echo "under_test=$UNDER_TEST"
		[ -z "$BUG" ] || echo "bug=$BUG"
		[ -z "${UNTIL_TITLE:-}" ] || echo "until_title=$UNTIL_TITLE"
		[ -z "${UNTIL_EXPECT:-}" ] || echo "until_expect=$UNTIL_EXPECT"
		[ -z "$reproduced" ] || echo "reproduced=$reproduced"
		[ ! -f "$dir/coverage.txt" ] || echo "coverage=$(head -n1 "$dir/coverage.txt" | sed 's/^coverage [^:]*: //')"
		[ -z "$audit" ] || echo "slice_audit=$audit"
		[ -f "$dir/findings" ] && awk -F'\t' '!seen[$2]++' "$dir/findings" | sed 's/^/finding\t/'
		[ -f "$dir/others" ] && awk -F'\t' '!seen[$2]++' "$dir/others" | sed 's/^/other\t/'
	} >"$dir/summary.tmp"
	mv -f "$dir/summary.tmp" "$dir/summary"
	python3 "$RIG_ROOT/host/report/results.py" soak "$dir" || say "soak $id: no summary.json (host/report/results.py failed)"
	return 0
}

# start round $next in the background
launch() {
	local round=$next d tmp
	next=$((next + 1))
	round_entry "$round"
	d=$r_dur; [ "$d" = - ] && d=$(plan_value <("$RIG_ROOT/host/hunt/scenario.sh" plan "$r_file" 1) DURATION)
	if [ -z "${ROUNDS:-}" ]; then
		local left=$((secs - (SECONDS - start)))
		# the last round is cut to what is left (a few seconds over are not worth it)
		[ "$left" -lt $((d - 15)) ] && d=$left; [ "$d" -lt 30 ] && d=30
	fi
	r_s[$round]=$(round_seed "$round") r_d[$round]=$d
	tmp=$(mktemp -d)
	if [ "$r_faults" != - ] && [ -z "${FAULTS:-}" ]; then
		FAULTS=${r_faults//,/ } plan_dir "$r_file" "${r_s[$round]}" "$d" "$tmp"
	else
		plan_dir "$r_file" "${r_s[$round]}" "$d" "$tmp"
	fi
	say "soak $id: round $round starts: $(basename "$r_file" .scn) (faults $(plan_value "$tmp/plan" FAULTS), $r_flavor kernel), seed ${r_s[$round]}, $d s"
	r_plan[$round]=$tmp r_start[$round]=$SECONDS r_date[$round]=$(date -u +%Y-%m-%dT%H:%M:%SZ) r_fl[$round]=$r_flavor
	FLAVOR=$r_flavor RIG_BUILD_DIR=${k_build[$r_flavor]} RIG_IMAGE_DIR=${k_image[$r_flavor]} \
		MUTANT_KO=${k_ko[$r_flavor]:-} run_plan "$tmp" "$id/$(rname "$round")" \
		"RIG_STOP_ON_SPLAT=$([ "${KEEP_GOING:-0}" = 1 ] && [ -z "${UNTIL_TITLE:-}${UNTIL_EXPECT:-}" ] && echo 0 || echo 1)" >"$dir/round$round.out" 2>&1 &
	pid_round[$!]=$round
}

# a round's guest is done: record it (rounds, findings), stop if it found something
reap() {
	local pid=$1 round=${pid_round[$1]} rc=0 rdir rops rstat u
	wait "$pid" || rc=$?
	unset "pid_round[$pid]"
	rm -rf "${r_plan[$round]}"; unset "r_plan[$round]"
	rdir="$dir/$(rname "$round")"
	[ -f "$rdir/summary" ] || { cat "$dir/round$round.out" >&2; die "round $round did not produce a summary"; }
	rops=$(sed -n 's/^ops=//p' "$rdir/summary")
	rstat=$(sed -n 's/^status=//p' "$rdir/summary")
	ops=$((ops + rops)) done_n=$((done_n + 1))
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "${r_s[$round]}" "${r_d[$round]}" "$rstat" "$rops" \
		"$((SECONDS - r_start[$round]))" "$(plan_value "$rdir/files/plan" SCENARIO)" \
		"$(plan_value "$rdir/files/plan" FAULTS | tr ' ' ,)" "$host" "${r_date[$round]}" "${r_fl[$round]}" >>"$dir/rounds"
	if [ "$rstat" != clean ]; then
		# time to detection: the soak's time when the round started, plus
		# the guest uptime of the first report (or the whole round)
		u=$(first_report_uptime "$rdir")
		u=$((r_start[$round] - start + ${u:-$((SECONDS - r_start[$round]))}))
		[ -n "$first_s" ] && [ "$first_s" -le "$u" ] || first_s=$u
	fi
	grep -P '^(finding|other)\t' "$rdir/summary" | while IFS=$'\t' read -r label kind title _; do
		printf '%s\t%s\t%s\t%s\t%s\n' "$kind" "$title" "$(rname "$round")" "${r_s[$round]}" "$host" \
			>>"$dir/$([ "$label" = other ] && echo others || echo findings)"
	done || true
	say "soak $id: round $round ended $rstat: $rops ops in $((SECONDS - r_start[$round])) s (seed ${r_s[$round]})"
	write_summary
	# UNTIL_TITLE / UNTIL_EXPECT: only that finding (host/lib.sh
	# finding_matches, title_expected) ends the soak
	if [ -n "${UNTIL_TITLE:-}${UNTIL_EXPECT:-}" ]; then
		rc=0 t=''
		if [ -n "${UNTIL_TITLE:-}" ]; then
			t=$(finding_matches "$UNTIL_TITLE" "$rdir")
		else
			# a stall after another report is that report's (results.py primary)
			t=$(python3 "$RIG_ROOT/host/report/results.py" primary "$rdir" 2>/dev/null |
				while IFS= read -r x; do title_expected "$UNTIL_EXPECT" "$x" && { echo "$x"; break; }; done || true)
		fi
		if [ -n "$t" ]; then
			say "soak $id: round $round: the finding came back: $t"
			[ -n "$reproduced" ] || reproduced="$(rname "$round")	$t"
			stop=1
		fi
	fi
	if [ "$rc" != 0 ]; then
		status=findings
		if [ "${KEEP_GOING:-0}" != 1 ] && [ -z "$stop" ]; then
			stop=1
			[ ${#pid_round[@]} = 0 ] || say "soak $id: stopping after the rounds still running (${#pid_round[@]})"
		fi
	fi
}

# one progress line every PROGRESS seconds, whatever JOBS is
progress() {
	local r running=''
	for r in $(printf '%s\n' "${pid_round[@]}" | sort -n); do running+=" r$r $((SECONDS - r_start[$r])) s,"; done
	say "soak $id: $((SECONDS - start)) s$([ -n "${ROUNDS:-}" ] || echo " of $secs"); running:${running%,}; $done_n rounds done, $ops ops, $(nfindings) findings"
}

next_progress=$((SECONDS + ${PROGRESS:-30}))
while :; do
	while [ ${#pid_round[@]} -lt "$JOBS" ] && more_rounds; do launch; done
	[ ${#pid_round[@]} -gt 0 ] || break
	sleep 1
	for p in "${!pid_round[@]}"; do kill -0 "$p" 2>/dev/null || reap "$p"; done
	if [ "$SECONDS" -ge "$next_progress" ] && [ ${#pid_round[@]} -gt 0 ]; then
		progress; next_progress=$((SECONDS + ${PROGRESS:-30}))
	fi
done
finished=1
write_summary final
dur=$((SECONDS - start))
echo "========================================================================"
echo " soak $id: $status after $done_n rounds, $dur s, $ops ops ($JOBS guest(s) at once: $((done_n * 3600 / (dur > 0 ? dur : 1))) rounds/hour)"
# the settings a replay needs besides scenario and seed
again="${KERNEL_SRC:+KERNEL_SRC=$(realpath "$KERNEL_SRC") }${EXTRA_CONFIG:+EXTRA_CONFIG=$(realpath "$EXTRA_CONFIG") }$([ "$KVER" = 6.1 ] || echo "KVER=$KVER ")$([ "$FLAVOR" = debug ] || echo "FLAVOR=$FLAVOR ")${BUG:+BUG=$BUG }$([ "$UNDER_TEST" = cfq ] || echo "UNDER_TEST=$UNDER_TEST ")${FAULTS:+FAULTS='$FAULTS' }$([ "$VCPUS" = 2 ] || echo "VCPUS=$VCPUS ")$([ "${MEM:-2048}" = 2048 ] || echo "MEM=$MEM ")"
echo " soak seed $seed: ${again}make soak SCENARIO=$scn SEED=$seed DURATION=$total replays it (ROUNDS=a-b: some rounds)"
echo " rounds (round, seed, seconds, status, ops, wall seconds, scenario, faults, host, flavor):"
cut -f1-9,11 "$dir/rounds" | sed 's/^/   /' | tail -10
[ -z "$audit" ] || echo " slice audit: $audit"
if [ -f "$dir/findings" ]; then
	echo " findings (deduplicated by title; first round and seed):"
	echo " first finding after ${first_s} s"
	awk -F'\t' '!seen[$2]++ {printf "   [%s] %s  (%s, seed %s)\n", $1, $2, $3, $4}' "$dir/findings" | head -15
	r1=$(head -n1 "$dir/findings" | cut -f3)
	echo " reproduce: make repro RUN=${dir#"$LOGS"/}/$r1 N=3   (MINIMIZE=1: smallest scenario; the run keeps BUG, UNDER_TEST, FLAVOR)"
	# the same round from its scenario: its name (or the .scn path given),
	# seed, fault sets and length, as the rotation ran it
	p1=$dir/$r1/files/plan r_scn=$(plan_value "$p1" SCENARIO)
	[ -f "$RIG_ROOT/stress/scenarios/$r_scn.scn" ] || r_scn=$file
	fl1=$(sed -n 's/^flavor=//p' "$dir/$r1/summary")
	[ "$fl1" = debug ] && fl1='' || fl1="FLAVOR=$fl1 "
	echo "       or:  ${BUG:+BUG=$BUG }$([ "$UNDER_TEST" = cfq ] || echo "UNDER_TEST=$UNDER_TEST ")make repro SCENARIO=$r_scn SEED=$(head -n1 "$dir/findings" | cut -f4)" \
		"${fl1}FAULTS='$(plan_value "$p1" FAULTS)' REPRO_DURATION=$(plan_value "$p1" DURATION)"
fi
[ ! -f "$dir/others" ] || awk -F'\t' '!seen[$2]++ {printf " other kernel finding (outside UNDER_TEST=%s; FAIL_ON_OTHER=1 counts it): [%s] %s  (%s)\n", ut, $1, $2, $3}' \
	ut="$UNDER_TEST" "$dir/others" | head -5
[ ! -f "$dir/coverage.txt" ] || { cut -c1-400 "$dir/coverage.txt" | sed 's/^/ /'; echo " coverage report: $dir/coverage/index.html"; }
[ -z "${UNTIL_TITLE:-}${UNTIL_EXPECT:-}" ] || echo " looked for: ${UNTIL_TITLE:-$UNTIL_EXPECT}: $([ -n "$reproduced" ] && echo "came back in ${reproduced%%	*}" || echo "did not come back")"
echo " logs: $dir (summary.json: doc/summary-json.md)"
echo "========================================================================"
# UNTIL_TITLE: 1 when that finding came back, else 0
if [ -n "${UNTIL_TITLE:-}${UNTIL_EXPECT:-}" ]; then [ -z "$reproduced" ]; else [ "$status" = clean ]; fi
