#!/usr/bin/env python3
"""suggest_heldout.py [SEED] [COUNT] [PREFIX] [SET...] - a held-out pattern set for `explain --suggest --run` (issue 38 item 2),
drawn from a seeded grammar so that nobody picks its expressions: the lines scripts/suggest_gpu.sh reads with
PATTERNS=FILE (name|class|explain arguments), printed to stdout. Written and committed before the rule changes
it is meant to judge; its measurements are looked at only after those changes are final. A set that a rule has
been shaped on becomes a development set (renamed, its header says where): tests/suggest/dev-s38.tsv (was heldout-s38,
`suggest_heldout.py 38 30`, names h00-h29) since it was scored at 150fbce, tests/suggest/dev-s38b.tsv (was
heldout-s38b, `suggest_heldout.py 3802 30 k`, names k00-k29) since branch s39s, tests/suggest/dev-s39.tsv (was
heldout-s39, `suggest_heldout.py 3903 60 m`) since h40s, tests/suggest/dev-s40.tsv (was heldout-s40, `4004 60 q`, scored
once at 1ff77a7) since h43s; tests/suggest/dev-s41.tsv (was heldout-s41, `4105 60 v`, scored
once at 2fc4302) since h45s; tests/suggest/dev-s42.tsv (was heldout-s42, `4206 60 x`, scored once at 61339a3) since h47s; tests/suggest/dev-s43.tsv (was heldout-s43, `4307 60 y`, scored once at 8b1a6bd) and tests/suggest/dev-s44.tsv (was heldout-s44, `4408 60 z`, scored once at 5fef697) since h50s; tests/suggest/dev-s45.tsv (was heldout-s45) (`4509 58 w`) once at h50s's freeze; tests/suggest/dev-s46.tsv (was heldout-s46) (`4610 60 u`) once at 800c3ed. tests/suggest/dev-s47.tsv (was heldout-s47) (`4711 60 r`, the eleven earlier sets excluded) was drawn after, by h51s, and scored once at 93d0b55; the three were renamed dev-s45..dev-s47 after it. tests/suggest/dev-s48.tsv (was heldout-s48, `4812 60 p`, the twelve earlier sets excluded) was drawn then and scored once at 20ef76f; tests/suggest/dev-s49.tsv (was heldout-s49, `4913 60 n`, the thirteen earlier sets excluded) was drawn after it and scored once at f048626; tests/suggest/dev-s50.tsv (was heldout-s50, `5014 60 j`, the fourteen earlier sets excluded) was drawn after it and scored once at 3e03402; tests/suggest/dev-s51.tsv (was heldout-s51, `5115 60 g`, the fifteen earlier sets excluded) was drawn after it and scored once at a4fa7e2; tests/suggest/dev-s52.tsv (was heldout-s52, `5216 60 e`, the sixteen earlier sets excluded) was drawn after it and scored once at d7da685; tests/suggest/dev-s53.tsv (was heldout-s53, `5317 60 d`, the seventeen earlier sets excluded) was drawn after it and scored once at fac3346; tests/suggest/dev-s54.tsv (was heldout-s54, `5418 60 c`, the eighteen earlier sets excluded) was drawn after it and scored once at cdb1b27; tests/suggest/dev-s55.tsv (was heldout-s55, `5519 60 b`, the nineteen earlier sets excluded) was drawn after it and scored once at 1b54c47; tests/suggest/dev-s56.tsv (was heldout-s56, `5620 60 a`, the twenty earlier sets excluded) was drawn after it and scored once at e233f7f; tests/suggest/dev-s57.tsv (was heldout-s57, `5721 60 f`, the twenty-one earlier sets excluded) was drawn after it and scored once at 3272f77; tests/suggest/dev-s58.tsv (was heldout-s58, `5821 60 t`, the twenty-two earlier sets excluded) was drawn after it and scored once at bee4e4c; tests/suggest/dev-s59.tsv (was heldout-s59, `5922 60 i`, the twenty-three earlier sets excluded) was drawn after it and scored once at 427bb0d; tests/suggest/dev-s60.tsv (was heldout-s60, `6023 60 l`, the twenty-four earlier sets excluded) was drawn after it and scored once at 5e8cd5e; tests/suggest/dev-s61.tsv (was heldout-s61, `6124 60 o`, the twenty-five earlier sets excluded) was drawn after it and scored once at 51cc4d1; tests/suggest/dev-s62.tsv (was heldout-s62, `6225 60 s`, the twenty-six earlier sets excluded) was drawn after it and scored once at d16eeaa; tests/suggest/dev-s63.tsv (was heldout-s63, `6326 60 ab`, the twenty-seven earlier sets excluded; every one-letter prefix used) was drawn after it and scored once at af9a8ea; tests/suggest/dev-s64.tsv (was heldout-s64, `6427 60 ac`, the twenty-eight earlier sets excluded) and tests/suggest/dev-s65.tsv (was heldout-s65, `6528 60 ad`, the twenty-nine earlier sets excluded) were drawn after it, measured with 7c8e392 and scored once at 09db49d; tests/suggest/dev-s66.tsv (was heldout-s66, `6629 60 ae`) was drawn at 09db49d and scored once there; tests/suggest/dev-s67.tsv (was heldout-s67, `6730 60 af`) and tests/suggest/dev-s68.tsv (was heldout-s68, `6831 60 ag`) were drawn after it, measured with 7918ee4 and scored once at d25f2b9; tests/suggest/dev-s69.tsv (was heldout-s69, `6932 60 ah`) and tests/suggest/dev-s70.tsv (was heldout-s70, `7033 60 ai`) were drawn then and scored once at d25f2b9; tests/suggest/dev-s71.tsv (was heldout-s71, `7134 60 aj`) and tests/suggest/dev-s72.tsv (was heldout-s72, `7235 60 ak`) were drawn then, measured with d25f2b9 and scored once at 3a7451b; tests/suggest/dev-s73.tsv (was heldout-s73, `7336 54 al`) and tests/suggest/dev-s74.tsv (was heldout-s74, `7437 50 am`, drawn after the freeze) were scored once at 3a7451b; tests/suggest/dev-s75.tsv (was heldout-s75, `7538 45 an`) was drawn after them and scored once at 3a7451b; tests/suggest/heldout-s76.tsv (`7639 42 ao`), with every earlier set excluded, was drawn for the rounds after. COUNT is at most the grammar's 60 kinds (one pattern of each space, form and element size), fewer where a
kind's every draw is in SET... (the script says so and exits 1). PREFIX (default h) starts each name, so that two sets' rows never share a name. SET...: pattern files (the development sets) whose patterns
are not drawn again (the same explain arguments; a drawn one is redrawn), so that none of the held-out patterns is
one a rule was shaped on.

The grammar: a space (global load, global store, shared load), an element size (1, 2, 4, 8, 16 B; stores and
shared reads of 1 or 2 B are drawn at 4 B and more, as `--run` needs 4 B stores), a block (1D 64-1024, or 2D for
the column and row walks), and one expression form with its constants drawn from ranges that avoid the development
set's values where a form shares one (tests/suggest/patterns-2026-11-29.tsv). n is 128-256 MiB per array. Widened
by h50s (sets from heldout-s46 on; heldout-s45 and the sets before it were drawn by the grammar before): 16-byte
elements, 2D launches over rows whose pitch is not a power of two (row2d), column walks of pitches 5120-7168 and
blocks 32x8, 64x4, 16x16, three-mode maps (batched, a batch of transposes), reversals in blocks of 96-768."""
import random
import sys

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 38
count = int(sys.argv[2]) if len(sys.argv) > 2 else 30
prefix = sys.argv[3] if len(sys.argv) > 3 else "h"
known = {ln.strip().split("|", 2)[2] for f in sys.argv[4:] for ln in open(f)
         if ln.strip() and not ln.startswith("#")}
