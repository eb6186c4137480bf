#!/usr/bin/env bash
# Boot the guest for one job, watch it, classify the console, summarize.
#
# usage: host/vm/run.sh JOB [KEY=VALUE ...]
#   JOB         a guest/jobs/JOB.sh script
#   KEY=VALUE   settings passed to the guest in /rig/run.conf (RIG_SEED,
#               RIG_DURATION, RIG_SCENARIO, ...)
# environment: RUN_ID, TIMEOUT (s, whole run), SILENCE (s without console
#   output = hang), REPORT_GRACE (s a guest has to end its round after a
#   kernel report; 90 s once the guest has said it ends the round early for
#   a finding, if that is shorter), MEM (MiB), CMDLINE (extra kernel arguments), DISK_MB,
#   ACCEL (auto|kvm|tcg), TSC_KHZ (auto|0|kHz: the guest clock, see
#   host/vm/tsc-khz.c), HRES_BOOTS (boots under TCG until the local APIC
#   timer passes its boot check), KMEMLEAK (auto|0|1: the leak detector;
#   auto: on for the controls job and a plan that says so), FLAVOR,
#   EXTRA_FILES (host files copied to /rig/files),
#   VCPUS (vCPUs of the guest, default 2; a plan's vcpus = N raises it), RIG_HOST (the host's name in the
#   summary, default hostname), RIG_BUILD_DIR and RIG_IMAGE_DIR (a kernel
#   and images already built: host/hunt/soak.sh builds once for all its rounds)
# host/vm/run.sh --check: only check those settings (exit 0 or 2; host/hunt/soak.sh
#   does, before it builds anything)
# exit: 0 clean, 1 findings (including hang), 2 usage or setup error.
# Output: logs/RUN_ID/{console.log,results.log,summary,summary.json,...}
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

usage="usage: host/vm/run.sh JOB [RIG_KEY=VALUE ...] | host/vm/run.sh --check"
job=${1:-}
[ -n "$job" ] || die "$usage"
shift
num() { [[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] || die "$1 must be a positive number of ${3:-units} (got '$2')"; }
TIMEOUT=${TIMEOUT:-600}; num TIMEOUT "$TIMEOUT" seconds
SILENCE=${SILENCE:-180}; num SILENCE "$SILENCE" seconds
BOOT_SILENCE=${BOOT_SILENCE:-60}; num BOOT_SILENCE "$BOOT_SILENCE" seconds
REPORT_GRACE=${REPORT_GRACE:-240}; num REPORT_GRACE "$REPORT_GRACE" seconds
MEM=${MEM:-2048};        num MEM "$MEM" MiB
DISK_MB=${DISK_MB:-1024}; num DISK_MB "$DISK_MB" MiB
VCPUS=${VCPUS:-2};       num VCPUS "$VCPUS" vCPUs
PROGRESS=${PROGRESS:-30}; num PROGRESS "$PROGRESS" seconds
HRES_BOOTS=${HRES_BOOTS:-4}; num HRES_BOOTS "$HRES_BOOTS" boots
[ "$MEM" -ge 512 ] || die "MEM must be at least 512 MiB for the debug kernel (got $MEM)"
[ "$VCPUS" -le 64 ] || die "VCPUS must be 1 to 64 (got $VCPUS)"
case "${ACCEL:-auto}" in auto | kvm | tcg) ;; *) die "ACCEL must be auto, kvm or tcg (got '$ACCEL')" ;; esac
case "${KEEP_DISK:-0}" in 0 | 1) ;; *) die "KEEP_DISK must be 0 or 1 (got '$KEEP_DISK')" ;; esac
case "${KMEMLEAK:-auto}" in auto | 0 | 1) ;; *) die "KMEMLEAK must be auto, 0 or 1 (got '$KMEMLEAK')" ;; esac
[[ "${TSC_KHZ:-auto}" =~ ^(auto|0|[1-9][0-9]{5,7})$ ]] ||
	die "TSC_KHZ must be auto, 0 or a rate in kHz (100000 to 99999999; got '$TSC_KHZ')"
