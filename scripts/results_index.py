#!/usr/bin/env python3
"""results_index.py - write results/INDEX.md from the committed run documents (never by hand).

For each GPU folder of results/: the newest default suite, the newest --quick run and the newest
calibration, then every run document, newest first: file, date, cases (validated / all), wall time,
the commit that measured it and the GPU's UUID. The commit comes from the document's tool_version
("0.1.0+COMMIT", since 2026-11-29), else from the folder's name ("s24-0d0fd8e"), else "?".
It also keeps each GPU's newest default suite and calibration at a fixed path, results/<gpu>/latest/suite.json.gz
and calibrate.json.gz: a copy of the document the index names (gzip, same JSON), so a user or a script finds
the newest figures without reading the index. (--quick runs are not copied: the newest is often a test's
planted run, a slowed GPU of the fleet test, say.)
usage: scripts/results_index.py [--check]   (--check: exit 1 when results/INDEX.md or a latest/ copy is not
what it would write)
"""
import gzip
import json
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "results", "INDEX.md")


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    try:
        with op(os.path.join(ROOT, path), "rt") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def commit_of(path, doc):
    m = re.search(r"\+([0-9a-f]{7,})", doc.get("tool_version", ""))
    if m:
        return m.group(1) + (" (modified)" if ".modified" in doc["tool_version"] else "")
    for part in reversed(path.split("/")[:-1]):
        m = re.search(r"-([0-9a-f]{7})$", part)
        if m:
            return m.group(1)
    return "?"


def kind_of(doc):
    cmd = doc.get("command", "")
    n = len(doc.get("cases", []))
    if " calibrate" in cmd:
        return "calibrate"
    if "--quick" in cmd:
        return "quick"
    if n >= 500 and "--full" not in cmd:
        return "suite"
    return "selection"


KINDS = (("suite", "newest default suite"), ("quick", "newest --quick run"), ("calibrate", "newest calibration run"))


def latest_path(gpu, kind):
    return "results/%s/latest/%s.json.gz" % (gpu, kind)


def runs():
    files = subprocess.run(["git", "-C", ROOT, "ls-files", "results/**.json", "results/**.json.gz"],
                           capture_output=True, text=True, check=True).stdout.split()
    for path in files:
        if "/latest/" in path:   # the fixed-path copies: not runs of their own
            continue
        doc = load(path)
        if not isinstance(doc, dict) or doc.get("schema") != "gpumem-run":
            continue
        cases = doc.get("cases", [])
        dev = doc.get("device") or {}
        yield {
            "gpu": path.split("/")[1], "path": path, "date": doc.get("started_utc", "?"),
            "kind": kind_of(doc), "n": len(cases), "ok": sum(1 for c in cases if c.get("status") == "ok"),
            "wall": doc.get("wall_s", 0.0), "commit": commit_of(path, doc),
            "uuid": dev.get("uuid", "?"), "device": dev.get("name", "?"),
        }


def newest(rs, kind):
    return max((r for r in rs if r["kind"] == kind), key=lambda r: (r["date"], r["path"]), default=None)


def gzip_bytes(path):
    """The document at path as gzip bytes that do not depend on when they were written (mtime 0, no name)."""
    raw = open(os.path.join(ROOT, path), "rb").read()
    if path.endswith(".gz"):
        raw = gzip.decompress(raw)
    return gzip.compress(raw, 9, mtime=0)


def latest_copies(rows):
    """{fixed path: bytes} for each GPU's newest run of each kind."""
    out = {}
    for gpu in sorted({r["gpu"] for r in rows}):
        for kind in ("suite", "calibrate"):
            best = newest([r for r in rows if r["gpu"] == gpu], kind)
            if best:
                out[latest_path(gpu, kind)] = gzip_bytes(best["path"])
    return out


def sync_latest(rows):
    """Write (or with --check compare) every latest/ copy; remove copies of kinds no run has now. 0 or 1."""
    want, bad = latest_copies(rows), 0
    have = {os.path.relpath(os.path.join(dp, f), ROOT) for dp, _, fs in os.walk(os.path.join(ROOT, "results"))
            if os.path.basename(dp) == "latest" for f in fs}
    for path in sorted(set(want) | have):
        full = os.path.join(ROOT, path)
        old = open(full, "rb").read() if os.path.exists(full) else None
        if old == want.get(path):
            continue
        if "--check" in sys.argv[1:]:
            print("%s is not the newest run's copy: run scripts/results_index.py and commit it" % path)
            bad = 1
        elif path in want:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full + ".tmp", "wb") as f:
                f.write(want[path])
            os.replace(full + ".tmp", full)
            print("wrote %s" % path)
        else:
            os.remove(full)
            print("removed %s" % path)
            if not os.listdir(os.path.dirname(full)):
                os.rmdir(os.path.dirname(full))
    return bad


def render(rows):
    out = ["# results/: where the newest figures are", "",
           "Generated by `scripts/results_index.py` from the run documents under results/ (never edited by hand;",
           "`tests/results_index.sh` checks it). Each folder's COMMANDS.md says how its documents were made. Runs",
           "that later runs superseded left the tree: each GPU folder's PRUNED.md says where git keeps them (and what",
           "was compressed in place); the text outputs nothing names by path are packed, one packed.tar.xz a run",
           "folder (scripts/results_pack.py): each GPU folder's PACKED.md lists them.", ""]
    by_gpu = {}
    for r in rows:
        by_gpu.setdefault(r["gpu"], []).append(r)
    for gpu in sorted(by_gpu):
        rs = sorted(by_gpu[gpu], key=lambda r: (r["date"], r["path"]), reverse=True)
        out += ["## " + gpu, ""]
        for kind, what in KINDS:
            best = newest(rs, kind)
            if best:
                out.append("- %s: `%s` (%s, commit %s, %s)%s" % (
                    what, best["path"], best["date"], best["commit"], best["uuid"],
                    "" if kind == "quick" else "; its copy at the fixed path `%s`" % latest_path(gpu, kind)))
        out += ["", "| file | date (UTC) | kind | cases ok / all | wall s | commit | GPU UUID |",
                "|---|---|---|---|---|---|---|"]
        for r in rs:
            out.append("| `%s` | %s | %s | %d / %d | %.1f | %s | %s |" % (
                r["path"][len("results/") + len(gpu) + 1:], r["date"], r["kind"], r["ok"], r["n"], r["wall"] or 0,
                r["commit"], r["uuid"]))
        out.append("")
    return "\n".join(out)


def write_or_check(path, text, what, how):
    """Write text to path atomically, or with --check say whether path holds it already (exit status)."""
    rel = os.path.relpath(path, ROOT)
    if "--check" in sys.argv[1:]:
        old = open(path).read() if os.path.exists(path) else ""
        if old != text:
            print("%s is not what %s writes: run it and commit the file" % (rel, how))
            return 1
        print("%s: up to date" % rel)
        return 0
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    print("wrote %s (%s)" % (rel, what))
    return 0


def main():
    rows = list(runs())
    rc = write_or_check(OUT, render(rows), "the run documents under results/", "scripts/results_index.py")
    return sync_latest(rows) or rc


if __name__ == "__main__":
    sys.exit(main())
