#!/usr/bin/env python3
"""suggest_table.py DIR [FAMILIES.json] - the table of `explain --suggest --run` over the
patterns scripts/suggest_gpu.sh ran (DIR/json/<name>.json, DIR/rc.txt for the class): per pattern
the original and every applicable rewrite, predicted and measured GB/s and speedups; then the
issue-24 targets: the share of rewrites whose predicted speedup is within 15 % of the measured one,
the top rewrite's measured speedup where the original moves >= 2x the bytes it needs, the top
rewrite against gpumem's hand-written versions of the same work, the time of --run. Markdown on
stdout. Reads only what the runs wrote."""
import json
import os
import sys

d = sys.argv[1]
classes, order = {}, []
for line in open(os.path.join(d, 'rc.txt')):
    f = line.split()
    if len(f) >= 2 and f[0] != 'families':
        classes[f[0]] = f[1]
        order.append(f[0])
fam = {}
if len(sys.argv) > 2 and os.path.exists(sys.argv[2]):
    for c in json.load(open(sys.argv[2])).get('cases', []):
        if c.get('status') == 'ok':
            fam[c['name']] = c.get('gbs', {}).get('median') if isinstance(c.get('gbs'), dict) else c.get('gbs_median')

# the hand-written version of the same work (gpumem's families, same call)
SAME_WORK = {
    'col_read': 'transpose best', 'col_write': 'transpose best', 'stride8': 'copy best', 'stride2': 'copy best',
    'bytes1': 'copy best', 'bytes2': 'copy best', 'stride3_blk64': 'copy best', 'hash': 'copy best',
}


def best_of(prefix_list):
    vals = [(v, k) for k, v in fam.items() if v and any(k.startswith(p) for p in prefix_list)]
    return max(vals) if vals else (None, None)


ref = {
    'transpose best': best_of(['transpose.v']),   # the ladder, square shape (only square cases were run)
    'copy best': best_of(['copy.v']),
}

rows_all, lines = [], []
lines.append('| pattern | class | EXPR (options) | waste | rewrite | rank | pred GB/s | meas GB/s | pred x | meas x | meas/pred x |')
lines.append('|---|---|---|---|---|---|---|---|---|---|---|')
summary = []
for name in order:
    p = os.path.join(d, 'json', name + '.json')
    try:
        s = json.load(open(p))['suggest']
    except Exception as e:  # a run that wrote no JSON
        lines.append(f'| {name} | {classes[name]} | (no JSON: {e}) | | | | | | | | |')
        continue
    waste = s.get('original_waste')
    opts = f"`{s['expr']}` {s['op']} {s['space']} {s['elem_bytes']} B n={s['n']} block={s['block'][0]}"
    applicable = [r for r in s['rows'] if r['applies']]
    applicable.sort(key=lambda r: r.get('rank', 0))
    top = None
    for r in applicable:
        run = r.get('run', {})
        ok = run.get('status') == 'ok'
        px = r['predicted_speedup']
        mx = run.get('speedup') if ok else None
        ratio = mx / px if ok and px else None
        if r['name'] != 'original':
            own = run['gbs'] / r['predicted']['gbs'] if ok and r['predicted']['gbs'] else None
            rows_all.append((name, r['name'], px, mx, ratio, run.get('status'), own))
            if r.get('rank') == 1:
                top = (r['name'], px, mx)
        lines.append('| {} | {} | {} | {} | {} | {} | {:.1f} | {} | {:.2f} | {} | {} |'.format(
            name, classes[name], opts, f'{waste:.2f}' if waste is not None else 'shared',
            r['name'] + ('' if ok else f" ({run.get('status')}: {run.get('message', '')})"),
            r.get('rank', '-') if r['name'] != 'original' else '-', r['predicted']['gbs'],
            f"{run['gbs']:.1f}" if ok else '-', px, f'{mx:.2f}' if mx else '-',
            f'{ratio:.2f}' if ratio and r['name'] != 'original' else
            (f"{run['gbs'] / r['predicted']['gbs']:.2f} (GB/s)" if ok else '-')))
        name_col = ''
    summary.append((name, classes[name], waste, top, s.get('run_wall_ms', 0) / 1e3, s.get('model_ms', 0),
                    s.get('sentence', ''), applicable))

