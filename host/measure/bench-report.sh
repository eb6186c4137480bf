#!/usr/bin/env bash
# Tables, plots and the one-screen summary of a bench run (host/measure/bench.sh);
# can be rerun on an old run directory.
#
# usage: host/measure/bench-report.sh LOGDIR
#   LOGDIR  logs/bench-ID (its b*/results.log), or a plain "host/vm/run.sh bench" run
# writes, in LOGDIR:
#   results.csv  one row per client sample (dev,scale,sched,case,clients,rep,client,...)
#   points.csv   one row per point: median over reps and the min-max spread of
#                max/min/aggregate KiB/s, max latency (ms), min/max ratio, IOPS
#   tables.txt   the seed's tables, per device, case and scheduler
#   summary.txt  the one screen printed at the end (targets met/missed)
#   DEV-CASE.png aggregate KiB/s, min/max and max latency vs clients;
#   dispatch-cost.png, slices.png (cfq slice timeline), plot/ (gnuplot input)
# exit: 0 done, 2 no results
set -euo pipefail
dir=${1:?usage: host/measure/bench-report.sh LOGDIR}
[ -d "$dir" ] || { echo "error: no such directory '$dir'" >&2; exit 2; }
cd "$dir"
shopt -s nullglob
logs=(results.lo[g] b*/results.log)   # globs: nullglob drops what is missing
if [ ${#logs[@]} -gt 0 ]; then
	cat "${logs[@]}" | tr -d '\r' >all.log
	# 1. one CSV row per "bench" line
	awk 'BEGIN { n = split("dev scale sched case clients rep client kib_s lat_max_us ios iops", col, " ")
			for (i = 1; i <= n; i++) printf "%s%s", col[i], i < n ? "," : "\n" }
		/^bench / { split("", f)
			for (i = 2; i <= NF; i++) { p = index($i, "="); if (p) f[substr($i, 1, p - 1)] = substr($i, p + 1) }
			for (i = 1; i <= n; i++) printf "%s%s", f[col[i]], i < n ? "," : "\n" }' all.log >results.csv
	grep -a '^trace ' all.log >trace.log || true
	grep -a '^bench-skip ' all.log >skipped.log || true
	grep -a -E '^bench-(ionice|timeouts|disk) ' all.log >extras.log || true
	rm -f all.log
fi
if [ ! -s results.csv ] || [ "$(wc -l <results.csv)" -lt 2 ]; then echo "error: no bench results in $dir" >&2; exit 2; fi
# a setting of the run: from host/measure/bench.sh's "settings", else from a boot's
# run.conf (RIG_BENCH_TIME=...) or summary (flavor=...)
settings() {
	{ sed -n "s/^$1=//p" settings; sed -n "s/^RIG_BENCH_${1^^}='\(.*\)'$/\1/p" run.conf b*/run.conf
	  sed -n "s/^$1=//p" summary b*/summary; } 2>/dev/null | head -n1
}

# 2. per point: max, min, sum of the clients of each rep, then the median
#    and the spread over reps
awk -F, 'NR > 1 { k = $1 "," $2 "," $3 "," $4 "," $5; r = k SUBSEP $6
		if (!(k in seen)) { seen[k] = 1; order[++np] = k }
		if (!(r in n)) { reps[k]++; rk[k, reps[k]] = r; mx[r] = $8; mn[r] = $8 }
		n[r]++; agg[r] += $8; iops[r] += $11
		if ($8 > mx[r]) mx[r] = $8
		if ($8 < mn[r]) mn[r] = $8
		if ($9 > lat[r]) lat[r] = $9 }
	function stat(k, what,   i, j, m, v, t, s, f) { # "median,lo,hi" of one metric over the reps of k
		m = reps[k]
		for (i = 1; i <= m; i++) { s = rk[k, i]
			v[i] = what == "max" ? mx[s] : what == "min" ? mn[s] : what == "agg" ? agg[s] : \
				what == "lat" ? lat[s] / 1000 : what == "fair" ? (mx[s] > 0 ? mn[s] / mx[s] : 0) : iops[s] }
		for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		t = m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
		f = what == "lat" || what == "fair" ? "%.3f" : "%.0f"
		return sprintf(f "," f "," f, t, v[1], v[m])
	}
	BEGIN { print "dev,scale,sched,case,clients,reps,max,max_lo,max_hi,min,min_lo,min_hi,agg,agg_lo,agg_hi,lat_ms,lat_lo,lat_hi,fair,fair_lo,fair_hi,iops,iops_lo,iops_hi" }
	END { for (i = 1; i <= np; i++) { k = order[i]
		printf "%s,%d,%s,%s,%s,%s,%s,%s\n", k, reps[k], stat(k, "max"), stat(k, "min"), stat(k, "agg"),
			stat(k, "lat"), stat(k, "fair"), stat(k, "iops") } }' results.csv >points.csv

