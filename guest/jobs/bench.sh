# shellcheck shell=sh
# Benchmark (issue #7): the seed's read_files/write_files tables, a dispatch
# cost test and a cfq slice timeline. Driven by host/measure/bench.sh; every number
# goes to the results channel as one line:
#   bench dev= scale= sched= case= clients= rep= client= kib_s= lat_max_us= ios= iops=
#   trace slice|idle|key|summary ...       (the cfq slice timeline)
#   bench-skip ... reason=...               (a point that could not run)
#   bench-disk dev=rotdisk ... secs= requests= seeks= seek_us= rot_us= xfer_us= busy_us=
#                                           (the model disk's time during a point)
# Settings (run.conf):
#   RIG_BENCH_DEVS     devices of the matrix: rotdisk virtio nulllat ("rotdisk virtio")
#   RIG_BENCH_SCHEDS   ("cfq bfq mq-deadline kyber none")
#   RIG_BENCH_CASES    ("read-seq read-rand write-seq write-rand")
#   RIG_BENCH_CLIENTS  ("1 2 4 8"; client i uses region i of 8)
#   RIG_BENCH_TIME     seconds per point (10)      RIG_BENCH_REPS (3)
#   RIG_BENCH_SCALE    rotdisk time_scale_pct, and nulllat's latency in % (100)
#   RIG_BENCH_IOPS     clients of the dispatch-cost test on null_blk ("1 4"; empty: skip)
#   RIG_BENCH_EXTRA_SCHEDS  schedulers of the dispatch-cost test (RIG_BENCH_SCHEDS);
#                      the check runs with the first of them
#   RIG_BENCH_CHECK    device of the disk-is-the-bottleneck check (default: the
#                      first rotdisk/nulllat of DEVS; empty: skip)
#   RIG_BENCH_TRACE    device of the cfq slice timeline (same default; empty: skip)
#   RIG_BENCH_TRACE_TIME (3 s)  RIG_BENCH_TRACE_LINES (3000)  RIG_BENCH_TRACE_IDLE_US (1000)
#   RIG_BENCH_TRACE_CLIENTS (4; host/measure/bench.sh passes the run's largest)
#   RIG_BENCH_NULL_NSEC  nulllat's completion latency at scale 100 (1000000)
#   RIG_BENCH_IONICE   device of the I/O priority points, cfq only (the slow
#                      device; empty: skip):
#     bench-ionice case=rt-vs-3be rt_us= total_us= share_pct=
#     bench-ionice case=be0-vs-be7 be0_ms= be7_ms= ratio_pct=   (mean used sync slice)
#                  be0_timed_ms= be7_timed_ms= timed_ratio_pct=   (timed from its first completion)
#                  be0_iops= be7_iops= iops_ratio_pct=   (what each reader got of the disk)
#     bench-ionice case=idle-vs-2be busy_slices= after_slices=
#   RIG_BENCH_TIMEOUTS io_timeout in s of the failing-disk points (empty: skip):
#     null_blk times out half of its requests, 100 readers of 4 O_DIRECT blocks
#     bench-timeouts sched= readers=100 timeout_s= secs=
# Devices: rotdisk = /dev/rotdisk0 (guest/modules/rotdisk), virtio = the
# scratch disk /dev/vdb, nulllat = null_blk with a fixed timer latency (a
# stand-in), nullb = null_blk without latency (dispatch cost only).

DEVS=${RIG_BENCH_DEVS-rotdisk virtio}
SCHEDS=${RIG_BENCH_SCHEDS:-cfq bfq mq-deadline kyber none}
CASES=${RIG_BENCH_CASES-read-seq read-rand write-seq write-rand}
CLIENTS=${RIG_BENCH_CLIENTS:-1 2 4 8}
TIME=${RIG_BENCH_TIME:-10}
REPS=${RIG_BENCH_REPS:-3}
SCALE=${RIG_BENCH_SCALE:-100}
IOPS=${RIG_BENCH_IOPS-1 4}
NULL_NSEC=${RIG_BENCH_NULL_NSEC:-1000000}
slow=
for d in $DEVS; do case $d in rotdisk | nulllat) slow=${slow:-$d} ;; esac; done
CHECK=${RIG_BENCH_CHECK-$slow}
TRACE=${RIG_BENCH_TRACE-$slow}
IONICE=${RIG_BENCH_IONICE-$slow}
TIMEOUTS=${RIG_BENCH_TIMEOUTS-30}
XSCHEDS=${RIG_BENCH_EXTRA_SCHEDS:-$SCHEDS}
T=/sys/kernel/debug/tracing