rng = random.Random(seed)
MIB = 1 << 20


def n_for(eb, mib=None):
    return (mib or rng.choice([128, 256])) * MIB // eb


def g_stride(eb, op):
    k = rng.choice([5, 6, 7, 10, 12, 24, 32])
    return f"'gid*{k}'", rng.choice([64, 128, 256, 512]), n_for(eb, 128) // 1


def g_offset(eb, op):
    c = rng.choice([2, 7, 9, 17, 33, 65])
    return f"'gid + {c}'", rng.choice([128, 256, 512, 1024]), n_for(eb)


def g_stride_offset(eb, op):
    k, c = rng.choice([2, 3, 4]), rng.choice([1, 3, 5])
    return f"'gid*{k} + {c}'", rng.choice([128, 256, 512]), n_for(eb, 128)


def g_reverse(eb, op):
    return "'n - 1 - gid'", rng.choice([64, 96, 128, 192, 256, 384, 512, 768, 1024]), n_for(eb)


def g_transpose(eb, op):
    n = n_for(eb, 256 if eb >= 4 else 128)
    r = rng.choice([512, 1024, 2048, 4096, 16384])
    c = n // r
    pad = rng.choice([0, 0, 0, 8, 16, 32])
    return f"'(gid%{r})*{c + pad} + gid/{r}'", rng.choice([128, 256, 512]), n


def g_broadcast(eb, op):
    k = rng.choice([2, 8, 16, 64])
    return f"'gid/{k}'", rng.choice([128, 256, 1024]), n_for(eb)


def g_aos(eb, op):
    k = rng.choice([2, 3, 5, 6, 8])
    n = n_for(eb) // k * k
    return f"'(gid%{k})*{n // k} + gid/{k}'", rng.choice([128, 256]), n


def g_interleave(eb, op):
    b = rng.choice([128, 256, 512])
    k = rng.choice([2, 4, 16])
    return f"'bx*{b} + (tid%{b // k})*{k} + tid/{b // k}'", b, n_for(eb)