# 3. the seed's tables: bandwidth in KiB/s, median of the reps [min-max]
awk -F, -v time="$(settings time)" '
	function cell(m, lo, hi, ms,   f, s) {
		if (ms) { f = m < 10 ? "%.1f" : "%.0f"; s = sprintf(f, m); if (lo != hi) s = s sprintf(" [" f "-" f "]", lo, hi); return s "msec" }
		s = sprintf("%.0f", m); if (lo != hi) s = s sprintf(" [%.0f-%.0f]", lo, hi); return s }
	NR > 1 && $4 ~ /^(read|write)-(seq|rand)$/ {
		d = $1 " " $2; if (!(d in dseen)) { dseen[d] = 1; devs[++nd] = d }
		if (!($3 in sseen)) { sseen[$3] = 1; scheds[++ns] = $3 }
		k = d SUBSEP $4 SUBSEP $3; row[k, ++nr[k]] = sprintf("%4d   %21s %21s %21s %21s", $5,
			cell($7, $8, $9), cell($10, $11, $12), cell($13, $14, $15), cell($16, $17, $18, 1))
		reps[d] = $6 }
	END { split("read-seq read-rand write-seq write-rand", cs, " ")
		title["read-seq"] = "read_files, sequential, bs=4k"; title["read-rand"] = "read_files, random, bs=64k"
		title["write-seq"] = "write_files, sequential, bs=4k"; title["write-rand"] = "write_files, random, bs=4k"
		for (i = 1; i <= nd; i++) { split(devs[i], dv, " "); c = 0
			for (j = 1; j <= 4; j++) { printed = 0
				for (s = 1; s <= ns; s++) { k = devs[i] SUBSEP cs[j] SUBSEP scheds[s]
					if (!nr[k]) continue
					if (!printed) { printed = 1; c++
						printf "Case %d: %s   [%s%s]\n-------------------------------------\n", c, title[cs[j]],
							dv[1], dv[2] == "-" ? "" : ", time_scale_pct " dv[2]
						printf "%s s per point, median of %s rep(s) [min-max]; bandwidth in KiB/s\n\n", time ? time : "?", reps[devs[i]] }
					printf "Scheduler: %s\n\n%s%21s %21s %21s %21s\n", scheds[s], "Clients", "Max bwidth", "Min bdwidth", "Agg bdwidth", "Max latency"
					for (r = 1; r <= nr[k]; r++) print row[k, r]
					print "" }
				if (printed) print "" } } }' points.csv >tables.txt

