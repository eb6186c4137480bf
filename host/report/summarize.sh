#!/usr/bin/env bash
# Turn a finished run directory into logs/RUN/summary (key=value lines),
# logs/RUN/summary.json (doc/summary-json.md), a one-screen report on stdout
# and a line in logs/index.
# usage: host/report/summarize.sh RUN_DIR [KEY=VALUE ...]   (extra facts for the summary)
# exit: 0 clean (or a crash that a known issue or another kernel finding
#   explains), 1 findings or failed checks.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
run=${1:-}
[ -d "$run" ] && [ -f "$run/console.log" ] || die "usage: host/report/summarize.sh RUN_DIR [KEY=VALUE ...] (a run directory with a console.log)"
shift
con="$run/console.log" res="$run/results.log"

# each finding labelled once (host/report/suppress): it counts; suppressed (a
# known artifact, host/report/known-issues); or other (outside the code under test)
conf() { sed -n "s/^RIG_$1='\{0,1\}\([^']*\)'\{0,1\}$/\1/p" "$run/run.conf" 2>/dev/null; }
labelled=$("${CLASSIFY:-$RIG_ROOT/host/report/classify}" --count "$con" "$res" |
	UNDER_TEST=$(conf UNDER_TEST) FAIL_ON_OTHER=$(conf FAIL_ON_OTHER) \
		"$RIG_ROOT/host/report/suppress" --label "$RIG_ROOT/host/report/known-issues")
findings=$(grep -P '^finding\t' <<<"$labelled" || true)
suppressed=$(grep -P '^suppressed\t' <<<"$labelled" || true)
other=$(grep -P '^other\t' <<<"$labelled" || true)
done_line=$(grep -a '^RIG-DONE' "$res" | tail -n1)
rig_boot=$(grep -a '^RIG-BOOT' "$res" | head -n1 || true)
boot=$(sed -n 's/.* uptime=//p' <<<"$rig_boot")
clock=$(sed -n 's/.* clock=\([^ ]*\).*/\1/p' <<<"$rig_boot")
hres=$(sed -n 's/.* hres=\([^ ]*\).*/\1/p' <<<"$rig_boot")
rc=$(sed -n 's/^RIG-DONE rc=\([0-9]*\).*/\1/p' <<<"$done_line")
checks_ok=$(grep -ac '^ok - ' "$res")
checks_bad=$(grep -ac '^not ok - ' "$res")
ops=$(awk '/^result /{for(i=2;i<=NF;i++){split($i,kv,"="); if(kv[1]=="ops") s+=kv[2]}} END{print s+0}' "$res")
ioerr=$(awk '/^result /{for(i=2;i<=NF;i++){split($i,kv,"="); if(kv[1]=="errors") s+=kv[2]}} END{print s+0}' "$res")

status=clean
if [ -z "$done_line" ] && ! grep -aq '^RIG-HANG' "$con"; then
	status=crash
	# a crash that no report explains is the rig's finding; one that a
	# known issue or another kernel finding explains is that report's
	[ -n "$findings$suppressed$other" ] || findings=$(printf 'finding\trig\tguest ended without finishing its job\tcount=1')
elif grep -aq '^RIG-HANG' "$con"; then
	status=hang
elif [ -n "$findings" ]; then
	status=findings
elif [ "${rc:-1}" != 0 ] || [ "$checks_bad" -gt 0 ]; then
	status=failed
fi
nfind=$(grep -c . <<<"$findings")
audit=$(audit_totals "$res")

