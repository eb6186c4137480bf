#!/usr/bin/env bash
# test: stress 55 host
# Host-side self-test of the stressors in stress/: builds them, then runs
# them against regular files and fake sysfs trees in a temp dir only (never
# real block devices, schedulers, modules or CPUs).
# Prints "ok - ..." / "not ok - ..." per check; exit 0 iff all ok.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/stress/bin
TEST_GROUP=stress
. "$root/tests/lib.sh"

# temp dir on a filesystem that takes O_DIRECT
tmp=$(mktemp -d)
if ! dd if=/dev/zero of="$tmp/probe" bs=4096 count=1 oflag=direct status=none 2>/dev/null; then
	rm -rf "$tmp"
	tmp=$(mktemp -d /var/tmp/stress-selftest.XXXXXX)
fi
trap 'if [ "$TEST_FAILED" = 0 ]; then rm -rf "$tmp"; fi' EXIT
data=$tmp/data

# run NAME PROGRAM ARGS...: stdout to $tmp/NAME.out, stderr to $tmp/NAME.err,
# exit status to $rc
run() {
	local name=$1 prog=$2
	shift 2
	"$bin/$prog" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
}

result_re='^result stressor=[a-z]+ client=[0-9]+ ops=[0-9]+ bytes=[0-9]+ errors=[0-9]+ verify_fail=[0-9]+ lat_max_us=[0-9]+ lat_p99_us=[0-9]+$'
summary_re='^summary stressor=[a-z]+ seed=[0-9]+ clients=[0-9]+ ops=[0-9]+ errors=[0-9]+ verify_fail=[0-9]+ status=(ok|fail)$'

# format_ok NAME CLIENTS: every stdout line is a result/summary line, one
# result per client, every client with ops > 0
format_ok() {
	local out=$tmp/$1.out n
	n=$(grep -cE "$result_re" "$out")
	[ "$n" -eq "$2" ] || return 1
	[ "$(grep -cE "$summary_re" "$out")" -eq 1 ] || return 1
	[ "$(grep -cvE "$result_re|$summary_re" "$out")" -eq 0 ] || return 1
	! grep -q ' ops=0 ' "$out"
}
status_is() { [ "$rc" -eq "$1" ]; }
summary_has() { grep -qE "^summary .*$2" "$tmp/$1.out"; }
err_has() { grep -qE "$2" "$tmp/$1.err"; }

# --- build ------------------------------------------------------------------
if make -j1 -C "$root/stress" >"$tmp/build.log" 2>&1; then
	pass "stressors build"
else
	fail "stressors build"
	cat "$tmp/build.log"
	exit 1
fi

# --- writers / readers on a regular file --------------------------------------
run w1 writers --dev "$data" --size 8M --clients 2 --duration 1 --fill --seed 1 \
	--fsync-every 64 --sfr-every 32 --verify-every 3000
status_is 0 && format_ok w1 2 && summary_has w1 "status=ok"
verdict $? "writers buffered: exit 0, result lines with ops>0"

run w2 writers --dev "$data" --clients 2 --duration 1 --mode direct --qd 8 --seed 2 --fill
status_is 0 && format_ok w2 2 && summary_has w2 "verify_fail=0 status=ok"
verdict $? "writers direct (libaio): clean run verifies, exit 0"

run w3 writers --dev "$data" --clients 2 --verify-only
status_is 0 && format_ok w3 2
verdict $? "writers --verify-only on the filled file: exit 0"

run r1 readers --dev "$data" --clients 2 --duration 1 --verify --seed 3
status_is 0 && format_ok r1 2 && summary_has r1 "verify_fail=0 status=ok"
verdict $? "readers sync rand --verify: exit 0, result lines with ops>0"

run r2 readers --dev "$data" --clients 2 --duration 1 --verify --engine aio --qd 8 --pattern seq
status_is 0 && format_ok r2 2
verdict $? "readers aio seq --verify: exit 0"

