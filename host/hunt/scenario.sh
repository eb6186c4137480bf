#!/usr/bin/env bash
# Check a scenario file and turn it into the plan the guest runs.
#
# usage: host/hunt/scenario.sh check FILE            -> exit 0, or 2 with FILE:LINE: reason
#        host/hunt/scenario.sh plan FILE SEED DURATION -> plan on stdout: the round's
#          facts (PLAN_* shell assignments) and, when fault sets are armed,
#          their guest code (host/hunt/faults.sh guest). The one file a round
#          sends to the guest (/rig/files/plan), which reads nothing else of it.
#
# A scenario is "key = value" lines; '#' starts a comment. Keys:
#   duration  = 60 | 90s | 5m | 1h     run time of one round
#   seed      = N                      default seed (SEED= on the command line wins)
#   devices   = virtio nullb sdebug [sdebug2]   the test devices to set up;
#                                      sdebug2 is scsi_debug's second disk
#                                      (max_luns=2 or num_tgts=2): a second
#                                      request queue on the host's tag set
#   scheduler = cfq | mq-deadline | kyber | bfq | none   on every test device
#   nullb     = MODULE-PARAMS          null_blk parameters (queue_mode=2 irqmode=2 ...;
#                                      configfs=1: the device is made through configfs)
#   sdebug    = MODULE-PARAMS          scsi_debug parameters (dev_size_mb=256 ...)
#   iosched   = NAME=VALUE ...         the scheduler's tunables (queue/iosched/NAME),
#                                      set on every test device once it is selected
#   queue     = NAME=VALUE ...         queue attributes (queue/NAME: io_timeout,
#                                      nr_requests, wbt_lat_usec ...), every test device
#   faults    = NAME ...               fault sets faults/NAME.flt, armed together
#                                      (none: no faults; all: every set)
#   kmemleak  = on | off               the leak detector in this round (off:
#                                      it slows allocations; KMEMLEAK= wins)
#   vcpus     = N                      the guest has at least N vCPUs (1-8;
#                                      VCPUS= may give more)
#   stressor  = NAME[@DEVICE] [OPTIONS]   repeatable; NAME is a stressor of
#               stress/ (the C ones, stress/*.c, or splat, stress/splat.sh: a
#               positive control, --kind lockdep|kasan|odebug|atomic_sleep|
#               hung|race --after SECONDS), or stress-ng or fio (Debian's, on
#               the tools disk); @DEVICE picks one of the devices
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

STRESSORS="readers writers churn paths switcher teardown tunables hotplug splat stress-ng fio"
SCHEDS="cfq mq-deadline kyber bfq none"
DEVS="virtio nullb sdebug sdebug2"

# seconds from 60 / 60s / 5m / 2h; empty on a bad value
to_seconds() {
	case "$1" in
	*[!0-9smh]* | "" | [smh]*) return 1 ;;
	*s) echo "${1%s}" ;;
	*m) echo $((${1%m} * 60)) ;;
	*h) echo $((${1%h} * 3600)) ;;
	*) echo "$1" ;;
	esac
}
in_list() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }

