# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 4. switching under I/O, on both devices
for d in vdb nullb0; do
	size=$(blockdev --getsize64 /dev/$d)
	readers --dev /dev/$d --size $((size / 2)) --clients 2 --engine aio --qd 4 --pattern rand \
		--duration 20 --seed 7 >/tmp/r.$d 2>&1 &
	rp=$!
	writers --dev /dev/$d --offset $((size / 2)) --size $((size / 8)) --clients 2 --mode buffered \
		--fsync-every 32 --duration 20 --seed 7 >/tmp/w.$d 2>&1 &
	wp=$!
	fails=0 n=0
	while kill -0 $rp 2>/dev/null || kill -0 $wp 2>/dev/null; do
		for s in cfq mq-deadline cfq none cfq kyber cfq bfq; do
			sw $d $s || fails=$((fails + 1))
			n=$((n + 1))
			sleep 0.2
		done
	done
	wait $rp; rrc=$?
	wait $wp; wrc=$?
	expect "$fails" 0 "$n switches on $d under I/O"
	expect "$rrc/$wrc" 0/0 "readers/writers on $d through switches (data verified)"
	grep -h '^result ' /tmp/r.$d /tmp/w.$d >&3
done
