#!/usr/bin/env python3
"""Machine-readable results of the rig (doc/summary-json.md).

The one reader of the rig's summary formats (a run's or a soak's `summary`
key=value file, a soak's `rounds` and `findings` tables) and the one writer
of their JSON forms. The shell entry points check their input and call:

  results.py run RUN_DIR              RUN_DIR/summary.json of one run
  results.py soak SOAK_DIR            SOAK_DIR/summary.json of a soak
  results.py merge OUT_DIR SOAK...    one soak made of several (shards):
                                      OUT_DIR/{rounds,findings,summary,summary.json}
  results.py kcidb SOAK_DIR           KCIDB (I/O schema v5) JSON on stdout
  results.py json FILE KEY            one value of a summary.json (a.b.c)
  results.py brief SOAK_DIR           status, finding, seconds, rounds (a table row)
  results.py timeline SOAK_DIR        every finding: seconds, round, finding|other|consequence, title
  results.py cut SOAK_DIR             rounds a crash or hang ended early: rN, its finding
  results.py first-uptime RUN_DIR     guest uptime (s) of its first counted finding
  results.py primary RUN_DIR          its findings' titles, without the stalls that followed another report

Exit: 0 done, 2 bad input (the reason on stderr).
"""
import json
import os
import re
import subprocess
import sys

SCHEMA = "cfq-rig-summary/1"
ROUND_COLS = ["round", "seed", "duration_s", "status", "ops", "wall_s",
              "scenario", "faults", "host", "started", "flavor"]
FINDING_COLS = ["kind", "title", "round", "seed", "host"]
RIG_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def die(msg):
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(2)


def num(v):
    """'12' -> 12, '5.92' -> 5.92, 'none' or '' -> None, anything else unchanged."""
    if v in ("none", ""):
        return None
    if isinstance(v, str) and re.fullmatch(r"-?[0-9]+", v):
        return int(v)
    if isinstance(v, str) and re.fullmatch(r"-?[0-9]+\.[0-9]+", v):
        return float(v)
    return v


def read_summary(path):
    """A summary file: key=value lines, then finding, suppressed and other
    lines (TAB-separated: label, kind, title[, count=N | round, seed, ...];
    the labels are host/report/suppress's). Returns facts and the three lists."""
    facts, findings, suppressed, other = {}, [], [], []
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}")
    for line in lines:
        if line.startswith(("finding\t", "suppressed\t", "other\t")):
            f = line.split("\t")
            {"finding": findings, "suppressed": suppressed, "other": other}[f[0]].append(f[1:])
        elif "=" in line:
            k, v = line.split("=", 1)
            facts[k] = v
    return facts, findings, suppressed, other


def read_table(path, cols):
    rows = []
    if not os.path.exists(path):
        return rows
    for line in open(path, encoding="utf-8", errors="replace").read().splitlines():
        if line:
            f = line.split("\t")
            rows.append({c: num(f[i]) if i < len(f) else "" for i, c in enumerate(cols)})
    return rows


def write_json(path, obj):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=2, sort_keys=False)
        f.write("\n")
    os.replace(tmp, path)


def uptime_at(console, line_no):
    """Guest uptime (s) printed on line line_no (1-based) of a console log."""
    if not line_no:
        return None
    try:
        with open(console, encoding="utf-8", errors="replace") as f:
            for i, line in enumerate(f, 1):
                if i == line_no:
                    m = re.match(r"\[ *([0-9]+\.[0-9]+)\]", line)
                    return float(m.group(1)) if m else None
    except OSError:
        pass
    return None


def results_log(path):
    """ops per stressor ('summary stressor=' lines) and faults fired."""
    ops, faults = {}, {}
    if not os.path.exists(path):
        return ops, faults
    for line in open(path, encoding="utf-8", errors="replace").read().splitlines():
        words = line.split()
        kv = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        if words[:1] == ["summary"] and "stressor" in kv:
            ops[kv["stressor"]] = ops.get(kv["stressor"], 0) + int(kv.get("ops", 0) or 0)
        elif words[:1] == ["fault"] and len(words) > 1 and "fired" in kv:
            faults[words[1]] = faults.get(words[1], 0) + int(kv["fired"] or 0)
    return ops, faults


