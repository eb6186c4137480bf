# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 16. requeues of prepared requests on SCSI: scsi_debug ends every 16th
#     command with ABORTED COMMAND, and sd retries it through
#     blk_mq_requeue_request. The request keeps RQF_DONTPREP, so it goes
#     back to the driver without the scheduler's insert and stays in
#     flight for cfq: the in-driver count must balance once the load ends.
if modprobe scsi_debug dev_size_mb=64 statistics=1 every_nth=16 opts=0x10; then
	sleep 1
	sd=$(devnode sdebug)
	if [ -b "$sd" ] && sw "${sd#/dev/}" cfq; then
		readers --dev "$sd" --size $((32 << 20)) --clients 3 --engine aio --qd 8 --pattern rand \
			--duration 4 --seed 5 >/tmp/sdreq.r 2>&1; rrc=$?
		writers --dev "$sd" --offset $((32 << 20)) --size $((16 << 20)) --clients 1 --mode direct \
			--qd 8 --duration 4 --seed 5 >/tmp/sdreq.w 2>&1; wrc=$?
		st=$(sched_state "${sd#/dev/}")
		rq=$(state_num "$st" requeued)
		dr=$(state_num "$(sched_state "${sd#/dev/}" active_queue)" in_driver)
		rig_result "# scsi_debug retries: requeued $rq, in driver after the load: $dr"
		expect "$rrc/$wrc" 0/0 "readers/writers on scsi_debug with retried commands (data verified)"
		[ "${rq:-0}" -gt 0 ] && [ "$dr" = 0 ] &&
			ok "SCSI retries requeue prepared requests ($rq) and the in-driver count balances" ||
			bad "SCSI retries requeue prepared requests and the in-driver count balances (requeued '$rq', in driver '$dr')"
		sw "${sd#/dev/}" none
	else
		bad "scsi_debug disk appears and takes cfq"
	fi
	rmmod scsi_debug || bad "rmmod scsi_debug"
else
	bad "scsi_debug loads with retry injection"
fi
