# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 24. an IDLE queue has one request in the driver at a time (the review's
#     S5, legacy CFQ's rule): an IDLE reader with 16 requests in flight, on
#     its own, never has more than one in the driver (debugfs: the
#     high-water mark), so a better class that preempts it waits for one.
sw nullb0 cfq
fio_reader nullb0 0 3 0 3; a=$!
wait $a
st=$(sched_state nullb0)
mx=$(driver_max "$st")
rig_result "# IDLE reader, iodepth 16: at most ${mx:-?} requests in the driver"
expect "${mx:-?}" 1 "an IDLE queue has one request in the driver at a time"
sw nullb0 mq-deadline