def g_hash(eb, op):
    a, p = rng.choice([3, 11, 13, 31]), rng.choice([65537, 262139, 4194301])
    return f"'(gid*{a})%{p}'", rng.choice([128, 256]), n_for(eb, 128)


def g_col2d(eb, op):
    bx, by = rng.choice([(32, 4), (32, 16), (16, 8), (8, 32), (32, 8), (64, 4), (16, 16)])
    rows = rng.choice([4096, 8192, 5120, 6144, 7168])  # the pitch: a power of two or not (a multiple of 32)
    cols = n_for(eb, 256 if eb >= 4 else 128) // rows // bx * bx
    per = cols // bx  # blocks along a row of the grid's x
    return (f"'(bx % {per} * {bx} + tx) * {rows} + bx / {per} * {by} + ty'", f"{bx},{by}", rows * cols)


def g_row2d(eb, op):
    """2D blocks along the rows of a matrix whose pitch (cols + pad elements) is not a power of two."""
    bx, by = rng.choice([(32, 4), (32, 8), (64, 4), (16, 16), (128, 2)])
    rows = rng.choice([2048, 4096, 8192])
    cols = n_for(eb, 128) // rows // bx * bx
    per, pitch = cols // bx, cols + rng.choice([1, 3, 8, 24, 96])
    return (f"'(bx / {per} * {by} + ty) * {pitch} + bx % {per} * {bx} + tx'", f"{bx},{by}", rows * cols)


def g_batched(eb, op):
    """A three-mode map: a batch of a x b transposes (NCHW <-> NHWC and the like)."""
    a, b = rng.choice([32, 64, 256, 1024]), rng.choice([96, 256, 768, 1024])
    n = n_for(eb, 128) // (a * b) * (a * b)
    return f"'(gid%{a})*{b} + (gid/{a})%{b} + gid/{a * b}*{a * b}'", rng.choice([128, 256, 512]), n


def s_stride(eb):
    k = rng.choice([2, 3, 8, 16, 33])
    return f"'tid * {k}'", rng.choice([128, 256, 512])


def s_col(eb):
    w = rng.choice([8, 16, 32, 64])
    b = rng.choice([w * w if w * w <= 1024 else 1024, 256, 512])
    return f"'(tid%{w})*{w} + tid/{w}'", b


def s_lane(eb):
    k = rng.choice([2, 4, 8, 16, 64])
    return f"'lane * {k}'", rng.choice([256, 1024])


def s_xorrow(eb):
    w = rng.choice([16, 32])
    return f"'(tid / {w}) * {w} + (tid % {w}) * {rng.choice([2, 4])} % {w}'", rng.choice([256, 512])


GLOBAL_LOAD = [g_stride, g_offset, g_stride_offset, g_reverse, g_transpose, g_broadcast, g_aos, g_interleave,
               g_hash, g_col2d, g_row2d, g_batched]
GLOBAL_STORE = [g_stride, g_offset, g_stride_offset, g_reverse, g_transpose, g_aos, g_row2d, g_batched]
SHARED = [s_stride, s_col, s_lane, s_xorrow]

seen, out, draws = set(), [], 0
while len(out) < count:
    draws += 1
    if draws > 200000:  # a kind whose every draw is in SET... never fills: say so instead of looping
        sys.exit(f"suggest_heldout.py: only {len(out)} of {count} patterns after {draws - 1} draws: the kinds left "
                 "have no draw outside the sets given; ask for fewer")
    space = rng.choices(["load", "store", "shared"], weights=[5, 3, 2])[0]
    if space == "shared":
        eb = rng.choice([4, 4, 8])
        form = rng.choice(SHARED)
        expr, b = form(eb)
        n = n_for(eb, 128)
        args = f"--space shared --bytes {eb} --block {b} --n {n} {expr}"
    else:
        eb = rng.choice([1, 2, 4, 4, 8, 16]) if space == "load" else rng.choice([4, 4, 8, 16])
        form = rng.choice(GLOBAL_LOAD if space == "load" else GLOBAL_STORE)
        expr, b, n = form(eb, space)
        op = " --op store" if space == "store" else ""
        args = f"--bytes {eb} --block {b} --n {n}{op} {expr}"
    key = (space, form.__name__, eb)
    if key in seen or args in known:  # one pattern per (space, form, element size): spread over the grammar
        continue
    seen.add(key)
    name = f"{prefix}{len(out):02d}_{space}_{form.__name__[2:]}_b{eb}"
    out.append(f"{name}|heldout|{args}")
print("# explain --suggest --run patterns held out from the rule changes of issue 38 item 2: "
      f"`scripts/suggest_heldout.py {seed} {count}" + (f" {prefix}" if prefix != "h" or sys.argv[4:] else "")
      + "".join(" " + f for f in sys.argv[4:]) + "`")
print("# (a seeded grammar; committed before the rules changed, measured once after). name|class|explain arguments")
print("\n".join(out))