run r4 readers --dev "$data" --clients 3 --duration 1 --verify --pattern interleave
status_is 0 && format_ok r4 3 && summary_has r4 "verify_fail=0 status=ok"
verdict $? "readers sync interleave --verify: exit 0"
run r5 readers --dev "$data" --clients 3 --pattern interleave --print-plan 2
status_is 0 && [ "$(awk '{ sub(/off=/, "", $5); print $5 / 4096 }' "$tmp/r5.out" | sort -n | tr '\n' ' ')" = "0 1 2 3 4 5 " ]
verdict $? "readers --pattern interleave: client i of 3 reads blocks i, i+3 (one shared region)"
run r6 readers --dev "$data" --pattern nosuch
status_is 2 && err_has r6 "seq, rand or interleave"
verdict $? "readers: an unknown --pattern is a usage error (exit 2)"

# overwrite block 5 (bs 4096) with garbage
head -c 4096 /dev/urandom | dd of="$data" bs=4096 seek=5 conv=notrunc status=none
run r3 readers --dev "$data" --duration 1 --verify --pattern seq
status_is 1 && ! summary_has r3 "verify_fail=0 " &&
	err_has r3 "^verify: MISMATCH dev=.* off=20480 reason=bad_magic"
verdict $? "readers --verify detects a garbage block (exit 1, MISMATCH off=20480)"
run w4 writers --dev "$data" --verify-only
status_is 1 && err_has w4 "MISMATCH .*off=20480"
verdict $? "writers --verify-only detects the garbage block"

run w5 writers --dev "$data" --clients 2 --duration 1 --plant-corruption
status_is 1 && grep -q "client=0 .* verify_fail=1 " "$tmp/w5.out" &&
	summary_has w5 "status=fail" && err_has w5 "^verify: MISMATCH dev=.* off=[0-9]+ reason=bad_checksum"
verdict $? "writers --plant-corruption is detected (exit 1, verify_fail>0, MISMATCH)"

# --- determinism ----------------------------------------------------------------
same_plan() { # same_plan PROGRAM ARGS...: same seed same plan, other seed differs
	local a b c
	a=$("$bin/$1" "${@:2}" --seed 42 --print-plan 20) || return 1
	b=$("$bin/$1" "${@:2}" --seed 42 --print-plan 20) || return 1
	c=$("$bin/$1" "${@:2}" --seed 43 --print-plan 20) || return 1
	[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "$c" ]
}
same_plan readers --dev "$data" --clients 2
verdict $? "readers: same seed gives the same plan, another seed another"
same_plan writers --dev "$data" --clients 2
verdict $? "writers: same seed gives the same plan, another seed another"
same_plan churn --dev "$data"
verdict $? "churn: same seed gives the same plan, another seed another"

# --- bad options ----------------------------------------------------------------
bad_usage() { # exit 2 and a message on stderr
	"$bin/$1" "${@:2}" >/dev/null 2>"$tmp/usage.err"
	[ $? -eq 2 ] && [ -s "$tmp/usage.err" ] && return 0
	echo "# no usage error from: $*"
	return 1
}
bad_usage readers --dev "$data" --bogus &&
	bad_usage readers --dev "$data" --bs 1000 &&
	bad_usage readers --dev "$data" --seed abc &&
	bad_usage readers --dev "$data" --engine foo &&
	bad_usage readers --dev "$tmp/nonexistent" &&
	bad_usage writers --dev "$data" --mode foo &&
	bad_usage writers --dev "$data" --size 12Q &&
	bad_usage churn --dev "$data" --clients 0 &&
	bad_usage churn --dev "$data" --duration -1 &&
	bad_usage switcher --invalid-pct 200 &&
	bad_usage tunables --dev vda --range nosuch=1:2 &&
	bad_usage hotplug --cpus 0 &&
	bad_usage teardown --io-ms x
verdict $? "bad options exit 2 with a message"

# --- churn ----------------------------------------------------------------------
run c1 churn --dev "$data" --duration 2 --clients 4
status_is 0 && format_ok c1 4 && err_has c1 "exits_per_sec="
verdict $? "churn 2 s on a file: exit 0, ops>0"
strace -f -e trace=pread64 -o "$tmp/c2.trace" "$bin/churn" --dev "$data" --duration 1 --clients 2 --near \
	>"$tmp/c2.out" 2>"$tmp/c2.err"
