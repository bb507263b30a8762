#!/usr/bin/env python3
"""compare_ncu.py - a trace document against Nsight Compute for the same kernels (issue 38).

  compare_ncu.py TRACE.json NCU_SASS.csv NCU_RAW.csv [--csv OUT.csv]

NCU_SASS.csv: `ncu -i REP --page source --print-source sass --csv` (SourceCounters: per SASS instruction
"Instructions Executed" and "L2 Theoretical Sectors Global" / "... Ideal"); NCU_RAW.csv: `ncu -i REP --page raw
--csv --metrics ...` with the l1tex sector/request/wavefront sums. The k-th kernel of the ncu report is
compared with the k-th launch of the trace (both select the same launches in the same order).
Prints one row per global memory instruction (pc offset = address - the kernel's first address) and one
per kernel for the totals (global sectors and requests by loads and stores, shared wavefronts).
"""
import csv
import json
import re
import sys


def sections(path):
    """ncu source CSV -> [(kernel, [row dicts])], one per kernel (repeated views dropped)."""
    rows = list(csv.reader(open(path, newline="")))
    out, seen = [], set()
    i = 0
    while i < len(rows):
        r = rows[i]
        if r and r[0] == "Kernel Name":
            name, hdr = r[1], rows[i + 1]
            j = i + 2
            body = []
            while j < len(rows) and rows[j] and rows[j][0] != "Kernel Name":
                body.append(dict(zip(hdr, rows[j])))
                j += 1
            key = (name, body[0].get("Address") if body else None)
            if key not in seen:
                seen.add(key)
                out.append((name, body))
            i = j
        else:
            i += 1
    return out


def raw_rows(path):
    rows = list(csv.reader(open(path, newline="")))
    hdr = rows[0]
    return [dict(zip(hdr, r)) for r in rows[2:] if len(r) == len(hdr)]


def num(s):
    s = (s or "").replace(",", "").strip()
    try:
        return float(s)
    except ValueError:
        return None


def base(name):
    name = re.sub(r"^void\s+", "", name)
    return re.split(r"[<(]", name, 1)[0].strip()


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    trace = json.load(open(argv[1]))
    secs = sections(argv[2])
    raws = raw_rows(argv[3])
    out = []
    for k, launch in enumerate(trace["launches"]):
        if k >= len(secs):
            break
        kname, body = secs[k]
        if base(kname) != base(launch["name"]):
            print(f"kernel {k}: ncu '{kname}' is not trace '{launch['name']}': stopped")
            break
        start = int(body[0]["Address"], 16)
        by_pc = {int(r["Address"], 16) - start: r for r in body}
        tot = {"ld_sec": 0, "st_sec": 0, "ld_req": 0, "st_req": 0, "sh_ld_wf": 0, "sh_st_wf": 0}
        for ins in launch["instructions"]:
            r = by_pc.get(ins["pc"])
            if ins["space"] == "global":
                key = "ld" if ins["op"] == "load" else "st" if ins["op"] == "store" else None
                if key:
                    tot[key + "_sec"] += ins["sectors"]
                    tot[key + "_req"] += ins["requests"]
                ncu_sec = num(r.get("L2 Theoretical Sectors Global")) if r else None
                ncu_ideal = num(r.get("L2 Theoretical Sectors Global Ideal")) if r else None
                ncu_exec = num(r.get("Instructions Executed")) if r else None
                same = ncu_sec is not None and ncu_sec == ins["sectors"]
                out.append([launch["name"], ins["pc"], ins["sass"], ins["op"], ins["executions"], ncu_exec,
                            ins["sectors"], ncu_sec, ins["ideal_sectors"], ncu_ideal, "yes" if same else "NO"])
            elif ins["space"] == "shared":
                tot["sh_ld_wf" if ins["op"] == "load" else "sh_st_wf"] += ins["wavefronts"] or 0
        raw = next((x for x in raws if base(x.get("Kernel Name", "")) == base(launch["name"])
                    and x.get("ID") == str(k)), None) or (raws[k] if k < len(raws) else None)
        if raw:
            pairs = [("ld_sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                     ("st_sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
                     ("ld_req", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
                     ("st_req", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
                     ("sh_ld_wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
                     ("sh_st_wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")]
            for mine, metric in pairs:
                theirs = num(raw.get(metric))
                same = theirs is not None and theirs == tot[mine]
                out.append([launch["name"], "kernel", metric, "", "", "", tot[mine], theirs, "", "",
                            "yes" if same else "NO"])
            t = num(raw.get("gpu__time_duration.sum"))
            out.append([launch["name"], "kernel", "time (trace time_ms vs ncu us/1000)", "", "", "",
                        launch["time_ms"], t / 1000 if t else None, "", "", ""])
    hdr = ["kernel", "pc", "sass/metric", "op", "executions", "ncu_executions", "sectors", "ncu_sectors",
           "ideal_sectors", "ncu_ideal", "equal"]
    w = csv.writer(open(argv[argv.index("--csv") + 1], "w", newline="")) if "--csv" in argv else None
    if w:
        w.writerow(hdr)
    for row in out:
        if w:
            w.writerow(row)
        print("  ".join(str(x) for x in row))
    n = sum(1 for r in out if r[10] in ("yes", "NO"))
    ok = sum(1 for r in out if r[10] == "yes")
    print(f"{ok} of {n} equal")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
