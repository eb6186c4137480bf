# Run one round of a scenario: the plan in /rig/files/plan was made on the
# host by host/hunt/scenario.sh from stress/scenarios/NAME.scn. Sets up the test
# devices and their scheduler, arms the fault set, starts every stressor with
# its own seed, stops them at the deadline and reports their result lines.
# shellcheck disable=SC2086,SC2154  # options are word lists; eval assigns
FAULT_NULLB='' FAULT_TASK_FILTER=0
# the round's facts and fault code (host/hunt/scenario.sh plan): all it reads
. /rig/files/plan
# (a round recorded before the plan carried its fault code has faults.sh)
if [ "$PLAN_FAULTS" != none ] && ! command -v faults_arm >/dev/null; then . /rig/files/faults.sh; fi
dur=$PLAN_DURATION
rig_log "scenario $PLAN_SCENARIO seed $PLAN_SEED for $dur s on: $PLAN_DEVICES ($PLAN_SCHED)"

# a client without progress for this long is a hang (stress/clients.c). With
# every fault set armed, I/O took at most 15 s, but one teardown cycle
# (module unload, a switch, with a CPU offline) up to 92 s: teardown gets
# 240 s under faults. Without faults a cycle took up to 30 s on an idle host,
# and twice that beside another guest (mix in cover-all): 120 s
allow='' stall=${RIG_STALL:-60} stall_td=${RIG_STALL:-120}
[ "$PLAN_FAULTS" = none ] || allow=--allow-errors stall_td=${RIG_STALL:-240}

# 1. devices (devnode in guest/lib.sh: name -> /dev node)
for d in $PLAN_DEVICES; do
	case "$d" in
	nullb) # configfs=1: nullb0 is made through configfs (its submit_queues
		# can change while it runs: switcher --hw-queues); the module's
		# parameters are its defaults
		params=" $PLAN_NULLB " nr=1
		case "$params" in *" configfs=1 "*) params=$(echo "$params" | sed 's/ configfs=1 / /') nr=0 ;; esac
		modprobe null_blk nr_devices=$nr queue_mode=2 irqmode=2 completion_nsec=500000 gb=1 \
			memory_backed=1 hw_queue_depth=64 $params $FAULT_NULLB || { rig_finding rig-nullb; exit 1; }
		if [ $nr = 0 ]; then
			mkdir /sys/kernel/config/nullb/nullb0 && echo 1 >/sys/kernel/config/nullb/nullb0/power ||
				{ rig_finding rig-nullb-configfs; exit 1; }
		fi
		nullb_as_disk nullb0 ;;
	sdebug) modprobe scsi_debug dev_size_mb=256 $PLAN_SDEBUG || { rig_finding rig-sdebug; exit 1; }
		sleep 1 ;;
	sdebug2) # its second disk (max_luns=2): wait for the scan to add it
		n=0; while [ -z "$(devnode sdebug2)" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done ;;
	esac
done
[ "$PLAN_SCHED" = cfq ] && modprobe cfq-iosched
# the switcher leaves alone the devices that teardown cycles itself and
# those whose tunables are being checked (a switch resets them)
torn=
i=0
while [ $i -lt "$PLAN_N" ]; do
	i=$((i + 1)); eval "spec=\$PLAN_S$i"
	case "$spec" in teardown@* | tunables@*) t=${spec%% *}; torn="$torn ${t#*@}" ;; esac