# 4. plots (gnuplot input in plot/)
mkdir -p plot
term="set terminal pngcairo noenhanced size 1500,480 font ',10'"
gnuplot -e 'set terminal pngcairo' 2>/dev/null || term="set terminal png noenhanced size 1500,480"
scheds=$(awk -F, 'NR > 1 && !s[$3]++ { printf "%s ", $3 }' points.csv)
awk -F, 'NR > 1 && $4 ~ /^(read|write)-/ && !s[$1 "," $4]++ { print $1, $4, $2 }' points.csv |
while read -r dev case scale; do
	f="plot/$dev-$case.dat" names=''
	: >"$f"
	for s in $scheds; do
		awk -F, -v d="$dev" -v c="$case" -v s="$s" '$1 == d && $4 == c && $3 == s {
			print $5, $13, $14, $15, $19, $20, $21, $16, $17, $18 }' points.csv | sort -n >"$f.tmp"
		[ -s "$f.tmp" ] || continue
		{ echo "# $s"; cat "$f.tmp"; printf '\n\n'; } >>"$f"
		names="$names $s"
	done
	rm -f "$f.tmp"
	sc=''; [ "$scale" = - ] || sc=", time_scale_pct $scale"
	cat >"plot/$dev-$case.gp" <<-EOF
		$term
		set output '$dev-$case.png'
		names = "${names# }"
		set multiplot layout 1,3 title "$case on $dev$sc: median over reps, bars = min-max"
		set key below horizontal; set grid; set xlabel 'clients'; set logscale x 2; set xrange [0.8:10]
		set xtics (1, 2, 4, 8); set yrange [0:*]
		set title 'aggregate bandwidth'; set ylabel 'KiB/s'
		plot for [i=1:words(names)] '$f' index i-1 using 1:2:3:4 with yerrorlines lw 2 title word(names, i)
		set title 'fairness: min/max client bandwidth'; set ylabel 'min / max'; set yrange [0:1.05]
		plot for [i=1:words(names)] '$f' index i-1 using 1:5:6:7 with yerrorlines lw 2 title word(names, i)
		set title 'max latency'; set ylabel 'ms'; set yrange [0:*]
		plot for [i=1:words(names)] '$f' index i-1 using 1:8:9:10 with yerrorlines lw 2 title word(names, i)
		unset multiplot
	EOF
	gnuplot "plot/$dev-$case.gp"
done

# dispatch cost: IOPS per scheduler, one bar per job count
if grep -q ',iops-randread,' points.csv; then
	jobs=$(awk -F, '$4 == "iops-randread" { print $5 }' points.csv | sort -nu | tr '\n' ' ')
	awk -F, -v jobs="$jobs" 'BEGIN { nj = split(jobs, J, " ") }
		$4 == "iops-randread" { if (!($3 in s)) o[++n] = $3; s[$3] = 1; v[$3, $5] = $22 " " $23 " " $24 }
		END { for (i = 1; i <= n; i++) { printf "%s", o[i]
			for (j = 1; j <= nj; j++) printf " %s", ((o[i], J[j]) in v) ? v[o[i], J[j]] : "NaN NaN NaN"
			print "" } }' points.csv >plot/iops.dat
	{
		echo "${term/1500,480/900,500}"
		echo "set output 'dispatch-cost.png'"
		echo "set title 'dispatch cost: null_blk (no latency), 4k random read, libaio depth 16; median, bars = min-max'"
		echo "set style data histogram; set style histogram errorbars gap 1 lw 1"
		echo "set style fill solid 0.7 border -1; set ylabel 'IOPS'; set yrange [0:*]; set grid ytics; set key top right"
		printf "plot "
		j=0
		for n in $jobs; do
			[ $j = 0 ] || printf ", "
			printf "'plot/iops.dat' using %d:%d:%d%s title '%s job(s)'" $((2 + 3 * j)) $((3 + 3 * j)) $((4 + 3 * j)) "$([ $j = 0 ] && echo ':xtic(1)')" "$n"
			j=$((j + 1))
		done
		echo
	} >plot/iops.gp
	gnuplot plot/iops.gp
fi

