#!/usr/bin/env python3
"""walk.py - the fault-injection walk (issue 22 item 4; docs/HARDENING.md).

Needs a binary built with -DGPUMEM_FAULT=ON (src/core/fault.h). On a GPU:

  walk.py BIN OUTDIR [--budget S] [--cases C,...] [--part gpu|fs|explain|all]

1. A reference run of one representative case per family (`gpumem list`; a
   few swapped for the case that reaches cuBLAS, pinned or registered host
   memory, a pool, a persisting-L2 limit or a carve-out) under
   GPUMEM_FAULT=count and `run --sanitize` (validation and one timed launch):
   calls and distinct call sites per class, for the setup and for each case.
2. Every setup site of every CUDA class fails once (GPUMEM_FAULT=CLASS:@K).
3. For each class, R = 1, 2, ...: in one process over every case that has an
   R-th site, each case's R-th site fails once (GPUMEM_FAULT=CLASS:case@R).
4. `explain --run` (NVRTC, the JIT library, CUPTI): every site of each class
   fails once (CLASS:@K).
5. The file system: the output file's write (fsync) and rename fail (write:N,
   rename:N) for run --json and report -o.

Each process is checked: no crash; the documented exit code; a one-line
message naming the call (the failing case's JSON message, or the error line);
the JSON a complete document with the failing case marked and the others as in
the reference, or the old file untouched when the failure came before any case;
no temporary file left; the wrappers' ledger empty at exit (device, managed,
pinned and registered memory, pools, arrays, textures, events, streams,
libraries, peer access); device memory (cudaMemGetInfo) and RSS at exit no
higher than the reference's; the persisting-L2 limit and every carve-out
restored. Writes OUTDIR/walk.json (every process) and OUTDIR/summary.md.
Exit 0 when every check passed, 1 otherwise, 77 without a GPU.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

CUDA_CLASSES = ["alloc", "launch", "copy", "pinned", "event", "stream", "blas", "peer", "compile"]
OPTIONAL = {"nvml", "cupti"}        # features that turn off with a warning: exit 0 is right
# representative case per family: the first in `gpumem list` unless a later one reaches more
PREFER = {
    "transpose": "transpose.v0_naive_ragged", "matvec": "matvec.ref_cublas", "gemm": "gemm.ref_cublas_1024", "l2persist": "l2persist.h050",
    "carveout": "carveout.ws048k_c050", "alloc": "alloc.pool_64k", "transfer": "transfer.registered_h2d",
}
EXTRA = ["transfer.pinned_h2d", "gemm.v10_tma_1024"]
SENTINEL = '{"sentinel": "the file before the run"}\n'
DEV_SLACK = 4 << 20          # bytes: cudaMemGetInfo moves in 2 MiB pages
RSS_SLACK_KB = 64 << 10
# a message names the call, or the file and line of the check (gm_cuda_status: "what: error (file.cu:123)")
CALL_RE = re.compile(r"(cuda[A-Z]\w*|cu[A-Z]\w*|nvrtc|NVRTC|cublas|cuBLAS|cupti|CUPTI|nvml|NVML|"
                     r"\(\S+\.(cu|c|cuh|h):\d+\))")
# where a failure has no status to return to (release, annotate, close): ignoring it is right
NO_STATUS_RE = re.compile(r"(release|annotate|_free|close|destroy|at_exit)")
# explain --run's counters line when the profiled launch failed: "  counters      <the failed call's message>"
COUNTERS_FAIL_RE = re.compile(r"^\s*counters\s+(?!n/a)\S")
INJ_RE = re.compile(r"gpumem-fault: injected (\S+) \((\w+) call (\d+), site (\d+); case (\S+) call (\d+), "
                    r"site (\d+); at \+0x([0-9a-f]+)\)")


def parse_report(err):
    rep = {"cases": {}, "order": [], "total": {}, "injected": [], "left": {}, "mem": {}, "state": {}, "other": []}
    for line in err.splitlines():
        if line.startswith("gpumem-fault: case "):
            parts = line.split()
            name = parts[2]
            counts = {}
            for kv in parts[3:]:
                k, v = kv.split("=")
                c, s = v.split("/")
                counts[k] = (int(c), int(s))
            if name not in rep["cases"]:
                rep["order"].append(name)
            rep["cases"][name] = counts
        elif line.startswith("gpumem-fault: calls "):
            rep["total"] = {}
            for kv in line.split()[3:]:
                k, v = kv.split("=")
                c, n = v.split("/")
                rep["total"][k] = (int(c), int(n))
        elif line.startswith("gpumem-fault: injected"):
            m = INJ_RE.match(line)
            if m:
                rep["injected"].append({"call": m.group(1), "cls": m.group(2), "case": m.group(5),
                                        "site": int(m.group(7)), "at": "0x" + m.group(8)})
        elif line.startswith("gpumem-fault: leak "):
            rep.setdefault("leaks", []).append(line[len("gpumem-fault: leak "):])
        elif line.startswith("gpumem-fault: left "):
            rep["left"] = {k: int(v) for k, v in (kv.split("=") for kv in line.split()[2:])}
        elif line.startswith("gpumem-fault: memory "):
            rep["mem"] = {k: int(v) for k, v in (kv.split("=") for kv in line.split()[2:])}
        elif line.startswith("gpumem-fault: state "):
            rep["state"] = {k: int(v) for k, v in (kv.split("=") for kv in line.split()[2:])}
        elif not line.startswith("gpumem-fault:"):
            rep["other"].append(line)
    return rep


class Walk:
    def __init__(self, binary, out, budget):
        self.bin, self.out, self.budget = binary, out, budget
        self.where_cache = {}
        self.t0 = time.time()
        self.runs = []
        self.ref = None
        self.ref_status = {}
        self.skipped = []

    def where(self, off):
        """function (file:line) of a site offset in the binary, by addr2line; '' when it cannot say."""
        if off not in self.where_cache:
            try:
                p = subprocess.run(["addr2line", "-f", "-C", "-e", self.bin, off], capture_output=True, text=True,
                                   timeout=10)
                fn, loc = (p.stdout.splitlines() + ["", ""])[:2]
                self.where_cache[off] = "%s (%s)" % (fn.split("(")[0], os.path.basename(loc))
            except (OSError, subprocess.TimeoutExpired):
                self.where_cache[off] = ""
        return self.where_cache[off]

    def left(self):
        return self.budget - (time.time() - self.t0)

    def proc(self, args, fault, json_path=None):
        env = dict(os.environ, GPUMEM_FAULT=fault)
        timeout = max(10, min(120, self.left() + 10))
        if json_path:
            with open(json_path, "w") as f:
                f.write(SENTINEL)
        t = time.time()
        try:
            p = subprocess.run([self.bin] + args, env=env, capture_output=True, text=True, timeout=timeout)
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            rc, out, err = -999, "", (e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) \
                else (e.stderr or "")
        return rc, out, err, time.time() - t

    # ---- checks of one process ----
    def check(self, what, args, fault, rc, err, secs, json_path, cases, allowed_setup, allowed_case, zero_ok=False):
        rep = parse_report(err)
        probs = []
        inj = rep["injected"]
        if rc == -999:
            probs.append("timed out")
        elif rc < 0 or rc >= 128:
            probs.append("crash: exit %d" % rc)
        if re.search(r"Segmentation|Aborted|core dumped|terminate called|AddressSanitizer|double free", err):
            probs.append("crash text on stderr")
        errors = [l for l in rep["other"] if l.startswith("error:")]
        if len(errors) > 1:
            probs.append("%d error lines" % len(errors))
        doc = None
        if json_path:
            txt = open(json_path).read() if os.path.exists(json_path) else ""
            if txt != SENTINEL:
                try:
                    doc = json.loads(txt)
                except ValueError:
                    probs.append("JSON not valid")
            d = os.path.dirname(json_path) or "."
            base = os.path.basename(json_path)
            tmp = [f for f in os.listdir(d) if f.startswith(base + ".")]
            if tmp:
                probs.append("temporary file left: %s" % tmp[0])
                for f in tmp:
                    os.unlink(os.path.join(d, f))
        in_case = [i for i in inj if i["case"] not in ("-", "+")]
        if inj and not in_case:                     # the failure came before any case (or after all)
            if rc not in allowed_setup and not ((inj[0]["cls"] in OPTIONAL or zero_ok) and rc == 0):
                probs.append("exit %d (expected one of %s)" % (rc, sorted(allowed_setup)))
            if rc != 0:
                msg = errors[0] if errors else ""
                if not errors:
                    probs.append("no error line")
                elif not CALL_RE.search(msg):
                    probs.append("message names no call: %s" % msg[:120])
            if json_path and doc is not None and rc != 0 and inj[0]["case"] == "-":
                probs.append("JSON replaced although the run failed before its first case")
        elif in_case:
            accepted = 0        # injected cases that ended ok for a good reason (a note, a release)
            # a failure where nothing can return it (a release, a close at exit) may end the command with 0
            if not json_path and rc == 0 and NO_STATUS_RE.search(self.where(in_case[0]["at"]).split(" ")[0]):
                zero_ok = True
            if rc not in allowed_case and not ((in_case[0]["cls"] in OPTIONAL or zero_ok) and rc == 0):
                probs.append("exit %d (expected one of %s)" % (rc, sorted(allowed_case)))
                exit_prob = len(probs) - 1
            else:
                exit_prob = None
            if not json_path and rc != 0:
                if not errors:
                    probs.append("no error line")
                elif not CALL_RE.search(errors[0]):
                    probs.append("message names no call: %s" % errors[0][:120])
            if not json_path and rc == 0 and in_case[0]["cls"] not in OPTIONAL and not zero_ok:
                at = self.where(in_case[0]["at"])
                if not NO_STATUS_RE.search(at.split(" ")[0]):
                    probs.append("injected failure ignored (exit 0) at %s" % at)
            if json_path:
                if doc is None:
                    probs.append("no JSON written")
                else:
                    byname = {c["name"]: c for c in doc.get("cases", [])}
                    hit = {i["case"] for i in in_case}
                    for name in cases:
                        c = byname.get(name)
                        if c is None:
                            if rc != 6:
                                probs.append("case %s missing from the JSON" % name)
                            continue
                        if name in hit:
                            i0 = [i for i in in_case if i["case"] == name][0]
                            cls = i0["cls"]
                            st, msg = c.get("status"), c.get("message", "")
                            notes = {n.get("name") for n in c.get("notes", []) if isinstance(n, dict)}
                            at = self.where(i0["at"])
                            i0["where"] = at
                            if st == "ok" and cls == "pinned" and "pinned_fallback" in notes:
                                accepted += 1   # pageable memory instead, said by the note (transfer, overlap)
                            elif st == "ok" and NO_STATUS_RE.search(at.split(" ")[0]):
                                accepted += 1   # a release or annotate: nothing to return the failure to
                            elif st == "ok" and cls not in OPTIONAL:
                                probs.append("%s: injected failure ignored (status ok) at %s" % (name, at))
                            elif st == "failed":
                                probs.append("%s: surfaced as a validation failure: %s" % (name, msg[:100]))
                            elif st in ("error", "skipped"):
                                if "\n" in msg:
                                    probs.append("%s: message of several lines" % name)
                                if not CALL_RE.search(msg):
                                    probs.append("%s: message names no call: %s" % (name, msg[:100]))
                        else:
                            want = self.ref_status.get(name)
                            if want and c.get("status") != want:
                                probs.append("%s: %s, %s in the reference (a failure in another case spread)" %
                                             (name, c.get("status"), want))
                    if rc == 0 and exit_prob is not None and accepted == len(hit):
                        probs.pop(exit_prob)    # every injected case ended ok for a good reason
        # what is left
        if rep["left"]:
            base = self.ref["left"] if self.ref else {}
            lk = {k: v for k, v in rep["left"].items() if k != "bytes" and v > base.get(k, 0)}
            if lk:
                probs.append("left at exit: " + " ".join("%s=%d" % kv for kv in sorted(lk.items())))
                for l in rep.get("leaks", [])[:4]:
                    m = re.search(r"at \+(0x[0-9a-f]+)", l)
                    probs.append("leak " + l + ((" " + self.where(m.group(1))) if m else ""))
        if rep["mem"] and self.ref and self.ref["mem"]:
            dd = rep["mem"]["device_delta"] - self.ref["mem"]["device_delta"]
            if dd > DEV_SLACK:
                probs.append("device memory +%.1f MiB over the reference at exit" % (dd / 2**20))
            dr = rep["mem"]["rss_delta_kb"] - self.ref["mem"]["rss_delta_kb"]
            if dr > RSS_SLACK_KB:
                probs.append("RSS +%.1f MiB over the reference at exit" % (dr / 1024))
        if rep["state"]:
            s = rep["state"]
            if s["persisting_l2_before"] != s["after"]:
                probs.append("persisting-L2 limit %d -> %d" % (s["persisting_l2_before"], s["after"]))
            if s["carveouts_changed"]:
                probs.append("%d carve-outs not restored" % s["carveouts_changed"])
        if fault != "count" and not inj:
            probs.append("nothing injected")
        rec = {"what": what, "fault": fault, "args": args, "exit": rc, "secs": round(secs, 2),
               "injected": inj, "problems": probs, "error_line": errors[0] if errors else "",
               "left": rep["left"], "mem": rep["mem"], "state": rep["state"]}
        if probs and probs != ["nothing injected"]:
            rec["stderr_tail"] = rep["other"][-6:]
        self.runs.append(rec)
        tag = "ok  " if not probs or probs == ["nothing injected"] else "FAIL"
        print("%s %-28s exit %3d %5.1fs  %s%s" % (tag, fault, rc, secs,
              ", ".join("%s@%s" % (i["call"], i["case"]) for i in inj)[:90],
              ("  <- " + "; ".join(probs)) if tag == "FAIL" else ""), flush=True)
        return rep

    # ---- the walk ----
    def gpu(self, cases):
        jp = os.path.join(self.out, "run.json")
        base = ["run"] + cases + ["--sanitize", "--json", jp]
        rc, out, err, secs = self.proc(base, "count", jp)
        rep = parse_report(err)
        self.ref = rep
        try:
            self.ref_status = {c["name"]: c["status"] for c in json.load(open(jp))["cases"]}
        except (ValueError, OSError, KeyError):
            pass
        self.runs.append({"what": "reference", "fault": "count", "args": base, "exit": rc, "secs": round(secs, 2),
                          "cases": rep["cases"], "left": rep["left"], "mem": rep["mem"], "state": rep["state"],
                          "status": self.ref_status,
                          "problems": ([] if rc in (0, 1) else ["reference exit %d" % rc]) +
                          (["left at exit without a fault: %s" % rep["left"]]
                           if any(v for k, v in rep["left"].items() if k != "bytes") else [])})
        print("reference: exit %d in %.1f s; statuses %s; left %s; memory %s" %
              (rc, secs, {s: list(self.ref_status.values()).count(s) for s in set(self.ref_status.values())},
               rep["left"], rep["mem"]), flush=True)
        for name in rep["order"]:
            print("  %-34s %s" % (name, " ".join("%s=%d/%d" % (k, *v) for k, v in rep["cases"][name].items())))

    def setup_walk(self, cases, classes):
        """Every call site before the first case fails once: the run ends with one error line."""
        jp = os.path.join(self.out, "run.json")
        setup = self.ref["cases"].get("-", {})
        for cls in classes:
            for k in range(1, setup.get(cls, (0, 0))[1] + 1):
                if self.left() < 5:
                    self.skipped.append("%s:@%d (setup)" % (cls, k))
                    continue
                args = ["run", cases[0], "--sanitize", "--json", jp]
                f = "%s:@%d" % (cls, k)
                rc, out, err, secs = self.proc(args, f, jp)
                self.check("setup", args, f, rc, err, secs, jp, [cases[0]], {3, 4, 6}, {1, 6})

    def case_walk(self, classes):
        """For R = 1, 2, ...: each case's R-th call site of the class fails once, every such case in one process."""
        jp = os.path.join(self.out, "run.json")
        rep = self.ref
        for cls in classes:
            have = {n: rep["cases"][n].get(cls, (0, 0))[1] for n in rep["order"] if n not in ("-", "+")}
            for r in range(1, max(list(have.values()) + [0]) + 1):
                sel = [n for n in rep["order"] if have.get(n, 0) >= r]
                if not sel:
                    continue
                if self.left() < 8:
                    self.skipped.append("%s:case@%d over %d cases" % (cls, r, len(sel)))
                    continue
                args = ["run"] + sel + ["--sanitize", "--json", jp]
                f = "%s:case@%d" % (cls, r)
                rc, out, err, secs = self.proc(args, f, jp)
                self.check("cases", args, f, rc, err, secs, jp, sel, {3, 4, 6}, {1, 6})

    def jit(self, classes):
        """explain --run (NVRTC, the JIT library, a case, CUPTI counters): every site of a class fails once."""
        args = ["explain", "--run", "gid", "--n", "1048576"]
        if not getattr(self, "jit_ref", None):
            rc, out, err, secs = self.proc(args, "count")
            rep = parse_report(err)
            self.jit_ref = rep
            self.runs.append({"what": "explain reference", "fault": "count", "args": args, "exit": rc,
                              "secs": round(secs, 2), "cases": rep["cases"], "total": rep["total"],
                              "left": rep["left"], "problems": [] if rc == 0 else ["reference exit %d" % rc]})
            print("explain --run reference: exit %d in %.1f s: %s" % (rc, secs, rep["total"]), flush=True)
        rep = self.jit_ref
        for cls in classes:
            for k in range(1, rep["total"].get(cls, (0, 0))[1] + 1):
                if self.left() < 5:
                    self.skipped.append("explain %s:@%d" % (cls, k))
                    continue
                f = "%s:@%d" % (cls, k)
                rc2, out, err, secs = self.proc(args, f)
                # explain's documented codes: 1 validation, 3 no device, 4 memory, 6 CUDA error. A failure in the
                # counters' profiled launch (after the timed samples) leaves the measured figure valid: exit 0 is
                # right when the output's counters line names the failed call (docs/ERRORS.md, C rows).
                said = [l for l in (out or "").splitlines() if COUNTERS_FAIL_RE.match(l) and CALL_RE.search(l)]
                self.check("explain", args, f, rc2, err, secs, None, [], {1, 3, 4, 6}, {1, 3, 4, 6},
                           zero_ok=bool(said))

    def fs(self, run_case):
        """The output's write (fsync) and rename fail: exit 5, the old file intact, no temporary left."""
        res = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "fixtures", "launch",
                           "h100-suite.json.gz")
        small = os.path.join(os.path.dirname(res), "..", "runs", "h100", "gemm_v7.json")
        jobs = [("report -o", ["report", res, "-o", os.path.join(self.out, "page.html")],
                 os.path.join(self.out, "page.html")),
                ("compare -o", ["compare", small, small, "-o", os.path.join(self.out, "cmp.html")],
                 os.path.join(self.out, "cmp.html")),
                ("predict --json", ["predict", small, "--json", os.path.join(self.out, "pred.json")],
                 os.path.join(self.out, "pred.json"))]
        if run_case:
            jp = os.path.join(self.out, "fs.json")
            jobs.append(("run --json", ["run", run_case, "--sanitize", "--json", jp], jp))
        for what, args, path in jobs:
            for f in ("write:1", "rename:1"):
                with open(path, "w") as fh:
                    fh.write(SENTINEL)
                rc, out, err, secs = self.proc(args, f)
                rep = parse_report(err)
                probs = []
                if rc != 5:
                    probs.append("exit %d (expected 5)" % rc)
                if open(path).read() != SENTINEL:
                    probs.append("old file changed")
                tmp = [x for x in os.listdir(os.path.dirname(path)) if x.startswith(os.path.basename(path) + ".")]
                if tmp:
                    probs.append("temporary file left: %s" % tmp[0])
                errors = [l for l in rep["other"] if l.startswith("error:")]
                if len(errors) != 1 or "cannot write" not in errors[0]:
                    probs.append("error lines: %s" % errors)
                if not rep["injected"]:
                    probs.append("nothing injected")
                self.runs.append({"what": "fs " + what, "fault": f, "args": args, "exit": rc, "secs": round(secs, 2),
                                  "injected": rep["injected"], "problems": probs,
                                  "error_line": errors[0] if errors else ""})
                print("%s fs %-14s %-10s exit %d  %s%s" % ("FAIL" if probs else "ok  ", what, f, rc,
                      errors[0] if errors else "", ("  <- " + "; ".join(probs)) if probs else ""), flush=True)

    def write(self):
        bad = [r for r in self.runs if r["problems"] and r["problems"] != ["nothing injected"]]
        with open(os.path.join(self.out, "walk.json"), "w") as f:
            json.dump({"runs": self.runs, "skipped": self.skipped, "seconds": round(time.time() - self.t0, 1)}, f,
                      indent=1)
        lines = ["# Fault-injection walk", "",
                 "%d processes in %.1f s; %d with a problem; %d not walked (budget)." %
                 (len(self.runs), time.time() - self.t0, len(bad), len(self.skipped)), "",
                 "| what | GPUMEM_FAULT | exit | s | injected (call @ case, site) | problems |", "|---|---|---|---|---|---|"]
        for r in self.runs:
            inj = ", ".join("%s @ %s #%d" % (i["call"], i["case"], i["site"]) for i in r.get("injected", []))
            lines.append("| %s | %s | %s | %s | %s | %s |" % (r["what"], r["fault"], r["exit"], r["secs"], inj,
                         "; ".join(r["problems"]).replace("|", "/")))
        if self.skipped:
            lines += ["", "Not walked (budget): " + ", ".join(self.skipped)]
        open(os.path.join(self.out, "summary.md"), "w").write("\n".join(lines) + "\n")
        return 1 if bad else 0


