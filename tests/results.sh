#!/usr/bin/env bash
# Results that CI systems read. One round of control (30 s, under the alloc
# fault set; its planted lockdep report is a finding) as a soak: the soak's
# and the round's summary.json (doc/summary-json.md) hold what the schema
# promises; host/export-kcidb.sh turns the soak into KCIDB data that the
# published KCIDB schema (tests/kcidb/, kcidb-io v5.3) accepts, and a broken
# copy of it is rejected; tests/run.sh prints KTAP.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
logs=$PWD/logs/test-${TEST_STAMP:-x}-results
rm -rf "$logs" && mkdir -p "$logs"
printf 'control 30 alloc\n' >"$logs/control30.rot"
SOAK_ID=soak LOGS=$logs host/soak.sh "$logs/control30.rot" 30s 11 >"$logs/soak.out" 2>&1
rc=$?
s=$logs/soak
j() { python3 host/results.py json "$@" 2>/dev/null; }
check() { # NAME COMMAND...: ok when COMMAND succeeds
	local name=$1; shift
	if "$@"; then echo "ok - results: $name"; else echo "not ok - results: $name"; fi
}
[ -f "$s/summary.json" ] || { echo "not ok - results: the soak wrote summary.json (exit $rc)"; tail -5 "$logs/soak.out" | sed 's/^/#   /'; exit 1; }
check "the control round is a finding (soak exit 1)" [ "$rc" = 1 ]
check "soak summary.json: schema, type and id" \
	[ "$(j "$s/summary.json" schema) $(j "$s/summary.json" type) $(j "$s/summary.json" id)" = "cfq-rig-summary/1 soak soak" ]
check "soak summary.json: kernel hash, series and flavor of the round" \
	[ "$(j "$s/summary.json" kernel.hash) $(j "$s/summary.json" kernel.series) $(j "$s/summary.json" kernel.flavor)" = \
	"$(sed -n 's/^kernel=//p' "$s/r001/summary") $(sed -n 's/^series=//p' "$s/r001/summary") debug" ]
check "soak summary.json: scenario, seed and round seeds" \
	[ "$(j "$s/summary.json" scenario) $(j "$s/summary.json" seed) $(j "$s/summary.json" seeds)" = "control30 11 [11]" ]
check "soak summary.json: ops per stressor add up to the ops" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(not (d["ops"] > 0 and sum(d["ops_per_stressor"].values()) == d["ops"] and d["ops_per_stressor"].get("readers", 0) > 0))' \
	"$s/summary.json"
check "soak summary.json: faults fired (failslab > 0)" [ "$(j "$s/summary.json" faults_fired.failslab || echo 0)" -gt 0 ]
title=$(j "$s/summary.json" findings.0.title)
check "soak summary.json: the finding's title, kind, round and seed ($title)" \
	[ "$(j "$s/summary.json" findings.0.kind) $(j "$s/summary.json" findings.0.round) $(j "$s/summary.json" findings.0.seed)" = "lockdep 1 11" ]
up=$(j "$s/summary.json" findings.0.uptime_s)
check "soak summary.json: the finding's guest uptime ($up s) is after the planted report's 8 s" \
	python3 -c 'import sys; sys.exit(not 8 < float(sys.argv[1]) < 60)' "${up:-0}"
log=$(j "$s/summary.json" findings.0.log)
check "soak summary.json: the finding's log ($log) holds its report" grep -q 'rig_splat\|rig_lock' "$s/$log"
check "round summary.json: a run with the same finding, its uptime and ops" \
	[ "$(j "$s/r001/summary.json" type) $(j "$s/r001/summary.json" findings.0.title) $(j "$s/r001/summary.json" findings.0.uptime_s) $(j "$s/r001/summary.json" ops)" = \
	"run $title $up $(j "$s/summary.json" ops)" ]
check "round summary.json: the round's seed, duration, vCPUs and fault sets" \
	[ "$(j "$s/r001/summary.json" seed) $(j "$s/r001/summary.json" duration_s) $(j "$s/r001/summary.json" vcpus) $(j "$s/r001/summary.json" faults)" = '11 30 2 ["alloc"]' ]

# KCIDB: the export validates against the published schema
host/export-kcidb.sh "$s" "$logs/kcidb.json" 2>"$logs/kcidb.err"
check "export-kcidb: writes the soak (exit 0)" [ -s "$logs/kcidb.json" ]
out=$(python3 tests/kcidb/validate.py tests/kcidb/kcidb-io.schema.v5.3.json "$logs/kcidb.json" 2>&1)
vrc=$?
if [ "$vrc" = 0 ]; then echo "ok - results: the KCIDB export is valid against the published schema v5.3"
else echo "not ok - results: the KCIDB export is valid against the published schema v5.3 (validator exit $vrc)"; sed 's/^/#   /' <<<"$out" | head -5; fi
check "export-kcidb: 1 checkout, 1 build, 1 test (FAIL), 1 issue, 1 incident" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(not ([len(d[k]) for k in ("checkouts", "builds", "tests", "issues", "incidents")] == [1, 1, 1, 1, 1]
	and d["tests"][0]["status"] == "FAIL" and d["incidents"][0]["issue_id"] == d["issues"][0]["id"]
	and d["issues"][0]["report_subject"] == sys.argv[2]))' "$logs/kcidb.json" "$title"
# the validator is not blind: an incident without its issue, an origin in capitals
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); del d["incidents"][0]["issue_id"]
d["builds"][0]["origin"] = "CFQ"; json.dump(d, open(sys.argv[2], "w"))' "$logs/kcidb.json" "$logs/kcidb-broken.json"
out=$(python3 tests/kcidb/validate.py tests/kcidb/kcidb-io.schema.v5.3.json "$logs/kcidb-broken.json" 2>&1)
vrc=$?
rejected() { [ "$vrc" = 1 ] && grep -q "issue_id" <<<"$out" && grep -q "CFQ" <<<"$out"; }
check "the schema rejects a broken export (no issue_id, origin CFQ)" rejected

# KTAP from tests/run.sh (the entry group: quick, no guest)
ktap=$(ONLY=entry tests/run.sh 2>&1)
krc=$?
n=$(grep -c '^  ok [0-9]* - entry: ' <<<"$ktap")
check "tests/run.sh: KTAP version line and plan 1..1" [ "$(head -n2 <<<"$ktap" | tr '\n' ' ')" = "KTAP version 1 1..1 " ]
numbered() {
	[ "$n" -gt 10 ] && [ "$(grep -o '^  ok [0-9]*' <<<"$ktap" | awk '{print $2}' | tr '\n' ' ')" = "$(seq -s ' ' 1 "$n") " ] &&
		grep -qx 'ok 1 entry' <<<"$ktap"
}
check "tests/run.sh: $n checks as numbered subtests 1..$n, then 'ok 1 entry'" numbered
closing() { [ "$(tail -n1 <<<"$ktap")" = "$n passed, 0 failed" ] && [ "$krc" = 0 ]; }
check "tests/run.sh: the closing line '$n passed, 0 failed' (exit $krc)" closing