print('# explain --suggest --run: predicted and measured\n')
print('\n'.join(lines))
n = len([r for r in rows_all if r[4] is not None])
within = [r for r in rows_all if r[4] is not None and abs(r[4] - 1) <= 0.15]
print(f'\n## Predicted speedup within 15 % of measured\n\n{len(within)} of {n} rewrites run '
      f'({100.0 * len(within) / max(n, 1):.0f} %); every rewrite run was validated '
      f"({len([r for r in rows_all if r[5] == 'ok'])} ok, {len([r for r in rows_all if r[5] not in ('ok', None)])} not ok).")
nh = [r for r in rows_all if r[1] != 'cache_hint' and r[4] is not None]
wh = [r for r in nh if abs(r[4] - 1) <= 0.15]
print(f'Without the cache hints (predicted as the original by construction): {len(wh)} of {len(nh)} '
      f'({100.0 * len(wh) / max(len(nh), 1):.0f} %).')
own = [r for r in rows_all if r[6] is not None]
ownw = [r for r in own if abs(r[6] - 1) <= 0.15]
print(f"The rewrites' own GB/s (measured / predicted) within 15 %: {len(ownw)} of {len(own)} "
      f'({100.0 * len(ownw) / max(len(own), 1):.0f} %).')
print('\nThe misses, with where the error comes from (the original\'s measured / predicted GB/s divides every speedup):\n')
orig = {}
for name in order:
    try:
        s0 = json.load(open(os.path.join(d, 'json', name + '.json')))['suggest']['rows'][0]
        orig[name] = s0['run']['gbs'] / s0['predicted']['gbs']
    except Exception:
        pass
print('| pattern | rewrite | speedup meas/pred | its GB/s meas/pred | original GB/s meas/pred |')
print('|---|---|---|---|---|')
for r in rows_all:
    if r[4] is not None and abs(r[4] - 1) > 0.15:
        print(f'| {r[0]} | {r[1]} | {r[4]:.2f} | {r[6]:.2f} | {orig.get(r[0], 0):.2f} |')
print('\n## Top-ranked rewrite per pattern\n')
print('| pattern | class | waste | top rewrite | pred x | meas x | >= 1.5x where waste >= 2 | hand-written, same work | top / it | --run wall s |')
print('|---|---|---|---|---|---|---|---|---|---|')
for name, cls, waste, top, wall, model_ms, sentence, applicable in summary:
    if not top:
        print(f'| {name} | {cls} | {waste if waste is None else f"{waste:.2f}"} | none applies | | | '
              f'{"NO" if waste and waste >= 2 else "n/a"} | | | {wall:.1f} |')
        continue
    tname, px, mx = top
    target = 'n/a' if not waste or waste < 2 else ('yes' if mx and mx >= 1.5 else 'NO')
    hw, hwname, rel = '', '', ''
    if name in SAME_WORK and ref[SAME_WORK[name]][0]:
        v, hwname = ref[SAME_WORK[name]]
        topg = [r for r in applicable if r['name'] == tname][0].get('run', {}).get('gbs')
        hw = f'{hwname} {v:.1f}'
        rel = f'{100.0 * topg / v:.0f} %' if topg else ''
    print(f'| {name} | {cls} | {"shared" if waste is None else f"{waste:.2f}"} | {tname} | {px:.2f} | '
          f'{mx:.2f} | {target} | {hw} | {rel} | {wall:.1f} |' if mx else
          f'| {name} | {cls} | | {tname} | {px:.2f} | - | {target} | {hw} | | {wall:.1f} |')
