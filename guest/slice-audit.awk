# Slice audit: a behavioural detector for every round on cfq (run by
# guest/jobs/scenario.sh). It reads the block tracer's cfq messages (their
# grammar and reader: guest/trace.awk, loaded before this file) from
# ftrace's trace_pipe (act_mask notify: the messages only) and checks rules
# of the scheduler that hold whatever the load, the faults or the switches
# do. Each breach is a line "BREACH DEV KEY details"; BREACH is one of:
#
# short   A slice that ends by time ("slice_expire reason=time") has run at
#         least the shortest slice a queue can have on the device: level 7
#         of its smallest base, base - 3 * (base / 5). Its end is set at
#         its first dispatch and moved once, at its first completion, to
#         the slice length then (legacy CFQ's rule: the seek is not
#         charged); the level can change in between (ioprio_set, a
#         per-request ioprio). The rule needs no pairing with the slice's
#         start, so a lost event cannot make a breach.
# length  A slice starts with the length of legacy CFQ's rule for its
#         class and level (cfq_prio_scale): base + base / 5 * (4 - level),
#         level 7 for the idle class, where base is the device's
#         slice_sync or slice_async.
# idle    An idle window waits at most slice_idle (idle_arm wait_us).
# nonrot  No idle window on a device that is non-rotational and queues
#         (at least 5 tags: legacy CFQ's CFQ_HW_QUEUE_MIN, the series'
#         patch 17).
# timeout A slice ends by its idle timer ("reason=idle_timeout") only after
#         an idle window of that queue in that slice: the timer callback
#         acts only on the active queue that armed it (a stale timer must
#         not end another queue's slice). Checked per queue on the trace's
#         timestamps, not on the order of the lines: under TCG the clock
#         ticks in 1 ms steps, and trace_pipe puts two CPUs' events of
#         the same tick in any order. A breach is a queue that never armed
#         one, or whose last idle_arm is strictly older than its last
#         slice_expire. It needs every event: after the ring buffer lost
#         one, scenario.sh only counts its breaches (with the first one's
#         context), not a finding.
# round   A queue gets at most one slice per round of its class
#         ("slice_select round=CLASS/N id=ID", patch 19: the queues due in
#         a round are taken in sector order, and a new round starts only
#         when none is due). A queue is its id, not its key: a later queue
#         of the same key is another queue. It needs every event: a queue
#         whose class changed between two of its slices seems to get two
#         in one round when the other class's slice_select was lost (seen
#         in a race-kernel mix round that lost 29,028 events), so after a
#         loss scenario.sh only counts its breaches, as for timeout.
# class   A slice goes to the best class with queues waiting: at its
#         slice_select ("busy=RT/BE/IDLE", the queues on each class's
#         service list, patch 20) no better class than its own has one.
# preempt A better class takes the device at once: a slice that ends for
#         any reason but "preempted" had no queue of a better class
#         waiting when it ended. Its class is the best it had: at
#         slice_select, at every prio_change (the active queue's own
#         requests move it up or down, and moving down preempts nothing)
#         and at slice_expire; a slice whose slice_select was lost is not
#         checked. A lost prio_change could make a false breach (each
#         round reports its lost events; the soaks since the ring buffer
#         grew to 8 MB per CPU lost none).
# grace   An IDLE slice starts only after the device has had no RT or BE
#         request inserted or completed for 100 ms (legacy CFQ's grace
#         period, CFQ_IDLE_GRACE_MS): slice_select's quiet_us.
#         None of the three checks a series without these fields.
#
# -v conf="DEV:SYNC:ASYNC:IDLE:NONROT ..." names the devices audited (DEV as
# the trace prints it, "8,0"; SYNC, ASYNC and IDLE the values a cfq on it
# can have, comma-separated: the defaults and the scenario's; NONROT 1 for
# a device cfq must not idle on). Other devices' messages are ignored: a
# device whose tunables a stressor changes is not audited (a slice's length
# can change under it), nor one whose trace others turn on and off.
#
# Output, flushed as it goes: the breaches (the first 20 of each kind,
# the first one with the device's 16 events up to it, "context" lines),
# and, when the trace carries the marker "rig-audit-end", one summary line:
#   audit slices=N time=N short=N length=N idle=N nonrot=N timeout=N round=N

function scale(base, level) { return base + int(base / 5) * (4 - level) }

# per device: its bases, the shortest slice it allows (level 7 of its
# smallest base) and the longest idle window (its largest slice_idle), in us
BEGIN {
	nc = split(conf, c, " ")
	for (i = 1; i <= nc; i++) {
		split(c[i], f, ":")
		d = f[1]; known[d] = 1
		sync_b[d] = f[2]; async_b[d] = f[3]; idle_b[d] = f[4]; nonrot[d] = f[5]
		k = split(f[2] "," f[3], v, ",")
		for (j = 1; j <= k; j++) if (!(d in min_us) || scale(v[j] + 0, 7) * 1000 < min_us[d]) min_us[d] = scale(v[j] + 0, 7) * 1000
		if (min_us[d] < 1000) min_us[d] = 1000
		k = split(f[4], v, ",")
		for (j = 1; j <= k; j++) if (v[j] * 1000 > max_idle_us[d]) max_idle_us[d] = v[j] * 1000
	}
}

