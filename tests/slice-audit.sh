#!/usr/bin/env bash
# test: audit 50 host
# Tests of the slice audit (guest/slice-audit.awk) with the guest's awks
# on small traces in the block tracer's format: what it counts as a
# breach, what it must let pass, and its summary line. The guest runs it
# with mawk (guest/lib.sh audit_awk), else busybox awk: every trace here
# goes through both, and they must print the same.
set -u
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=audit
. tests/lib.sh
diffs=$(mktemp) runs=$(mktemp)
trap 'rm -f "$diffs" "$runs"' EXIT
awk_() { # the audit with busybox awk, checked against mawk on the same input
	local in b m
	in=$(mktemp)
	cat >"$in"
	b=$(busybox awk "$@" <"$in")
	m=$(mawk "$@" <"$in")
	echo >>"$runs"
	[ "$b" = "$m" ] || printf '%s\n--- busybox:\n%s\n--- mawk:\n%s\n' "$(head -c 300 "$in")" "$b" "$m" >>"$diffs"
	rm -f "$in"
	printf '%s\n' "$b"
}
n=0
line() { # DEV KEY EVENT ARGS -> one trace line
	n=$((n + 1))
	printf '   fio-%d  [000] d..1.  %d.000100: %s    m   N %s %s %s\n' "$n" "$n" "$1" "$2" "$3" "$4"
}
start() { line "$1" "$2" slice_start "sync=1 slice_ms=$3 prio=$4"; }
expire() { line "$1" "$2" slice_expire "reason=$3 used_us=$4 rqs=4 prio=$5 timed_us=$4${6:+ $6}"; }
idle() { line "$1" "$2" idle_arm "wait_us=$3"; }
# the audited devices: 8,0 with cfq's defaults (sync 100, async 40, idle 4);
# 8,16 also with a scenario's (sync 60, idle 10) and non-rotational
conf="8,0:100:40:4:0 8,16:100,60:40:4,10:1"
audit_all() {
	{ cat; echo '  sh-1 [000] ..... 99.0: tracing_mark_write: rig-audit-end'; } | awk_ -v conf="$conf" -f guest/trace.awk -f guest/slice-audit.awk
}
audit() { audit_all | grep -v '^context '; }   # the breaches and the summary
matches() { # NAME WANT(regex) GOT
	if [[ "$3" =~ $2 ]]; then pass "$1"; else fail "$1" "want /$2/, got: $3"; fi
}
nl=$'\n'
none='short=0 length=0 idle=0 nonrot=0 timeout=0 round=0 class=0 preempt=0 grace=0$'

got=$({ start 8,0 cfq1 100 be/4; expire 8,0 cfq1 time 15999 be/4; expire 8,0 cfq2 time 16000 be/0; } | audit)
matches "a slice ended by time before the shortest on the device (async 40 at level 7: 16 ms) is a breach, at 16 ms it is not" \
	"^short 8,0 cfq1 used_us=15999 prio=be/4 min_us=16000${nl}audit slices=2 time=2 short=1 length=0 idle=0 nonrot=0 timeout=0 round=0 class=0 preempt=0 grace=0$" "$got"
got=$({ expire 8,16 cfq1 time 15999 be/4; expire 8,16 cfq1 time 16000 rt/0; } | audit)
matches "the shortest counts every base the device can have (the scenario's sync 60: 24 ms; async 40: 16 ms)" \
	"^short 8,16 cfq1 used_us=15999 .*${nl}audit slices=2 time=2 short=1 " "$got"
got=$({ start 8,0 cfq1 100 be/4; expire 8,0 cfq1 empty 10 be/4; expire 8,0 cfq5 preempted 10 be/4; } | audit)
matches "ends other than time are counted, not checked" "^audit slices=2 time=0 $none" "$got"
got=$({ start 9,0 cfq1 7 be/4; expire 9,0 cfq1 time 10 be/4; idle 9,0 cfq1 999999; expire 9,0 cfq1 idle_timeout 5 be/4; } | audit)
matches "a device the audit does not know is ignored (its trace may come and go)" "^audit slices=0 time=0 $none" "$got"
got=$(printf 'junk\n\n  cfq1 slice_expire\n' | audit)
matches "lines that are not cfq slice messages are ignored" "^audit slices=0 time=0 $none" "$got"
got=$({ start 8,0 cfq1 180 be/0; expire 8,0 cfq1 empty 5 be/0; start 8,0 cfq2 40 be/7; expire 8,0 cfq2 empty 5 be/7
	start 8,0 cfq3 40 idle/7; expire 8,0 cfq3 empty 5 idle/7; start 8,0 cfq4 100 rt/4; expire 8,0 cfq4 empty 5 rt/4
	line 8,0 cfq5 slice_start "sync=0 slice_ms=72 prio=be/0"; expire 8,0 cfq5 empty 5 be/0
	start 8,16 cfq6 60 be/4; expire 8,16 cfq6 empty 5 be/4; start 8,16 cfq7 108 be/0; idle 8,0 cfq7 4000; } | audit)
