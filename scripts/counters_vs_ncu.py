#!/usr/bin/env python3
"""Join ncu's raw CSV (one launch per case, first column the case) with the
"counters" objects of a gpumem run --counters JSON; print a markdown table and
exit 1 when a counter disagrees. Access counts (requests, sectors, wavefronts,
bank conflicts) must be equal; DRAM bytes and L2 sectors within TOL_PCT (they
depend on what the caches hold when the kernel starts); durations are shown,
not judged (ncu and CUPTI replay differently)."""
import csv
import json
import sys

TOL_PCT = 5.0
EXACT = [
    ("load req", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", ("global", "load_requests")),
    ("load sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", ("global", "load_sectors")),
    ("store req", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", ("global", "store_requests")),
    ("store sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", ("global", "store_sectors")),
    ("smem ld wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", ("shared", "load_wavefronts")),
    ("smem st wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", ("shared", "store_wavefronts")),
    ("ld conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", ("shared", "load_bank_conflicts")),
    ("st conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", ("shared", "store_bank_conflicts")),
]
CLOSE = [
    ("DRAM read", "dram__bytes_read.sum", ("dram", "read_bytes")),
    ("DRAM write", "dram__bytes_write.sum", ("dram", "write_bytes")),
    ("L2 sectors", "lts__t_sectors.sum", ("l2", "sectors")),
]


def num(s):
    return float(s.replace(",", "")) if s not in ("", "n/a") else None


def read_ncu(path):
    header, rows = None, {}
    for row in csv.reader(open(path)):
        if len(row) > 2 and row[1] == "ID":
            header = row
        elif header and len(row) == len(header) and row[1].isdigit():
            rows[row[0]] = dict(zip(header, row))
    return rows


def main(ncu_path, json_path):
    ncu = read_ncu(ncu_path)
    doc = json.load(open(json_path))
    bad = total = 0
    print("| case | counter | ncu | gpumem | agree |")
    print("| --- | --- | ---: | ---: | --- |")
    for case in doc["cases"]:
        name, c = case["name"], case.get("counters", {})
        n = ncu.get(name)
        if not n or c.get("state") != "ok":
            print(f"| {name} | (all) | {'row' if n else 'no ncu row'} | {c.get('state', 'none')} | missing |")
            bad += 1
            continue
        for label, metric, (grp, key) in EXACT + CLOSE:
            a, b = num(n.get(metric, "")), c[grp][key]
            if a is None or (a == 0 and b == 0 and label.startswith(("smem", "ld c", "st c"))):
                continue
            if (label, metric, (grp, key)) in EXACT:
                ok = a == b
            else:
                ok = abs(a - b) <= TOL_PCT / 100 * max(a, b, 1) or max(a, b) < 1e6
            total += 1
            bad += not ok
            print(f"| {name} | {label} | {a:.0f} | {b:.0f} | {'yes' if ok else 'NO'} |")
        print(f"| {name} | duration ns | {num(n['gpu__time_duration.sum']):.0f} | {c['duration_ns']:.0f} | (shown) |")
    print(f"\n{total - bad}/{total} compared counters agree (access counts exact; DRAM bytes and L2 sectors "
          f"within {TOL_PCT:.0f} % or below 1e6)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