# a breach, and the device's events before it (the first breach of each
# kind only: "context KIND DEV <trace line>")
function breach(kind, text,   i) {
	n[kind]++
	if (n[kind] > 20) return
	print kind " " dev " " key " " text
	if (n[kind] == 1)
		for (i = nh[dev] - 15; i <= nh[dev]; i++)
			if (i > 0 && (dev SUBSEP i) in hist) print "context " kind " " dev " " hist[dev, i]
	fflush()
}

# is ms the slice of one of the bases (a comma-separated list) at level?
function of_base(ms, bases, level,   b, k, i) {
	k = split(bases, b, ",")
	for (i = 1; i <= k; i++) if (scale(b[i] + 0, level) == ms) return 1
	return 0
}

# class rank (rt 1, be 2, idle 3) of "rt", "be/4" or "idle/7"; 0 if unknown
function rank(c) {
	sub(/\/.*/, "", c)
	return c == "rt" ? 1 : c == "be" ? 2 : c == "idle" ? 3 : 0
}

# the first class better than rank r with queues waiting ("busy=a/b/c"),
# or "" if none (or the message has no busy field)
function better_busy(r,   b, k, j) {
	k = split(field("busy"), b, "/")
	for (j = 1; j < r && j <= k; j++) if (b[j] + 0 > 0) return j
	return ""
}

# an argument of the current message (guest/trace.awk's tr[])
function field(name) { return (name in tr) ? tr[name] : "" }

/rig-audit-end/ {
	printf "audit slices=%d time=%d short=%d length=%d idle=%d nonrot=%d timeout=%d round=%d class=%d preempt=%d grace=%d\n",
		slices, timed, n["short"], n["length"], n["idle"], n["nonrot"], n["timeout"], n["round"],
		n["class"], n["preempt"], n["grace"]
	fflush()
	exit
}

# a message of the scheduler (its grammar: guest/trace.awk, loaded first)
/ cfq[0-9]+ (slice_select|slice_start|slice_expire|idle_arm|prio_change) / {
	if (!trace_cfq() || !(tr_dev in known)) next
	key = tr_key; ev = tr_ev; ts = tr_ts; dev = tr_dev
	hist[dev, ++nh[dev]] = $0
	delete hist[dev, nh[dev] - 16]
	if (ev == "idle_arm") {
		armed[dev, key] = ts
		if (nonrot[dev] == 1) breach("nonrot", "idle_arm on a non-rotational device that queues")
		w = field("wait_us") + 0
		if (w > max_idle_us[dev]) breach("idle", "wait_us=" w " slice_idle=" idle_b[dev])
		next
	}
	if (ev == "prio_change") {
		q = dev SUBSEP field("id"); r = rank(field("prio"))
		if ((q in sel) && r > 0 && r < sel[q]) sel[q] = r
		next
	}
	if (ev == "slice_select") {
		q = dev SUBSEP field("id"); r = field("round")
		if ((q in rnd) && rnd[q] == r) breach("round", "a second slice in round " r " (queue id " field("id") ")")
		rnd[q] = r
		sel[q] = rank(r)
		if ((b = better_busy(sel[q])) != "")
			breach("class", "a " r " slice selected while class " b " had queues waiting (busy=" field("busy") ")")
		if (sel[q] == 3 && (w = field("quiet_us")) != "" && w + 0 < 100000)
			breach("grace", "an IDLE slice " w " us after the last RT or BE request (grace 100000)")
		next
	}
	if (ev == "slice_start") {
		ms = field("slice_ms") + 0
		pr = field("prio")
		level = pr; sub(/.*\//, "", level)
		if (pr ~ /^idle/) level = 7
		bases = field("sync") == 1 ? sync_b[dev] : async_b[dev]
		if (!of_base(ms, bases, level + 0))
			breach("length", "slice_ms=" ms " prio=" pr " sync=" field("sync") " bases=" bases)
		next
	}
	slices++
	reason = field("reason")
	if (reason == "idle_timeout" &&
	    (!((dev, key) in armed) || ((dev, key) in ended && armed[dev, key] < ended[dev, key])))
		breach("timeout", "reason=idle_timeout without an idle window of its own" \
			((dev, key) in armed ? " (its last at " armed[dev, key] " s, before its last end at " ended[dev, key] " s)" : ""))
	ended[dev, key] = ts
	q = dev SUBSEP field("id")
	if (reason != "preempted" && (q in sel) && sel[q] > 0) {
		r = rank(field("prio"))
		if (r == 0 || r > sel[q]) r = sel[q]
		if ((b = better_busy(r)) != "")
			breach("preempt", "reason=" reason " prio=" field("prio") " while class " b " had queues waiting (busy=" field("busy") ")")
	}
	delete sel[q]	# the queue's next slice has its own slice_select
	if (reason != "time") next
	timed++
	used = field("used_us") + 0
	if (used < min_us[dev])
		breach("short", "used_us=" used " prio=" field("prio") " min_us=" min_us[dev])
}
