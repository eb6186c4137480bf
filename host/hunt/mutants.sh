#!/usr/bin/env bash
# Prove the hunter: build each planted-bug mutant of the scheduler
# (patch/$KVER/mutants/NN-name.patch, applied on top of the series, never part of
# a normal build), hunt it with the scenario its class calls for, and print
# a table: caught or missed, time to the first finding, its title, rounds.
#
# usage: host/hunt/mutants.sh            MUTANTS=NN[,NN]  SEEDS=1  BUDGET=600 (s per hunt)
#                                   BLIND=0|1 (default 1)  BLIND_BUDGET=600
#        CLEAN=1 host/hunt/mutants.sh    the untouched series through every hunt (no finding expected)
#        host/hunt/mutants.sh --check    only check the settings (exit 0 or 2)
# Each mutant is hunted twice per seed: by the scenario its class calls for
# ("class"), and by the default soak (make soak with no arguments), which
# does not know the class, as a real bug would be hunted ("blind"). A
# finding that matches the mutant's Expect: line is "caught"; any other
# finding is "caught-other".
# exit: 0 when every mutant was caught (either way), 1 otherwise, 2 on bad input.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

check_only=''
[ "${1:-}" != --check ] || { check_only=1; shift; }
[ $# -eq 0 ] || die "usage: host/hunt/mutants.sh [--check] (settings in the environment: MUTANTS SEEDS BUDGET BLIND BLIND_BUDGET CLEAN)"
# every setting is checked before anything is built
kver_check
flavor_fragments "$FLAVOR" >/dev/null
cover_check
SEEDS=${SEEDS:-1} BUDGET=${BUDGET:-600}
[[ "$SEEDS" =~ ^[1-9][0-9]*$ ]] || die "SEEDS must be a positive number (got '$SEEDS')"
[[ "$BUDGET" =~ ^[0-9]+$ ]] && [ "$BUDGET" -ge 30 ] || die "BUDGET must be at least 30 s (got '$BUDGET')"
BLIND=${BLIND:-1} BLIND_BUDGET=${BLIND_BUDGET:-600}
[[ "$BLIND" =~ ^[01]$ ]] || die "BLIND must be 0 or 1 (got '$BLIND')"
[[ "$BLIND_BUDGET" =~ ^[0-9]+$ ]] && [ "$BLIND_BUDGET" -ge 30 ] || die "BLIND_BUDGET must be at least 30 s (got '$BLIND_BUDGET')"
CLEAN=${CLEAN:-0} MUTANTS=${MUTANTS:-}
[[ "$CLEAN" =~ ^[01]$ ]] || die "CLEAN must be 0 or 1 (got '$CLEAN')"
DEFAULT_SOAK=$(sed -n 's/^SCENARIO ?= //p' "$RIG_ROOT/Makefile")
mapfile -t all < <(ls "$(mutant_dir)"/*.patch 2>/dev/null)
[ "${#all[@]}" -gt 0 ] || die "no mutants in $(mutant_dir)"
if [ -n "$MUTANTS" ]; then
	[[ "$MUTANTS" =~ ^[0-9]{2}(,[0-9]{2})*$ ]] || die "MUTANTS must be mutant numbers like 02,05 (got '$MUTANTS')"
	for nn in ${MUTANTS//,/ }; do
		compgen -G "$(mutant_dir)/$nn-*.patch" >/dev/null ||
			die "MUTANTS: no mutant $nn (have: $(for p in "${all[@]}"; do basename "$p" | cut -c1-2; done | tr '\n' ' '))"
	done
fi

# The class of a mutant decides how it is hunted, as it would for a real,
# unknown bug of that kind: a scenario name (SCENARIO@FLAVOR: on that
# kernel), or job:NAME for a guest job.
hunt_for() {
	case "$1" in
	data-race) echo smoke@race ;;
	timer-exit | teardown) echo switch-storm ;;
	timer-queue | refcount | lock-order | stall) echo exit-race ;;
	irq-lock | sleep-in-atomic | leak) echo smoke ;;
	requeue) echo requeue ;;
	init-fail | merge) echo paths ;;
	tunables) echo tunables ;;
	slice-arith | prio) echo job:cfq ;;
	*) echo unknown ;;
	esac
}

for p in "${all[@]}"; do
	[ "$(hunt_for "$(sed -n 's/^Class: //p' "$p")")" != unknown ] || die "$(basename "$p"): unknown Class: line"
done
[ -z "$check_only" ] || exit 0
build=$("$RIG_ROOT/host/build/kernel.sh" | tail -n1)
"$RIG_ROOT/host/build/image.sh" "$build" >/dev/null

# build one mutant module out of tree for a guest job; prints the .ko path
# (a soak builds it for each kernel its rounds boot: MUTANT_PATCH)
build_mutant() { build_cfq_module "$build" "$build/mutants/$(basename "$1" .patch)" "$1"; }
# a soak of HUNT: a scenario or rotation, SCENARIO@FLAVOR on that kernel
hunt_soak() { # HUNT DURATION SEED
	local fl=$FLAVOR
	[[ "$1" != *@* ]] || fl=${1#*@}
	FLAVOR=$fl "$RIG_ROOT/host/hunt/soak.sh" "${1%@*}" "$2" "$3"
}

id="mutants-$(date +%Y%m%d-%H%M%S)"
table="$LOGS/$id.table"
mkdir -p "$LOGS"
printf '%-28s %-16s %-14s %-12s %6s %6s  %s\n' mutant class hunt result secs rounds "first finding" | tee "$table"
caught_all=1
# CLEAN=1: the negative control. The untouched series runs every hunt the
# mutants use, and a finding there is a false positive of the rig.
if [ "$CLEAN" = 1 ]; then
	clean_all=1
	for hunt in $( (for p in "${all[@]}"; do hunt_for "$(sed -n 's/^Class: //p' "$p")"; done
		[ "$BLIND" = 0 ] || echo "$DEFAULT_SOAK") | sort -u); do
		t0=$SECONDS title=''
		if [[ "$hunt" == job:* ]]; then
			RUN_ID="$id/clean-${hunt#job:}" TIMEOUT=$((BUDGET + 120)) "$RIG_ROOT/host/vm/run.sh" "${hunt#job:}" >/dev/null 2>&1 || true
			s="$LOGS/$id/clean-${hunt#job:}/summary" rounds=1
		else
			mkdir -p "$LOGS/$id/clean-$hunt"
			LOGS="$LOGS/$id/clean-$hunt" hunt_soak "$hunt" "$BUDGET" 1 >/dev/null 2>&1 || true
			s=$(echo "$LOGS/$id/clean-$hunt"/soak-*/summary)
			rounds=$(sed -n 's/^rounds=//p' "$s" 2>/dev/null || echo 0)
		fi
		st=$(sed -n 's/^status=//p' "$s" 2>/dev/null || echo none)
		result=clean
		if [ "$st" != clean ]; then
			result=FLAGGED clean_all=0
			title=$(grep -P '^finding\t' "$s" | head -n1 | cut -f3 || true)
		fi
		printf '%-28s %-16s %-14s %-12s %6s %6s  %s\n' "series (no mutant)" control "$hunt" "$result" \
			"$((SECONDS - t0))" "$rounds" "${title:--}" | tee -a "$table"
	done
	echo "table: $table"
	[ "$clean_all" = 1 ]
	exit
fi
# One hunt of one mutant: a guest job (job:NAME) or a soak (a scenario, or
# blind:NAME for the default soak); one table row.
hunt_one() { # NAME CLASS HUNT SEED BUDGET KO PATCH EXPECT
	local name=$1 class=$2 hunt=$3 seed=$4 budget=$5 ko=$6 patch=$7 expect=$8
	local t0=$SECONDS rounds=1 title='' result=missed secs='' s st sdir
	if [[ "$hunt" == job:* ]]; then
		RUN_ID="$id/$name-s$seed" MUTANT_KO=$ko TIMEOUT=$((budget + 120)) \
			"$RIG_ROOT/host/vm/run.sh" "${hunt#job:}" >/dev/null 2>&1 || true
		s="$LOGS/$id/$name-s$seed/summary"
		st=$(sed -n 's/^status=//p' "$s" 2>/dev/null || echo none)
		if [ "$st" != clean ]; then
			result=caught
			title=$(grep -P '^finding\t' "$s" | head -n1 | cut -f3 || true)
			[ -n "$title" ] || title="check failed: $(grep -a -m1 '^not ok - ' "$LOGS/$id/$name-s$seed/results.log" | cut -c10-70 || true)"
		fi
	else
		sdir="$LOGS/$id/$name-s$seed-${hunt#blind:}"
		mkdir -p "$sdir"
		MUTANT_PATCH=$patch LOGS="$sdir" hunt_soak "${hunt#blind:}" "$budget" "$seed" >/dev/null 2>&1 || true
		s=$(echo "$sdir"/soak-*/summary)
		if [ "$(sed -n 's/^status=//p' "$s" 2>/dev/null)" = findings ]; then
			result=caught
			title=$(grep -P '^finding\t' "$s" | head -n1 | cut -f3 || true)
			secs=$(sed -n 's/^first_finding_s=//p' "$s")
		fi
		rounds=$(sed -n 's/^rounds=//p' "$s" 2>/dev/null || echo 0)
	fi
	if [ "$result" = caught ] && ! title_expected "$expect" "$title"; then result=caught-other; fi
	[ "$result" != missed ] || caught_all=0
	# secs: time to the first finding (guest uptime of the first report
	# plus earlier rounds), or the whole hunt when missed or unknown
	[[ "$secs" =~ ^[0-9]+$ ]] || secs=$((SECONDS - t0))
	printf '%-28s %-16s %-14s %-12s %6s %6s  %s\n' "$name" "$class" "$hunt" "$result" \
		"$secs" "$rounds" "${title:--}" | tee -a "$table"
}

for p in "${all[@]}"; do
	name=$(basename "$p" .patch)
	nn=${name%%-*}
	if [ -n "$MUTANTS" ] && [[ ",$MUTANTS," != *",$nn,"* ]]; then continue; fi
	class=$(sed -n 's/^Class: //p' "$p")
	expect=$(sed -n 's/^Expect: //p' "$p")
	hunt=$(hunt_for "$class")
	[ "$hunt" != unknown ] || die "$name: unknown class '$class'"
	t0=$SECONDS
	ko=$(build_mutant "$p")
	say "mutants: $name built in $((SECONDS - t0)) s, hunting with $hunt"
	for seed in $(seq "$SEEDS"); do
		hunt_one "$name" "$class" "$hunt" "$seed" "$BUDGET" "$ko" "$p" "$expect"
		[ "$BLIND" = 0 ] || hunt_one "$name" "$class" "blind:$DEFAULT_SOAK" "$seed" "$BLIND_BUDGET" "$ko" "$p" "$expect"
	done
done
# per mutant and kind of hunt (class, blind) over its seeds: how often
# caught (expected finding + other finding), median and max time
{
	echo
	printf '%-28s %-6s %-10s %8s %8s %8s\n' mutant hunt caught "median s" "min s" "max s"
	awk '
	function median(list, v, k, i, j, x) { # "a b c" -> median; sets lo, hi
		k = split(list, v, " ")
		if (!k) { lo = hi = "-"; return "-" }
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] + 0 < v[i] + 0) { x = v[i]; v[i] = v[j]; v[j] = x }
		lo = v[1]; hi = v[k]
		return (k % 2) ? v[(k + 1) / 2] : int((v[k / 2] + v[k / 2 + 1]) / 2)
	}
	NR > 1 && NF >= 6 && $1 ~ /^[0-9][0-9]-/ {
		h = ($3 ~ /^blind:/) ? "blind" : "class"; m = $1 SUBSEP h; key[m] = 1
		n[m]++
		if ($4 == "caught") c[m]++
		if ($4 == "caught-other") o[m]++
		if ($4 ~ /^caught/) t[m] = t[m] " " $5 }
	END {
		for (m in key) {
			split(m, mh, SUBSEP)
			med = median(t[m])
			if (med != "-") { all[mh[2]] = all[mh[2]] " " med; caught[mh[2]]++ }
			printf "%-28s %-6s %-10s %8s %8s %8s\n", mh[1], mh[2], (c[m] + 0) "+" (o[m] + 0) "/" n[m], med, lo, hi
			total[mh[2]]++
		}
		for (h in total)
			printf "%s hunts: caught %d of %d mutants; median of their median times %s s\n", h, caught[h], total[h], median(all[h])
	}' "$table" | sort
	echo "caught: k+o/N = k with the expected finding, o with another, of N seeds"
} | tee -a "$table"
echo "table: $table"
[ "$caught_all" = 1 ]
