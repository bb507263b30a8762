#!/usr/bin/env python3
"""suggest_aos_sectors.py BIN - block_work on stores of structures (`(gid%S)*M + gid/S`, form store_aos): for each
pattern of tests/suggest/ (the held-out heldout-s5* files left out) whose committed `explain --suggest --run` sentence
names block_work (results/nvidia-h200/suggest-*/score.md), the store sectors a warp's request writes (and how many of
them partly), the measured ps a store sector of the rewrite and of the original, and BIN's DRAM and L2 times for one
of the rewrite's four store patterns (a quarter of its elements: `explain` of pattern k = 0, blocks of 256) against a
quarter of the rewrite's measured time. A diagnosis of committed measurements (docs/log/2026-12-01-suggest-s68.md):
nothing is run on a GPU."""
import glob
import re
import shlex
import subprocess
import sys

SPAN = 8192  # suggest_rules.c WORK_SPAN; WORK_ILP = 4
binary = sys.argv[1]
sent = {}
for f in glob.glob('results/nvidia-h200/suggest-*/score.md'):
    for m in re.finditer(r'- (\w+_store_aos_b\d+): .*?block_work.*?\(([\d.]+) GB/s against ([\d.]+)\)', open(f).read()):
        sent[m.group(1)] = (float(m.group(2)), float(m.group(3)))
pats = {}
for f in glob.glob('tests/suggest/*.tsv'):
    if 'heldout-s5' in f:
        continue
    for ln in open(f):
        if '|' in ln and not ln.startswith('#'):
            name, _, args = ln.strip().split('|', 2)
            pats[name] = args
g = f'((gid/{SPAN})*{4 * SPAN} + gid%{SPAN})'
print('pattern S bytes | store sectors a warp (partly written) | rewrite GB/s, ps a sector | original GB/s, ps a sector'
      ' | quarter: model DRAM ms, L2 ms, measured ms, measured / DRAM')
for name, (rw, og) in sorted(sent.items()):
    if name not in pats:
        continue
    a = shlex.split(pats[name])
    eb, n, expr = int(a[a.index('--bytes') + 1]), int(a[a.index('--n') + 1]), a[-1]
    S, M = int(re.search(r'gid%(\d+)', expr).group(1)), int(re.search(r'\)\*(\d+)', expr).group(1))
    tot = part = 0
    for w in range(2000):
        secs = {}
        for t in range(32 * w, 32 * w + 32):
            b = ((t % S) * M + t // S) * eb
            secs[b // 32] = secs.get(b // 32, 0) + eb
        tot += len(secs)
        part += sum(v < 32 for v in secs.values())
    spw, bpw = tot / 2000, 64 * eb
    T = (n + 4 * SPAN - 1) // (4 * SPAN) * SPAN
    out = subprocess.run([binary, 'explain', '--profile', 'data/profiles/nvidia-h200.json', '--op', 'store', '--bytes',
                          str(eb), '--block', '256', '--n', str(T), f'({g}%{S})*{M} + {g}/{S}'],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r'DRAM ([\d.]+) ms, L2 ([\d.]+) ms', out)
    d, l2 = float(m.group(1)), float(m.group(2))
    q = 2 * n * eb / rw / 1e6 / 4
    print(f'{name} {S} {eb} | {spw:.2f} ({part / 2000:.2f}) | {rw:.0f}, {bpw / rw / spw * 1e3:.1f} | '
          f'{og:.0f}, {bpw / og / spw * 1e3:.1f} | {d:.4f}, {l2:.4f}, {q:.4f}, {q / d:.2f}')
