#!/usr/bin/env python3
"""Cut one small run file per family out of the committed H100 results.

The compute and transfer families (make_fixtures.py cuts the others); the
report tests (tests/report/browser_test.sh, report_cli_test.sh) read them so
that they need no GPU. Every number is a measured one from the file named in
the fixture's "command"; only cases are dropped (and the per-sample times, to
keep the files small). Run from the repository root:
    python3 tests/report/make_fixtures_compute.py
"""
import json
import os

R = 'results/nvidia-h100-80gb-hbm3/'
SOURCES = ['results/nvidia-h200-x2/p2p/p2p.json', R + 'compute/roof_matvec.json', R + 'compute/gemm.json', R + 'transfer/xfer.json']
# the families of those runs that make_fixtures.py does not cut
FAMILIES = ('roofline', 'matvec', 'gemm', 'overlap', 'alloc', 'atomics', 'managed', 'p2p')
# family -> keep a case when this returns True (None: every case)
KEEP = {
    'stride': lambda c: c['params'].get('elem_bytes') in (4, 16),
    'offset': lambda c: c['params'].get('offset', 0) <= 16,
    'banks': lambda c: c['params'].get('elem_bytes') in (4, 8),
}
OUT = 'tests/report/fixtures'

def main():
    done = set()
    for src in SOURCES:
        doc = json.load(open(src))
        fams = []
        for c in doc['cases']:
            if c['family'] not in fams:
                fams.append(c['family'])
        for fam in fams:
            if fam in done or fam not in FAMILIES:
                continue
            done.add(fam)
            keep = KEEP.get(fam)
            cases = [dict(c) for c in doc['cases'] if c['family'] == fam and (keep is None or keep(c))]
            for c in cases:
                c['samples_ms'] = []
            out = dict(doc)
            out['cases'] = cases
            out['derived'] = [d for d in doc.get('derived', []) if d.get('family') == fam]
            out['command'] = 'fixture: the %s cases of %s (%s)' % (fam, src, doc.get('command', ''))
            with open(os.path.join(OUT, fam + '.json'), 'w') as f:
                json.dump(out, f, indent=1)
                f.write('\n')

if __name__ == '__main__':
    main()