rc=$?
# every pread of --near starts within the first 256 blocks plus a child's reads (< 24)
status_is 0 && awk -F', ' '/pread64\(/ { n++; if ($4 + 0 > 280 * 4096) bad++ } END { exit !(n > 0 && !bad) }' "$tmp/c2.trace"
verdict $? "churn --near: every sync read lands in the region's first blocks"

# --- privileged stressors on fake sysfs trees -----------------------------------
fake=$tmp/sys
make_fake() {
	rm -rf "$fake"
	local q=$fake/block/vda/queue
	mkdir -p "$q/iosched" "$fake/block/vdb/queue"
	echo "[mq-deadline] kyber bfq cfq none" >"$q/scheduler"
	echo "[none] mq-deadline cfq" >"$fake/block/vdb/queue/scheduler"
	echo 64 >"$q/nr_requests"
	local kv
	for kv in quantum=8 queued=8 fifo_expire_sync=124 fifo_expire_async=248 \
		fifo_batch_expire=100 back_seek_max=16384 back_seek_penalty=2 \
		find_best_request=1 slice_sync=100 slice_async=40 slice_async_rq=2 \
		slice_idle=8 max_depth=32; do
		echo "${kv#*=}" >"$q/iosched/${kv%%=*}"
	done
	echo "[tgid] pgid pid uid gid" >"$q/iosched/key_type"
	mkdir -p "$fake/kernel/debug/block/vda/sched"
	echo "queues=0 busy=0 oom_allocs=0 requeued=0 max_in_driver=0" >"$fake/kernel/debug/block/vda/sched/queues"
	for c in 0 1 2 3; do
		mkdir -p "$fake/devices/system/cpu/cpu$c"
		echo 1 >"$fake/devices/system/cpu/cpu$c/online"
	done
}

make_fake
run s1 switcher --sysfs-root "$fake" --dry-run --seed 7
status_is 0 && grep -q "^queue .*/vda/queue/scheduler current=mq-deadline" "$tmp/s1.out" &&
	grep -q "^plan " "$tmp/s1.out" && grep -q "^\[mq-deadline\]" "$fake/block/vda/queue/scheduler"
verdict $? "switcher --dry-run lists the fake queues and a plan, changes nothing"
same_plan switcher --sysfs-root "$fake"
verdict $? "switcher: same seed gives the same plan, another seed another"
run s2 switcher --sysfs-root "$fake" --duration 1 --interval-ms 20 --seed 7
status_is 1 && summary_has s2 "status=fail" && err_has s2 "accepted \(expected EINVAL\)"
verdict $? "switcher fails loudly when an invalid name is accepted (exit 1)"
make_fake
run s3 switcher --sysfs-root "$fake" --duration 1 --interval-ms 20 --invalid-pct 0 --no-readback
status_is 0 && format_ok s3 1
verdict $? "switcher with valid names only on a fake tree: exit 0, ops>0"
make_fake
echo 1 >"$fake/submit_queues"
run s4 switcher --sysfs-root "$fake" --duration 1 --interval-ms 20 --invalid-pct 0 --no-readback \
	--hw-queues "$fake/submit_queues"
status_is 0 && format_ok s4 1 && err_has s4 "hw_queues changes=[1-9][0-9]* refused=0" &&
	[ "$(cat "$fake/submit_queues")" = 1 ]
verdict $? "switcher --hw-queues writes counts to the file and restores it (fake tree)"
make_fake
run s5 switcher --sysfs-root "$fake" --duration 1 --hw-queues "$fake/no-such-file"
status_is 2 && err_has s5 "hw-queues .*no-such-file"
verdict $? "switcher --hw-queues on a missing file: exit 2 before any switch"

