#!/usr/bin/env bash
# test: pipeline 25 host
# The results pipeline without a kernel: a recorded soak (tests/fixtures/,
# one round of the default soak on the bfq-exit-icq-uaf corpus bug, as the
# rig wrote it) goes through the classifier, the run and soak records, the
# KCIDB export (validated against the schema), the end screen and a replay's
# check. Every assertion is on what the pipeline made of the recorded files.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r tests/fixtures/soak-bfq-exit-icq "$tmp/soak"
s=$tmp/soak
title='KASAN: use-after-free Read in bic_set_bfqq'
TEST_GROUP=pipeline
. tests/lib.sh
# the last lines a failed step printed ($tmp/out) go with its verdict
step() { verdict "$1" "$2" "$(tail -n 5 "$tmp/out" 2>/dev/null)"; }
jget() { python3 host/report/results.py json "$1" "$2" 2>"$tmp/out"; }

host/report/classify "$s/r001/console.log" >"$tmp/out" 2>&1
[ "$(grep -c '^finding' "$tmp/out")" = 1 ] && [ "$(cut -f3 "$tmp/out" | head -n1)" = "$title" ]
step $? "the console's report is titled once, as syzkaller would ('$title')"

python3 host/report/results.py run "$s/r001" >"$tmp/out" 2>&1 &&
	[ "$(jget "$s/r001/summary.json" findings.0.title)" = "$title" ] &&
	[ "$(jget "$s/r001/summary.json" kernel.kver)" = 6.1 ] &&
	[[ "$(jget "$s/r001/summary.json" findings.0.uptime_s)" =~ ^[0-9.]+$ ]]
step $? "the run record has the finding, its guest uptime and the kernel line"

python3 host/report/results.py soak "$s" >"$tmp/out" 2>&1 &&
	[ "$(jget "$s/summary.json" type)" = soak ] &&
	[ "$(jget "$s/summary.json" findings.0.title)" = "$title" ] &&
	[ "$(jget "$s/summary.json" under_test)" = bfq ] &&
	[ "$(jget "$s/summary.json" bug)" = bfq-exit-icq-uaf ]
step $? "the soak record has the finding, the code under test and the corpus bug"

[ "$(python3 host/report/results.py brief "$s" 2>"$tmp/out")" = "$(printf 'findings\t%s\t7\t1' "$title")" ]
step $? "the soak's table row (realbugs' reader): status, finding, 7 s, 1 round"

mkdir -p "$tmp/rb/bfq-exit-icq-uaf-s1" && cp -r "$s" "$tmp/rb/bfq-exit-icq-uaf-s1/soak"
host/hunt/realbugs.sh --table "$tmp/rb" >"$tmp/out" 2>&1 &&
	grep -qE "^bfq-exit-icq-uaf +246cf66e300b .* soak +1 caught +7 +1  $title" "$tmp/out" &&
	grep -qE "^bfq-exit-icq-uaf +soak +1/1 +0 +7 +7" "$tmp/out"
step $? "realbugs --table renders a corpus run from its records: caught 1/1 in 7 s"

# two rounds: an other kernel finding in round 1 (no uptime: the whole
# round, 61 s), then the bug in round 2 (61 + 7 s): realbugs counts the
# bug at its own time, not at the first finding
s2=$tmp/rb2/bfq-exit-icq-uaf-s1/soak
mkdir -p "$(dirname "$s2")" && cp -r "$s" "$s2" && cp -r "$s2/r001" "$s2/r002"
printf '2\t2\t90\tfindings\t9788\t61\texit-race\tnone\tvm\t2026-12-07T02:08:26Z\tdebug\n' >>"$s2/rounds"
printf 'kasan\t%s\tr002\t2\tvm\n' "$title" >"$s2/findings"
printf 'gpf\tgeneral protection fault in start_creating\tr001\t1\tvm\n' >"$s2/others"
python3 host/report/results.py soak "$s2" >"$tmp/out" 2>&1 &&
	[ "$(python3 host/report/results.py timeline "$s2" 2>"$tmp/out" | cut -f1-3 | tr '\t\n' ' ;')" = "61 1 other;68 2 finding;" ] &&
	host/hunt/realbugs.sh --table "$tmp/rb2" >"$tmp/out" 2>&1 &&
	grep -qE "^bfq-exit-icq-uaf +246cf66e300b .* soak +1 caught +68 +2  $title" "$tmp/out"
step $? "a finding after another one: the timeline orders them (61 s, 68 s) and realbugs counts the bug at 68 s"
sed -i '1s/\tfindings\t/\tcrash\t/' "$s2/rounds"
python3 host/report/results.py soak "$s2" >"$tmp/out" 2>&1 &&
	[ "$(python3 host/report/results.py cut "$s2" 2>"$tmp/out")" = "$(printf 'r1\tgeneral protection fault in start_creating')" ]
step $? "the rounds a crash ended early, with their finding (what makes a verify-fix inconclusive)"

