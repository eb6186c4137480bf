#!/usr/bin/env bash
# Prove the hunter: build each planted-bug mutant of the scheduler
# (patch/mutants/NN-name.patch, applied on top of the series, never part of
# a normal build), hunt it with the scenario its class calls for, and print
# a table: caught or missed, time to the first finding, its title, rounds.
#
# usage: host/mutants.sh            ONLY=NN[,NN]  SEEDS=1  BUDGET=600 (s per hunt)
#        CLEAN=1 host/mutants.sh    the untouched series through every hunt (no finding expected)
# exit: 0 when every mutant was caught, 1 otherwise, 2 on bad input.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SEEDS=${SEEDS:-1} BUDGET=${BUDGET:-600}
[[ "$SEEDS" =~ ^[1-9][0-9]*$ ]] || die "SEEDS must be a positive number (got '$SEEDS')"
[[ "$BUDGET" =~ ^[0-9]+$ ]] && [ "$BUDGET" -ge 30 ] || die "BUDGET must be at least 30 s (got '$BUDGET')"

# The class of a mutant decides how it is hunted, as it would for a real,
# unknown bug of that kind: a scenario name, or job:NAME for a guest job.
hunt_for() {
	case "$1" in
	timer-exit | teardown) echo switch-storm ;;
	timer-queue | refcount | lock-order | stall) echo exit-race ;;
	irq-lock | sleep-in-atomic) echo smoke ;;
	requeue) echo requeue ;;
	tunables) echo tunables ;;
	slice-arith) echo job:cfq ;;
	*) echo unknown ;;
	esac
}