# slice timeline: which queue held the disk when (one row per client
# region), idle windows on top: red = cfq idling on purpose, grey = not
tn=$(grep -c '^trace key ' trace.log 2>/dev/null || true)	# clients of the timeline: one queue each
if [ -s trace.log ]; then
	awk '{ split("", f); for (i = 3; i <= NF; i++) { p = index($i, "="); f[substr($i, 1, p - 1)] = substr($i, p + 1) } }
		$2 == "key" { c[f["key"]] = f["client"]; keys = keys sprintf(" %s:%s", f["key"], f["client"]); foreign += f["foreign"] }
		$2 == "slice" { s[++ns] = f["key"] " " f["start_us"] / 1000 " " f["end_us"] / 1000 " " f["reason"]
			if (f["reason"] != "open") { nfull++; ms += (f["end_us"] - f["start_us"]) / 1000; why[f["reason"]]++ } }
		$2 == "idle" { d[++nd] = f["key"] " " f["start_us"] / 1000 " " f["end_us"] / 1000 " " f["armed"] " " f["fired"]
			armed += f["armed"]; fired += f["fired"] }
		$2 == "summary" { span = f["span_us"] / 1000; ios = f["ios"]; min = f["idle_us"] / 1000 }
		$2 == "switch" { sw = sprintf("a switch between queues (%d, means in us): last completion -> expire %d -> next queue'"'"'s first issue %d -> its completion %d -> its next issue %d; inside a slice: service %d, issue after a completion %d",
			f["n"], f["complete_to_expire_us"], f["expire_to_issue_us"], f["first_service_us"], f["first_think_us"], f["service_us"], f["think_us"]) }
		END { for (i = 1; i <= ns; i++) { split(s[i], a, " "); print c[a[1]], a[2], a[3], a[1], a[4] > "plot/slices.dat" }
			for (i = 1; i <= nd; i++) { split(d[i], a, " "); if (a[1] in c) print c[a[1]], a[2], a[3], a[4], a[5] > "plot/idle.dat" }
			t = sprintf("%.0f ms traced, %d I/Os; %d slices, mean %.1f ms, ended by", span, ios, nfull, nfull ? ms / nfull : 0)
			for (r in why) t = t sprintf(" %s %d", r, why[r])
			printf "%s;\n%d idle windows (%d armed by cfq, %d timer fired), %.0f ms idle; requests issued in another queue'"'"'s slice: %d; key:client%s\n",
				t, nd, armed, fired, min, foreign, keys > "plot/timeline.txt"
			if (sw != "") print sw > "plot/timeline.txt" }' trace.log
	touch plot/slices.dat plot/idle.dat
	sum=$(sed -n '1h; 2{H; x; s/\n/\\n/; p}' plot/timeline.txt)
	cat >plot/slices.gp <<-EOF
		${term/1500,480/1500,440}
		set output 'slices.png'
		set title "cfq slice timeline (read-seq, $tn clients): a bar is a slice of the client's queue; marks above it: the disk idle >= the trace's threshold\n$sum"
		set xlabel 'ms since the trace started'; set ylabel 'client (region)'; set ytics 1; set yrange [-0.6:$((tn > 0 ? tn - 1 : 3)).8]
		set grid xtics; set key below horizontal
		plot 'plot/slices.dat' using 2:1:(\$3-\$2):(0):(\$1+1) with vectors nohead lw 14 lc variable title 'slice', \\
		     'plot/idle.dat' using 2:(\$4 == 1 ? \$1 + 0.3 : 1/0):(\$3-\$2):(0) with vectors nohead lw 5 lc rgb 'red' notitle, \\
		     'plot/idle.dat' using ((\$2+\$3)/2):(\$4 == 1 ? \$1 + 0.3 : 1/0) with points pt 9 ps 1 lc rgb 'red' title 'idle, armed by cfq', \\
		     'plot/idle.dat' using 2:(\$4 == 1 ? 1/0 : \$1 + 0.3):(\$3-\$2):(0) with vectors nohead lw 5 lc rgb 'gray40' notitle, \\
		     'plot/idle.dat' using ((\$2+\$3)/2):(\$4 == 1 ? 1/0 : \$1 + 0.3) with points pt 9 ps 1 lc rgb 'gray40' title 'idle, not armed', \\
		     'plot/idle.dat' using 3:(\$5 == 1 ? \$1 + 0.3 : 1/0) with points pt 2 ps 1.2 lc rgb 'black' title 'idle timer fired'
	EOF
	gnuplot plot/slices.gp