matches "slice lengths of legacy CFQ's rule (sync 100, async 40; a scenario's 60) and an idle window of slice_idle pass" \
	"^audit slices=6 time=0 $none" "$got"
got=$({ start 8,0 cfq1 100 be/0; start 8,0 cfq2 20 be/7; line 8,0 cfq3 slice_start "sync=0 slice_ms=100 prio=be/4"; } | audit)
matches "a slice whose length breaks the rule (be/0 of 100, be/7 of 20, an async slice of slice_sync) is a breach" \
	"^length 8,0 cfq1 slice_ms=100 prio=be/0 sync=1 bases=100${nl}length 8,0 cfq2 .*${nl}length 8,0 cfq3 slice_ms=100 prio=be/4 sync=0 bases=40${nl}audit .* length=3 idle=0 nonrot=0 timeout=0 round=0 class=0 preempt=0 grace=0$" "$got"
got=$({ idle 8,0 cfq1 4001; idle 8,16 cfq2 10000; } | audit)
matches "an idle window longer than slice_idle, and one on a non-rotational device that queues, are breaches" \
	"^idle 8,0 cfq1 wait_us=4001 slice_idle=4${nl}nonrot 8,16 cfq2 .*${nl}audit .* length=0 idle=1 nonrot=1 timeout=0 round=0 class=0 preempt=0 grace=0$" "$got"
got=$({ start 8,0 cfq1 100 be/4; idle 8,0 cfq1 4000; expire 8,0 cfq1 idle_timeout 20000 be/4
	start 8,0 cfq2 100 be/4; expire 8,0 cfq2 idle_timeout 30000 be/4
	start 8,0 cfq3 100 be/4; idle 8,0 cfq3 4000; expire 8,0 cfq3 empty 5000 be/4; start 8,0 cfq3 100 be/4
	idle 8,0 cfq5 4000; expire 8,0 cfq3 idle_timeout 9000 be/4; } | audit)
matches "a slice ended by the idle timer needs an idle window of its own queue in that slice" \
	"^timeout 8,0 cfq2 reason=idle_timeout without an idle window of its own${nl}timeout 8,0 cfq3 .* \(its last at 7.0001 s, before its last end at 8.0001 s\)${nl}audit slices=4 .* timeout=2 round=0 class=0 preempt=0 grace=0$" "$got"
# one slice per queue per round of its class (patch 19): a queue is its id
sel() { line "$1" "$2" slice_select "round=$3 id=$4"; }
got=$({ sel 8,0 cfq1 be/1 11; sel 8,0 cfq2 be/1 12; sel 8,0 cfq1 be/2 11; sel 8,0 cfq2 be/2 12
	sel 8,0 cfq1 rt/2 11; sel 8,16 cfq2 be/2 12
	sel 8,0 cfq3 be/3 13; sel 8,0 cfq3 be/3 14; } | audit)
matches "a queue once in a round: a round of another class, a new queue of the same key and another device are no repeat" \
	"^audit slices=0 time=0 $none" "$got"
got=$({ sel 8,0 cfq1 be/1 11; sel 8,0 cfq2 be/1 12; sel 8,0 cfq1 be/1 11; } | audit)
matches "a queue with two slices in one round is a breach" \
	"^round 8,0 cfq1 a second slice in round be/1 \(queue id 11\)${nl}audit slices=0 .* round=1 class=0 preempt=0 grace=0$" "$got"
# classes (patch 20's busy=RT/BE/IDLE): a slice goes to the best class
# waiting, and keeps the device only while no better class waits
got=$({ sel 8,0 cfq1 "be/1 busy=0/3/1" 11; sel 8,0 cfq2 "idle/1 busy=0/0/2" 12; sel 8,0 cfq3 "rt/1 busy=2/5/1" 13
	sel 8,0 cfq4 be/2 14; } | audit)
matches "a slice of the best class waiting passes; a message without busy is not checked" "^audit slices=0 time=0 $none" "$got"
got=$({ sel 8,0 cfq1 "be/1 busy=1/3/0" 11; sel 8,0 cfq2 "idle/1 busy=0/1/1" 12; } | audit)
matches "a slice selected while a better class had queues waiting is a breach" \
	"^class 8,0 cfq1 a be/1 slice selected while class 1 had queues waiting \(busy=1/3/0\)${nl}class 8,0 cfq2 .* class 2 .*${nl}audit .* class=2 preempt=0 grace=0$" "$got"