{
	echo "run=${run#"$LOGS"/}"
	for kv in "$@"; do echo "$kv"; done
	[ -f "$run/run.conf" ] && sed -n "s/^RIG_\([A-Z_]*\)='\{0,1\}\([^']*\)'\{0,1\}$/\L\1\E=\2/p" "$run/run.conf" | grep -v '^job=\|^run_id=\|^report_re='
	echo "boot_to_init_s=${boot:-none}"
	echo "clock=${clock:-none}"
	echo "hres=${hres:-none}"
	echo "job_rc=${rc:-none}"
	echo "checks_passed=$checks_ok"
	echo "checks_failed=$checks_bad"
	echo "ops=$ops"
	echo "io_errors=$ioerr"
	echo "findings=$nfind"
	echo "status=$status"
	[ ! -f "$run/coverage.txt" ] || echo "coverage=$(head -n1 "$run/coverage.txt" | sed 's/^coverage [^:]*: //')"
	[ -z "$audit" ] || echo "slice_audit=$audit"
	[ -n "$findings" ] && printf '%s\n' "$findings"
	[ -n "$suppressed" ] && printf '%s\n' "$suppressed"
	[ -n "$other" ] && printf '%s\n' "$other"
} >"$run/summary"
python3 "$RIG_ROOT/host/report/results.py" run "$run" || say "summarize: no summary.json for $run (host/report/results.py failed)"

seed=$(sed -n 's/^seed=//p' "$run/summary")
scen=$(sed -n 's/^scenario=//p' "$run/summary")
echo "------------------------------------------------------------------------"
echo " run       $(basename "$run")   status: $status"
grep -E '^(job|flavor|kernel|series|accel|wall)=' "$run/summary" | tr '\n' ' ' | sed 's/^/ /'; echo
echo " boot to init ${boot:-?} s (guest uptime); job rc ${rc:-none}; checks $checks_ok ok, $checks_bad failed; ops $ops, I/O errors $ioerr"
[ -n "$seed$scen" ] && echo " reproduce: make soak SCENARIO=${scen:-?} SEED=${seed:-?}   (or: make repro RUN=${run#"$LOGS"/})"
dur=$(sed -n 's/^duration=//p' "$run/summary")
if [ -n "$dur" ] && grep -aq '^summary stressor=' "$res"; then
	# per-stressor rate over the round: I/Os, exits, switches, cycles... per second
	awk -v d="$dur" '/^summary stressor=/ { for (i = 2; i <= NF; i++) { split($i, kv, "=");
		if (kv[1] == "stressor") n = kv[2]; if (kv[1] == "ops") o[n] += kv[2] } }
		END { printf " rates/s  "; for (n in o) printf "%s %.1f  ", n, o[n] / d; print "" }' "$res"
fi
grep -a '^fault ' "$res" | tr '\n' ' ' | sed 's/^/ faults   /; s/ $/\n/'
[ -z "$audit" ] || echo " slice audit: $audit"
[ ! -f "$run/coverage.txt" ] || cut -c1-300 "$run/coverage.txt" | sed 's/^/ /'
if [ "$checks_bad" -gt 0 ]; then grep -a -A3 '^not ok - ' "$res" | head -20 | sed 's/^/ /'; fi
if [ -n "$findings" ]; then
	echo " findings:"
	printf '%s\n' "$findings" | awk -F'\t' '{printf "   [%s] %s (%s)\n", $2, $3, $4}' | head -15
fi
[ -n "$suppressed" ] && printf '%s\n' "$suppressed" | awk -F'\t' '{printf " suppressed (host/report/known-issues): %s\n", $3}'
[ -n "$other" ] && printf '%s\n' "$other" | awk -F'\t' '{printf " other kernel finding (outside UNDER_TEST): %s (%s)\n", $3, $4}'
echo " logs      $run/{console.log,results.log,summary,summary.json}"
echo "------------------------------------------------------------------------"
printf '%s\t%s\t%s\t%s\n' "${run#"$LOGS"/}" "$status" "$nfind" \
	"$(printf '%s\n' "$findings" | head -n1 | cut -f3)" >>"$LOGS/index"
# a crash that only a known issue or another kernel finding explains ends
# the round early (status crash) but finds nothing in the code under test
[ "$status" = clean ] || { [ "$status" = crash ] && [ -z "$findings" ]; }
