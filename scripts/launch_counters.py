#!/usr/bin/env python3
"""Predicted DRAM bytes (launch model) beside the bytes Nsight Compute counted.

usage: launch_counters.py PREDICTED.json NCU_SUMMARY.csv

PREDICTED.json: a run re-predicted by `gpumem predict RUN.json --json FILE`
(its cases carry `launch` objects). NCU_SUMMARY.csv: scripts/ncu_cases_summary.py
output (dram__bytes_read.sum, dram__bytes_write.sum, l1tex sectors). The counters
may come from a launch of another size (--size): predictions are scaled by the
ratio of counted to predicted L1 load sectors (stores when there are no loads),
which the warp model predicts exactly.
"""
import csv
import json
import sys
import gzip


def gmopen(path):
    """A run document, plain or gzip-compressed (gpumem reads both)."""
    with open(path, 'rb') as f:
        gz = f.read(2) == b'\x1f\x8b'
    return gzip.open(path, 'rt') if gz else open(path)



def main():
    cases = {c['name']: c for c in json.load(gmopen(sys.argv[1]))['cases']}
    print('case,scale,dram_read_predicted,dram_read_counted,read_err_pct,'
          'dram_write_predicted,dram_write_counted,write_err_pct,'
          'l2_load_sectors_predicted,l2_load_sectors_counted,l2_load_err_pct')
    for r in csv.DictReader(open(sys.argv[2])):
        c = cases.get(r['case'])
        if not c or 'launch' not in c:
            continue
        l = c['launch']
        ld = float(r['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'])
        st = float(r['l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum'])
        scale = ld / l['l1_load_sectors'] if l['l1_load_sectors'] else st / l['l1_store_sectors']
        pr, pw = l['dram_bytes_read'] * scale, l['dram_bytes_written'] * scale
        cr, cw = float(r['dram__bytes_read.sum']), float(r['dram__bytes_write.sum'])
        pl = l['l2_load_sectors'] * scale
        cl = float(r['lts__t_sectors_srcunit_tex_op_read.sum'])
        print('%s,%.5f,%.6g,%.6g,%.1f,%.6g,%.6g,%.1f,%.6g,%.6g,%.1f' % (
            r['case'], scale, pr, cr, 100 * (pr / cr - 1) if cr else 0,
            pw, cw, 100 * (pw / cw - 1) if cw else 0, pl, cl, 100 * (pl / cl - 1) if cl else 0))


if __name__ == '__main__':
    main()