got=$({ sel 8,0 cfq1 "be/1 busy=0/2/0" 11; expire 8,0 cfq1 preempted 10 be/4 "id=11 busy=1/2/0"
	sel 8,0 cfq2 "be/1 busy=0/2/0" 12; expire 8,0 cfq2 empty 10 rt/4 "id=12 busy=2/1/0"
	sel 8,0 cfq3 "rt/1 busy=1/2/0" 13; expire 8,0 cfq3 time 20000 be/4 "id=13 busy=1/2/0"
	expire 8,0 cfq4 empty 10 be/4 "id=14 busy=1/2/0"
	sel 8,0 cfq5 "be/1 busy=0/2/0" 15; expire 8,0 cfq5 empty 10 be/4 "id=15 busy=0/2/0"; expire 8,0 cfq5 empty 10 be/4 "id=15 busy=1/2/0"
	sel 8,0 cfq6 "be/1 busy=0/2/0" 16; line 8,0 cfq6 prio_change "prio=rt/4 id=16"; line 8,0 cfq6 prio_change "prio=be/4 id=16"
	expire 8,0 cfq6 time 20000 be/4 "id=16 busy=1/2/0"; } | audit)
matches "preempted, moved up or down in the slice (at its end or between), or selected unseen (lost, or the last slice's) is no breach" \
	"^audit slices=7 time=2 $none" "$got"
got=$({ sel 8,0 cfq1 "be/1 busy=0/2/0" 11; expire 8,0 cfq1 empty 10 be/4 "id=11 busy=1/2/0"
	sel 8,0 cfq2 "idle/1 busy=0/0/1" 12; expire 8,0 cfq2 time 20000 idle/7 "id=12 busy=0/1/1"; } | audit)
matches "a slice that ends, not preempted, while a better class waits is a breach" \
	"^preempt 8,0 cfq1 reason=empty prio=be/4 while class 1 had queues waiting \(busy=1/2/0\)${nl}preempt 8,0 cfq2 reason=time .*${nl}audit .* class=0 preempt=2 grace=0$" "$got"
got=$({ sel 8,0 cfq1 "idle/1 busy=0/0/1 quiet_us=100000" 11; sel 8,0 cfq2 "be/1 busy=0/1/1 quiet_us=0" 12
	sel 8,0 cfq3 "idle/2 busy=0/0/1" 13; sel 8,0 cfq4 "idle/3 busy=0/0/1 quiet_us=99999" 14; } | audit)
matches "an IDLE slice needs 100 ms without RT or BE work (other classes and a message without quiet_us are not checked)" \
	"^grace 8,0 cfq4 an IDLE slice 99999 us after the last RT or BE request \(grace 100000\)${nl}audit .* class=0 preempt=0 grace=1$" "$got"
# two CPUs' events of one clock tick come in any order: cfq9's idle_arm
# printed after another queue's end of the same tick, and cfq9's own end
# of the same tick as its idle_arm, are no breach
tick() { printf '   x-1  [00%d] d..1.  7.000100: 8,0    m   N %s %s %s\n' "$1" "$2" "$3" "$4"; }
got=$({ tick 0 cfq8 slice_expire "reason=empty used_us=1 rqs=1 prio=be/4 timed_us=1"; tick 1 cfq9 idle_arm wait_us=4000
	tick 0 cfq9 slice_expire "reason=idle_timeout used_us=4000 rqs=1 prio=be/4 timed_us=1"; } | audit)
matches "events of the same clock tick in another order are no breach" "^audit slices=2 time=0 $none" "$got"
got=$({ for i in $(seq 20); do start 8,0 cfq$i 100 be/4; done; expire 8,0 cfq20 time 10 be/4; expire 8,0 cfq21 time 10 be/4; } |
	audit_all | grep -c "^context short 8,0 ")
matches "the first breach of a kind comes with the device's 16 events up to it" '^16$' "$got"
# the totals of the run and soak summaries (host/lib.sh audit_totals): a
# round's timeout breaches are breaches when it lost no event, else notes
got=$(bash -c '. host/lib.sh && audit_totals "$@"' _ <(printf '%s\n' \
	'audit slices=10 time=2 short=0 length=1 idle=0 nonrot=0 timeout=2 round=0 lost=0 devices=vda' \
	'audit slices=5 time=1 short=0 length=0 idle=0 nonrot=0 timeout=3 round=1 class=0 preempt=1 lost=7 devices=vda'))
matches "summary totals: timeout breaches count as breaches in a round that lost no event, as notes in one that did" \
	'^slices 15, ended by time 3, breaches 4, notes 4, lost events 7, in 2 round\(s\)$' "$got"
# the two awks
n=$(wc -l <"$runs")
[ "$n" -ge 10 ] && [ ! -s "$diffs" ] && pass "mawk and busybox awk print the same audit on all $n traces" ||
	fail "mawk and busybox awk print the same audit on all $n traces" "$(head -c 1500 "$diffs")"
