# Short clean run: O_DIRECT readers and buffered writers on the scratch disk
# under one scheduler (RIG_SCHED, default mq-deadline) for RIG_DURATION s.
# Must end with no finding, all data verified.
dev=$(scratch_dev)
name=${dev#/dev/}
sched=${RIG_SCHED:-mq-deadline}
dur=${RIG_DURATION:-60}
seed=${RIG_SEED:-1}
echo "$sched" >/sys/block/$name/queue/scheduler || { rig_finding rig-select "$sched" "$name"; exit 1; }
rig_log "clean: $sched on $name for $dur s, seed $seed"
rig_heartbeat clean 15 &
hb=$!
half=$(($(blockdev --getsize64 $dev) / 2))
readers --dev $dev --size $half --clients 2 --engine aio --qd 4 --pattern rand \
	--duration "$dur" --seed "$seed" >/tmp/readers.out 2>&1 &
rp=$!
writers --dev $dev --offset $half --size $((half / 4)) --clients 2 --mode buffered \
	--fsync-every 64 --duration "$dur" --seed "$seed" >/tmp/writers.out 2>&1
wrc=$?
wait $rp
rrc=$?
kill $hb
cat /tmp/readers.out /tmp/writers.out | grep -E '^(result|summary) ' >&3
grep -h 'verify:' /tmp/readers.out /tmp/writers.out | head -5 >&3
[ $rrc -eq 0 ] || rig_finding stressor-exit readers "$rrc"
[ $wrc -eq 0 ] || rig_finding stressor-exit writers "$wrc"
[ $rrc -eq 0 ] && [ $wrc -eq 0 ]