# dev_up NAME SCALE: load the device, print its name in /sys/block
dev_up() {
	case $1 in
	rotdisk)
		# shellcheck disable=SC2086 # extra module parameters, split on purpose
		insmod /rig/modules/rotdisk.ko time_scale_pct="$2" ${RIG_BENCH_ROTDISK_OPTS:-queue_depth=1} >&2 || return 1
		node=rotdisk0 ;;
	nulllat)
		modprobe null_blk nr_devices=1 queue_mode=2 irqmode=2 gb=8 hw_queue_depth=64 \
			completion_nsec=$((NULL_NSEC * $2 / 100)) >&2 || return 1
		node=nullb0 ;;
	nullb)
		modprobe null_blk nr_devices=1 queue_mode=2 irqmode=0 gb=8 hw_queue_depth=64 >&2 || return 1
		node=nullb0 ;;
	virtio) node=vdb ;;
	*) return 1 ;;
	esac
	n=0
	while [ ! -b /dev/$node ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
	# the latency stand-in is a disk; null_blk without latency stays what it is
	[ "$1" != nulllat ] || nullb_as_disk nullb0
	[ -b /dev/$node ] && echo "$node"
}
dev_down() {
	case $1 in
	rotdisk) rmmod rotdisk ;;
	nulllat | nullb) rmmod null_blk ;;
	esac
}
skip() { # a point or a part that could not run: why, for the host and the console
	rig_result "bench-skip $*"; rig_log "bench: skipped: $*"; nskip=$((nskip + 1))
}
# a switch resets nr_requests to twice the device's depth: give every
# scheduler 128 requests to choose from, as 2.6 had (none keeps the
# device's depth)
sched_set() { # node sched
	echo "$2" >"/sys/block/$1/queue/scheduler" 2>/dev/null &&
		grep -q "\[$2\]" "/sys/block/$1/queue/scheduler" || return 1
	[ "$2" = none ] || echo 128 >"/sys/block/$1/queue/nr_requests" 2>/dev/null || true
}

# point DEV NODE SCALE SCHED CASE CLIENTS REP [SECONDS]: one fio run, one
# result line per client (fio's terse v3: read KiB 6, KiB/s 7, IOPS 8, max
# total latency 39 (us); the write fields are the read ones + 41)
point() {
	dev=$1 node=$2 scale=$3 sched=$4 case=$5 clients=$6 rep=$7 secs=${8:-$TIME}
	engine="--ioengine=psync --iodepth=1" w=0
	case $case in
	read-seq | check | trace) rw=read bs=4 ;;
	read-rand | check-rand) rw=randread bs=64 ;;
	write-seq) rw=write bs=4 w=1 ;;
	write-rand) rw=randwrite bs=4 w=1 ;;
	iops-randread) rw=randread bs=4 engine="--ioengine=libaio --iodepth=16" ;;
	esac
	region=$(($(blockdev --getsize64 "/dev/$node") / 8 / 1048576 * 1048576))
	tag="dev=$dev scale=$scale sched=$sched case=$case clients=$clients rep=$rep"
	dstat=/sys/kernel/debug/$node/stats
	[ "$dev" = rotdisk ] && cat "$dstat" >/tmp/disk.0 2>/dev/null || : >/tmp/disk.0
	# shellcheck disable=SC2086
	fio --name=c --filename=/dev/$node --direct=1 $engine --rw=$rw --bs=${bs}k \
		--numjobs="$clients" --size=$region --offset_increment=$region \
		--runtime="$secs" --time_based --output-format=terse --terse-version=3 \
		>/tmp/fio.out 2>/tmp/fio.err
	rc=$?
	awk -F';' -v tag="$tag" -v w="$w" -v bs="$bs" '
		$1 == 3 { o = w * 41; if ($5 != 0) err = 1
			printf "bench %s client=%d kib_s=%d lat_max_us=%d ios=%d iops=%d\n", tag, n++,
				$(7 + o), $(39 + o), $(6 + o) / bs, $(8 + o)
			agg += $(7 + o); iops += $(8 + o) }
		END { printf "%d %d %d %d\n", n, agg, iops, err >"/tmp/point.sum" }' /tmp/fio.out >/tmp/point.out
	read -r jobs agg iops err </tmp/point.sum
	if [ "$rc" != 0 ] || [ "$jobs" != "$clients" ] || [ "$err" != 0 ]; then
		skip "$tag reason=fio-rc$rc-jobs$jobs-err$err"
		rig_log "bench: fio: $(head -c 300 /tmp/fio.err)"
		return 1
	fi
	cat /tmp/point.out >&3
	# where the model disk's time went during the point (model us; wall =
	# model * scale / 100): a switch between clients costs a seek and a
	# rotation, a sequential request only its transfer
	[ ! -s /tmp/disk.0 ] || awk -v tag="$tag" -v secs="$secs" '
		NR == FNR { a[$1] = $2; next } { b[$1] = $2 }
		END { printf "bench-disk %s secs=%d requests=%d seeks=%d seek_us=%d rot_us=%d xfer_us=%d busy_us=%d\n",
			tag, secs, b["requests"] - a["requests"], b["seeks"] - a["seeks"], b["seek_us"] - a["seek_us"],
			b["rot_us"] - a["rot_us"], b["xfer_us"] - a["xfer_us"], b["busy_us"] - a["busy_us"] }' /tmp/disk.0 "$dstat" >&3
	np=$((np + 1))
	rig_log "bench $np: $tag agg=${agg}KiB/s iops=$iops"
}

