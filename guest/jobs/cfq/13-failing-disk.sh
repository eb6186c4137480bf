# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 13. a failing disk (null_blk times out 50% of its requests; 2 s request
#     timeout here, 30 s by default) with 40 short O_DIRECT readers: cfq
#     must finish within a small multiple of mq-deadline's time, not wait
#     the timeouts out max_depth at a time.
nullb_load timeout=1,50,0,-1 || bad "null_blk loads with timeout injection"
echo 2000 >/sys/block/nullb0/queue/io_timeout
failing_disk() { # scheduler -> seconds for 40 readers of 4 blocks each
	sw nullb0 "$1"
	t0=$(cut -d' ' -f1 /proc/uptime)
	i=0; pids=
	while [ $i -lt 40 ]; do
		dd if=/dev/nullb0 of=/dev/null bs=4k count=4 skip=$((i * 256)) iflag=direct 2>/dev/null & pids="$pids $!"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	wait $pids
	awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%d", (b - a) * 10 }'
}
dl=$(failing_disk mq-deadline); cq=$(failing_disk cfq)
rig_result "# failing disk: 40 readers, 50% timeouts (2 s): mq-deadline $((dl / 10)).$((dl % 10)) s, cfq $((cq / 10)).$((cq % 10)) s"
[ "$cq" -le $((dl * 3 + 20)) ] && ok "failing disk: cfq within 3x mq-deadline's time (+2 s) ($cq vs $dl tenths)" ||
	bad "failing disk: cfq within 3x mq-deadline's time (+2 s) ($cq vs $dl tenths of s)"
sw nullb0 mq-deadline
