"""Questions asked of the rig's records (host/report/results.py writes them;
doc/summary-json.md): a soak's table row, its findings in order, the rounds a
crash ended early, a run's first finding and its findings that are not
consequences of an earlier one, one value. Called through results.py (brief,
timeline, cut, first-uptime, primary, json)."""
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


# A hang, stall or lockup that comes after another report of the same run is
# that report's consequence (a CPU spinning on a lock in freed memory, the
# tasks waiting on it), as syzkaller keeps only a crash's first report: it
# is listed, but it is no evidence of a bug of its own (a hunt's stop rule
# and a bug's catch skip it).
def _stall(f):
    return f["kind"] in ("hung", "softlockup", "rcu") or f["title"].startswith("hang: ")


def _uptime(f):
    """a report's guest uptime; one without (the rig's own) comes last"""
    return f.get("uptime_s") if f.get("uptime_s") is not None else float("inf")


def _consequences(findings, reports=()):
    """the findings (dicts with kind, title, round, uptime_s) that are stalls
    and follow another finding, or a suppressed report, of their round"""
    out = set()
    for f in findings:
        if _stall(f) and any(g is not f and g.get("round") == f.get("round") and _uptime(g) < _uptime(f)
                             and not _stall(g) for g in list(findings) + list(reports)):
            out.add(id(f))
    return out


def timeline(soak):
    """Every distinct finding of a soak, counted ones and other kernel
    findings, in the order they came: seconds into the soak (the wall time
    of the rounds before its own plus the guest uptime of its report, or
    the whole round when the uptime is not known), round, label (finding,
    other, or consequence: a stall after another report), title."""
    j = json.load(open(os.path.join(soak, "summary.json"), encoding="utf-8"))
    wall = {r["round"]: int(r.get("wall_s") or 0) for r in j.get("rounds") or []}
    every = [(label, f) for label, key in (("finding", "findings"), ("other", "other_findings"))
             for f in j.get(key) or []]
    cons = _consequences([f for _, f in every])
    rows = []
    for label, f in every:
        n, up = f["round"], f.get("uptime_s")
        secs = sum(w for k, w in wall.items() if k < n) + int(up if up is not None else wall.get(n, 0))
        rows.append((secs, n, "consequence" if id(f) in cons else label, f["title"]))
    for r in sorted(rows):
        print("\t".join(map(str, r)))


def primary(run):
    """the titles of a run's findings (counted and other) that are not the
    consequence of an earlier report, in the order they came"""
    j = json.load(open(os.path.join(run, "summary.json"), encoding="utf-8"))
    every = (j.get("findings") or []) + (j.get("other_findings") or [])
    cons = _consequences(every, j.get("suppressed") or [])
    for f in sorted(every, key=_uptime):
        if id(f) not in cons:
            print(f["title"])


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