def representative(binary):
    out = subprocess.run([binary, "list"], capture_output=True, text=True).stdout
    names = [l.split()[0] for l in out.splitlines() if l.strip() and not l.startswith("#")]
    fams, first = [], {}
    for n in names:
        f = n.split(".")[0]
        if f not in first:
            fams.append(f)
            first[f] = n
    pick = [PREFER[f] if PREFER.get(f) in names else first[f] for f in fams]
    return pick + [e for e in EXTRA if e in names and e not in pick]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("out")
    ap.add_argument("--budget", type=float, default=90)
    ap.add_argument("--cases")
    ap.add_argument("--part", default="all", choices=["all", "gpu", "fs", "explain"])
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    w = Walk(os.path.abspath(a.bin), os.path.abspath(a.out), a.budget)
    have_gpu = subprocess.run([a.bin, "info"], capture_output=True).returncode != 3
    cases = a.cases.split(",") if a.cases else representative(a.bin)
    if a.part in ("all", "fs"):
        w.fs(cases[0] if have_gpu else None)
    if a.part == "explain" and have_gpu:     # explain --run alone (NVRTC, the JIT library, CUPTI)
        w.jit(["compile", "cupti", "alloc", "launch", "copy", "event", "stream"])
    if a.part in ("all", "gpu", "explain"):
        if not have_gpu:
            print("no CUDA device: the GPU part is skipped")
            if w.write():
                return 1
            return 77 if a.part in ("gpu", "explain") or (a.part == "all" and not a.cases) else 0
        elif a.part != "explain":
            print("cases (%d): %s" % (len(cases), " ".join(cases)), flush=True)
            # most telling first: what runs out of budget is listed as not walked
            w.gpu(cases)
            w.setup_walk(cases, CUDA_CLASSES + ["nvml"])
            w.case_walk(["alloc", "launch", "copy"])
            w.case_walk(["stream", "event", "pinned", "blas", "peer", "nvml"])
            w.jit(["compile", "cupti", "alloc", "launch", "copy", "event", "stream"])
    rc = w.write()
    print("walk: %d processes, %.1f s, %s" % (len(w.runs), time.time() - w.t0, "all checks passed" if rc == 0
                                                else "problems: see summary.md"))
    return rc


if __name__ == "__main__":
    sys.exit(main())
