#!/usr/bin/env bash
# test: results 105 guest
# Results that CI systems read, and shards. Rounds 1-2 of one soak of control
# (30 s rounds under the alloc fault set; each has a planted lockdep report,
# KEEP_GOING) run here with JOBS=2 (both guests at once). Its summary.json
# and its rounds' (doc/summary-json.md) must hold what the schema promises;
# host/report/export-kcidb.sh must turn it into KCIDB data that the published schema
# (tests/kcidb/, kcidb-io v5.3) accepts, and the schema must reject a broken
# copy. Then the same rounds run as shards on GNU parallel: a private sshd on
# a spare port of 127.0.0.1 (its own host key, a client key made here) is the
# second host ("shardhost"), this machine (':') the first; the remote shard's
# directory comes back over rsync, host/report/merge.sh makes one soak of them, and
# that must equal the soak run in one place (rounds, seeds, statuses,
# findings and the rounds they were seen in).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
TEST_GROUP=results
. tests/lib.sh
logs=$PWD/logs/test-${TEST_STAMP:-x}-results
rm -rf "$logs" && mkdir -p "$logs/ssh"
d=$logs/ssh
sshd_pid=''
trap '[ -z "$sshd_pid" ] || kill "$sshd_pid" 2>/dev/null' EXIT

# the second host: sshd on a spare port, keys made for this test
ssh-keygen -q -t ed25519 -N '' -f "$d/hostkey" && ssh-keygen -q -t ed25519 -N '' -f "$d/id" || exit 1
cp "$d/id.pub" "$d/authorized_keys"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$d/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $d/hostkey
PidFile $d/sshd.pid
AuthorizedKeysFile $d/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
AcceptEnv RIG_CACHE
EOF
cat >"$d/ssh_config" <<EOF
Host shardhost
	HostName 127.0.0.1
	Port $port
	User $(id -un)
	IdentityFile $d/id
	IdentitiesOnly yes
	BatchMode yes
	StrictHostKeyChecking yes
	UserKnownHostsFile $d/known_hosts
	# "shardhost" is this machine: its shard uses this test's cache, not
	# the default one that other rig commands here may be using
	SetEnv RIG_CACHE=${RIG_CACHE:-$HOME/.cache/cfq-rig}
EOF
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$d/hostkey.pub")" >"$d/known_hosts"
mkdir -p /run/sshd # privilege separation directory
/usr/sbin/sshd -D -e -f "$d/sshd_config" 2>"$d/sshd.log" &
sshd_pid=$!
for _ in $(seq 1 20); do
	ssh -F "$d/ssh_config" shardhost true 2>/dev/null && break
	sleep 0.5
done
if [ "$(ssh -F "$d/ssh_config" shardhost 'echo $SSH_CONNECTION' 2>&1 | awk '{print $4}')" = "$port" ]; then
	pass "sshd on 127.0.0.1:$port answers with the test's key"
else
	fail "sshd on 127.0.0.1:$port answers with the test's key" "$(tail -5 "$d/sshd.log")"; exit 1
fi

printf 'control 30 alloc\n' >"$logs/control30.rot"
j() { python3 host/report/results.py json "$@" 2>/dev/null; }
validate() { python3 tests/kcidb/validate.py tests/kcidb/kcidb-io.schema.v5.3.json "$1"; }

# the soak in one place, two guests at once
SOAK_ID=ref ROUNDS=1-2 JOBS=2 KEEP_GOING=1 LOGS=$logs host/hunt/soak.sh "$logs/control30.rot" 1h 11 >"$logs/ref.out" 2>&1
rc=$?
s=$logs/ref
[ -f "$s/summary.json" ] || { fail "the soak wrote summary.json (exit $rc)" "$(tail -5 "$logs/ref.out")"; exit 1; }
both() { [ "$rc" = 1 ] && grep -q 'running: r1 [0-9]* s, r2' "$logs/ref.out"; }
check "JOBS=2 ran rounds 1 and 2 at once; planted findings (exit 1)" both
check "soak summary.json: schema, type and id" \
	[ "$(j "$s/summary.json" schema) $(j "$s/summary.json" type) $(j "$s/summary.json" id)" = "cfq-rig-summary/1 soak ref" ]
