#!/usr/bin/env python3
"""Generate a sealed set of kernels for the launch model (issue 36): a seeded grammar of index expressions.

usage: sealed_gen.py [--seed S] [--count N] > tests/fixtures/sealed/sealed-S.tsv

The set is written once, committed BEFORE any rule of the launch model changes, and no rule is ever shaped on
it: it is what the model is judged on (docs/MODEL.md 7.4). A set a rule was shaped on becomes a development set
and is renamed into tests/fixtures/dev/ (dev-36a was sealed-36, dev-36b was sealed-36b); a new sealed set is generated with a new seed.

Each line is a kernel in the format of scripts/unseen_set.sh (name, --n, --type, --block, --op, EXPR):
explain --run's kernel, a 1D grid of --n threads; --op load: out[gid] = in[EXPR]; --op store: out[EXPR] =
in[gid] (stores: elements of 4 B or more, every index written once). The grammar draws, per kernel, one shape:
  stream     gid*S + O                                   strides and offsets
  colwalk    (gid%R)*P + gid/R                           column walks over R rows of pitch P
  tile       ((bx/W)*BH + ty)*P + (bx%W)*BW + tx         2D launches as tiles of a 2D block over a pitched
  tile_t     ((bx%W)*BW + tx)*P + (bx/W)*BH + ty         matrix, read along rows or down columns
  blocks     (bx%K)*M + (bx/K)*bdx + tid                 blocks scattered K ways, M elements apart
  perm       (gid/B)*B + (gid*A)%B                       a permutation inside chunks of B (A odd)
  swizzle    gid ^ X                                     xor within a small window
  reuse      gid/D  or  gid%M                            loads that repeat elements (broadcast)
and a type (char short float double float4), a block (1D or 2D), sizes of 256 MiB to 1 GiB an array, and
loads or stores (stores where the index is one-to-one).
"""
import argparse
import random

TYPES = [("char", 1), ("short", 2), ("float", 4), ("double", 8), ("float4", 16)]
MiB = 1 << 20


def pick_n(r, elem):
    """threads: 256 MiB to 1 GiB an array, sometimes not a power of two"""
    mib = r.choice([256, 384, 512, 768, 1024])
    return mib * MiB // elem


def stream(r, n, elem):
    s = r.choice([1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128])
    o = r.choice([0, 0, 1, 3, 8, 17, 32])
    n = max(1 << 16, n // s)
    return n, "%s%s" % ("gid*%d" % s if s > 1 else "gid", " + %d" % o if o else ""), True, "1d"


def colwalk(r, n, elem):
    rows = r.choice([2, 3, 4, 8, 12, 16, 24, 32, 48, 64, 100, 128, 200, 256, 512, 1024, 2048, 4096])
    cols = n // rows
    pad = r.choice([0, 0, 1, 8, 16, 33, 128])
    return rows * cols, "(gid%%%d)*%d + gid/%d" % (rows, cols + pad, rows), True, "1d"


def tile(r, n, elem, transposed):
    bw, bh = r.choice([(32, 8), (16, 16), (8, 8), (32, 4), (64, 4), (32, 32), (128, 2), (16, 8), (8, 32),
                       (24, 8), (12, 16), (48, 4)])
    width = r.choice([1024, 2048, 4096, 8192, 16384, 3000, 5000, 6144])
    w = max(1, width // bw)
    width = w * bw
    pad = r.choice([0, 0, 1, 4, 16, 32, 64])
    pitch = width + pad
    rows = max(bh, (n // pitch) // bh * bh)
    n = rows * width
    if transposed:   # a block reads a BW x BH patch of columns: threads along tx walk rows
        pitch = rows + pad
        expr = "((bx%%%d)*%d + tx)*%d + (bx/%d)*%d + ty" % (w, bw, pitch, w, bh)
        n = width * rows
    else:
        expr = "((bx/%d)*%d + ty)*%d + (bx%%%d)*%d + tx" % (w, bh, pitch, w, bw)
    return n, expr, True, "%d,%d" % (bw, bh)


def blocks(r, n, elem):
    bdx = r.choice([64, 128, 256, 512, 1024])
    nb = n // bdx
    k = r.choice([2, 4, 8, 16, 64, 256])
    nb = nb // k * k
    m = (nb // k) * bdx + r.choice([0, 0, 32, 1024])
    return nb * bdx, "(bx%%%d)*%d + (bx/%d)*%d + tid" % (k, m, k, bdx), True, str(bdx)


def perm(r, n, elem):
    b = r.choice([32, 64, 256, 1024, 4096, 65536])
    a = r.choice([3, 5, 7, 17, 33, 129, 1025])
    if a >= b:
        a = 3
    n = n // b * b
    return n, "(gid/%d)*%d + (gid*%d)%%%d" % (b, b, a, b), True, "1d"


def swizzle(r, n, elem):
    x = r.choice([1, 2, 4, 8, 16, 31, 32, 64, 256, 1024])
    span = 1
    while span <= x:
        span *= 2
    n = n // span * span
    return n, "gid ^ %d" % x, True, "1d"


def reuse(r, n, elem):
    if r.random() < 0.5:
        d = r.choice([2, 4, 8, 32, 64])
        return n, "gid/%d" % d, False, "1d"
    m = r.choice([1 << 12, 1 << 16, 1 << 20, 3 << 20, 1 << 22, 12 << 20])
    return n, "gid%%%d" % m, False, "1d"


SHAPES = [("stream", stream), ("colwalk", colwalk), ("tile", lambda r, n, e: tile(r, n, e, False)),
          ("tilet", lambda r, n, e: tile(r, n, e, True)), ("blocks", blocks), ("perm", perm),
          ("swizzle", swizzle), ("reuse", reuse)]


def kernel(r, i, shapes=SHAPES):
    shape, fn = r.choice(shapes)
    tname, elem = r.choice(TYPES)
    n, expr, one_to_one, block = fn(r, pick_n(r, elem), elem)
    op = "store" if one_to_one and elem >= 4 and r.random() < 0.4 else "load"
    if block == "1d":
        block = str(r.choice([64, 128, 256, 256, 256, 512, 1024]))
    return "%s_%02d\t%d\t%s\t%s\t%s\t%s" % (shape, i, n, tname, block, op, expr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--count", type=int, default=64)
    ap.add_argument("--shapes", default="", help="comma-separated shapes to draw from (a probe of some shapes); "
                    "default all")
    a = ap.parse_args()
    shapes = [s for s in SHAPES if s[0] in a.shapes.split(",")] if a.shapes else SHAPES
    r = random.Random(a.seed)
    print("# The sealed set of the launch model, seed %d, %d kernels: scripts/sealed_gen.py --seed %d --count %d."
          % (a.seed, a.count, a.seed, a.count))
    print("# Committed before any rule changes; no rule is shaped on it (issue 36, docs/MODEL.md 7.4). Format of")
    print("# scripts/unseen_set.sh: name, --n, --type, --block, --op, EXPR (explain --run's kernel).")
    print("# name\tn\ttype\tblock\top\texpr")
    for i in range(a.count):
        print(kernel(r, i, shapes))


if __name__ == "__main__":
    main()
