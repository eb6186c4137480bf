#!/usr/bin/env bash
# Shards on GNU parallel with a real sshd. A private sshd on a spare port of
# 127.0.0.1 (its own host key, a client key made here) is the second host
# ("shardhost"); this machine (':') is the first. host/shard.sh runs rounds
# 1-2 of one soak of control (30 s rounds, KEEP_GOING: a planted lockdep
# report in each) as two jobs, one per host; the remote one's directory
# comes back over rsync, and host/merge.sh makes them one soak. The same
# rounds then run in one place (JOBS=2: two guests at once): the merged
# summary must have the same rounds, seeds and findings.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
logs=$PWD/logs/test-${TEST_STAMP:-x}-shards
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
	echo "ok - shards: sshd on 127.0.0.1:$port answers with the test's key"
else
	echo "not ok - shards: sshd on 127.0.0.1:$port answers with the test's key"; tail -5 "$d/sshd.log" | sed 's/^/#   /'; exit 1
fi

printf 'control 30 -\n' >"$logs/control30.rot"
HOSTS=":,ssh -F $d/ssh_config shardhost" LOGS=$logs host/shard.sh "$logs/control30.rot" 1-2 5 >"$logs/shard.out" 2>&1
src=$?
out=$(sed -n 's|^ summary: \(.*\)/summary and summary.json$|\1|p' "$logs/shard.out")
m=$out/summary.json
j() { python3 host/results.py json "$@" 2>/dev/null; }
if [ "$src" = 1 ] && [ -f "$m" ]; then
	echo "ok - shards: two shards ran and merged (exit 1: findings)"
else
	echo "not ok - shards: two shards ran and merged (exit $src)"; tail -8 "$logs/shard.out" | sed 's/^/#   /'
fi
hosts=$(j "$m" hosts)
[ "$hosts" = "$(python3 -c 'import json, sys; print(json.dumps(sorted(sys.argv[1:])))' "$(hostname)" shardhost)" ] && echo "ok - shards: one shard ran here, one on shardhost over ssh ($hosts)" ||
	echo "not ok - shards: one shard ran here, one on shardhost over ssh (hosts $hosts)"
rdir=$(python3 -c 'import json, sys; print(next(r["dir"] for r in json.load(open(sys.argv[1]))["rounds"] if r["host"] == "shardhost"))' "$m" 2>/dev/null)
[ -n "$rdir" ] && [ -s "$out/$rdir/console.log" ] && [ -f "$out/$rdir/summary.json" ] &&
	echo "ok - shards: the remote round came back ($rdir with its console.log)" ||
	echo "not ok - shards: the remote round came back ('$rdir')"
# parallel's work directory on the remote (~/.parallel/tmp/...) went with --cleanup
left=$(find ~/.parallel/tmp -maxdepth 2 -name "control30-s5-r*" 2>/dev/null)
[ -z "$left" ] && echo "ok - shards: the remote work directory was cleaned up" ||
	echo "not ok - shards: the remote work directory was cleaned up ($left)"

# the same rounds in one place, two guests at once
SOAK_ID=ref ROUNDS=1-2 JOBS=2 KEEP_GOING=1 LOGS=$logs host/soak.sh "$logs/control30.rot" 1h 5 >"$logs/ref.out" 2>&1
rrc=$?
r=$logs/ref/summary.json
[ "$rrc" = 1 ] && [ -f "$r" ] && grep -q 'running: r1 [0-9]* s, r2' "$logs/ref.out" &&
	echo "ok - shards: the reference soak ran rounds 1 and 2 at once (JOBS=2, exit 1)" ||
	{ echo "not ok - shards: the reference soak ran rounds 1 and 2 at once (JOBS=2, exit $rrc)"; tail -5 "$logs/ref.out" | sed 's/^/#   /'; }
same() { # WHAT PYTHON-EXPR: the same in the merge and in the reference
	local a b
	a=$(python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$m" 2>&1)
	b=$(python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$r" 2>&1)
	if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "[]" ]; then
		echo "ok - shards: the merge has the reference's $1"; echo "#   $a" | cut -c1-200
	else
		echo "not ok - shards: the merge has the reference's $1"; echo "#   merge: $a" "#   reference: $b" | cut -c1-400
	fi
}
same "rounds and seeds" '[(x["round"], x["seed"], x["scenario"], x["faults"], x["duration_s"]) for x in d["rounds"]]'
same "round statuses" '[(x["round"], x["status"]) for x in d["rounds"]]'
same "findings (title, kind, first round, seed, rounds seen)" \
	'[(f["title"], f["kind"], f["round"], f["seed"], f["seen_in_rounds"]) for f in d["findings"]]'
same "soak seed and scenario" '(d["seed"], d["scenario"], d["seeds"])'
n=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$m" 2>/dev/null)
[ "${n:-0}" -ge 1 ] && python3 -c 'import json, sys, os
d = json.load(open(sys.argv[1]))
sys.exit(not all(f["host"] and os.path.exists(os.path.join(sys.argv[2], f["log"])) for f in d["findings"]))' "$m" "$out" &&
	echo "ok - shards: each merged finding keeps its host and a log path that exists" ||
	echo "not ok - shards: each merged finding keeps its host and a log path that exists"