[[ "${RIG_HOST:-x}" =~ ^[A-Za-z0-9._@:-]+$ ]] || die "RIG_HOST must be a host name (got '$RIG_HOST')"
[[ "${RUN_ID:-x}" =~ ^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$ && "${RUN_ID:-x}" != *..* ]] ||
	die "RUN_ID must be a relative name of letters, digits, . _ - and / (got '$RUN_ID')"
flavor_fragments "$FLAVOR" >/dev/null
cover_check
under_test_check
bug_check
[ "$job" = --check ] && exit 0
[ -f "$RIG_ROOT/guest/jobs/$job.sh" ] || die "unknown job '$job' (guest/jobs/*.sh)"
for kv in "$@"; do
	[[ "$kv" =~ ^RIG_[A-Z0-9_]+=[^\']*$ ]] || die "guest setting must look like RIG_NAME=value (got '$kv')"
done
[ "${COVER:-0}" = 0 ] || set -- "$@" RIG_COVER=1

# a soak builds once and names what it built (RIG_BUILD_DIR, RIG_IMAGE_DIR)
if [ -n "${RIG_BUILD_DIR:-}" ]; then
	build=$RIG_BUILD_DIR image=${RIG_IMAGE_DIR:-}
	[ -f "$build/arch/x86/boot/bzImage" ] && [ -f "$image/base.cpio" ] ||
		die "RIG_BUILD_DIR/RIG_IMAGE_DIR: no kernel in '$build' or no image in '$image'"
else
	build=$("$RIG_ROOT/host/build/kernel.sh" | tail -n1)
	image=$("$RIG_ROOT/host/build/image.sh" "$build" | tail -n1)
fi
accel=$("$RIG_ROOT/host/vm/accel.sh" "$build" "$image")

started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
if [ -n "${RUN_ID:-}" ]; then
	run="$LOGS/$RUN_ID"
	mkdir -p "$run"
else
	run=$(new_dir "$LOGS/$(date +%Y%m%d-%H%M%S)-$job")
	RUN_ID=${run#"$LOGS"/}
fi

# per-run initramfs: base + guest scripts + settings
r="$run/initrd.d"
rm -rf "$r" && mkdir -p "$r/rig/jobs" "$r/rig/files"
install -m 755 "$RIG_ROOT/guest/init" "$r/init"
cp "$RIG_ROOT"/guest/{lib.sh,trace.awk,slice-audit.awk} "$RIG_ROOT/host/report/rig-titles" "$r/rig/"
cp "$RIG_ROOT"/guest/jobs/*.sh "$r/rig/jobs/" && cp -r "$RIG_ROOT/guest/jobs/cfq" "$r/rig/jobs/"
# the run keeps its files (plan, faults) so host/hunt/repro.sh can replay it
mkdir -p "$run/files"
for f in ${EXTRA_FILES:-}; do cp "$f" "$r/rig/files/" && cp "$f" "$run/files/"; done
# a scenario that needs more CPUs than VCPUS says (vcpus = N) gets them
min=$(plan_value "$run/files/plan" VCPUS 2>/dev/null || true)
[ -z "$min" ] || [ "$min" -le "$VCPUS" ] || VCPUS=$min
# MUTANT_KO: a cfq-iosched.ko built from a mutant (host/hunt/mutants.sh) replaces
# the series' module (a later cpio member overwrites an earlier one)
if [ -n "${MUTANT_KO:-}" ]; then
	[ -f "$MUTANT_KO" ] || die "MUTANT_KO: no such module '$MUTANT_KO'"
	kdir="$r/lib/modules/$(cat "$build/include/config/kernel.release")/kernel/block"
	mkdir -p "$kdir" && cp "$MUTANT_KO" "$kdir/cfq-iosched.ko"
	cp "$MUTANT_KO" "$run/files/cfq-iosched.ko"
fi
{
	echo "RIG_JOB=$job"
	echo "RIG_RUN_ID=$RUN_ID"
	echo "RIG_REPORT_RE='$REPORT_RE'"
	echo "RIG_UNDER_TEST=$UNDER_TEST"
	echo "RIG_FAIL_ON_OTHER=$FAIL_ON_OTHER"
	[ -z "$BUG" ] || echo "RIG_BUG=$BUG"
	for kv in "$@"; do echo "${kv%%=*}='${kv#*=}'"; done
} >"$r/rig/run.conf"
cp "$r/rig/run.conf" "$run/run.conf"
(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | cat "$image/base.cpio" - >"$run/initrd"
rm -rf "$r"


# qboot: a fast firmware whose MP table lists every vCPU (SeaBIOS's lists only
# the boot CPU when the kernel has no ACPI); virtio-pci then needs MSI-X.
bios=/usr/share/qemu/qboot.rom
[ -f "$bios" ] && bios_arg=(-bios "$bios") || { bios_arg=(); say "run: no $bios, using SeaBIOS (1 vCPU)"; }
cpu=${QEMU_CPU:-max}
[ "$accel" = kvm ] && cpu=host
append="console=ttyS0,115200 ignore_loglevel no_hash_pointers mitigations=off"
append+=" log_buf_len=8M printk.devkmsg=on oops=panic panic=-1"
# KASAN reports once per boot unless a soak keeps going past findings (a
# flood of reports over the serial console can take minutes under TCG)
multi=''
[ "${KEEP_GOING:-0}" = 1 ] && multi=kasan_multi_shot
append+=" tsc=reliable ${CMDLINE:-$multi}"
# Under TCG: the host's TSC rate, measured once per host, for a guest that
# cannot calibrate its own (host/vm/tsc-khz.c says why). TSC_KHZ=0: the
# guest's own calibration (the jiffies clock of every run before 2026-12-06)
tsc_khz() {
	local key bin
	key="$RIG_CACHE/tsc-khz.$( (cat /proc/version; grep -m1 'model name' /proc/cpuinfo) | sha256sum | cut -c1-12)"
	if [ ! -s "$key" ]; then
		bin=$(mktemp)
		gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$bin" "$RIG_ROOT/host/vm/tsc-khz.c" &&
			"$bin" >"$key.$$" && mv "$key.$$" "$key" || rm -f "$key.$$"
		rm -f "$bin"
	fi
	cat "$key" 2>/dev/null || true
}
tsc=${TSC_KHZ:-auto}
[ "$tsc" != auto ] || [ "$accel" != tcg ] || tsc=$(tsc_khz)
[ "$tsc" = auto ] && tsc=0
[ -n "$tsc" ] || { say "run: cannot measure the host's TSC rate; the guest keeps time with jiffies"; tsc=0; }
[ "$tsc" = 0 ] || append+=" tsc_early_khz=$tsc"
# kmemleak, built into every kernel but perf and off unless the boot says
# kmemleak=on (host/config/debug.config says why)
leak=off
case "${KMEMLEAK:-auto}" in
1) leak=on ;;
auto) { [ "$job" = controls ] || [ "$(plan_value "$run/files/plan" KMEMLEAK 2>/dev/null)" = on ]; } && leak=on ;;
esac
grep -q '^CONFIG_DEBUG_KMEMLEAK=y' "$build/.config" || leak=off
[ "$leak" = off ] || append+=" kmemleak=on"
kernel_hash=$(sha256sum <"$build/arch/x86/boot/bzImage" | cut -c1-12)
series=$(series_hash)

say "run $RUN_ID: job $job, $accel, $FLAVOR kernel $kernel_hash (series $series), timeout ${TIMEOUT}s"
mon="$run/monitor"
# never blocks: a guest that panics while it is asked (oops=panic) takes QEMU,
# the fifo's only reader, with it, and an open for writing would wait forever
monitor() { kill -0 "$qpid" 2>/dev/null && timeout 5 bash -c 'echo "$1" >"$2"' _ "$1" "$mon.in" || true; }

# One boot: start QEMU, watch the console, and on a hang ask the guest for
# blocked tasks and backtraces before killing it. Sets hang.
boot_and_watch() {
	: >"$run/console.log"
	: >"$run/results.log"
	rm -f "$run/scratch.img" && truncate -s "${DISK_MB}M" "$run/scratch.img"
	rm -f "$mon.in" "$mon.out" && mkfifo "$mon.in" "$mon.out"
	start=$SECONDS
	qemu-system-x86_64 -M pc -accel "$accel" -cpu "$cpu" -smp "$VCPUS" -m "$MEM" -nodefaults -display none "${bios_arg[@]}" ${QEMU_EXTRA:-} \
		-no-reboot -kernel "$build/arch/x86/boot/bzImage" -initrd "$run/initrd" -append "$append" \
		-serial "file:$run/console.log" -serial "file:$run/results.log" -monitor "pipe:$mon" \
		-drive "file=$image/tools.img,if=virtio,format=raw,readonly=on" \
		-drive "file=$run/scratch.img,if=virtio,format=raw,cache=unsafe,discard=unmap" \
		>"$run/qemu.log" 2>&1 &
	qpid=$!
	cat "$mon.out" >"$run/monitor.log" 2>/dev/null &
	mpid=$!

	hang='' silence=$SILENCE apic_failed='' report_at='' grace=$REPORT_GRACE ending=''
	boots=$((boots + 1))
	last_size=0 last_change=$SECONDS done_at='' next_progress=$((SECONDS + ${PROGRESS:-30}))
	while kill -0 "$qpid" 2>/dev/null; do
		sleep 1
		size=$(stat -c %s "$run/console.log")
		if [ "$size" != "$last_size" ]; then last_size=$size; last_change=$SECONDS; fi
		# after a kernel report the guest may be wedged: a deadlock with
		# IRQs off prints nothing more (wait 60 s, not the full SILENCE),
		# a CPU spinning on a lock in freed memory prints soft lockups (the
		# guest gets REPORT_GRACE s from the report to end its round)
		if [ -z "$report_at" ] && grep -aqE "\] ($SPLAT_RE)" "$run/console.log"; then
			report_at=$SECONDS
			[ "$silence" -le 60 ] || silence=60
		fi
		# a guest that stops at its first finding says so (guest/jobs/scenario.sh
		# end_round); a healthy one then ends within 40 s (60 with kmemleak's
		# scan), a wedged one (a use-after-free in the I/O path) never does:
		# 90 s from that line, if that is sooner than REPORT_GRACE
		if [ -n "$report_at" ] && [ -z "$ending" ] && grep -aq 'RIG: .*: ending the round early' "$run/console.log"; then
			ending=$((SECONDS - report_at + 90))
			[ "$ending" -ge "$grace" ] || grace=$ending
		fi
		# Under TCG the local APIC timer fails the kernel's boot check
		# against the PIT in about one boot in four (both are emulated,
		# and their ticks are lost differently on a busy host). Such a
		# guest's hrtimers, the scheduler's idle and kick timers among
		# them, fire only on ticks: boot again, before init has run
		if [ "$accel" = tcg ] && [ "$boots" -lt "$HRES_BOOTS" ] &&
			grep -aq 'APIC timer disabled due to verification failure' "$run/console.log"; then
			apic_failed=1
			kill -9 "$qpid" 2>/dev/null || true
			break
		fi
		if [ -z "$done_at" ] && grep -q '^RIG-DONE' "$run/results.log"; then done_at=$SECONDS; fi
		if [ -n "$done_at" ] && [ $((SECONDS - done_at)) -gt 60 ]; then
			hang=$(rig_title host-poweroff)
		elif [ $((SECONDS - last_change)) -ge "${BOOT_SILENCE:-60}" ] && ! grep -q '^RIG-BOOT' "$run/results.log"; then
			hang=$(rig_title host-boot)
		elif [ $((SECONDS - last_change)) -ge "$silence" ]; then
			hang=$(rig_title host-silent "$silence")
		elif [ -n "$report_at" ] && [ $((SECONDS - report_at)) -ge "$grace" ]; then
			hang=$(rig_title host-wedged "$grace")
		elif [ $((SECONDS - start)) -ge "$TIMEOUT" ]; then
			hang=$(rig_title host-timeout "$TIMEOUT")
		fi
		if [ -n "$hang" ]; then
			say "run $RUN_ID: $hang ($((SECONDS - last_change)) s since the last console line); asking the guest for blocked tasks and CPU backtraces"
			monitor "sendkey alt-sysrq-w"; sleep 8
			monitor "sendkey alt-sysrq-l"; sleep 8
			monitor "quit"; sleep 3
			kill -9 "$qpid" 2>/dev/null || true
			echo "RIG-HANG: $hang" >>"$run/console.log"
			break
		fi
		if [ "$SECONDS" -ge "$next_progress" ]; then
			next_progress=$((SECONDS + ${PROGRESS:-30}))
			say "run $RUN_ID: $((SECONDS - start)) s, console $(wc -l <"$run/console.log") lines, $(grep -a 'RIG: ' "$run/console.log" | tail -n1 | sed 's/.*RIG: //' | cut -c1-70)"
		fi
	done
	wait "$qpid" 2>/dev/null || true
	kill "$mpid" 2>/dev/null || true
}

# wall: from the first boot's start to the last boot's end
boots=0 run_start=$SECONDS
boot_and_watch
while [ -n "$apic_failed" ]; do
	mv "$run/console.log" "$run/console.apic-$boots.log"
	say "run $RUN_ID: the guest's APIC timer failed its boot check (its hrtimers would fire on ticks); kept console.apic-$boots.log, boot $((boots + 1)) of at most $HRES_BOOTS"
	boot_and_watch
done
if ! grep -q '^RIG-BOOT' "$run/results.log"; then
	# Under TCG on an overloaded host the guest can miss its timer
	# calibration and stall, or panic ("IO-APIC + timer doesn't work"),
	# before init, before any code under test ran (the scheduler is a
	# module the job loads): an infrastructure flake, not a finding. Keep
	# that log, boot once more; a kernel that cannot boot fails again.
	mv "$run/console.log" "$run/console.boot-stall.log"
	say "run $RUN_ID: the guest $([ -n "$hang" ] && echo stalled || echo died) before init (host overloaded?); kept console.boot-stall.log, booting once more"
	boot_and_watch
fi
wall=$((SECONDS - run_start))
rm -f "$mon.in" "$mon.out" "$run/initrd"
[ "${KEEP_DISK:-0}" = 1 ] || rm -f "$run/scratch.img"
sed -i "s/\r$//" "$run/results.log" "$run/console.log"
# coverage: after the results are clean, before the summary reads them
if [ "${COVER:-0}" = 1 ]; then
	"$RIG_ROOT/host/measure/coverage.sh" collect "$run" "$build" >"$run/coverage.txt" ||
		echo "coverage cfq-iosched.c: missing (host/measure/coverage.sh failed)" >"$run/coverage.txt"
fi

facts=("wall=$wall" "accel=$accel" "kernel=$kernel_hash" "series=$series" "flavor=$FLAVOR" "job=$job"
	"kver=$KVER" "release=$(cat "$build/include/config/kernel.release")" "vcpus=$VCPUS"
	"tsc_khz=$tsc" "boots=$boots" "kmemleak=$leak" "host=${RIG_HOST:-$(hostname)}" "started=$started")
mapfile -t -O "${#facts[@]}" facts < <(source_facts)
[ -z "${MUTANT_KO:-}" ] || facts+=("mutant=$(basename "$(dirname "$(dirname "$MUTANT_KO")")")")
faults=$(plan_value "$run/files/plan" FAULTS 2>/dev/null || true)
[ -z "$faults" ] || facts+=("faults=${faults// /,}")
exec "$RIG_ROOT/host/report/summarize.sh" "$run" "${facts[@]}"
