#!/usr/bin/env python3
"""Join ncu's raw CSV (one launch per case, first column the case) with the
"counters" objects of a gpumem run --counters JSON; print a markdown table and
exit 1 when a counter disagrees. Only cases ncu profiled are compared.
Global requests and sectors must be equal; shared wavefronts and bank
conflicts within SMEM_TOL_PCT of the wavefronts (the conflict counter is noisy:
a few excess wavefronts per million vary from run to run, see
docs/METHODOLOGY.md); DRAM bytes and L2 sectors within TOL_PCT or below 1e6
(they depend on what the caches hold when the kernel starts: ncu flushes them
before each pass, gpumem profiles right after the timed launches); durations
are shown, not judged."""
import csv
import json
import sys
import gzip


def gmopen(path):
    """A run document, plain or gzip-compressed (gpumem reads both)."""
    with open(path, 'rb') as f:
        gz = f.read(2) == b'\x1f\x8b'
    return gzip.open(path, 'rt') if gz else open(path)


TOL_PCT = 5.0
SMEM_TOL_PCT = 0.5
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
    for row in csv.reader(gmopen(path)):
        if len(row) > 2 and row[1] == "ID":
            header = row
        elif header and len(row) == len(header) and row[1].isdigit():
            rows[row[0]] = dict(zip(header, row))
    return rows


def main(ncu_path, json_path):
    ncu = read_ncu(ncu_path)
    doc = json.load(gmopen(json_path))
    bad = total = 0
    tally = {}
    cases = {c["name"]: c for c in doc["cases"]}
    print("| case | counter | ncu | gpumem | agree |")
    print("| --- | --- | ---: | ---: | --- |")
    for name, n in ncu.items():
        c = cases.get(name, {}).get("counters", {})
        if c.get("state") != "ok":
            print(f"| {name} | (all) | row | {c.get('state', 'no case')} | missing |")
            bad += 1
            continue
        wf = c["shared"]["load_wavefronts"] + c["shared"]["store_wavefronts"]
        for label, metric, (grp, key) in EXACT + CLOSE:
            a, b = num(n.get(metric, "")), c[grp][key]
            if a is None or (a == 0 and b == 0 and grp == "shared"):
                continue
            if grp == "global":
                ok, kind = a == b, "global requests/sectors (exact)"
            elif grp == "shared":
                ok = abs(a - b) <= SMEM_TOL_PCT / 100 * max(wf, 1)
                kind = f"shared wavefronts/conflicts (within {SMEM_TOL_PCT} % of wavefronts)"
            else:
                ok = abs(a - b) <= TOL_PCT / 100 * max(a, b, 1) or max(a, b) < 1e6
                kind = f"{label} (within {TOL_PCT:.0f} % or < 1e6)"
            t = tally.setdefault(kind, [0, 0])
            t[0] += ok
            t[1] += 1
            total += 1
            bad += not ok
            print(f"| {name} | {label} | {a:.0f} | {b:.0f} | {'yes' if ok else 'NO'} |")
        print(f"| {name} | duration ns | {num(n['gpu__time_duration.sum']):.0f} | {c['duration_ns']:.0f} | (shown) |")
    print(f"\n{total - bad}/{total} compared counters agree over {len(ncu)} cases:")
    for kind, (ok, n) in tally.items():
        print(f"- {kind}: {ok}/{n}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