make_fake
run t1 tunables --sysfs-root "$fake" --dev vda --duration 1 --seed 7
status_is 1 && summary_has t1 "status=fail" && err_has t1 "accepted \(expected EINVAL\)"
verdict $? "tunables fails loudly when the fake tree accepts invalid values (exit 1)"
make_fake
run t2 tunables --sysfs-root "$fake" --dev vda --duration 1 --invalid-pct 0
status_is 0 && format_ok t2 1 &&
	[ "$(cat "$fake/block/vda/queue/iosched/slice_idle")" = 8 ] &&
	[ "$(cat "$fake/block/vda/queue/iosched/key_type")" = tgid ]
verdict $? "tunables valid-only on a fake tree: exit 0, defaults restored"
same_plan tunables --sysfs-root "$fake" --dev vda
verdict $? "tunables: same seed gives the same plan, another seed another"
# bfq's tunables (its marker, timeout_sync, in iosched/): its own table
make_fake
rm -f "$fake/block/vda/queue/iosched/"*
for kv in timeout_sync=124 slice_idle=8 slice_idle_us=8000 fifo_expire_sync=124 \
	fifo_expire_async=248 back_seek_max=16384 back_seek_penalty=2 max_budget=0 \
	strict_guarantees=0 low_latency=1; do
	echo "${kv#*=}" >"$fake/block/vda/queue/iosched/${kv%%=*}"
done
run t3 tunables --sysfs-root "$fake" --dev vda --duration 1 --invalid-pct 0 --interval-ms 1 --seed 3
status_is 0 && format_ok t3 1 && grep -q "^summary .*ops=[1-9]" "$tmp/t3.out" &&
	[ "$(cat "$fake/block/vda/queue/iosched/timeout_sync")" = 124 ] &&
	[ "$(cat "$fake/block/vda/queue/iosched/low_latency")" = 1 ] &&
	! err_has t3 "kernel/debug"
verdict $? "tunables on bfq's files (fake tree): bfq's table, exit 0, defaults restored, no cfq state read"
run t4 tunables --sysfs-root "$fake" --dev vda --print-plan 400 --seed 3
[ "$rc" = 0 ] && grep -q "timeout_sync='4'" "$tmp/t4.out" && ! grep -q "quantum=" "$tmp/t4.out"
verdict $? "tunables on bfq: the plan writes bfq's tunables, timeout_sync down to 4 ms"
rm -f "$fake/block/vda/queue/iosched/"*
run t5 tunables --sysfs-root "$fake" --dev vda --duration 1
status_is 2 && err_has t5 "none of: cfq bfq"
verdict $? "tunables where iosched/ has no known scheduler's files: exit 2"

make_fake
run h1 hotplug --sysfs-root "$fake" --duration 1 --interval-ms 20
status_is 0 && format_ok h1 1 &&
	[ "$(cat "$fake"/devices/system/cpu/cpu[123]/online | tr -d "\n")" = 111 ]
verdict $? "hotplug on a fake tree: exit 0, ops>0, all CPUs online at the end"
ln -sf /dev/null "$fake/devices/system/cpu/cpu2/online"
run h2 hotplug --sysfs-root "$fake" --duration 1 --interval-ms 20
status_is 1 && err_has h2 "cpu2/online"
verdict $? "hotplug fails loudly when a CPU state does not read back (exit 1)"
rm -rf "$fake"/devices/system/cpu/cpu[123]
run h3 hotplug --sysfs-root "$fake" --duration 1
status_is 0 && grep -q 'status=ok' "$tmp/h3.out" && err_has h3 "only cpu0"
verdict $? "hotplug with only cpu0 (a 1-vCPU guest): nothing to toggle, exit 0"
rm -rf "$fake"/devices/system/cpu
run h4 hotplug --sysfs-root "$fake" --duration 1
status_is 2 && err_has h4 "no CPUs found"
verdict $? "hotplug with no CPU tree at all is a usage error (exit 2)"

make_fake
dd if=/dev/zero of="$tmp/vda" bs=1M count=4 status=none
run d1 teardown --sysfs-root "$fake" --dev "$tmp/vda" --dry-run
status_is 0 && grep -q "expect=fail" "$tmp/d1.out"
verdict $? "teardown --dry-run shows the cycle"
run d2 teardown --sysfs-root "$fake" --dev "$tmp/vda" --duration 1 --io-ms 50 \
	--modprobe /bin/true --rmmod /bin/true