check "soak summary.json: kernel hash, series and flavor of the rounds" \
	[ "$(j "$s/summary.json" kernel.hash) $(j "$s/summary.json" kernel.series) $(j "$s/summary.json" kernel.flavor)" = \
	"$(sed -n 's/^kernel=//p' "$s/r001/summary") $(sed -n 's/^series=//p' "$s/r001/summary") debug" ]
check "soak summary.json: scenario, seed and the rounds' seeds" \
	[ "$(j "$s/summary.json" scenario) $(j "$s/summary.json" seed) $(j "$s/summary.json" seeds)" = \
	"control30 11 [11, $(sed -n 's/^seed=//p' "$s/r002/summary")]" ]
check "soak summary.json: ops per stressor add up to the ops" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(not (d["ops"] > 0 and sum(d["ops_per_stressor"].values()) == d["ops"] and d["ops_per_stressor"].get("readers", 0) > 0))' \
	"$s/summary.json"
check "soak summary.json: faults fired (failslab > 0)" [ "$(j "$s/summary.json" faults_fired.failslab || echo 0)" -gt 0 ]
title=$(j "$s/summary.json" findings.0.title)
check "soak summary.json: the finding's title, kind, round, seed and rounds seen ($title)" \
	[ "$(j "$s/summary.json" findings.0.kind) $(j "$s/summary.json" findings.0.round) $(j "$s/summary.json" findings.0.seed) $(j "$s/summary.json" findings.0.seen_in_rounds)" = "lockdep 1 11 [1, 2]" ]
up=$(j "$s/summary.json" findings.0.uptime_s)
check "soak summary.json: the finding's guest uptime ($up s) is after the planted report's 8 s" \
	python3 -c 'import sys; sys.exit(not 8 < float(sys.argv[1]) < 60)' "${up:-0}"
log=$(j "$s/summary.json" findings.0.log)
check "soak summary.json: the finding's log ($log) holds its report" grep -q 'rig_splat\|rig_lock' "$s/$log"
check "round summary.json: a run with the same finding and uptime" \
	[ "$(j "$s/r001/summary.json" type) $(j "$s/r001/summary.json" findings.0.title) $(j "$s/r001/summary.json" findings.0.uptime_s)" = "run $title $up" ]
check "round summary.json: the round's seed, duration, vCPUs and fault sets" \
	[ "$(j "$s/r001/summary.json" seed) $(j "$s/r001/summary.json" duration_s) $(j "$s/r001/summary.json" vcpus) $(j "$s/r001/summary.json" faults)" = '11 30 2 ["alloc"]' ]

# KCIDB: the export validates against the published schema
host/report/export-kcidb.sh "$s" "$logs/kcidb.json" 2>"$logs/kcidb.err"
out=$(validate "$logs/kcidb.json" 2>&1)
vrc=$?
if [ "$vrc" = 0 ] && [ -s "$logs/kcidb.json" ]; then pass "the KCIDB export is valid against the published schema v5.3"
else fail "the KCIDB export is valid against the published schema v5.3 (validator exit $vrc)" "$(cat "$logs/kcidb.err" - <<<"$out")"; fi
check "export-kcidb: 1 checkout, 1 build, 2 tests (FAIL), 1 issue, 2 incidents" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(not ([len(d[k]) for k in ("checkouts", "builds", "tests", "issues", "incidents")] == [1, 1, 2, 1, 2]
	and {t["status"] for t in d["tests"]} == {"FAIL"} and {i["issue_id"] for i in d["incidents"]} == {d["issues"][0]["id"]}
	and d["issues"][0]["report_subject"] == sys.argv[2]))' "$logs/kcidb.json" "$title"
