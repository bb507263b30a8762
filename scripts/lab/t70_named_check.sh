#!/usr/bin/env bash
# t70_named_check.sh [BUILD] [OUT]: the collector's two new keys (t70, docs/TRACE.md "Named patterns") on a GPU, with
# trace set 18's cst and box programs (results/nvidia-h200/trace-heldout18-54ab94b/programs; not held out any more).
# BUILD: a CUDA build of this branch holding gpumem and libgpumem_trace.so (default build); OUT (default $OUT or
# /tmp/t70check) gets cst.trace.json, box.trace.json, their reports (.report.json, .txt) and check.txt.
# About 60-90 s: two nvcc builds (-O3 -lineinfo -arch=sm_90, as the set's call), two traces.
# Checks (check.txt, one line each, "ok" or "FAIL"):
#   1. cst launch 0 (flat_const) has "constant_lane_loads" with an LDC at p18_cst.cu's table reads (nvdisasm);
#   2. cst launch 2 (flat_global on the mapped frame) has an instruction with "memory": "host", launches 0-1 none;
#   3. the reports name them: cst:0 "a __constant__ table", cst:2 "mapped host memory" (primary or secondary), and
#      print the top fix (constant_global, host_copy) against the measured 5.08x and 15.04x of set 18;
#   4. box:0 names "a volatile pointer" (primary or secondary; offline it already does).
set -u
B=$(readlink -f "${1:-build}") O=${2:-${OUT:-/tmp/t70check}}
P=$(cd "$(dirname "$0")/../.." && pwd)/results/nvidia-h200/trace-heldout18-54ab94b/programs
mkdir -p "$O"
export GPUMEM_TRACE_LIB=$B/libgpumem_trace.so
for p in cst box; do
  nvcc -O3 -lineinfo -arch=sm_90 -o "$O/p18_$p" "$P/p18_$p.cu" || { echo "FAIL nvcc $p" | tee -a "$O/check.txt"; exit 1; }
  (cd "$P" && timeout 60 "$B/gpumem" trace --stop-after --kernel . -s 0 -c 64 --keep-trace "$O/$p.trace.json" \
     --json "$O/$p.report.json" -- "$O/p18_$p" > "$O/$p.txt" 2>&1; echo "rc=$?" >> "$O/$p.txt")
done
python3 - "$O" <<'PY' | tee -a "$O/check.txt"
import json, sys
o = sys.argv[1]
def ok(c, what): print(("ok   " if c else "FAIL ") + what)
d = json.load(open(o + "/cst.trace.json")); L = d["launches"]
cl = L[0].get("constant_lane_loads") or []
ok(len(cl) > 0, "cst:0 constant_lane_loads %s" % json.dumps(cl))
host = [[i["pc"] for i in l["instructions"] if i.get("memory") == "host"] for l in L]
ok(len(L) > 2 and host[2] and not host[0] and not host[1], "cst host instructions by launch %s" % host)
r = json.load(open(o + "/cst.report.json"))
def named(k, s): return s in (k.get("primary") or "") or s in (k.get("secondary") or "")
def top(k):
    b = max([i.get("fix") or {} for i in k["instructions"]], key=lambda f: f.get("kernel_speedup") or 0 if f.get("worth_changing") else 0)
    return "%s %.2fx" % (b.get("rewrite"), b.get("kernel_speedup") or 0) if b.get("worth_changing") else "nothing worth changing"
ks = {k["launch_index"]: k for k in r["kernels"]}
ok(named(ks[0], "a __constant__ table"), "cst:0 named (top fix %s; set 18 measured 5.08x)" % top(ks[0]))
ok(named(ks[2], "mapped host memory"), "cst:2 named (top fix %s; set 18 measured 15.04x)" % top(ks[2]))
r = json.load(open(o + "/box.report.json"))
ok(named([k for k in r["kernels"] if k["launch_index"] == 0][0], "a volatile pointer"), "box:0 named")
for k in ks.values(): print("     cst:%d %s | %s" % (k["launch_index"], k.get("primary"), k.get("secondary")))
PY