status_is 1 && err_has d2 "succeeded while cfq was in use"
verdict $? "teardown fails loudly when rmmod succeeds while cfq is in use (exit 1)"
cat >"$tmp/fake-rmmod" <<EOF
#!/bin/sh
# refuses while the fake queue is on cfq, like the real module refcount
grep -q '^cfq' "$fake/block/vda/queue/scheduler" && exit 1
exit 0
EOF
chmod +x "$tmp/fake-rmmod"
run d3 teardown --sysfs-root "$fake" --dev "$tmp/vda" --duration 1 --io-ms 50 \
	--modprobe /bin/true --rmmod "$tmp/fake-rmmod" --no-readback
status_is 0 && format_ok d3 1
verdict $? "teardown with a refcount-like fake rmmod: exit 0, cycles>0"

# the progress watchdog: a client that stops (SIGSTOP stands in for I/O stuck
# in the kernel) is reported while the run goes on; running ones are not
truncate -s 64M "$tmp/stall"
"$bin/readers" --dev "$tmp/stall" --duration 6 --clients 2 --stall-s 2 >"$tmp/w1.out" 2>"$tmp/w1.err" &
pid=$!
sleep 1
last=$(pgrep -P "$pid" | sort -n | tail -n1)
kill -STOP "$last"
sleep 4
kill -CONT "$last"
wait "$pid"
[ "$(grep -c '^stall: ' "$tmp/w1.err")" = 1 ] && grep -q '^stall: readers client 1 made no progress for 2 s$' "$tmp/w1.err"
verdict $? "progress watchdog: the stopped client (and only it) is reported as a stall"
run w2 readers --dev "$tmp/stall" --duration 4 --clients 2 --stall-s 2
[ "$rc" = 0 ] && ! grep -q '^stall: ' "$tmp/w2.err"
verdict $? "progress watchdog: no stall reported for clients making progress"

# --- --ioprio mix: a seeded shuffler moves the clients between RT and BE ------
truncate -s 64M "$tmp/ioprio"
run i1 readers --dev "$tmp/ioprio" --clients 3 --duration 3 --seed 5 --ioprio mix
[ "$rc" = 0 ] && grep -q 'status=ok' "$tmp/i1.out" &&
	grep -Eq '^ioprio stressor=readers changes=[1-9][0-9]* rt=[0-9]+ be=[0-9]+$' "$tmp/i1.out"
verdict $? "readers --ioprio mix: exit 0, status=ok, the shuffler changed priorities"
run i2 writers --dev "$tmp/ioprio" --ioprio idle --duration 1
[ "$rc" = 2 ] && grep -q 'must be inherit or mix' "$tmp/i2.err"
verdict $? "--ioprio: an unknown mode is a usage error (exit 2)"

# --- --migrate-us: a seeded mover binds the clients to one CPU after another --
# (a client's mask seen changing while it runs: the moves are real)
run m1 readers --dev "$tmp/ioprio" --clients 2 --duration 3 --seed 5 --migrate-us 2000 --engine sync
[ "$rc" = 0 ] && grep -q 'status=ok' "$tmp/m1.out" &&
	grep -Eq "^migrate stressor=readers cpus=$(nproc) moves=[1-9][0-9]* whole=[0-9]+$" "$tmp/m1.out"
verdict $? "readers --migrate-us: exit 0, status=ok, the mover moved clients over every CPU"
"$bin/readers" --dev "$tmp/ioprio" --clients 1 --duration 3 --seed 5 --migrate-us 1000 --stall-s 0 >/dev/null 2>&1 &
pid=$!
sleep 1
masks=$(c=$(pgrep -P "$pid" | head -n1); for _ in $(seq 20); do grep Cpus_allowed_list "/proc/$c/status"; sleep 0.05; done | sort -u | wc -l)
wait "$pid"
[ "$(nproc)" -lt 2 ] || [ "$masks" -ge 2 ]
verdict $? "readers --migrate-us: a running client's CPU mask changes under it ($masks masks in 1 s)"
run m2 readers --dev "$tmp/ioprio" --cpu 0 --migrate-us 100 --duration 1
[ "$rc" = 2 ] && grep -q 'choose one' "$tmp/m2.err"
verdict $? "--migrate-us with --cpu is a usage error (exit 2)"