fi

# 5. the one screen: 1- and N-client rows of the main device, the check, the targets
awk -F, -v id="$(basename "$PWD")" -v flavor="$(settings flavor)" -v time="$(settings time)" \
	-v skipped="$(awk 'END { print NR }' skipped.log 2>/dev/null)" -v timeline="$(cat plot/timeline.txt 2>/dev/null)" \
	-v tclients="$tn" '
	NR == 1 { next }
	{ k = $1 SUBSEP $3 SUBSEP $4 SUBSEP $5; have[k] = 1
	  mx[k] = $7; mn[k] = $10; agg[k] = $13; lat[k] = $16; fair[k] = $19; iops[k] = $22
	  if ($4 ~ /^(read|write)-/) { reps = $6; if (!($1 in ds)) { ds[$1] = 1; devs[++nd] = $1; scale[$1] = $2 }
		if (!($3 in ss)) { ss[$3] = 1; sch[++ns] = $3 }
		if (lo == "" || $5 < lo) lo = $5; if ($5 > hi) hi = $5 }
	  if ($4 == "check") { chk[$2] = $13; chks = $3; cdev = $1 }
	  if ($4 == "check-rand") chkr[$2] = $13
	  if ($4 == "iops-randread" && !($5 in js)) { js[$5] = 1; jobs[++nj] = $5 } }
	function v(x, f) { return x == "" ? "n/a" : sprintf(f, x) }
	function verdict(ok) { return ok ? "[met]   " : "[missed]" }
	END {
		main = devs[1]; for (i = nd; i >= 1; i--) if (devs[i] == "rotdisk" || devs[i] == "nulllat") main = devs[i]
		printf "bench %s: %s kernel, %s s per point, median of %s rep(s); main device %s%s\n", id, flavor ? flavor : "?",
			time ? time : "?", reps, main, scale[main] == "-" ? "" : " (time_scale_pct " scale[main] ")"
		printf "KiB/s, latency in ms; other devices and the spread over reps: tables.txt\n\n"
		printf "%-11s %-12s| %d client(s): %5s %7s | %d clients: %7s %7s %7s %6s %7s\n", "case", "scheduler", lo, "KiB/s", "lat", hi, "max", "min", "agg", "min/max", "lat"
		split("read-seq read-rand write-seq write-rand", cs, " ")
		for (c = 1; c <= 4; c++) for (s = 1; s <= ns; s++) {
			a = main SUBSEP sch[s] SUBSEP cs[c] SUBSEP lo; b = main SUBSEP sch[s] SUBSEP cs[c] SUBSEP hi
			if (!(a in have) && !(b in have)) continue
			printf "%-11s %-12s|            %7s %7s |            %7s %7s %7s %6s %7s\n", cs[c], sch[s], v(agg[a], "%.0f"), v(lat[a], "%.1f"),
				v(mx[b], "%.0f"), v(mn[b], "%.0f"), v(agg[b], "%.0f"), v(fair[b], "%.2f"), v(lat[b], "%.1f") }
		if (nj) { printf "\ndispatch cost (null_blk, 4k random read, libaio depth 16), IOPS:\n"
			for (s = 1; s <= ns; s++) { printf "  %-12s", sch[s]; for (j = 1; j <= nj; j++) printf "  %d job(s) %8s", jobs[j], v(iops["nullb" SUBSEP sch[s] SUBSEP "iops-randread" SUBSEP jobs[j]], "%.0f"); print "" } }
		if (length(chk) == 2) { for (x in chk) if (x != 10) base = x
			r = chk[base] > 0 ? chk[10] / chk[base] : 0
			printf "\ndisk is the bottleneck (%s, read-seq, 1 client, %s): time_scale_pct %s %.0f KiB/s, time_scale_pct 10 %.0f KiB/s (x%.1f)  %s\n",
				cdev, chks, base, chk[base], chk[10], r, (r >= 2 ? "[met: clearly faster]" : "[missed: not 2x faster, the CPU may be the bottleneck]")
			r = chkr[base] > 0 ? chkr[10] / chkr[base] : 0
			if (length(chkr) == 2) printf "disk is the bottleneck (%s, read-rand 64k, 1 client, %s): time_scale_pct %s %.0f KiB/s, time_scale_pct 10 %.0f KiB/s (x%.1f)  %s\n",
				cdev, chks, base, chkr[base], chkr[10], r, (r >= 2 ? "[met: clearly faster]" : "[missed: not 2x faster, the CPU may be the bottleneck]") }
		if (timeline != "") { gsub(/\n/, "\n  ", timeline); printf "\ncfq slice timeline (read-seq, %s clients, slices.png):\n  %s\n", tclients, timeline }
		printf "\ntargets (issue #12; %s, %d readers against %d):\n", main, hi, lo
		split("read-seq write-seq read-rand", tc, " "); goal["read-seq"] = 90; goal["write-seq"] = 90; goal["read-rand"] = 90
		for (c = 1; c <= 3; c++) { a = main SUBSEP "cfq" SUBSEP tc[c] SUBSEP lo; b = main SUBSEP "cfq" SUBSEP tc[c] SUBSEP hi
			if ((a in have) && (b in have) && agg[a] > 0 && lo != hi) printf "  %s cfq %s aggregate >= %d%% of 1 reader: %.0f / %.0f = %.0f%%\n", verdict(agg[b] >= goal[tc[c]] / 100 * agg[a]), tc[c], goal[tc[c]], agg[b], agg[a], 100 * agg[b] / agg[a]
			else printf "  n/a      cfq %s aggregate (%s)\n", tc[c], (a in have) && lo == hi ? "one client count" : "points missing" }
		b = main SUBSEP "cfq" SUBSEP "read-seq" SUBSEP hi; q = main SUBSEP "bfq" SUBSEP "read-seq" SUBSEP hi
		if ((b in have) && (q in have) && hi > 1) {
			printf "  %s cfq read-seq min/max >= 0.95 and >= bfq'"'"'s: %.2f (bfq %.2f)\n", verdict(fair[b] >= 0.95 && fair[b] >= fair[q]), fair[b], fair[q]
			printf "  %s cfq max latency below bfq'"'"'s: %.1f ms vs %.1f ms\n", verdict(lat[b] < lat[q]), lat[b], lat[q]
		} else print "  n/a      fairness and latency against bfq (" (hi > 1 ? "no bfq or cfq read-seq point" : "one client") ")"
		a = "nullb" SUBSEP "cfq" SUBSEP "iops-randread" SUBSEP 1; b = "nullb" SUBSEP "mq-deadline" SUBSEP "iops-randread" SUBSEP 1
		if ((a in have) && (b in have) && iops[b] > 0) printf "  %s dispatch cost, 1 job: cfq >= 90%% of mq-deadline: %.0f vs %.0f IOPS = %.0f%%\n", verdict(iops[a] >= 0.9 * iops[b]), iops[a], iops[b], 100 * iops[a] / iops[b]
		else print "  n/a      dispatch cost, 1 job (no cfq or mq-deadline point)"
		a = "nullb" SUBSEP "cfq" SUBSEP "iops-randread" SUBSEP 4; b = "nullb" SUBSEP "bfq" SUBSEP "iops-randread" SUBSEP 4
		if ((a in have) && (b in have) && iops[b] > 0) printf "  %s dispatch cost, 4 jobs: cfq >= bfq: %.0f vs %.0f IOPS = %.0f%%\n", verdict(iops[a] >= iops[b]), iops[a], iops[b], 100 * iops[a] / iops[b]
		else print "  n/a      dispatch cost, 4 jobs (no cfq or bfq point)"
		if (skipped > 0) printf "\n%d point(s) skipped: see skipped.log\n", skipped
	}' points.csv >summary.txt
