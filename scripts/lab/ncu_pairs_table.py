#!/usr/bin/env python3
"""One line per case from gpu_session.sh's ncu_pairs.txt: duration, DRAM % of peak, L2 requests and
sectors, instructions, achieved occupancy and the stall reasons (cycles per issued instruction).
usage: scripts/lab/ncu_pairs_table.py ncu_pairs.txt"""
import re
import sys

UNIT = {"ns": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}
STALLS = ["long_scoreboard", "lg_throttle", "barrier", "drain", "mio_throttle", "wait", "not_selected",
          "short_scoreboard"]


def main(path):
    rows, order, cur = {}, [], None
    for line in open(path):
        m = re.match(r"===== (\S+)", line)
        if m:
            cur = m.group(1)
            rows[cur] = {}
            order.append(cur)
            continue
        m = re.match(r"\s+(\S+)\s+(\S+)?\s+([\d,.]+)$", line)
        if m and cur:
            v = float(m.group(3).replace(",", ""))
            if m.group(1) == "gpu__time_duration.sum":
                v *= UNIT.get(m.group(2), 1.0)
            rows[cur][m.group(1)] = v
    print(f"{'case':32s} {'us':>7s} {'dram%':>6s} {'L2req/M':>8s} {'L2sec/M':>8s} {'inst/M':>7s} {'occ%':>5s} "
          + " ".join(s[:6] for s in STALLS))
    for c in order:
        r = rows[c]
        st = " ".join(f"{r.get(f'smsp__average_warps_issue_stalled_{s}_per_issue_active.ratio', 0):6.2f}"
                      for s in STALLS)
        print(f"{c:32s} {r.get('gpu__time_duration.sum', 0):7.1f} "
              f"{r.get('dram__throughput.avg.pct_of_peak_sustained_elapsed', 0):6.1f} "
              f"{r.get('lts__t_requests.sum', 0) / 1e6:8.2f} {r.get('lts__t_sectors.sum', 0) / 1e6:8.2f} "
              f"{r.get('smsp__inst_executed.sum', 0) / 1e6:7.1f} "
              f"{r.get('sm__warps_active.avg.pct_of_peak_sustained_active', 0):5.1f} {st}")


if __name__ == "__main__":
    main(sys.argv[1])