# --- paths on a regular file ----------------------------------------------------
# every mode a file allows (SG_IO, discard, key-change and debugfs are refused
# or skipped there) writes and verifies; a mode line per mode
truncate -s 64M "$tmp/paths"
run p1 paths --dev "$tmp/paths" --clients 3 --duration 3 --seed 5
[ "$rc" = 0 ] && grep -Eq "$summary_re" "$tmp/p1.out" && grep -q 'status=ok' "$tmp/p1.out" &&
	[ "$(grep -c '^paths mode=' "$tmp/p1.out")" = 10 ] &&
	grep -Eq '^paths mode=merge ops=[1-9]' "$tmp/p1.out" && grep -Eq '^paths mode=shared-ioc ops=[1-9]' "$tmp/p1.out"
verdict $? "paths on a file: exit 0, status=ok, a line per mode, merges and shared io_contexts done"
truncate -s 8M "$tmp/peer"
run pp1 paths --dev "$tmp/paths" --peers "$tmp/paths,$tmp/peer" --modes peers --clients 2 --duration 2 --seed 3
[ "$rc" = 0 ] && grep -q 'status=ok' "$tmp/pp1.out" && grep -Eq '^paths mode=peers ops=[1-9][0-9]* skipped=0 errors=0' "$tmp/pp1.out"
verdict $? "paths peers: reads the other device of --peers between its own verified writes"
run pp2 paths --dev "$tmp/paths" --peers "$tmp/paths" --modes peers --duration 1 --seed 3
[ "$rc" = 2 ] && grep -q 'names no device but --dev' "$tmp/pp2.err"
verdict $? "paths peers: --modes peers without another device in --peers is a usage error (exit 2)"
run pp3 paths --dev "$tmp/paths" --peers "$tmp/paths,$tmp/peer" --clients 2 --print-plan 40 --seed 5
run pp4 paths --dev "$tmp/paths" --clients 2 --print-plan 40 --seed 5
grep -q 'mode=peers' "$tmp/pp3.out" && ! grep -q 'mode=peers' "$tmp/pp4.out"
verdict $? "paths: peers is in the plan only with another device in --peers"
run p2 paths --dev "$tmp/paths" --modes merge,nosuch --duration 1
[ "$rc" = 2 ] && [ -s "$tmp/p2.err" ]
verdict $? "paths: an unknown mode is a usage error (exit 2)"
same_plan paths --dev "$tmp/paths" --clients 2
verdict $? "paths: same seed gives the same plan, another seed another"
run s1 switcher --fail-nth 0x
[ "$rc" = 2 ]
verdict $? "switcher: a bad --fail-nth is a usage error (exit 2)"
run t1 teardown --dev "$data" --slice-idle-ms 40000
[ "$rc" = 2 ]
verdict $? "teardown: --slice-idle-ms above 30000 is a usage error (exit 2)"
# splat (the positive control, a shell stressor installed by make -C stress):
# only its usage errors run here (its real work loads a guest module)
[ -x "$bin/splat" ]
verdict $? "splat: installed in stress/bin with the C stressors"
run p1 splat --kind nosuch --duration 5 --seed 1
[ "$rc" = 2 ] && grep -q "kind must be" "$tmp/p1.err"
verdict $? "splat: an unknown --kind is a usage error (exit 2)"
run p2 splat --after soon
[ "$rc" = 2 ] && grep -q "after must be seconds" "$tmp/p2.err"
verdict $? "splat: a bad --after is a usage error (exit 2)"
run p3 splat --colour red
[ "$rc" = 2 ]
verdict $? "splat: an unknown option is a usage error (exit 2)"

if [ "$TEST_FAILED" != 0 ]; then
	echo "# a check failed; outputs were in $tmp"
	exit 1
fi
exit 0