# I/O priorities, the failing disk and where the model disk's time went
# (bench-ionice, bench-timeouts, bench-disk lines)
[ ! -s extras.log ] || awk '
	# values + 0: substr() gives strings, which compare as strings ("100" < "80")
	{ split("", f); for (i = 2; i <= NF; i++) { p = index($i, "="); if (p) { v = substr($i, p + 1); f[substr($i, 1, p - 1)] = v ~ /^[0-9.]+$/ ? v + 0 : v } } }
	function verdict(ok) { return ok ? "[met]   " : "[missed]" }
	$1 == "bench-ionice" && f["case"] == "rt-vs-3be" { printf "  %s ionice: RT reader vs 3 BE readers gets >= 80%% of the disk time: %d%%\n", verdict(f["share_pct"] >= 80), f["share_pct"] }
	# issue 12 targets the slice ratio; a slice is timed from its first completion (patch 14)
	$1 == "bench-ionice" && f["case"] == "be0-vs-be7" { printf "  %s ionice: BE 0 vs BE 7 slices (timed from their first completion) %.1f / %.1f ms = %.2f, documented 4.50 +-10%% (from their start, seek included: %.1f / %.1f ms = %.2f; share of the disk: %d / %d IOPS = %.2f)\n", verdict(f["timed_ratio_pct"] >= 405 && f["timed_ratio_pct"] <= 495), f["be0_timed_ms"], f["be7_timed_ms"], f["timed_ratio_pct"] / 100, f["be0_ms"], f["be7_ms"], f["ratio_pct"] / 100, f["be0_iops"], f["be7_iops"], f["iops_ratio_pct"] / 100 }
	$1 == "bench-ionice" && f["case"] == "idle-vs-2be" { printf "  %s ionice: IDLE reader: %d slices while 2 BE readers ran, %d after they stopped\n", verdict(f["busy_slices"] == 0 && f["after_slices"] > 0), f["busy_slices"], f["after_slices"] }
	$1 == "bench-timeouts" { t[f["sched"]] = f["secs"]; to = f["timeout_s"]; o[++n] = f["sched"] }
	# per second of the point, summed over reps; a seek is a switch between regions
	$1 == "bench-disk" && f["case"] ~ /^(read|write)-/ { k = f["sched"] " " f["case"] " " f["clients"]; if (!(k in dt)) dk[++nd] = k
		dt[k] += f["secs"]; dx[k] += f["xfer_us"]; ds[k] += f["seek_us"]; dr[k] += f["rot_us"]; dn[k] += f["seeks"]; sc = f["scale"] }
	END { if (n) { printf "\nfailing disk: null_blk times out 50%% of requests (%s s), 100 readers of 4 blocks; wall time:\n", to
		for (i = 1; i <= n; i++) printf "  %-12s %6.1f s\n", o[i], t[o[i]]
		if (("cfq" in t) && ("mq-deadline" in t) && t["mq-deadline"] > 0) printf "  %s cfq within 2x mq-deadline: %.1f / %.1f = %.2f\n", verdict(t["cfq"] <= 2 * t["mq-deadline"]), t["cfq"], t["mq-deadline"], t["cfq"] / t["mq-deadline"] }
		if (nd) printf "\nthe model disk'"'"'s time (rotdisk, time_scale_pct %s), ms per second of the point: transfer, seek, rotation; switches (seeks) per s and ms each:\n", sc
		for (i = 1; i <= nd; i++) { k = dk[i]; split(k, a, " "); s = dt[k] * 1000
			printf "  %-11s %-12s %d client(s): xfer %4.0f  seek %4.0f  rot %4.0f  | %5.1f seeks/s, %4.1f + %3.1f ms\n", a[2], a[1], a[3],
				dx[k] / s, ds[k] / s, dr[k] / s, dn[k] / dt[k], dn[k] ? ds[k] / dn[k] / 1000 : 0, dn[k] ? dr[k] / dn[k] / 1000 : 0 } }' extras.log >>summary.txt
cat summary.txt
echo " files: $PWD/{tables.txt,points.csv,results.csv,*.png}"