# a stall after another report of its run is that report's consequence
# (results.py primary, as syzkaller keeps a crash's first report): a hunt's
# stop rule and the realbugs table skip it; a stall after a suppressed
# report too; a stall on its own counts
j() { printf '{"findings": [%s], "other_findings": [], "suppressed": [%s]}' "$1" "$2"; }
k='{"title": "KASAN: slab-out-of-bounds Read in kyber_bio_merge", "kind": "kasan", "uptime_s": 71.8}'
h='{"title": "INFO: task hung in blk_mq_freeze_queue_wait", "kind": "hung", "uptime_s": 124.1}'
g='{"title": "general protection fault in start_creating", "kind": "gpf", "uptime_s": 36.2}'
mkdir -p "$tmp/c1" "$tmp/c2" "$tmp/c3"
j "$k, $h" "" >"$tmp/c1/summary.json"; j "$h" "$g" >"$tmp/c2/summary.json"; j "$h" "" >"$tmp/c3/summary.json"
[ "$(python3 host/report/results.py primary "$tmp/c1")" = "KASAN: slab-out-of-bounds Read in kyber_bio_merge" ] &&
	[ -z "$(python3 host/report/results.py primary "$tmp/c2")" ] &&
	[ "$(python3 host/report/results.py primary "$tmp/c3")" = "INFO: task hung in blk_mq_freeze_queue_wait" ]
step $? "a hung task after a KASAN report (or a suppressed one) is its consequence; alone it counts"

# a guest that a known issue crashed (the live race of
# doc/live-nr-hwq-switch.md, tests/fixtures/run-known-crash): the round
# ended early, the report is listed as suppressed, and no rig finding
# ("guest ended without finishing its job") stands in for it
cp -r tests/fixtures/run-known-crash "$tmp/kc"
LOGS=$tmp host/report/summarize.sh "$tmp/kc" >"$tmp/out" 2>&1 &&
	grep -qx 'status=crash' "$tmp/kc/summary" && grep -qx 'findings=0' "$tmp/kc/summary" &&
	grep -qP '^suppressed\tgpf\tgeneral protection fault in start_creating' "$tmp/kc/summary"
step $? "a crash that a known issue explains: status crash, no finding, exit 0"

host/report/export-kcidb.sh "$s" "$tmp/kcidb.json" >"$tmp/out" 2>&1 &&
	python3 tests/kcidb/validate.py tests/kcidb/kcidb-io.schema.v5.3.json "$tmp/kcidb.json" >"$tmp/out" 2>&1 &&
	grep -qF "$title" "$tmp/kcidb.json" && ! grep -q git_commit_hash "$tmp/kcidb.json"
step $? "the KCIDB export validates against schema v5.3, with the finding as an issue"

# a user's tree: its commit reaches the record and KCIDB's checkout
commit=0123456789abcdef0123456789abcdef01234567
printf 'kernel_src=/src/linux\nkernel_src_commit=%s\n' "$commit" >>"$s/r001/summary"
python3 host/report/results.py run "$s/r001" >"$tmp/out" 2>&1 && python3 host/report/results.py soak "$s" >>"$tmp/out" 2>&1 &&
	host/report/export-kcidb.sh "$s" "$tmp/kcidb2.json" >>"$tmp/out" 2>&1 &&
	python3 tests/kcidb/validate.py tests/kcidb/kcidb-io.schema.v5.3.json "$tmp/kcidb2.json" >>"$tmp/out" 2>&1 &&
	[ "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["checkouts"][0]["git_commit_hash"])' "$tmp/kcidb2.json")" = "$commit" ]
step $? "KERNEL_SRC's commit is the KCIDB checkout's git_commit_hash"

host/rig show SOAK="$s" >"$tmp/out" 2>&1 && grep -qF "$title" "$tmp/out"
step $? "host/rig show prints the soak's findings"

# a replay restores the round's sources: the user's tree (gone here: exit 2),
# the kernel line, and says when the series differs
LOGS=$tmp RIG_CACHE=$tmp/cache host/hunt/repro.sh --check "$s/r001" 1 >"$tmp/out" 2>&1
[ $? = 2 ] && grep -q "KERNEL_SRC: no directory '/src/linux'" "$tmp/out"
step $? "repro RUN= restores the run's KERNEL_SRC (a tree gone since: exit 2)"
sed -i '/^kernel_src/d' "$s/r001/summary"
sed -i 's/^kver=6.1$/kver=6.12/; s/^series=.*/series=000000000000/' "$s/r001/summary"
LOGS=$tmp RIG_CACHE=$tmp/cache host/hunt/repro.sh --check "$s/r001" 1 >"$tmp/out" 2>&1 &&
	grep -q "the run was on KVER=6.12" "$tmp/out" && grep -q "the series changed since the run" "$tmp/out" &&
	[ ! -e "$tmp/cache" ]
step $? "repro RUN= restores KVER and warns of another series, before any work"
