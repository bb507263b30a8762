# usage: python3 regreuse.py NBANKS name1 file1.sass [name2 file2.sass ...] (the k-loop: the backward branch
# enclosing the most FFMA, as ../issue25-perf/regbank.py). Reuse-cache model: per operand slot and per bank (reg mod NB) one cached register; a source hits if
# cache[slot][bank] == reg (set by an earlier instruction's .reuse on that slot); a source read without
# .reuse replaces the entry (invalidates); the loop is walked twice and the second pass counted (steady state).
# NVIDIA documents neither the banks nor the cache: NBANKS 2 and 4 are both printed. Counts RF reads per FFMA and bank collisions among them.
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
NB = int(sys.argv[1])
for name, fn in zip(sys.argv[2::2], sys.argv[3::2]):
    body = loop(fn)
    body = body + body  # steady state: run twice, count second
    n0 = len(body) // 2
    cache = {}
    nff = rf = c2 = c3 = flagged = 0
    for idx, b in enumerate(body):
        b = re.sub(r'^@!?U?P\w+\s+', '', b)
        parts = b.split(None, 1)
        op = parts[0]
        ops = [o.strip() for o in parts[1].split(',')] if len(parts) > 1 else []
        srcs = ops[1:4] if op.startswith('FFMA') else ops[1:]
        reads = []
        anyflag = False
        for s, o in enumerate(srcs[:3]):
            m = re.match(r'-?\|?R(\d+)\|?(\.reuse)?', o)
            if not m or m.group(1) == 'Z':
                continue
            r = int(m.group(1)); ru = bool(m.group(2)); k = (s, r % NB)
            hit = cache.get(k) == r
            if not hit:
                reads.append(r)
            anyflag |= ru
            if ru:
                cache[k] = r
            else:
                cache.pop(k, None)
        if op.startswith('FFMA') and idx >= n0:
            nff += 1; rf += len(reads); flagged += anyflag
            bk = [r % NB for r in reads]
            c2 += len(bk) != len(set(bk))
            c3 += len(bk) == 3 and len(set(bk)) == 1
    print('%-10s FFMA %4d: reuse-flagged %4.1f %%, RF reads/FFMA %.2f, >=2 RF reads in one bank (mod %d) %4.1f %%, all 3 %4.1f %%' %
          (name, nff, 100 * flagged / nff, rf / nff, NB, 100 * c2 / nff, 100 * c3 / nff))
