# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 21. one key, two classes (the review's S2): key_type pgid; a BE reader
#     and an IDLE reader in one process group, a BE reader in another. The
#     IDLE reads go to their own queue: they must not take the BE reader
#     of their group down to the IDLE list, where it would wait for as long
#     as the other group's BE reads go on.
sw nullb0 cfq
echo pgid >$N/key_type
setsid sh -c 'ionice -c 3 dd if=/dev/nullb0 of=/dev/null bs=4k iflag=direct skip=131072 count=1000000 2>/dev/null &
	readers --dev /dev/nullb0 --size $((64 << 20)) --clients 1 --engine sync --pattern seq --bs 4096 \
		--duration 4 --seed 21 >/tmp/keycls.shared 2>&1; kill $! 2>/dev/null' &
g1=$!
setsid readers --dev /dev/nullb0 --size $((64 << 20)) --clients 1 --engine sync --pattern seq --bs 4096 \
	--duration 4 --seed 22 >/tmp/keycls.other 2>&1 &
g2=$!
wait $g1 $g2
ops() { sed -n 's/^result stressor=readers client=0 ops=\([0-9]*\).*/\1/p' "$1"; }
s=$(ops /tmp/keycls.shared) o=$(ops /tmp/keycls.other)
rig_result "# one key, two classes: the BE reader beside an IDLE one in its group ${s:-?} reads, the other group's ${o:-?}"
[ -n "$s" ] && [ -n "$o" ] && [ "$o" -gt 0 ] && [ $((s * 4)) -ge "$o" ] &&
	ok "one key, two classes: an IDLE reader does not starve its group's BE reader ($s reads against $o)" ||
	bad "one key, two classes: an IDLE reader does not starve its group's BE reader (${s:-?} reads against ${o:-?})"
echo pid >$N/key_type
sw nullb0 mq-deadline