# parse FILE: sets duration seed devices scheduler nullb sdebug iosched queue faults kmemleak vcpus, stressors[]
parse() {
	local file=$1 n=0 line key val name dev d
	[ -f "$file" ] || { echo "$file: no such scenario" >&2; return 2; }
	duration='' seed='' devices=virtio scheduler=cfq nullb='' sdebug='' iosched='' queue='' faults=none kmemleak=off vcpus=''
	stressors=()
	fail() { echo "$file:$n: $*" >&2; return 2; }
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		[[ "$line" =~ ^[[:space:]]*$ ]] && continue
		[[ "$line" =~ ^[[:space:]]*([a-z_-]+)[[:space:]]*=[[:space:]]*(.*[^[:space:]])?[[:space:]]*$ ]] ||
			{ fail "expected 'key = value'"; return 2; }
		key=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]:-}
		case "$key" in
		duration) to_seconds "$val" >/dev/null && [ "$(to_seconds "$val")" -gt 0 ] ||
			{ fail "duration '$val' is not a time (60, 90s, 5m, 1h)"; return 2; }
			duration=$(to_seconds "$val") ;;
		seed) [[ "$val" =~ ^[0-9]{1,19}$ ]] || { fail "seed '$val' is not a number"; return 2; }
			seed=$val ;;
		devices) for d in $val; do in_list "$d" "$DEVS" ||
			{ fail "unknown device '$d' (choose from: $DEVS)"; return 2; }; done
			[ -n "$val" ] || { fail "devices is empty"; return 2; }
			devices=$val ;;
		scheduler) in_list "$val" "$SCHEDS" || { fail "unknown scheduler '$val' (choose from: $SCHEDS)"; return 2; }
			scheduler=$val ;;
		nullb | sdebug) [[ "$val" =~ ^([a-z_]+=[0-9a-z,_]+[[:space:]]*)*$ ]] ||
			{ fail "$key parameters must be name=value words (got '$val')"; return 2; }
			printf -v "$key" '%s' "$val" ;;
		iosched) [[ "$val" =~ ^([a-z_]+=[0-9a-z]+[[:space:]]*)+$ ]] ||
			{ fail "iosched must be tunable=value words (got '$val')"; return 2; }
			iosched=$val ;;
		queue) [[ "$val" =~ ^([a-z_]+=[0-9a-z]+[[:space:]]*)+$ ]] ||
			{ fail "queue must be attribute=value words (got '$val')"; return 2; }
			queue=$val ;;
		faults) faults=$(fault_list "$val") || { fail "$faults"; return 2; } ;;
		kmemleak) [[ "$val" =~ ^(on|off)$ ]] || { fail "kmemleak must be on or off (got '$val')"; return 2; }
			kmemleak=$val ;;
		vcpus) [[ "$val" =~ ^[1-8]$ ]] || { fail "vcpus must be 1 to 8, the kernels' CONFIG_NR_CPUS (got '$val')"; return 2; }
			vcpus=$val ;;
		stressor) name=${val%% *} dev=''
			[[ "$name" == *@* ]] && dev=${name#*@} name=${name%@*}
			in_list "$name" "$STRESSORS" || { fail "unknown stressor '$name' (choose from: $STRESSORS)"; return 2; }
			[ -z "$dev" ] || in_list "$dev" "$DEVS" || { fail "unknown device '@$dev'"; return 2; }
			[[ "$val" != *"'"* ]] || { fail "quotes are not allowed in stressor options"; return 2; }
			stressors+=("$n|$val") ;;
		*) fail "unknown key '$key' (keys: duration seed devices scheduler nullb sdebug iosched queue faults kmemleak vcpus stressor)"; return 2 ;;
		esac
	done <"$file"
	[ -n "$duration" ] || { n=0; fail "missing 'duration'"; return 2; }
	[ "${#stressors[@]}" -gt 0 ] || { n=0; fail "no stressor"; return 2; }
	[ -z "$iosched" ] || [ "$scheduler" != none ] || { n=0; fail "iosched is set but scheduler = none has no tunables"; return 2; }
	if in_list sdebug2 "$devices"; then
		in_list sdebug "$devices" && [[ " $sdebug " =~ \ (max_luns|num_tgts)=([2-9]|[1-9][0-9]+)\  ]] ||
			{ n=0; fail "sdebug2 needs sdebug among the devices with max_luns=2 or num_tgts=2 (or more)"; return 2; }
	fi
	local s
	for s in "${stressors[@]}"; do
		n=${s%%|*} val=${s#*|} name=${val%% *} dev=''
		[[ "$name" == *@* ]] && dev=${name#*@}
		[ -z "$dev" ] || in_list "$dev" "$devices" || { fail "stressor uses @$dev but devices = $devices"; return 2; }
		# a C stressor checks its own options (--check) where it is built
		# and newer than its source: a typo is found here, not in the guest
		name=${name%@*}
		local bin="$RIG_ROOT/stress/bin/$name" out
		if [ -f "$RIG_ROOT/stress/$name.c" ] && [ -x "$bin" ] && [ "$bin" -nt "$RIG_ROOT/stress/$name.c" ]; then
			# shellcheck disable=SC2086 # the options are words
			out=$("$bin" ${val#"${val%% *}"} --check 2>&1 >/dev/null) ||
				{ fail "stressor $name: ${out#"$name: "}"; return 2; }
		fi
	done
}

# "a b", "all" or "none" -> the checked list of set names on stdout, or a
# reason on stdout and status 1
fault_list() {
	local v=$1 f out=''
	[ "$v" = all ] && v=$(cd "$RIG_ROOT/faults" && ls -- *.flt | sed 's/\.flt$//' | tr '\n' ' ')
	[ -n "${v// /}" ] || { echo "faults is empty (use none)"; return 1; }
	for f in $v; do
		[ "$f" = none ] && { [ "$(echo $v)" = none ] || { echo "none cannot be combined with other fault sets"; return 1; }; }
		[ "$f" = none ] || [ -f "$RIG_ROOT/faults/$f.flt" ] || { echo "no fault set faults/$f.flt"; return 1; }
		in_list "$f" "$out" && { echo "fault set '$f' named twice"; return 1; }
		out="$out $f"
	done
	echo "${out# }"
}

usage="usage: host/hunt/scenario.sh check FILE | plan FILE [SEED] [DURATION]"
cmd=${1:-}
case "$cmd" in
check)
	[ $# -eq 2 ] || die "$usage"
	parse "$2"
	# shellcheck disable=SC2046 # fault set names are plain words
	[ "$faults" = none ] || "$RIG_ROOT/host/hunt/faults.sh" check $(fault_files "$faults") || exit 2
	;;
plan)
	[ $# -ge 2 ] && [ $# -le 4 ] || die "$usage"
	parse "$2"
	s=${3:-} d=${4:-}
	[ -z "$s" ] || [[ "$s" =~ ^[0-9]{1,18}$ ]] || die "SEED '$s' is not a number"
	[ -n "$s" ] || s=${seed:-}
	[ -n "$s" ] || s=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	[ -n "$d" ] && { d=$(to_seconds "$d") || die "DURATION '$4' is not a time (60, 90s, 5m, 1h)"; }
	# UNDER_TEST (host/report/under-test): a scenario written for the series'
	# scheduler runs on the scheduler under test, without cfq's tunables
	# (iosched =); the tunables stressor churns that scheduler's own where
	# it has a table of them (stress/tunables.c: cfq and bfq)
	under_test_check
	ut=$(under_test_sched)
	if [ "$scheduler" = cfq ] && [ "$ut" != - ] && [ "$ut" != cfq ]; then
		scheduler=$ut iosched=''
		for i in "${!stressors[@]}"; do
			[[ "${stressors[i]#*|}" != tunables@* ]] || [ "$ut" = bfq ] || { unset "stressors[i]"; continue; }
			# the switcher draws the scheduler under test twice as often
			stressors[i]=${stressors[i]/--scheds /--scheds $ut,}
		done
	fi
	# FAULTS="a b" overrides the scenario's fault sets (make test, repro)
	if [ -n "${FAULTS:-}" ]; then faults=$(fault_list "$FAULTS") || die "FAULTS: $faults"; fi
	# the fault sets, checked and turned into the guest's fault code once
	code=''
	# shellcheck disable=SC2046 # fault set names are plain words
	[ "$faults" = none ] || code=$("$RIG_ROOT/host/hunt/faults.sh" guest $(fault_files "$faults")) || exit 2
	echo "PLAN_SCENARIO='$(basename "${2%.scn}")'"
	echo "PLAN_SEED='$s'"
	echo "PLAN_DURATION='${d:-$duration}'"
	echo "PLAN_DEVICES='$devices'"
	echo "PLAN_SCHED='$scheduler'"
	echo "PLAN_NULLB='$nullb'"
	echo "PLAN_SDEBUG='$sdebug'"
	echo "PLAN_IOSCHED='$iosched'"
	echo "PLAN_QUEUE='$queue'"
	echo "PLAN_FAULTS='$faults'"
	echo "PLAN_KMEMLEAK='$kmemleak'"
	[ -z "$vcpus" ] || echo "PLAN_VCPUS='$vcpus'"
	echo "PLAN_UNDER_TEST='$UNDER_TEST'"
	echo "PLAN_N=${#stressors[@]}"
	i=0
	for st in "${stressors[@]}"; do i=$((i + 1)); echo "PLAN_S$i='${st#*|}'"; done
	[ -z "$code" ] || printf '%s\n' "$code"
	;;
*) die "$usage" ;;
esac