def classify_lines(run):
    """title -> console line of its first report (host/report/classify --json)."""
    con, res = os.path.join(run, "console.log"), os.path.join(run, "results.log")
    if not os.path.exists(con):
        return {}
    cmd = [os.environ.get("CLASSIFY") or os.path.join(RIG_ROOT, "host", "report", "classify"), "--json", con]
    if os.path.exists(res):
        cmd.append(res)
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    try:
        return {r["title"]: r.get("first_line") for r in json.loads(p.stdout or "[]")}
    except (ValueError, TypeError, KeyError):
        return {}


KERNEL_KEYS = {"kernel": "hash", "release": "release", "series": "series",
               "flavor": "flavor", "kver": "kver", "kernel_src": "kernel_src",
               "kernel_src_commit": "kernel_src_commit", "extra_config": "extra_config",
               "extra_config_sha256": "extra_config_sha256"}


def run_json(run):
    facts, findings, suppressed, other = read_summary(os.path.join(run, "summary"))
    ops, faults = results_log(os.path.join(run, "results.log"))
    first = classify_lines(run)
    con = os.path.join(run, "console.log")

    def finding(f):
        count = f[2][len("count="):] if len(f) > 2 and f[2].startswith("count=") else "1"
        return {"title": f[1], "kind": f[0], "count": num(count),
                "uptime_s": uptime_at(con, first.get(f[1])), "log": "console.log"}
    out = {
        "schema": SCHEMA, "type": "run", "id": facts.get("run"),
        "status": facts.get("status"), "job": facts.get("job"),
        "kernel": {v: facts[k] for k, v in KERNEL_KEYS.items() if k in facts},
        "scenario": facts.get("scenario"), "seed": num(facts.get("seed")),
        "seeds": [num(facts["seed"])] if "seed" in facts else [],
        "faults": [x for x in facts.get("faults", "").split(",") if x not in ("", "none")],
        "duration_s": num(facts.get("duration")), "wall_s": num(facts.get("wall")),
        "boot_to_init_s": num(facts.get("boot_to_init_s")), "accel": facts.get("accel"),
        "vcpus": num(facts.get("vcpus")), "tsc_khz": num(facts.get("tsc_khz")),
        "clock": num(facts.get("clock")), "hres": num(facts.get("hres")),
        "boots": num(facts.get("boots")), "kmemleak": facts.get("kmemleak"),
        "host": facts.get("host"), "started": facts.get("started"),
        "ops": num(facts.get("ops", 0)), "ops_per_stressor": ops,
        "io_errors": num(facts.get("io_errors", 0)), "faults_fired": faults,
        "checks": {"passed": num(facts.get("checks_passed", 0)),
                   "failed": num(facts.get("checks_failed", 0))},
        "coverage": facts.get("coverage"),
        "slice_audit": facts.get("slice_audit"),
        "findings": [finding(f) for f in findings],
        "suppressed": [finding(f) for f in suppressed],
        "other_findings": [finding(f) for f in other],
        "under_test": facts.get("under_test", "cfq"),
    }
    for k in ("mutant", "bug"):
        if k in facts:
            out[k] = facts[k]
    write_json(os.path.join(run, "summary.json"), out)


def soak_object(facts, rounds, findings, kernel, ops, faults, others=()):
    """The summary.json object of a soak: ROUNDS and FINDINGS are lists of
    dicts (see doc/summary-json.md), paths relative to the soak directory;
    FINDINGS has every occurrence and is deduplicated here by title (the
    first round keeps it; seen_in_rounds lists them all)."""
    rounds = sorted(rounds, key=lambda r: r["round"])
    first, seen = {}, {}
    for f in sorted(findings, key=lambda f: f["round"]):
        first.setdefault(f["title"], f)
        seen.setdefault(f["title"], []).extend(f.get("seen_in_rounds") or [f["round"]])
    out_findings = [dict(f, seen_in_rounds=sorted(set(seen[t]))) for t, f in first.items()]
    statuses = {r["status"] for r in rounds}
    return {
        "schema": SCHEMA, "type": "soak", "id": facts.get("soak"),
        "status": facts.get("status") or ("clean" if statuses <= {"clean"} else "findings"),
        "kernel": kernel, "scenario": facts.get("scenario"), "seed": num(facts.get("seed")),
        "seeds": [r["seed"] for r in rounds],
        "jobs": num(facts.get("jobs")), "vcpus": num(facts.get("vcpus")),
        "host": facts.get("host"),
        "hosts": sorted({r["host"] for r in rounds if r.get("host")}),
        "started": facts.get("started"), "duration_s": num(facts.get("duration_s")),
        "first_finding_s": num(facts.get("first_finding_s")),
        "ops": sum(int(r["ops"] or 0) for r in rounds),
        "ops_per_stressor": ops, "faults_fired": faults,
        "coverage": facts.get("coverage"),
        "slice_audit": facts.get("slice_audit"),
        "rounds": rounds, "findings": out_findings,
        "other_findings": list({f["title"]: f for f in reversed(list(others))}.values())[::-1],
        "under_test": facts.get("under_test", "cfq"), "bug": facts.get("bug"),
        "until_title": facts.get("until_title"), "reproduced": reproduced(facts.get("reproduced")),
    }