done
queues='' audit_conf='' nodes=''
for d in $PLAN_DEVICES; do
	n=$(devnode "$d")
	[ -b "$n" ] || { rig_finding rig-device "$d"; exit 1; }
	nodes="$nodes${nodes:+,}$n"	# for paths' --peers
	echo "$PLAN_SCHED" >"/sys/block/${n#/dev/}/queue/scheduler" ||
		{ rig_finding rig-select "$PLAN_SCHED" "$d"; exit 1; }
	# the scenario's queue attributes and tunables (a round recorded
	# before they existed has none)
	for t in ${PLAN_QUEUE:-}; do
		echo "${t#*=}" >"/sys/block/${n#/dev/}/queue/${t%%=*}" ||
			{ rig_finding rig-queue "$t" "$d"; exit 1; }
	done
	defaults=$(slice_tunables "${n#/dev/}")
	for t in ${PLAN_IOSCHED:-}; do
		echo "${t#*=}" >"/sys/block/${n#/dev/}/queue/iosched/${t%%=*}" ||
			{ rig_finding rig-tunable "$t" "$d" "$PLAN_SCHED"; exit 1; }
	done
	case " $torn " in *" $d "*) continue ;; esac
	# what the slice audit knows of the device: a cfq on it has the
	# defaults (after a switch) or the scenario's tunables
	[ -n "$defaults" ] && audit_conf="$audit_conf $(audit_device "${n#/dev/}" "$defaults")"
	queues="$queues${queues:+,}/sys/block/${n#/dev/}/queue/scheduler"
done

# 1b. the slice audit (guest/slice-audit.awk), a behavioural detector: the
#     block tracer's cfq messages (notify only: no per-request events) of
#     every device the round keeps, checked as they come. Not on devices
#     torn down (the trace goes with them) or whose tunables change (a
#     slice's length can change under it); paths leaves a trace it finds
#     on alone
T=/sys/kernel/debug/tracing
audit_pid=
# events the ring buffer lost (overwritten, or dropped by a nested
# writer) since the audit started
audit_lost() {
	cat $T/per_cpu/cpu*/stats 2>/dev/null |
		awk '/^(overrun|commit overrun|dropped events):/ { s += $NF } END { print s + 0 }'
}
if grep -qw blk $T/available_tracers 2>/dev/null; then
	echo 0 >$T/tracing_on; echo >$T/trace
	# 8 MB per CPU: a mix round overran 2 MB while the audit read (it
	# cannot check a rule it lost events of)
	echo 8192 >$T/buffer_size_kb
	# one clock for every CPU: the audit compares two CPUs' timestamps
	echo global >$T/trace_clock
	echo blk >$T/current_tracer
	audit_devs=
	for d in $PLAN_DEVICES; do
		b=$(devnode "$d"); b=${b#/dev/}
		# notify on every device: a stressor may turn a trace on (paths)
		echo notify >"/sys/block/$b/trace/act_mask"
		case " $torn " in *" $d "*) continue ;; esac
		echo 1 >"/sys/block/$b/trace/enable" && audit_devs="$audit_devs $b"
	done
	echo 1 >$T/tracing_on
	$audit_awk -v conf="$audit_conf" -f /rig/trace.awk -f /rig/slice-audit.awk <$T/trace_pipe >/tmp/audit.out 2>&1 &
	audit_pid=$!
	audit_kinds='short|length|idle|nonrot|timeout|round|class|preempt|grace'	# the rules whose breach is a finding
	rig_log "slice audit on:$audit_devs (tunables:$audit_conf)"
fi

# kmemleak: what the boot left unreferenced is not this round's
rig_leaks_mark

# 2. faults (those limited by task-filter hit only the stressors' tasks)
[ "$PLAN_FAULTS" != none ] && faults_arm
# every load of the scheduler module prints this; fail_function's kprobes on
# its functions do not survive an unload, so a new load re-arms them
cfq_loads() { dmesg | grep -c 'io scheduler cfq registered'; }
loads=$(cfq_loads)

# 3. stressors (/rig/bin: stress/, the C ones and splat, the positive
#    control; stress-ng and fio from the tools disk): device-bound ones split
#    their device into equal regions
# stressor I of the plan -> spec, name, opts and dev (the @DEVICE part)
spec_of() {
	eval "spec=\$PLAN_S$1"
	name=${spec%% *} opts=${spec#"$name"} dev=''
	case "$name" in *@*) dev=${name#*@} name=${name%@*} ;; esac
}
i=0
while [ $i -lt "$PLAN_N" ]; do
	i=$((i + 1))
	spec_of $i
	eval "count_$dev=\$((\${count_$dev:-0} + 1))"
	eval "slot_$i=\$count_$dev"
done
pids=
# stress-ng's pid, and a wait of up to $1 s until it has forked a worker
# (or is gone)
sng=''
sng_forked() {
	t=0
	while [ $t -lt "$1" ] && kill -0 "$sng" 2>/dev/null; do
		for s in /proc/[0-9]*/stat; do
			read -r _ _ _ pp _ <"$s" 2>/dev/null && [ "$pp" = "$sng" ] && return 0
		done
		sleep 1; t=$((t + 1))
	done
	[ $t -lt "$1" ] || rig_log "stressor $i: stress-ng has no worker after $1 s; $name starts anyway"
}
i=0
while [ $i -lt "$PLAN_N" ]; do
	i=$((i + 1))
	spec_of $i
	seed=$((PLAN_SEED + i * 7919))
	where=
	if [ -n "$dev" ]; then
		node=$(devnode "$dev")
		eval "cnt=\$count_$dev; slot=\$slot_$i"
		region=$(($(blockdev --getsize64 "$node") / cnt / 1048576 * 1048576))
		where="--dev $node --offset $(((slot - 1) * region)) --size $region"
	fi
	[ "$name" = paths ] && where="$where --peers $nodes"	# it reads the others
	case "$name" in
	stress-ng) cmd="stress-ng $opts --timeout ${dur}s --seed $seed --metrics-brief" ;;
	fio) cmd="fio --name=rig$i --filename=$node --offset=$(((slot - 1) * region)) --size=$region --runtime=$dur --time_based --randseed=$seed $opts" ;;
	switcher) cmd="switcher --queues $queues --duration $dur --seed $seed $allow $opts" ;;
	teardown) cmd="$name $where --duration $dur --seed $seed --stall-s $stall_td $allow $opts" ;;
	*) cmd="$name $where --duration $dur --seed $seed --stall-s $stall $allow $opts" ;;
	esac
	rig_log "stressor $i: $cmd"
	(
		[ "$FAULT_TASK_FILTER" = 1 ] && echo 1 >/proc/self/make-it-fail
		# stress-ng (0.15) reads every CPU's cache topology from sysfs
		# before it forks its workers, and crashes when a CPU goes
		# offline during that scan (a SIGSEGV in its own dirent list, 25 s
		# into an all-fault mix round): a hotplug stressor after it
		# starts once those workers run (or stress-ng ended)
		[ "$name" = hotplug ] && [ -n "$sng" ] && sng_forked 60
		exec $cmd >/tmp/s$i.out 2>/tmp/s$i.err
	) &
	eval "pid_$i=$!"
	pids="$pids $!"
	[ "$name" = stress-ng ] && sng=$!