build=$(host/kernel.sh | tail -n1)
host/image.sh "$build" >/dev/null
tree=$(kernel_tree)
mapfile -t all < <(ls "$RIG_ROOT"/patch/mutants/*.patch)
[ "${#all[@]}" -gt 0 ] || die "no mutants in patch/mutants/"

# build one mutant module out of tree; prints the .ko path
build_mutant() {
	local p=$1 m
	m="$build/mutants/$(basename "$p" .patch)"
	rm -rf "$m" && mkdir -p "$m/block"
	cp "$tree/block/cfq-iosched.c" "$m/block/"
	patch -d "$m" -p1 -s --no-backup-if-mismatch <"$p" || die "$(basename "$p") does not apply to the series"
	printf 'obj-m := cfq-iosched.o\nccflags-y := -I$(srctree)/block\n' >"$m/block/Kbuild"
	make -s -C "$tree" O="$build" M="$m/block" modules >"$m/build.log" 2>&1 ||
		{ cat "$m/build.log" >&2; die "$(basename "$p") does not build"; }
	echo "$m/block/cfq-iosched.ko"
}

id="mutants-$(date +%Y%m%d-%H%M%S)"
table="$LOGS/$id.table"
mkdir -p "$LOGS"
printf '%-28s %-16s %-14s %-7s %6s %6s  %s\n' mutant class hunt result secs rounds "first finding" | tee "$table"
caught_all=1
# CLEAN=1: the negative control. The untouched series runs every hunt the
# mutants use, and a finding there is a false positive of the rig.
if [ "${CLEAN:-0}" = 1 ]; then
	clean_all=1
	for hunt in $(for p in "${all[@]}"; do hunt_for "$(sed -n 's/^Class: //p' "$p")"; done | sort -u); do
		t0=$SECONDS title=''
		if [[ "$hunt" == job:* ]]; then
			RUN_ID="$id/clean-${hunt#job:}" TIMEOUT=$((BUDGET + 120)) host/run.sh "${hunt#job:}" >/dev/null 2>&1 || true
			s="$LOGS/$id/clean-${hunt#job:}/summary" rounds=1
		else
			LOGS="$LOGS/$id" host/soak.sh "$hunt" "$BUDGET" 1 >/dev/null 2>&1 || true
			s=$(ls -d "$LOGS/$id"/soak-*-"$hunt" 2>/dev/null | tail -n1)/summary
			rounds=$(sed -n 's/^rounds=//p' "$s" 2>/dev/null || echo 0)
		fi
		st=$(sed -n 's/^status=//p' "$s" 2>/dev/null || echo none)
		result=clean
		if [ "$st" != clean ]; then
			result=FLAGGED clean_all=0
			title=$(grep -P '^finding\t' "$s" | head -n1 | cut -f3 || true)
		fi
		printf '%-28s %-16s %-14s %-7s %6s %6s  %s\n' "series (no mutant)" control "$hunt" "$result" \
			"$((SECONDS - t0))" "$rounds" "${title:--}" | tee -a "$table"
	done
	echo "table: $table"
	[ "$clean_all" = 1 ]
	exit
fi
for p in "${all[@]}"; do
	name=$(basename "$p" .patch)
	nn=${name%%-*}
	if [ -n "${ONLY:-}" ] && [[ ",$ONLY," != *",$nn,"* ]]; then continue; fi
	class=$(sed -n 's/^Class: //p' "$p")
	hunt=$(hunt_for "$class")
	[ "$hunt" != unknown ] || die "$name: unknown class '$class'"
	t0=$SECONDS
	ko=$(build_mutant "$p")
	say "mutants: $name built in $((SECONDS - t0)) s, hunting with $hunt"
	for seed in $(seq "$SEEDS"); do
		t0=$SECONDS rounds=1 title='' result=missed secs=''
		if [[ "$hunt" == job:* ]]; then
			RUN_ID="$id/$name-s$seed" MUTANT_KO=$ko TIMEOUT=$((BUDGET + 120)) \
				host/run.sh "${hunt#job:}" >/dev/null 2>&1 || true
			s="$LOGS/$id/$name-s$seed/summary"
			st=$(sed -n 's/^status=//p' "$s" 2>/dev/null || echo none)
			if [ "$st" != clean ]; then
				result=caught
				title=$(grep -P '^finding\t' "$s" | head -n1 | cut -f3 || true)
				[ -n "$title" ] || title="check failed: $(grep -a -m1 '^not ok - ' "$LOGS/$id/$name-s$seed/results.log" | cut -c10-70 || true)"
			fi
		else
			MUTANT_KO=$ko LOGS="$LOGS/$id" host/soak.sh "$hunt" "$BUDGET" "$seed" >/dev/null 2>&1 || true
			s=$(ls -d "$LOGS/$id"/soak-*-"$hunt" 2>/dev/null | tail -n1)/summary
			if [ "$(sed -n 's/^status=//p' "$s" 2>/dev/null)" = findings ]; then
				result=caught
				title=$(grep -P '^finding\t' "$s" | head -n1 | cut -f3 || true)
				secs=$(sed -n 's/^first_finding_s=//p' "$s")
			fi
			rounds=$(sed -n 's/^rounds=//p' "$s" 2>/dev/null || echo 0)
		fi
		[ "$result" = caught ] || caught_all=0
		# secs: time to the first finding (guest uptime of the first report
		# plus earlier rounds), or the whole hunt when missed or unknown
		[[ "$secs" =~ ^[0-9]+$ ]] || secs=$((SECONDS - t0))
		printf '%-28s %-16s %-14s %-7s %6s %6s  %s\n' "$name" "$class" "$hunt" "$result" \
			"$secs" "$rounds" "${title:--}" | tee -a "$table"
	done
done
# per mutant over its seeds: how often caught, median time to detection
{
	echo
	printf '%-28s %-8s %8s %8s %8s\n' mutant caught "median s" "min s" "max s"
	awk '
	function median(list, v, k, i, j, x) { # "a b c" -> median; sets lo, hi
		k = split(list, v, " ")
		if (!k) { lo = hi = "-"; return "-" }
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] + 0 < v[i] + 0) { x = v[i]; v[i] = v[j]; v[j] = x }
		lo = v[1]; hi = v[k]
		return (k % 2) ? v[(k + 1) / 2] : int((v[k / 2] + v[k / 2 + 1]) / 2)
	}
	NR > 1 && NF >= 6 && $1 ~ /^[0-9][0-9]-/ {
		n[$1]++; if ($4 == "caught") { c[$1]++; t[$1] = t[$1] " " $5 } }
	END {
		for (m in n) {
			med = median(t[m])
			if (med != "-") { all = all " " med; caught++ }
			printf "%-28s %-8s %8s %8s %8s\n", m, (c[m] + 0) "/" n[m], med, lo, hi
			total++
		}
		printf "caught %d of %d mutants; median of their median times %s s\n", caught, total, median(all)
	}' "$table" | sort
} | tee -a "$table"
echo "table: $table"
[ "$caught_all" = 1 ]
