# Positive controls: make the kernel print one real report of each kind the
# rig hunts (see guest/modules/rig_splat). Lockdep goes first: it switches
# itself off after its first report, and so does any report that taints the
# kernel with TAINT_BAD_PAGE (KASAN).
echo 10 >/proc/sys/kernel/hung_task_timeout_secs
insmod /rig/modules/rig_splat.ko hung_ms=35000 || exit 1
for c in lockdep kasan odebug atomic_sleep; do
	rig_log "control: $c"
	echo "$c" >/sys/kernel/debug/rig_splat
	sleep 1
done
rig_log "control: hung (waiting for the hung task detector)"
echo hung >/sys/kernel/debug/rig_splat
i=0
while [ $i -lt 40 ] && ! dmesg | grep -q 'blocked for more than'; do sleep 1; i=$((i + 1)); done
rig_log "controls done"