# the matrix for one device: scheduler x case x clients x rep
matrix() { # dev
	node=$(dev_up "$1" "$SCALE") || { skip "dev=$1 reason=no-device"; return; }
	sc=$SCALE; [ "$1" = virtio ] && sc=-
	q=/sys/block/$node/queue
	rig_result "# dev $1 /dev/$node size=$(blockdev --getsize64 "/dev/$node") rotational=$(cat "$q/rotational") nr_requests=$(cat "$q/nr_requests") scheds=$(awk '{ $1 = $1; gsub(/ /, ","); print }' "$q/scheduler")"
	for s in $SCHEDS; do
		sched_set "$node" "$s" || { skip "dev=$1 sched=$s reason=no-sched"; continue; }
		for c in $CASES; do
			for n in $CLIENTS; do
				r=0
				while [ $r -lt "$REPS" ]; do
					r=$((r + 1))
					point "$1" "$node" "$sc" "$s" "$c" "$n" $r
				done
			done
		done
	done
	dev_down "$1"
}

# disk-is-the-bottleneck check: read-seq and read-rand, 1 client, at SCALE
# and at 10% (a ten times faster disk)
check() { # dev
	for sc in "$SCALE" 10; do
		node=$(dev_up "$1" "$sc") || { skip "dev=$1 case=check reason=no-device"; return; }
		s=${XSCHEDS%% *}
		sched_set "$node" "$s" && point "$1" "$node" "$sc" "$s" check 1 1 &&
			point "$1" "$node" "$sc" "$s" check-rand 1 1
		dev_down "$1"
	done
}

# dispatch cost: null_blk without latency, 4k random reads, libaio depth 16
iops() {
	node=$(dev_up nullb 100) || { skip "dev=nullb reason=no-device"; return; }
	for s in $XSCHEDS; do
		sched_set "$node" "$s" || { skip "dev=nullb sched=$s reason=no-sched"; continue; }
		for n in $IOPS; do
			r=0
			while [ $r -lt "$REPS" ]; do
				r=$((r + 1))
				point nullb "$node" - "$s" iops-randread "$n" $r
			done
		done
	done
	dev_down nullb
}

