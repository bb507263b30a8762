#!/usr/bin/env python3
"""shares.py tr1.txt [tr2.txt ...] - each transpose case's GB/s over copy_b16 of the same shape, run by run
(the text tables of call.sh; a case that failed validation has no number and is shown as such), and the
ragged copy over the square copy. Usage: python3 shares.py DIR/tr*.txt"""
import re
import sys

runs = []
for fn in sys.argv[1:]:
    gbs = {}
    for line in open(fn):
        m = re.match(r'^transpose\.(\S+)\s+rows=\d+ cols=\d+ tile=\d+ vec=\d+\s+([0-9.]+)\s.*\s(yes|no|FAIL\S*)\s', line)
        if m:
            gbs[m.group(1)] = float(m.group(2)) if m.group(3) == 'yes' else None
    runs.append((fn, gbs))
names = sorted({n for _, g in runs for n in g}, key=lambda n: (n.split('_')[-1] if n.endswith(('ragged', 'a8')) else '', n))
for n in names:
    shape = '_ragged' if n.endswith('_ragged') else '_a8' if n.endswith('_a8') else ''
    ref = 'copy_b16' + shape
    cells = []
    for _, g in runs:
        v, r = g.get(n), g.get(ref)
        cells.append('      -' if v is None or not r else '%6.1f %%' % (100 * v / r))
    print('%-28s %s' % (n, '  '.join(cells)))
for _, g in runs:
    if g.get('copy_b16') and g.get('copy_b16_ragged'):
        print('copy_b16_ragged / copy_b16: %.1f %%' % (100 * g['copy_b16_ragged'] / g['copy_b16']))