# the validator is not blind: an incident without its issue, an origin in capitals
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); del d["incidents"][0]["issue_id"]
d["builds"][0]["origin"] = "CFQ"; json.dump(d, open(sys.argv[2], "w"))' "$logs/kcidb.json" "$logs/kcidb-broken.json"
out=$(validate "$logs/kcidb-broken.json" 2>&1)
vrc=$?
rejected() { [ "$vrc" = 1 ] && grep -q "issue_id" <<<"$out" && grep -q "CFQ" <<<"$out"; }
check "the schema rejects a broken export (no issue_id, origin CFQ)" rejected

# the same rounds as two shards, one here and one on shardhost
pdirs() { find ~/.parallel/tmp -maxdepth 2 -name "control30-s11-r*" 2>/dev/null | sort; }
before=$(pdirs)
HOSTS=":,ssh -F $d/ssh_config shardhost" LOGS=$logs host/hunt/shard.sh "$logs/control30.rot" 1-2 11 >"$logs/shard.out" 2>&1
src=$?
out=$(sed -n 's|^ summary: \(.*\)/summary and summary.json$|\1|p' "$logs/shard.out")
m=$out/summary.json
r=$s/summary.json
merged() { [ "$src" = 1 ] && [ -f "$m" ]; }
if merged; then pass "two shards ran and merged (exit 1: findings)"
else fail "two shards ran and merged (exit 1: findings)" "$(tail -n 5 "$logs/shard.out")"; fi
hosts=$(j "$m" hosts)
check "one shard ran here, one on shardhost over ssh ($hosts)" \
	[ "$hosts" = "$(python3 -c 'import json, sys; print(json.dumps(sorted(sys.argv[1:])))' "$(hostname)" shardhost)" ]
rdir=$(python3 -c 'import json, sys; print(next(r["dir"] for r in json.load(open(sys.argv[1]))["rounds"] if r["host"] == "shardhost"))' "$m" 2>/dev/null)
back() { [ -n "$rdir" ] && [ -s "$out/$rdir/console.log" ] && [ -f "$out/$rdir/summary.json" ]; }
check "the remote round came back ($rdir with its console.log)" back
# shardhost is this machine with the test's RIG_CACHE (SetEnv above): both
# shards boot the one kernel built there
kernels=$(cat "$out"/control30-s11-r*/r*/summary 2>/dev/null | sed -n 's/^kernel=//p' | sort -u | xargs)
check "both shards booted the kernel of the test's cache ($kernels)" [ "$(wc -w <<<"$kernels")" = 1 ]
# parallel's work directory on the remote (~/.parallel/tmp/...) went with
# --cleanup (one that an earlier, killed run left is not this run's)
left=$(comm -13 <(echo "$before") <(pdirs))
check "the remote work directory was cleaned up" [ -z "$left" ]
same() { # WHAT PYTHON-EXPR: the same in the merge and in the soak run in one place
	local a b
	a=$(python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$m" 2>&1)
	b=$(python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$r" 2>&1)
	if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "[]" ]; then
		pass "the merge of the shards has the soak's $1"; echo "#   $a" | cut -c1-200
	else
		fail "the merge of the shards has the soak's $1" "$(printf 'merge: %s\nsoak:  %s\n' "$a" "$b" | cut -c1-296)"
	fi
}
same "rounds and seeds" '[(x["round"], x["seed"], x["scenario"], x["faults"], x["duration_s"]) for x in d["rounds"]]'
same "round statuses" '[(x["round"], x["status"]) for x in d["rounds"]]'
same "findings (title, kind, first round, seed, rounds seen)" \
	'[(f["title"], f["kind"], f["round"], f["seed"], f["seen_in_rounds"]) for f in d["findings"]]'
same "seed, scenario and round seeds" '(d["seed"], d["scenario"], d["seeds"])'
keeps() {
	python3 -c 'import json, sys, os
d = json.load(open(sys.argv[1]))
sys.exit(not (d["findings"] and all(f["host"] and os.path.exists(os.path.join(sys.argv[2], f["log"])) for f in d["findings"])))' "$m" "$out"
}
check "each merged finding keeps its host and a log path that exists" keeps
host/report/export-kcidb.sh "$out" "$logs/kcidb-merged.json" 2>/dev/null
check "the KCIDB export of the merge is valid too" validate "$logs/kcidb-merged.json"
