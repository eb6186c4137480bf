#!/usr/bin/env python3
"""A soak's record (summary.json, host/report/results.py) as KCIDB I/O data (schema
v5.3): the checkout (linux-source, or the user's tree, plus the series), the
builds (the rig kernels), one test per round, one issue per distinct finding,
one incident per round it was seen in. Called as `results.py kcidb SOAK`."""
import hashlib
import json
import os
import re
import sys

from results import die

STATUS = {"clean": "PASS", "findings": "FAIL", "hang": "FAIL", "crash": "FAIL", "failed": "FAIL"}


def word(s):
    """a KCIDB path or category word"""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", str(s))


def checkout_of(j, k, origin):
    kver = k.get("kver", "6.1")
    checkout = {"id": f"{origin}:linux-{k.get('release', k.get('kver', 'unknown'))}+cfq-{k.get('series', 'unknown')}",
                "origin": origin, "valid": True, "tree_name": f"debian-linux-source-{kver}",
                "comment": f"Debian linux-source-{kver} with the cfq series "
                           f"(patch/{kver}, hash {k.get('series')}) and the rig's test hooks",
                "misc": {"series_hash": k.get("series")}}
    # a user's tree (KERNEL_SRC): its name, and the commit when it is a git tree
    if k.get("kernel_src"):
        checkout["tree_name"] = os.path.basename(k["kernel_src"].rstrip("/")) or "kernel_src"
        checkout["comment"] = f"{k['kernel_src']} with the cfq series (hash {k.get('series')})"
        commit = str(k.get("kernel_src_commit") or "")
        if re.fullmatch(r"[0-9a-f]{40}(-dirty)?", commit):
            checkout["git_commit_hash"] = commit[:40]
            checkout["misc"]["work_tree_dirty"] = commit.endswith("-dirty")
    if k.get("extra_config"):
        checkout["misc"]["extra_config"] = k["extra_config"]
        checkout["misc"]["extra_config_sha256"] = k.get("extra_config_sha256")
    if j.get("started"):
        checkout["start_time"] = j["started"]
    return checkout


def test_of(j, r, soak, origin, tid, bid):
    t = {"id": tid, "origin": origin, "build_id": bid,
         "path": "cfq_rig.soak." + word(r["scenario"]),
         "status": STATUS.get(r["status"], "ERROR"), "duration": float(r["wall_s"] or 0),
         "comment": f"round {r['round']} of soak {j['id']} (seed {j['seed']}): {r['scenario']}, "
                    f"faults {' '.join(r['faults']) or 'none'}, round seed {r['seed']}",
         "environment": {"comment": f"QEMU guest on {r.get('host') or 'the rig host'}"},
         "misc": {"round": r["round"], "seed": r["seed"], "soak_seed": j["seed"], "ops": r["ops"],
                  "faults": r["faults"], "host": r.get("host"), "dir": r["dir"], "rig_status": r["status"]}}
    if r.get("started"):
        t["start_time"] = r["started"]
    log = os.path.abspath(os.path.join(soak, r["dir"], "console.log"))
    if os.path.exists(log):
        t["log_url"] = "file://" + log
    return t


def issue_of(f, origin):
    iid = f"{origin}:" + hashlib.sha256(f["title"].encode()).hexdigest()[:16]
    harness = f["kind"] == "rig" and f["title"].startswith("stressor:")
    return {"id": iid, "version": 1, "origin": origin, "report_subject": f["title"],
            "comment": f["title"], "culprit": {"code": not harness, "harness": harness},
            "categories": ["runtime." + word(f["kind"])],
            "misc": {"kind": f["kind"], "first_round": f["round"], "seed": f["seed"],
                     "host": f.get("host"), "uptime_s": f.get("uptime_s"), "log": f["log"]}}


def export(soak, origin):
    j = json.load(open(os.path.join(soak, "summary.json"), encoding="utf-8"))
    if j.get("type") != "soak":
        die(f"{soak}: its summary.json is not a soak's")
    k = j.get("kernel") or {}
    checkout = checkout_of(j, k, origin)
    builds = {}

    def build_of(rk):
        """the build of a round's kernel (the soak's when not recorded)"""
        rk = rk or k
        bid = f"{origin}:{rk.get('hash', 'unknown')}-{rk.get('flavor', 'unknown')}"
        if bid not in builds:
            builds[bid] = {"id": bid, "origin": origin, "checkout_id": checkout["id"], "architecture": "x86_64",
                           "config_name": str(rk.get("flavor", "")), "status": "PASS",
                           "comment": f"rig kernel {rk.get('hash')} ({rk.get('flavor')} flavor)",
                           "misc": {"kernel_hash": rk.get("hash"), "release": rk.get("release")}}
            if j.get("started"):
                builds[bid]["start_time"] = j["started"]
        return bid
    tests, tid, tbuild = [], {}, {}
    for r in j["rounds"]:
        tid[r["round"]] = f"{origin}:{j['id']}/r{r['round']:03d}"
        tbuild[r["round"]] = build_of(r.get("kernel"))
        tests.append(test_of(j, r, soak, origin, tid[r["round"]], tbuild[r["round"]]))
    issues, incidents = [], []
    for f in j["findings"]:
        issue = issue_of(f, origin)
        issues.append(issue)
        for n in f["seen_in_rounds"]:
            if n in tid:
                incidents.append({"id": f"{tid[n]}/{issue['id'].split(':', 1)[1]}", "origin": origin,
                                  "issue_id": issue["id"], "issue_version": 1, "test_id": tid[n],
                                  "build_id": tbuild[n], "present": True,
                                  "comment": f"{f['title']} in round {n}"})
    if not builds:
        build_of(None)
    json.dump({"version": {"major": 5, "minor": 3}, "checkouts": [checkout], "builds": list(builds.values()),
               "tests": tests, "issues": issues, "incidents": incidents}, sys.stdout, indent=2)
    print()