def reproduced(value):
    """a hunt's 'rNNN<TAB>title' (the finding that came back) as a record"""
    if not value:
        return None
    rnd, _, title = value.partition("\t")
    return {"round": num(rnd.lstrip("r")), "title": title}


def add_counts(total, more):
    for k, v in more.items():
        total[k] = total.get(k, 0) + v


def soak_json(soak):
    facts = read_summary(os.path.join(soak, "summary"))[0]
    rounds, kernel, ops, faults, runs = [], {}, {}, {}, {}
    for r in read_table(os.path.join(soak, "rounds"), ROUND_COLS):
        d = f"r{r['round']:03d}"
        r.update(dir=d, faults=[] if r["faults"] in ("", "none", None) else str(r["faults"]).split(","),
                 host=r["host"] or facts.get("host"), started=r["started"] or None)
        rounds.append(r)
        path = os.path.join(soak, d, "summary.json")
        if os.path.exists(path):
            rj = runs[r["round"]] = json.load(open(path, encoding="utf-8"))
            kernel = kernel or rj.get("kernel", {})
            r["kernel"] = rj.get("kernel", {})
            r["flavor"] = r["flavor"] or r["kernel"].get("flavor", "")
            add_counts(ops, rj.get("ops_per_stressor", {}))
            add_counts(faults, rj.get("faults_fired", {}))
    def uptime(n, title):
        """the guest uptime of a finding's report, from its round's record"""
        rj = runs.get(n, {})
        return next((x["uptime_s"] for x in rj.get("findings", []) + rj.get("other_findings", [])
                     if x["title"] == title), None)
    findings = []
    for f in read_table(os.path.join(soak, "findings"), FINDING_COLS):
        n = int(str(f["round"]).lstrip("r"))
        findings.append({"title": f["title"], "kind": f["kind"], "round": n, "seed": f["seed"],
                         "host": f["host"] or facts.get("host"), "uptime_s": uptime(n, f["title"]),
                         "log": f"r{n:03d}/console.log"})
    others = []
    for f in read_table(os.path.join(soak, "others"), FINDING_COLS):
        n = int(str(f["round"]).lstrip("r"))
        others.append({"title": f["title"], "kind": f["kind"], "round": n, "seed": f["seed"],
                       "host": f["host"] or facts.get("host"), "uptime_s": uptime(n, f["title"])})
    write_json(os.path.join(soak, "summary.json"),
               soak_object(facts, rounds, findings, kernel, ops, faults, others))