# slice timeline: cfq, read-seq, TRACE_CLIENTS clients; the block tracer's issue and
# complete events and cfq's messages, reduced in the guest to slices
# (start, end, reason, requests), idle windows (nothing in the driver for at
# least TRACE_IDLE_US; armed = cfq idled on purpose, fired = its timer ran
# out) and per queue key: its client (the region most of the requests
# issued in its slices went to), those requests, and how many of them went
# to another region (issued in its slice, but another client's); and where
# a switch between queues spends its time, step by step, against the same
# steps inside a slice (means in us): the last completion to the last
# slice_expire before another queue's first issue (through any slice that
# issued nothing; a queue that gets the device again is no switch), to
# that issue, to its completion (the seek included), to its client's next
# issue (its wake-up after a round asleep)
timeline() { # dev
	node=$(dev_up "$1" "$SCALE") || { skip "dev=$1 case=trace reason=no-device"; return; }
	if ! sched_set "$node" cfq; then
		skip "dev=$1 case=trace reason=no-cfq"; dev_down "$1"; return
	fi
	secs=${RIG_BENCH_TRACE_TIME:-3}
	echo 0 >$T/tracing_on; echo >$T/trace
	echo 8192 >$T/buffer_size_kb
	echo blk >$T/current_tracer
	echo issue,complete,notify >"/sys/block/$node/trace/act_mask"
	echo 1 >"/sys/block/$node/trace/enable"
	point "$1" "$node" "$SCALE" cfq trace "${RIG_BENCH_TRACE_CLIENTS:-4}" 1 $((secs + 2)) >/dev/null &
	sleep 1; echo 1 >$T/tracing_on
	sleep "$secs"; echo 0 >$T/tracing_on
	wait
	echo 0 >"/sys/block/$node/trace/enable"
	region=$(($(blockdev --getsize64 "/dev/$node") / 8 / 512))
	awk -v region="$region" -v min="${RIG_BENCH_TRACE_IDLE_US:-1000}" -v cap="${RIG_BENCH_TRACE_LINES:-3000}" '
		function out(s) { if (++lines <= cap) print "trace " s }
		{ for (i = 1; i <= NF && $i !~ /^[0-9]+\.[0-9]+:$/; i++) ;
		  if (i > NF) next
		  t = int(substr($i, 1, length($i) - 1) * 1000000); if (t0 == "") t0 = t; t -= t0
		  a = $(i + 2) }
		a == "m" && $(i + 4) ~ /^cfq[0-9]+$/ {
			key = substr($(i + 4), 4); ev = $(i + 5); msgs++
			if (ev == "slice_start") { cur = key; start[key] = t; seen[key] = 1 }
			else if (ev == "slice_expire") {
				# a switch to time: the slice ended with nothing in flight
				te = t; tc = lastc; ekey = key; sw = inflight == 0 && lastc != ""
				out(sprintf("slice key=%s start_us=%d end_us=%d %s %s", key,
					(key in start) ? start[key] : 0, t, $(i + 6), $(i + 8)))
				delete start[key]; if (cur == key) cur = "" }
			else if (ev == "idle_arm") { arms++; armed = 1 }
			else if (ev == "idle_fire") { fires++; fired = 1 }
		}
		a == "D" { ios++
			if (sw && cur != "" && cur != ekey) { nsw++; c2e += te - tc; e2d += t - te; d0 = t; first = 1 }
			else if (wake) { w1 += t - lastc; nw1++ }
			else if (inflight == 0 && lastc != "") { thk += t - lastc; nthk++ }
			wake = 0; sw = 0; lastd = t
			if (idle != "" && t - idle >= min) {
				out(sprintf("idle key=%s start_us=%d end_us=%d armed=%d fired=%d", ikey == "" ? "-" : ikey, idle, t, armed, fired))
				idle_us += t - idle }
			if (cur != "") { n[cur]++; r = int($(i + 4) / region); if (++nd[cur, r] > best[cur]) { best[cur] = nd[cur, r]; client[cur] = r } }
			idle = ""; inflight++ }
		a == "C" { if (first) { d2c += t - d0; first = 0; wake = 1 }
			else if (inflight == 1) { svc += t - lastd; nsvc++ }
			lastc = t
			if (--inflight <= 0) { inflight = 0; idle = t; ikey = cur; armed = fired = 0 } }
		END { if (cur != "") out(sprintf("slice key=%s start_us=%d end_us=%d reason=open rqs=-", cur, start[cur], t))
			for (k in seen) printf "trace key key=%s client=%s ios=%d foreign=%d\n", k,
				(k in client) ? client[k] : -1, n[k], n[k] - best[k]
			if (nsw) printf "trace switch n=%d complete_to_expire_us=%d expire_to_issue_us=%d first_service_us=%d first_think_us=%d service_us=%d think_us=%d\n",
				nsw, c2e / nsw, e2d / nsw, d2c / nsw, nw1 ? w1 / nw1 : 0, nsvc ? svc / nsvc : 0, nthk ? thk / nthk : 0
			printf "trace summary span_us=%d ios=%d msgs=%d idle_arms=%d idle_fires=%d idle_us=%d lines=%d cap=%d\n",
				t, ios, msgs, arms, fires, idle_us, lines, cap }' $T/trace >&3
	rig_log "bench: slice timeline on $1 done ($(wc -l <$T/trace) trace lines)"
	echo nop >$T/current_tracer
	dev_down "$1"
}

