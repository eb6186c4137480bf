# shellcheck shell=sh disable=SC2034,SC2154 # the runner's helpers and state, shared by the sections
# A section of guest/jobs/cfq.sh (sourced by it: its helpers and state).
# 22. io_uring's workers (the review's S3): one process's O_DIRECT I/O
#     through io_uring, some with IOSQE_ASYNC (io-wq workers), sometimes
#     with an SQPOLL thread, under the pid key. The workers submit for the
#     process: its slices are all one queue's (one key in the trace), and
#     none ends "owner_moved" (the shared io_cq does not flip between them).
sw nullb0 cfq
trace_on nullb0
paths --dev /dev/nullb0 --modes uring --clients 1 --duration 5 --seed 22 >/tmp/uring 2>&1 ||
	bad "paths uring ran: $(tail -n2 /tmp/uring)"
trace_off nullb0
keys=$(rig_trace 'trace_cfq() && tr_ev == "slice_start" { k[tr_key] = 1 } END { n = 0; for (x in k) n++; print n }' $T/trace)
moved=$(trace_count slice_expire owner_moved)
rig_result "# io_uring workers: $(grep -h '^paths mode' /tmp/uring); slices of $keys key(s), $moved ended owner_moved"
grep -q '^paths mode=uring ops=[1-9]' /tmp/uring && [ "$keys" = 1 ] && [ "$moved" = 0 ] &&
	ok "io_uring workers: one process's ring is one queue ($keys key, $moved owner_moved)" ||
	bad "io_uring workers: one process's ring is one queue ($keys keys, $moved owner_moved; $(grep -h '^paths mode' /tmp/uring))"
sw nullb0 mq-deadline
