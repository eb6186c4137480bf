#!/usr/bin/env bash
# test: entry 15 host
# Bad input to the soak, run, merge, shard and export entry points: each case
# runs from another working directory with an empty RIG_CACHE, and must exit
# 2 with its reason and leave that cache empty (nothing was built or
# extracted). The time of each case is printed (the target is under 2 s; not
# asserted, the machine is shared).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=entry
. tests/lib.sh
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/cache" "$tmp/cwd" "$tmp/logs" "$tmp/notsoak" "$tmp/run"
echo '{"schema": "cfq-rig-summary/1", "type": "run"}' >"$tmp/run/summary.json"
: >"$tmp/run/rounds"
slowest=0 slowest_name=''

# refused NAME PATTERN CMD...: CMD exits 2, prints PATTERN, builds nothing
refused() {
	local name=$1 pat=$2 out rc t0 ms
	shift 2
	t0=$(date +%s%N)
	out=$(cd "$tmp/cwd" && RIG_CACHE="$tmp/cache" LOGS="$tmp/logs" "$@" 2>&1)
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$ms" -le "$slowest" ] || { slowest=$ms slowest_name=$name; }
	if [ "$rc" = 2 ] && grep -qE -- "$pat" <<<"$out" && [ -z "$(ls -A "$tmp/cache")" ]; then
		pass "$name (exit 2, ${ms} ms)"
	else
		fail "$name (exit $rc, want 2 and /$pat/; cache: $(ls -A "$tmp/cache" | head -3 | tr '\n' ' '))" "$out"
	fi
}
S=$root/host/hunt/soak.sh R=$root/host/vm/run.sh M=$root/host/report/merge.sh K=$root/host/report/export-kcidb.sh H=$root/host/hunt/shard.sh

refused "soak: no arguments" "usage: host/hunt/soak.sh" "$S"
refused "soak: DURATION with a stray unit" "DURATION must look like 90s" "$S" smoke 1m5
refused "soak: DURATION too short" "DURATION must be at least 30 s" "$S" smoke 20
refused "soak: SEED not a number" "SEED must be a number" "$S" smoke 1m 12x
refused "soak: JOBS=0" "JOBS must be 1 to 99" env JOBS=0 "$S" smoke 1m
refused "soak: VCPUS not a number" "VCPUS must be 1 to 64" env VCPUS=two "$S" smoke 1m
refused "soak: KEEP_GOING not 0 or 1" "KEEP_GOING must be 0 or 1" env KEEP_GOING=yes "$S" smoke 1m
refused "soak: SOAK_ID with a path" "SOAK_ID must be a name" env SOAK_ID=../x "$S" smoke 1m
refused "soak: FAULTS names no set" "FAULTS: no fault set faults/nope.flt" env FAULTS=nope "$S" smoke 1m
refused "soak: MEM too small (run's setting, checked first)" "MEM must be at least 512" env MEM=100 "$S" smoke 1m
refused "soak: ACCEL unknown" "ACCEL must be auto, kvm or tcg" env ACCEL=fast "$S" smoke 1m
refused "soak: RIG_HOST with a space" "RIG_HOST must be a host name" env RIG_HOST="a b" "$S" smoke 1m
refused "soak --check: a bad scenario" "unknown scenario 'nosuch'" "$S" --check nosuch 1m
refused "run: no arguments" "usage: host/vm/run.sh" "$R"
refused "run: VCPUS=0" "VCPUS must be a positive number" env VCPUS=0 "$R" probe
refused "run: RUN_ID outside LOGS" "RUN_ID must be a relative name" env RUN_ID=../../x "$R" probe
refused "run: BOOT_SILENCE not a number" "BOOT_SILENCE must be a positive number" env BOOT_SILENCE=soon "$R" probe
refused "run: KEEP_DISK not 0 or 1" "KEEP_DISK must be 0 or 1" env KEEP_DISK=2 "$R" probe
refused "run: KMEMLEAK=yes" "KMEMLEAK must be auto, 0 or 1" env KMEMLEAK=yes "$R" probe
refused "run: HRES_BOOTS=0" "HRES_BOOTS must be a positive number of boots" env HRES_BOOTS=0 "$R" probe
refused "soak: HRES_BOOTS not a number (run's setting)" "HRES_BOOTS must be a positive number" env HRES_BOOTS=many "$S" smoke 1m
refused "summarize: not a run directory" "usage: host/report/summarize.sh" "$root/host/report/summarize.sh" "$tmp/notsoak"
refused "merge: no arguments" "usage: host/report/merge.sh" "$M"
refused "merge: no such directory" "no such directory" "$M" "$tmp/none"
refused "merge: not a soak directory" "is not a finished soak directory" "$M" "$tmp/notsoak"
refused "merge: a run, not a soak" "is a run, not a soak" "$M" -o "$tmp/m1" "$tmp/run"
refused "merge: a directory named twice" "named twice" "$M" "$tmp/run" "$tmp/run/"
refused "merge: -o without a directory" "usage: host/report/merge.sh" "$M" -o
refused "export-kcidb: no arguments" "usage: host/report/export-kcidb.sh" "$K"
refused "export-kcidb: no summary.json" "has no summary.json" "$K" "$tmp/notsoak"
refused "export-kcidb: a run, not a soak" "is not a soak's" "$K" "$tmp/run"
refused "export-kcidb: bad KCIDB_ORIGIN" "KCIDB_ORIGIN must be" env KCIDB_ORIGIN=Rig-1 "$K" "$tmp/run"
refused "shard: no HOSTS" "HOSTS \(or HOSTS_FILE\) must name" "$H" smoke 1-4 7
refused "shard: ROUNDS not a range" "ROUNDS must look like 1-8" env HOSTS=: "$H" smoke 4 7
refused "shard: ROUNDS backwards" "ROUNDS: 2 is before 4" env HOSTS=: "$H" smoke 4-2 7
refused "shard: no SEED" "SEED must be a number" env HOSTS=: "$H" smoke 1-4 ''
refused "shard: a host that is not an sshlogin" "is not an sshlogin" env HOSTS=':,a;b' "$H" smoke 1-4 7
refused "shard: an unknown scenario" "unknown scenario 'nosuch'" env HOSTS=: "$H" nosuch 1-4 7
refused "shard: RIG_DIR relative" "RIG_DIR must be an absolute path" env HOSTS=: RIG_DIR=rig "$H" smoke 1-4 7
refused "shard: a host without the rig" "not every host can run the rig" env HOSTS=: RIG_DIR=/nonexistent "$H" smoke 1-4 7
refused "shard: HOSTS_FILE missing" "HOSTS_FILE: no such file" env HOSTS_FILE="$tmp/none" "$H" smoke 1-4 7
echo "# slowest case: $slowest_name, $slowest ms"
