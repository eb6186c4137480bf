#!/usr/bin/env bash
# Shards: the rounds of one soak (same SCENARIO and SEED, so every round has
# the seed it would have in one place) split into ranges and run on several
# hosts that have the rig checked out, with GNU parallel --sshlogin; each
# range is a soak (ROUNDS=a-b) whose directory comes back with --return
# (rsync), and host/report/merge.sh makes them one soak summary here.
#
# usage: HOSTS=LOGIN[,LOGIN...] host/hunt/shard.sh SCENARIO ROUNDS SEED
#   LOGIN    a GNU parallel sshlogin: host, user@host, ':' (this machine) or
#            'ssh -p 2222 user@host'; or HOSTS_FILE= a file of them, one a line
#   ROUNDS   a-b: the rounds of the soak to run, split into CHUNK rounds a
#            job (default: as many jobs as hosts), one job at a time per host
#   SEED     the soak's seed (required: it is what makes the shards one soak)
# environment: RIG_DIR (where the rig is checked out on the hosts; default
#   this checkout's path), CHUNK, and for every shard KEEP_GOING (always 1:
#   a shard cannot stop the others), FAULTS, FLAVOR, KVER, COVER, VCPUS, MEM,
#   JOBS (guests at once on each host; default what that host carries)
# output: LOGS/shard-DATE-SCENARIO/ (the shards' soak directories, and the
#   merged summary, summary.json and rounds)
# exit: 0 clean, 1 findings, 2 bad input or a shard that did not finish
#
#        host/hunt/shard.sh --job SCENARIO RANGE SEED NAME LOCAL_DIR   (what
#        parallel runs on a host: the soak of one range, written to
#        ./NAME, or to LOCAL_DIR/NAME on this machine)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

if [ "${1:-}" = --job ]; then
	[ $# = 6 ] || die "usage: host/hunt/shard.sh --job SCENARIO RANGE SEED NAME LOCAL_DIR"
	out=$PWD host=${PARALLEL_SSHHOST:-:}
	# GNU parallel runs ':' jobs here, in its own work dir, and --return
	# ignores them: they write straight into the local shard directory
	if [ "$host" = : ]; then out=$6 host=$(hostname); cd "$out" && rmdir "$OLDPWD" 2>/dev/null || true; fi
	LOGS=$out SOAK_ID=$5 ROUNDS=$3 RIG_HOST=$host KEEP_GOING=1 exec "$RIG_ROOT/host/hunt/soak.sh" "$2" 1h "$4"
fi

usage="usage: HOSTS=LOGIN[,LOGIN...] host/hunt/shard.sh SCENARIO ROUNDS SEED"
[ $# = 3 ] || die "$usage"
scn=$1 range=$2 seed=$3
command -v parallel >/dev/null || die "GNU parallel is not installed (make deps)"
logins=()
if [ -n "${HOSTS_FILE:-}" ]; then
	[ -f "$HOSTS_FILE" ] || die "HOSTS_FILE: no such file '$HOSTS_FILE'"
	mapfile -t logins < <(grep -v '^[[:space:]]*\(#\|$\)' "$HOSTS_FILE")
elif [ -n "${HOSTS:-}" ]; then
	IFS=, read -r -a logins <<<"$HOSTS"
fi
[ ${#logins[@]} -gt 0 ] || die "HOSTS (or HOSTS_FILE) must name at least one sshlogin ($usage)"
for l in "${logins[@]}"; do
	[[ "$l" =~ ^[A-Za-z0-9:@./_\ =-]+$ ]] || die "HOSTS: '$l' is not an sshlogin (host, user@host, ':' or 'ssh OPTIONS host')"
done
[[ "$range" =~ ^([1-9][0-9]{0,5})-([1-9][0-9]{0,5})$ ]] || die "ROUNDS must look like 1-8 (got '$range')"
a=${BASH_REMATCH[1]} b=${BASH_REMATCH[2]}
[ "$b" -ge "$a" ] || die "ROUNDS: $b is before $a"
[[ "$seed" =~ ^[0-9]{1,18}$ ]] || die "SEED must be a number (got '$seed'): shards of one soak share its seed"
n=$((b - a + 1))
chunk=${CHUNK:-$(((n + ${#logins[@]} - 1) / ${#logins[@]}))}
[[ "$chunk" =~ ^[1-9][0-9]{0,5}$ ]] || die "CHUNK must be a number of rounds (got '$chunk')"
RIG_DIR=${RIG_DIR:-$RIG_ROOT}
[[ "$RIG_DIR" =~ ^/[A-Za-z0-9._/-]+$ ]] || die "RIG_DIR must be an absolute path (got '$RIG_DIR')"
# every shard's input, checked here before anything runs anywhere
ROUNDS=$range "$RIG_ROOT/host/hunt/soak.sh" --check "$scn" 1h "$seed" || exit 2
name=$(basename "${scn%.*}")
for l in "${logins[@]}"; do printf '1/%s\n' "$l"; done >"${tmp:=$(mktemp)}"
trap 'rm -f "$tmp"' EXIT
# every host has the rig where RIG_DIR says (one ssh each)
if ! missing=$(parallel --will-cite --slf "$tmp" --nonall --tag \
	"test -x $RIG_DIR/host/hunt/soak.sh || echo no rig in $RIG_DIR" 2>&1) || [ -n "$missing" ]; then
	die "not every host can run the rig: $missing"
fi

out=$(new_dir "$LOGS/shard-$(date +%Y%m%d-%H%M%S)-$name")
ranges=()
for ((i = a; i <= b; i += chunk)); do
	j=$((i + chunk - 1)); [ "$j" -le "$b" ] || j=$b
	ranges+=("$i-$j")
done
say "shard $(basename "$out"): $name seed $seed, rounds $range in ${#ranges[@]} jobs (${ranges[*]}) on ${#logins[@]} host(s)"
export KEEP_GOING=1 FAULTS=${FAULTS:-} COVER=${COVER:-0} VCPUS=${VCPUS:-2} MEM=${MEM:-2048} JOBS=${JOBS:-}
cd "$out"
rc=0
parallel --will-cite --slf "$tmp" --wd ... --cleanup --return "$name-s$seed-r{}" \
	--env KEEP_GOING --env FAULTS --env COVER --env VCPUS --env MEM --env JOBS --env FLAVOR --env KVER \
	--joblog "$out/joblog" --ungroup \
	"$RIG_DIR/host/hunt/shard.sh" --job "$scn" {} "$seed" "$name-s$seed-r{}" "$out" ::: "${ranges[@]}" || rc=$?
dirs=()
for r in "${ranges[@]}"; do
	[ -f "$out/$name-s$seed-r$r/summary.json" ] || die "rounds $r did not come back (see $out/joblog)"
	dirs+=("$out/$name-s$seed-r$r")
done
# a soak exits 1 on findings; anything else is a shard that failed
awk -F'\t' 'NR > 1 && $7 != 0 && $7 != 1 { bad = 1; print "error: " $9 " exited " $7 > "/dev/stderr" } END { exit bad }' \
	"$out/joblog" || die "a shard failed (see $out/joblog; parallel exit $rc)"
"$RIG_ROOT/host/report/merge.sh" -o "$out" "${dirs[@]}"