done

# soak and mutant hunting end the round early, at the first report
end_round() {
	rig_log "$1: ending the round early"
	kill $pids 2>/dev/null
	sleep 2
	kill -9 $pids 2>/dev/null
}

# the stressors still running, by name (stressor@device), one per line
running() {
	i=0
	while [ $i -lt "$PLAN_N" ]; do
		i=$((i + 1)); eval "p=\$pid_$i spec=\$PLAN_S$i"
		kill -0 "$p" 2>/dev/null && echo "${spec%% *}"
	done
}

# 4. wait to the deadline (+ grace), with a heartbeat. This loop runs a
#    dozen short commands a pass; at the stressors' priority, on a guest
#    they saturate (stress-ng's CPU hog, seven stressors on 2 vCPUs under
#    TCG), a pass took 20 to 40 s, so a round ended and a report was seen
#    that much late. Above them (nice -10; they keep 0) it takes a few.
renice -n -10 -p $$ >/dev/null 2>&1 || rig_log "renice: the round's monitor keeps the stressors' priority"
start=$(cut -d. -f1 /proc/uptime)
grace=${RIG_GRACE:-150}
reports=0 beat=0
while :; do
	alive=0
	for p in $pids; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
	[ $alive = 0 ] && break
	now=$(cut -d. -f1 /proc/uptime)
	el=$((now - start))
	if [ $el -ge $((dur + grace)) ]; then
		rig_log "stressors still running $grace s after the deadline: dumping blocked tasks"
		echo w >/proc/sysrq-trigger
		for name in $(running); do rig_finding hang-deadline "$name"; done
		kill -9 $pids 2>/dev/null
		break
	fi
	# a stressor's progress watchdog (stress/clients.c) saw a client stand
	# still: I/O stuck in the scheduler is a hang, reported now
	i=0
	while [ $i -lt "$PLAN_N" ]; do
		i=$((i + 1))
		[ -f /tmp/stalled.$i ] && continue
		line=$(grep -m1 '^stall: ' /tmp/s$i.err 2>/dev/null) || continue
		: >/tmp/stalled.$i
		eval "spec=\$PLAN_S$i"
		# one title per stressor, whatever the seconds (the log line has them)
		rig_finding hang-progress "${spec%% *}"
		rig_log "$line: dumping blocked tasks"
		echo w >/proc/sysrq-trigger
		stalled=1
	done
	if [ "${RIG_STOP_ON_SPLAT:-0}" = 1 ] && [ -n "${stalled:-}" ]; then
		end_round "stall seen at ${el} s"
		break
	fi
	# soak and mutant hunting: end the round at the first kernel report
	# that counts (REPORT_RE from host/lib.sh; titled by host/report/classify, a
	# report host/report/known-issues suppresses never ends a round)
	if [ "${RIG_STOP_ON_SPLAT:-0}" = 1 ]; then
		n=$(dmesg | grep -c -E "\] ($RIG_REPORT_RE)")
		if [ "$n" -gt "$reports" ]; then
			reports=$n
			sleep 5
			dmesg >/tmp/dmesg.log
			real=$(classify /tmp/dmesg.log | UNDER_TEST=${RIG_UNDER_TEST:-cfq} FAIL_ON_OTHER=${RIG_FAIL_ON_OTHER:-0} suppress /rig/known-issues | cut -f3 | head -n1)
			if [ -n "$real" ]; then
				end_round "kernel report seen at ${el} s: $real"
				break
			fi
			rig_log "report at ${el} s is a known artifact (host/report/known-issues): the round goes on"
		fi
	fi
	# the timeout and round rules need every event (guest/slice-audit.awk):
	# once the ring buffer has lost one, their breaches are only counted,
	# the first of each with its context in results.log, for the record
	for kind in timeout round; do
		case "$audit_kinds" in *"|$kind"*) ;; *) continue ;; esac
		if [ -n "$audit_pid" ] && [ -z "${breach:-}" ] &&
			grep -q "^$kind " /tmp/audit.out && [ "$(audit_lost)" -gt 0 ]; then
			audit_kinds=$(echo "$audit_kinds" | sed "s/|$kind//")
			rig_log "slice audit: a $kind breach after $(audit_lost) lost events (counted, not a finding)"
			{ grep -m1 "^$kind " /tmp/audit.out; grep "^context $kind " /tmp/audit.out; } | sed 's/^/audit note: /' >&3
		fi
	done
	# a breach of a rule is a finding
	if [ -n "$audit_pid" ] && [ -z "${breach:-}" ] &&
		breach=$(grep -m1 -E "^($audit_kinds) " /tmp/audit.out); then
		rig_finding "audit-${breach%% *}"
		grep -E "^($audit_kinds) " /tmp/audit.out | head -n 5 | sed 's/^/audit breach: /' >&3
		grep "^context ${breach%% *} " /tmp/audit.out | sed 's/^/audit /' >&3
		if [ "${RIG_STOP_ON_SPLAT:-0}" = 1 ]; then
			end_round "slice audit breach seen at ${el} s"
			break
		fi
	fi
	if [ "$PLAN_FAULTS" != none ] && [ "$(cfq_loads)" -gt "$loads" ]; then
		loads=$(cfq_loads)
		faults_rearm
	fi
	# every 15 s of uptime, however long one pass takes (under a loaded TCG
	# host a pass of 5 s never met "el % 15 < 3", and the host's console
	# watchdog took the silent guest for a hung one)
	if [ $el -ge $beat ]; then
		# past the deadline, which stressors keep the round going
		late=''
		[ $el -le $dur ] || late=$(running | sed 's/^/ /' | tr -d '\n')
		rig_log "progress: $PLAN_SCENARIO ${el}/${dur} s, $alive stressors running${late:+ (past the deadline:$late)}"
		beat=$((el + 15))
	fi
	sleep 3
