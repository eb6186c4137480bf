# Positive controls: make the kernel print one real report of each kind the
# rig hunts (see guest/modules/rig_splat). Lockdep goes last: it switches
# itself off after its first report.
. /rig/lib.sh
echo 10 >/proc/sys/kernel/hung_task_timeout_secs
insmod /rig/modules/rig_splat.ko hung_ms=35000 || exit 1
for c in kasan odebug atomic_sleep; do
	rig_log "control: $c"
	echo "$c" >/sys/kernel/debug/rig_splat
	sleep 1
done
rig_log "control: hung (waiting for the hung task detector)"
echo hung >/sys/kernel/debug/rig_splat
i=0
while [ $i -lt 40 ] && ! dmesg | grep -q 'blocked for more than'; do sleep 1; i=$((i + 1)); done
rig_log "control: lockdep"
echo lockdep >/sys/kernel/debug/rig_splat
sleep 1
rig_log "controls done"
