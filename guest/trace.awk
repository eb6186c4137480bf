# The grammar of the scheduler's trace messages, and their one reader. The
# series logs through the block tracer (cfq_log_cfqq: "cfq%lu EVENT
# NAME=VALUE ..."), so a message is a line
#     TASK-PID [CPU] FLAGS TS: DEV m N cfqKEY EVENT NAME=VALUE ...
# for instance
#     fio-94 [001] d..1. 12.345678: 8,16 m N cfq1027 slice_expire reason=time used_us=100012 ...
# The slice audit (guest/slice-audit.awk), the checks (guest/jobs/cfq/) and
# the bench (guest/jobs/bench.sh) load this file with -f before their own
# program (busybox awk and mawk take several).
#
# trace_cfq() reads $0: 1 for a cfq message, with tr_ts (seconds), tr_dev
# ("8,16"), tr_key ("cfq1027"), tr_ev ("slice_expire") and its arguments in
# tr[NAME] ("time" in tr["reason"]); 0 for any other line. Two regex
# matches a line and one split of its arguments: under TCG the guest's awk
# is the audit's bottleneck (guest/lib.sh audit_awk: mawk where it can).
function trace_cfq(   f, args, a, k, i, eq) {
	if (!match($0, / cfq[0-9]+ [a-z_]+ /)) return 0
	split(substr($0, RSTART + 1, RLENGTH - 2), f, " ")
	tr_key = f[1]; tr_ev = f[2]
	args = substr($0, RSTART + RLENGTH)
	if (!match($0, / [0-9]+\.[0-9]+: +[0-9]+,[0-9]+ /)) return 0
	split(substr($0, RSTART + 1, RLENGTH - 2), f, /: +/)
	tr_ts = f[1] + 0; tr_dev = f[2]
	split("", tr)
	k = split(args, a, " ")
	for (i = 1; i <= k; i++)
		if ((eq = index(a[i], "=")) > 1) tr[substr(a[i], 1, eq - 1)] = substr(a[i], eq + 1)
	return 1
}
