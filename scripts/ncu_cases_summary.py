#!/usr/bin/env python3
"""Condense the ncu_cases.csv that scripts/gpu_session.sh (stage ncu) writes:
one row per case with the L1 sectors, L2 sectors and DRAM bytes of one launch.
Usage: ncu_cases_summary.py NCU_CASES_CSV > summary.csv"""
import csv
import sys

METRICS = [
    "gpu__time_duration.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
]


def main(path):
    header = None
    out = csv.writer(sys.stdout)
    out.writerow(["case", "kernel"] + METRICS)
    for row in csv.reader(open(path)):
        if len(row) > 2 and row[1] == "ID":
            header = row
            continue
        if header is None or len(row) != len(header) or not row[1].isdigit():
            continue
        rec = dict(zip(header, row))
        kernel = rec["Kernel Name"].split("(")[0].replace("void ", "")
        out.writerow([row[0], kernel] + [rec.get(m, "").replace(",", "") for m in METRICS])


if __name__ == "__main__":
    main(sys.argv[1])
