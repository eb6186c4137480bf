# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 9. merges stay inside a queue (insert merges in 6.1 have no allow hook):
#    two writers on interleaved 4 KiB blocks of one small region, many in
#    flight; a dispatched write larger than 4 KiB joined both processes.
cross_merges() { # scheduler -> "dispatched_writes merged_across"
	sw nullb0 "$1"
	trace_on nullb0
	fio --name=even --filename=/dev/nullb0 --rw=randwrite --bs=4k --blockalign=8k --offset=0 --size=256k \
		--direct=1 --ioengine=libaio --iodepth=16 --runtime=3 --time_based \
		--name=odd --filename=/dev/nullb0 --rw=randwrite --bs=4k --blockalign=8k --offset=4k --size=256k \
		--direct=1 --ioengine=libaio --iodepth=16 --runtime=3 --time_based >/tmp/fio.merge 2>&1 ||
		bad "fio ran under $1: $(tail -n2 /tmp/fio.merge)"
	trace_off nullb0
	awk '{ for (i = 1; i < NF - 3; i++) if ($i == "D" && $(i + 1) ~ /W/ && $(i + 3) == "+") {
		n++; if ($(i + 4) > 8) big++; break } } END { printf "%d %d\n", n, big }' $T/trace
}
# shellcheck disable=SC2046 # two numbers
set -- $(cross_merges mq-deadline); dl_w=$1 dl_x=$2
# shellcheck disable=SC2046 # two numbers
set -- $(cross_merges cfq); cfq_w=$1 cfq_x=$2
rig_result "# merges: interleaved writers, dispatched writes merged across processes: mq-deadline $dl_x of $dl_w, cfq $cfq_x of $cfq_w"
[ "$dl_x" -gt 0 ] && ok "the load merges across processes under mq-deadline ($dl_x of $dl_w)" ||
	bad "the load merges across processes under mq-deadline (0 of $dl_w: no opportunity)"
[ "$cfq_w" -gt 100 ] && [ "$cfq_x" = 0 ] && ok "cfq never merges requests of two queues (0 of $cfq_w)" ||
	bad "cfq never merges requests of two queues ($cfq_x of $cfq_w)"