# the block tracer on one device (cfq's messages and the events in ACTS)
trace_start() { # node [acts]
	echo 0 >$T/tracing_on; echo >$T/trace
	echo 8192 >$T/buffer_size_kb
	echo blk >$T/current_tracer
	[ -z "${2:-}" ] || echo "$2" >"/sys/block/$1/trace/act_mask"
	echo 1 >"/sys/block/$1/trace/enable"
	echo 1 >$T/tracing_on
}
trace_stop() { echo 0 >$T/tracing_on; echo 0 >"/sys/block/$1/trace/enable"; }

# I/O priorities under cfq, from its slice messages (prio=CLASS/LEVEL):
# an RT reader against 3 BE readers (share of the used slice time while
# the RT reader runs: guest/lib.sh rig_rt_window_slice_time), BE
# level 0 against level 7 (mean used sync slice of those that ran out),
# an IDLE reader against 2 BE readers (its slices while they ran, after)
ionice_points() { # dev
	node=$(dev_up "$1" "$SCALE") || { skip "dev=$1 case=ionice reason=no-device"; return; }
	sched_set "$node" cfq || { skip "dev=$1 case=ionice reason=no-cfq"; dev_down "$1"; return; }
	# backlogged readers (libaio depth 16): their slices end by time
	# dd in the background itself ($! is dd): killing a subshell that runs
	# it would leave dd reading, and an IDLE reader waits for as long as it
	# reads (it cannot even be killed, being in D state in the meantime)
	rd() { dd if="/dev/$node" of=/dev/null bs=4k iflag=direct skip="$1" count=2000000 2>/dev/null & }
	# fr MiB_offset class level (random: sequential reads submitted together
	# merge); its terse result in /tmp/fr.CLASS.LEVEL (field 8: read IOPS)
	fr() {
		fio --name=r --filename="/dev/$node" --rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth=16 \
			--offset=$(($1 << 20)) --size=256m --prioclass="$2" --prio="$3" --runtime="$TIME" --time_based \
			--minimal --output="/tmp/fr.$2.$3" >/dev/null 2>&1
	}
	trace_start "$node" notify
	p=; for i in 1 2 3; do fr $((i * 1024)) 2 4 & p="$p $!"; done
	sleep 1; fr 0 1 4 & p="$p $!"
	wait $p
	trace_stop "$node"
	rig_rt_window_slice_time $T/trace | while read -r rt _ _ tot; do
		echo "bench-ionice dev=$1 case=rt-vs-3be rt_us=$rt total_us=$tot share_pct=$((tot ? rt * 100 / tot : 0))" >&3
	done
	trace_start "$node" notify
	fr 0 2 0 & p="$!"; fr 1024 2 7 & p="$p $!"
	wait $p
	trace_stop "$node"
	# used: from the slice's start; timed: from its first completion
	rig_trace 'trace_cfq() && tr_ev == "slice_expire" && tr["reason"] == "time" && tr["prio"] ~ /^be\// {
		l = substr(tr["prio"], 4); s[l] += tr["used_us"]; st[l] += tr["timed_us"]; n[l]++ }
		END { a = n[0] ? s[0] / n[0] / 1000 : 0; b = n[7] ? s[7] / n[7] / 1000 : 0
			c = n[0] ? st[0] / n[0] / 1000 : 0; d = n[7] ? st[7] / n[7] / 1000 : 0
			printf "bench-ionice dev=%s case=be0-vs-be7 be0_ms=%.1f be7_ms=%.1f ratio_pct=%d be0_timed_ms=%.1f be7_timed_ms=%.1f timed_ratio_pct=%d be0_iops=%d be7_iops=%d iops_ratio_pct=%d\n",
				dev, a, b, b ? 100 * a / b : 0, c, d, d ? 100 * c / d : 0, i0, i7, i7 ? 100 * i0 / i7 : 0 }' \
		dev="$1" i0="$(cut -d';' -f8 /tmp/fr.2.0 2>/dev/null)" i7="$(cut -d';' -f8 /tmp/fr.2.7 2>/dev/null)" $T/trace >&3
	trace_start "$node" notify
	rd 0; b="$!"; rd 262144; b="$b $!"
	sleep 1
	ionice -c 3 dd if="/dev/$node" of=/dev/null bs=4k iflag=direct skip=524288 count=2000000 2>/dev/null & i="$!"
	sleep "$TIME"; echo "rig: BE readers stop" >$T/trace_marker
	kill $b 2>/dev/null; wait $b 2>/dev/null
	sleep 2; kill "$i" 2>/dev/null; wait "$i" 2>/dev/null
	trace_stop "$node"
	rig_trace '/rig: BE readers stop/ { after = 1 }
		trace_cfq() && tr_ev == "slice_start" && tr["prio"] ~ /^idle/ { if (after) a++; else b++ }
		END { printf "bench-ionice dev=%s case=idle-vs-2be busy_slices=%d after_slices=%d\n", dev, b, a }' dev="$1" $T/trace >&3
	echo nop >$T/current_tracer
	dev_down "$1"
}