def merge(out, soaks):
    """Soak directories of one soak (same scenario and seed: shards that ran
    round ranges) -> one soak in OUT: summary.json, summary, rounds."""
    rounds, findings, metas, ops, faults = [], [], [], {}, {}
    os.makedirs(out, exist_ok=True)
    for s in soaks:
        path = os.path.join(s, "summary.json")
        if not os.path.exists(path):
            die(f"{s} is not a finished soak (no summary.json)")
        j = json.load(open(path, encoding="utf-8"))
        if j.get("type") != "soak":
            die(f"{s}: its summary.json is a {j.get('type')}, not a soak")
        metas.append((s, j))
        rel = os.path.relpath(s, out)
        rounds += [dict(r, dir=os.path.join(rel, r["dir"])) for r in j["rounds"]]
        findings += [dict(f, log=os.path.join(rel, f["log"])) for f in j["findings"]]
        add_counts(ops, j.get("ops_per_stressor", {}))
        add_counts(faults, j.get("faults_fired", {}))
    for key in ("scenario", "seed"):
        vals = {str(j.get(key)) for _, j in metas}
        if len(vals) > 1:
            die(f"the soaks differ in {key} ({', '.join(sorted(vals))}): not shards of one soak")
    dirs = {}
    for r in rounds:
        if r["round"] in dirs:
            die(f"round {r['round']} is in two soaks ({dirs[r['round']]} and {r['dir']})")
        dirs[r["round"]] = r["dir"]
    kernels = {json.dumps(j.get("kernel"), sort_keys=True) for _, j in metas}
    if len(kernels) > 1:
        print("warning: the soaks ran different kernels (kernel in each one's summary.json)", file=sys.stderr)
    ff = [j["first_finding_s"] for _, j in metas if isinstance(j.get("first_finding_s"), (int, float))]
    first = metas[0][1]
    facts = {"soak": os.path.basename(os.path.abspath(out)), "scenario": first.get("scenario"),
             "seed": first.get("seed"), "started": min(str(j.get("started")) for _, j in metas),
             "duration_s": max(j.get("duration_s") or 0 for _, j in metas),
             "first_finding_s": min(ff) if ff else "none",
             "status": "clean" if all(j.get("status") == "clean" for _, j in metas) else "findings"}
    obj = soak_object(facts, rounds, findings, first.get("kernel", {}), ops, faults)
    obj["merged_from"] = [os.path.relpath(s, out) for s, _ in metas]
    write_json(os.path.join(out, "summary.json"), obj)
    with open(os.path.join(out, "rounds"), "w", encoding="utf-8") as f:
        for r in obj["rounds"]:
            r2 = dict(r, faults=",".join(r["faults"]) or "none")
            f.write("\t".join("" if r2.get(c) is None else str(r2[c]) for c in ROUND_COLS) + "\n")
    with open(os.path.join(out, "summary"), "w", encoding="utf-8") as f:
        for k in ("soak", "scenario", "seed", "status", "first_finding_s"):
            f.write(f"{k}={facts[k]}\n")
        f.write(f"rounds={len(rounds)}\nops={obj['ops']}\nmerged_from={' '.join(obj['merged_from'])}\n")
        for x in obj["findings"]:
            f.write(f"finding\t{x['kind']}\t{x['title']}\tr{x['round']:03d}\t{x['seed']}\t{x['host']}\t{x['log']}\n")
    print(f" merged {len(metas)} soaks of {facts['scenario']}, seed {facts['seed']}: rounds "
          f"{', '.join(str(r['round']) for r in obj['rounds'])} on {', '.join(obj['hosts'])}; "
          f"{obj['ops']} ops; {facts['status']}")
    for x in obj["findings"]:
        print(f"   [{x['kind']}] {x['title']}  (round {x['round']}, seed {x['seed']}, host {x['host']}, "
              f"{x['log']}; rounds {' '.join(map(str, x['seen_in_rounds']))})")
    print(f" summary: {os.path.join(out, 'summary')} and summary.json")


def main(argv):
    if len(argv) < 2:
        die(__doc__.strip().splitlines()[0])
    cmd, args = argv[1], argv[2:]
    import query  # host/report/query.py, beside this file: the readers
    if cmd == "run" and len(args) == 1:
        run_json(args[0])
    elif cmd == "soak" and len(args) == 1:
        soak_json(args[0])
    elif cmd == "merge" and len(args) >= 2:
        merge(args[0], args[1:])
    elif cmd == "kcidb" and len(args) in (1, 2):
        import kcidb  # host/report/kcidb.py, beside this file
        kcidb.export(args[0], args[1] if len(args) == 2 else "cfqrig")
    elif cmd == "brief" and len(args) == 1:
        query.brief(args[0])
    elif cmd == "cut" and len(args) == 1:
        query.cut(args[0])
    elif cmd == "timeline" and len(args) == 1:
        query.timeline(args[0])
    elif cmd == "json" and len(args) == 2:
        query.get(args[0], args[1])
    elif cmd == "first-uptime" and len(args) == 1:
        query.first_uptime(args[0])
    elif cmd == "primary" and len(args) == 1:
        query.primary(args[0])
    else:
        die("usage: results.py run RUN | soak SOAK | merge OUT SOAK... | kcidb SOAK [ORIGIN] | json FILE KEY"
            " | brief SOAK | timeline SOAK | cut SOAK | first-uptime RUN | primary RUN")


if __name__ == "__main__":
    main(sys.argv)
