# Positive controls: make the kernel print one real report of each kind the
# rig hunts (see guest/modules/rig_splat). RIG_CONTROLS picks the kinds
# (default: lockdep kasan odebug atomic_sleep hung leak; the race flavor has
# no KASAN but KCSAN: race lockdep odebug atomic_sleep leak). Lockdep goes first: it
# switches itself off after its first report, and so does any report that
# taints the kernel with TAINT_BAD_PAGE (KASAN).
echo 10 >/proc/sys/kernel/hung_task_timeout_secs
insmod /rig/modules/rig_splat.ko hung_ms=35000 || exit 1
rig_leaks_mark
for c in ${RIG_CONTROLS:-lockdep kasan odebug atomic_sleep hung leak}; do
	rig_log "control: $c"
	case "$c" in
	lockdep | kasan | odebug | atomic_sleep | hung | race | leak) ;;
	*) rig_finding rig-control "$c"; exit 2 ;;
	esac
	case "$c" in
	hung)
		echo hung >/sys/kernel/debug/rig_splat
		i=0
		while [ $i -lt 40 ] && ! dmesg | grep -q 'blocked for more than'; do sleep 1; i=$((i + 1)); done ;;
	leak)
		# found by the scan that follows, once the object is 5 s old
		echo leak >/sys/kernel/debug/rig_splat
		rig_leaks ;;
	race)
		# two threads race for two seconds; KCSAN reports within them
		echo race >/sys/kernel/debug/rig_splat
		i=0
		while [ $i -lt 10 ] && ! dmesg | grep -q 'KCSAN: data-race'; do sleep 1; i=$((i + 1)); done ;;
	*)
		echo "$c" >/sys/kernel/debug/rig_splat
		sleep 1 ;;
	esac
done
rig_log "controls done"
