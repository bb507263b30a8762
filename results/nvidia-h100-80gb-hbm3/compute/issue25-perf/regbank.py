# The main k-loop of each kernel (the backward branch enclosing the most FFMA): instructions, FFMA,
# and how the FFMAs read their three sources: operand reuse flags, sources read from the register
# file (no .reuse), and FFMAs whose register-file sources share a bank (reg mod 2, reg mod 4).
import re, sys
def loop(fn):
    L = []
    for l in open(fn):
        m = re.search(r'/\*([0-9a-f]{4,})\*/\s+(.*?);', l)
        if m:
            L.append((int(m.group(1), 16), m.group(2)))
    best = None
    for a, ins in L:
        t = re.search(r'BRA.*0x([0-9a-f]+)', ins)
        if t and int(t.group(1), 16) < a:
            body = [x[1] for x in L if int(t.group(1), 16) <= x[0] <= a]
            if best is None or sum('FFMA' in b for b in body) > sum('FFMA' in b for b in best):
                best = body
    return best
for name, fn in zip(sys.argv[1::2], sys.argv[2::2]):
    body = loop(fn)
    ff = [b for b in body if re.match(r'(@!?P\d\s+)?FFMA', b)]
    reuse = rf = b2 = b4 = 0
    for b in ff:
        src = [o.strip() for o in b.split(None, 1)[1].split(',')][1:4]
        regs = [(int(m.group(1)), bool(m.group(2))) for m in (re.match(r'-?R(\d+)(\.reuse)?', o) for o in src) if m]
        reuse += any(r for _, r in regs)
        nr = [r for r, ru in regs if not ru]
        rf += len(nr)
        k2 = [r % 2 for r in nr]
        b2 += len(k2) >= 2 and max(k2.count(0), k2.count(1)) >= 2
        k4 = [r % 4 for r in nr]
        b4 += len(k4) != len(set(k4))
    n = len(ff)
    print('%-7s loop %4d instr (%5.1f KiB), %4d FFMA, %3d other; FFMA with a .reuse %4.1f %%, register-file sources per FFMA %.2f, '
          'FFMA with two such sources in one bank: %4.1f %% (mod 2), %4.1f %% (mod 4)' %
          (name, len(body), len(body) * 16 / 1024, n, len(body) - n, 100 * reuse / n, rf / n, 100 * b2 / n, 100 * b4 / n))
