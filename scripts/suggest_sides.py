#!/usr/bin/env python3
"""suggest_sides.py FILE... - where the error of `explain --suggest`'s predicted speedups lies, over the tables
scripts/suggest_repredict.py printed (one FILE a set, the rewrites predicted now against the committed
measurements). Groups the rows by rewrite and by the original's form (the pattern's name without its set's prefix
and its element size: `y02_load_col2d_b4` -> load_col2d; the hand-made names are their own form) and prints for
each group: rows, mean |predicted / measured - 1|, its signed mean and spread, rows within 10 %, and the mean
measured / predicted time of the rewrite and of its original (the side that carries the error: a speedup's error
is the ratio of the two). Largest total error first. A diagnosis of committed measurements: nothing is run."""
import re
import statistics
import sys


def rows_of(path):
    for line in open(path):
        c = [x.strip() for x in line.split('|')[1:-1]]
        if len(c) != 10 or c[0] == 'pattern' or c[0].startswith('-') or c[6] == '-':
            continue
        yield c[0], c[2], float(c[3]), float(c[6]), float(c[8]), float(c[9])


def form(name):
    return re.sub(r'_b\d+$', '', re.sub(r'^[a-z]\d\d_', '', name))


def table(rows, key, title, top):
    groups = {}
    for r in rows:
        groups.setdefault(key(r), []).append(r)
    print(f'{title}: rows, mean |error|, signed, spread, within 10 %, rewrite time m/p, original\'s time m/p')
    ranked = sorted(groups.items(), key=lambda kv: -sum(abs(r[3] / r[2] - 1) for r in kv[1]))
    for k, g in ranked[:top]:
        e = [r[3] / r[2] - 1 for r in g]
        print(f'- {k}: {len(g)}, {100 * statistics.mean(abs(x) for x in e):.1f} %, '
              f'{100 * statistics.mean(e):+.1f} %, {100 * statistics.pstdev(e):.1f} %, '
              f'{sum(abs(x) <= 0.10 for x in e)}, {statistics.mean(r[4] for r in g):.2f}, '
              f'{statistics.mean(r[5] for r in g):.2f}')


rows = [r for p in sys.argv[1:] for r in rows_of(p)]
if not rows:
    sys.exit('suggest_sides.py: no predicted rows in ' + ' '.join(sys.argv[1:]))
es = [abs(r[3] / r[2] - 1) for r in rows]
print(f'{len(rows)} rewrites: mean error {100 * statistics.mean(es):.2f} %, median {100 * statistics.median(es):.1f} %, '
      f'within 10 %: {sum(e <= 0.10 for e in es)}\n')
table(rows, lambda r: r[1], 'By rewrite', 99)
print()
table(rows, lambda r: f'{r[1]} on {form(r[0])}', 'By rewrite and original form (the 30 largest)', 30)
