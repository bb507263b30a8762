#!/usr/bin/env python3
"""suggest_kinds.py [--by-form] FILE... - the error of `explain --suggest`'s predicted speedups ranked by rewrite
kind, over the tables scripts/suggest_repredict.py printed (one FILE a set; scripts/lab/suggest_dev_all.sh writes
them): per kind the rows, mean |predicted / measured - 1|, signed mean, its share of the summed error, rows within
10 % and its share of the rows outside 10 % (issue 38's 90 % target). --by-form: kind and the original's form (the
pattern's name less its set prefix and element size, as scripts/suggest_sides.py), the 25 largest. A diagnosis of
committed measurements: nothing is run."""
import re
import statistics
import sys

args = sys.argv[1:]
by_form = args[:1] == ['--by-form']
rows = []
for path in args[by_form:]:
    for line in open(path):
        c = [x.strip() for x in line.split('|')[1:-1]]
        if len(c) != 10 or c[0] == 'pattern' or c[0].startswith('-') or c[6] == '-':
            continue
        e = float(c[6]) / float(c[3]) - 1  # predicted / measured - 1
        name = re.sub(r'_b\d+$', '', re.sub(r'^[a-z]\d\d_', '', c[0])) if by_form else ''
        rows.append((c[2] + (' on ' + name if by_form else ''), e))
total = sum(abs(e) for _, e in rows)
out = sum(abs(e) > 0.10 for _, e in rows)
print(f'{len(rows)} rewrites, mean {100 * total / len(rows):.2f} %, within 10 %: {len(rows) - out} '
      f'({100 * (len(rows) - out) / len(rows):.1f} %)\n')
groups = {}
for k, e in rows:
    groups.setdefault(k, []).append(e)
print('| kind | rows | mean | signed | share of error | within 10 % | share of rows outside 10 % |')
print('|---|---|---|---|---|---|---|')
ranked = sorted(groups.items(), key=lambda kv: -sum(abs(e) for e in kv[1]))
for k, es in ranked[:25 if by_form else None]:
    s, o = sum(abs(e) for e in es), sum(abs(e) > 0.10 for e in es)
    print(f'| {k} | {len(es)} | {100 * s / len(es):.1f} % | {100 * statistics.mean(es):+.1f} % | '
          f'{100 * s / total:.1f} % | {len(es) - o} | {100 * o / max(out, 1):.1f} % |')