# a failing disk: null_blk times out half of its requests (io_timeout
# TIMEOUTS s), 100 readers of 4 O_DIRECT blocks each; wall time per scheduler
timeout_points() {
	for s in $XSCHEDS; do
		modprobe null_blk nr_devices=1 queue_mode=2 irqmode=2 gb=1 hw_queue_depth=64 \
			completion_nsec=100000 timeout=1,50,0,-1 >&2 || { skip "dev=nullb case=timeouts reason=no-device"; return; }
		n=0; while [ ! -b /dev/nullb0 ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
		# without null_blk's fault injection, timeout= is ignored: nothing would time out
		[ -e /sys/module/null_blk/parameters/timeout ] ||
			{ skip "dev=nullb case=timeouts reason=no-null_blk-fault-injection"; rmmod null_blk; return; }
		echo $((TIMEOUTS * 1000)) >/sys/block/nullb0/queue/io_timeout
		if sched_set nullb0 "$s"; then
			t0=$(cut -d' ' -f1 /proc/uptime) i=0 p=
			while [ $i -lt 100 ]; do
				dd if=/dev/nullb0 of=/dev/null bs=4k count=4 skip=$((i * 256)) iflag=direct 2>/dev/null & p="$p $!"
				i=$((i + 1))
			done
			wait $p
			rig_result "bench-timeouts sched=$s readers=100 timeout_s=$TIMEOUTS secs=$(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }')"
		else
			skip "dev=nullb sched=$s case=timeouts reason=no-sched"
		fi
		rmmod null_blk
	done
}

np=0 nskip=0
modprobe cfq-iosched || rig_log "bench: modprobe cfq-iosched failed"
rig_log "bench: devs '$DEVS' scheds '$SCHEDS' cases '$CASES' clients '$CLIENTS' time $TIME reps $REPS scale $SCALE iops '$IOPS' check '$CHECK' trace '$TRACE'"
[ -n "$CASES" ] && for d in $DEVS; do matrix "$d"; done
[ -n "$IOPS" ] && iops
[ -n "$CHECK" ] && check "$CHECK"
[ -n "$TRACE" ] && timeline "$TRACE"
[ -n "$IONICE" ] && ionice_points "$IONICE"
[ -n "$TIMEOUTS" ] && timeout_points
rig_log "bench: $np points, $nskip skipped"
[ "$nskip" = 0 ]
