"""Questions asked of the rig's records (host/report/results.py writes them;
doc/summary-json.md): a soak's table row, its findings in order, the rounds a
crash ended early, a run's first finding, one value. Called through
results.py (brief, timeline, cut, first-uptime, json)."""
import json
import os


def brief(soak):
    """one line of a soak's record for a table: status, the finding (the one
    that came back for a hunt, else the first counted), seconds to it, rounds"""
    j = json.load(open(os.path.join(soak, "summary.json"), encoding="utf-8"))
    if j.get("until_title") or j.get("reproduced"):
        title = (j.get("reproduced") or {}).get("title") or "-"
    else:
        title = j["findings"][0]["title"] if j.get("findings") else "-"
    secs = j.get("first_finding_s") if title != "-" else None
    print("\t".join(str(x) for x in (j.get("status") or "-", title,
                                    "-" if secs is None else secs, len(j.get("rounds") or []))))


def timeline(soak):
    """Every distinct finding of a soak, counted ones and other kernel
    findings, in the order they came: seconds into the soak (the wall time
    of the rounds before its own plus the guest uptime of its report, or
    the whole round when the uptime is not known), round, label, title."""
    j = json.load(open(os.path.join(soak, "summary.json"), encoding="utf-8"))
    wall = {r["round"]: int(r.get("wall_s") or 0) for r in j.get("rounds") or []}
    rows = []
    for label, key in (("finding", "findings"), ("other", "other_findings")):
        for f in j.get(key) or []:
            n, up = f["round"], f.get("uptime_s")
            secs = sum(w for k, w in wall.items() if k < n) + int(up if up is not None else wall.get(n, 0))
            rows.append((secs, n, label, f["title"]))
    for r in sorted(rows):
        print("\t".join(map(str, r)))


def cut(soak):
    """The rounds of a soak that a crash or a hang ended early (they ran only
    part of their load), each with the first finding seen in it."""
    j = json.load(open(os.path.join(soak, "summary.json"), encoding="utf-8"))
    for r in j.get("rounds") or []:
        if r.get("status") in ("crash", "hang"):
            t = next((f["title"] for f in (j.get("findings") or []) + (j.get("other_findings") or [])
                      if f["round"] == r["round"]), "-")
            print(f"r{r['round']}\t{t}")


def first_uptime(run):
    """The guest uptime (whole seconds) of a run's first counted finding,
    from its summary.json (suppressed reports are not findings); nothing
    when it has none or the uptime is not known (a guest gone silent)."""
    try:
        j = json.load(open(os.path.join(run, "summary.json"), encoding="utf-8"))
    except (OSError, ValueError):
        return
    ups = [f["uptime_s"] for f in j.get("findings", []) if isinstance(f.get("uptime_s"), (int, float))]
    if ups:
        print(int(min(ups)))


def get(path, key):
    v = json.load(open(path, encoding="utf-8"))
    for part in key.split("."):
        v = v[int(part)] if isinstance(v, list) else v[part]
    print(json.dumps(v) if isinstance(v, (dict, list)) else v)