done

# 5. collect
[ "$PLAN_FAULTS" != none ] && faults_report
if [ -n "$audit_pid" ]; then
	# the marker ends the audit once it has read everything before it
	# (up to a minute: beside another guest, 20 s did not always do)
	echo rig-audit-end >$T/trace_marker
	i=0
	while kill -0 "$audit_pid" 2>/dev/null && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
	kill "$audit_pid" 2>/dev/null
	echo 0 >$T/tracing_on
	# before the tracer goes: changing it resets the buffers and their stats
	lost=$(audit_lost)
	for b in $audit_devs; do echo 0 >"/sys/block/$b/trace/enable" 2>/dev/null; done
	echo nop >$T/current_tracer
	line=$(grep '^audit ' /tmp/audit.out) || line="audit slices=? (the audit did not finish)"
	rig_result "$line lost=$lost devices=$(echo $audit_devs | tr ' ' ',')"
fi
# lockdep must still be on at the end of the round: a report, or a kprobe
# that lockdep saw as NMI, turns it off for the rest of the boot
echo "lockdep debug_locks=$(sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats 2>/dev/null | grep . || echo none)" >&3
rc=0
i=0
while [ $i -lt "$PLAN_N" ]; do
	i=$((i + 1)); eval "p=\$pid_$i; spec=\$PLAN_S$i"
	name=${spec%% *}; name=${name%@*}
	if kill -0 "$p" 2>/dev/null; then
		# still there after SIGKILL: stuck in D state on I/O that never
		# completes; waiting for it would hang the runner too
		sleep 5
		if kill -0 "$p" 2>/dev/null; then
			rig_finding hang-dstate "$name"
			echo w >/proc/sysrq-trigger
			rc=1 stuck=1
			continue
		fi
	fi
	wait "$p"; src=$?
	grep -E '^(result|summary|paths|ioprio|migrate) ' /tmp/s$i.out >&3
	grep -h 'verify:' /tmp/s$i.out /tmp/s$i.err | head -5 >&3
	tail -n 20 /tmp/s$i.err | sed "s/^/stderr $name: /" >&3
	case "$name:$src" in
	*:0 | *:137 | *:143) ;;   # 137/143: ended by the runner
	stress-ng:* | fio:*) rig_finding stressor-exit "$name" "$src"; rc=1 ;;
	*:1)
		rig_finding stressor-check "$name"
		# its first complaints: the last lines may be retries that came after
		grep "^$name: " /tmp/s$i.err | head -n 5 | sed 's/^/first: /' >&3
		tail -n 5 /tmp/s$i.err >&3
		rc=1 ;;
	*:2) rig_finding stressor-usage "$name"; tail -n 3 /tmp/s$i.err >&3; rc=1 ;;
	*) rig_finding stressor-exit "$name" "$src"; tail -n 5 /tmp/s$i.err >&3; rc=1 ;;
	esac
done

# 6. once no queue uses the scheduler, its module must go: a reference
#    leaked by an error path (a failed elevator init, an exit race) shows
#    here, and memory nothing points to any more shows in kmemleak's scan
#    (before the unload: a leak's backtrace names the module's functions
#    only while it is loaded). Skipped when I/O is stuck (a switch would
#    wait for it forever, and requests in flight are not leaks).
if [ -z "${stuck:-}" ] && [ -z "${stalled:-}" ]; then
	for q in /sys/block/*/queue/scheduler; do
		grep -q '\[cfq\]' "$q" && { echo none >"$q" || rig_log "cannot switch ${q#/sys/block/} away from cfq"; }
	done
	rig_leaks
	if [ -d /sys/module/cfq_iosched ]; then
		ref=$(cat /sys/module/cfq_iosched/refcnt 2>/dev/null)
		if [ "$ref" != 0 ] || ! rmmod cfq-iosched 2>/tmp/rmmod.err; then
			rig_finding leak-module-refs
			rig_log "cfq-iosched refcnt ${ref:-?} after every queue left cfq"
			cat /tmp/rmmod.err >&3
			rc=1
		else
			rig_log "cfq-iosched unloaded after the round (no reference left)"
		fi
	fi
fi
exit $rc
