#!/usr/bin/env python3
"""link_cycles.py BUILD_DIR - no two source files of gpumem's libraries depend on each other: file A depends on
file B when A's object uses a symbol B's object defines (nm). Prints each pair that uses each other (a circle of
two files) and exits 1 if there is one. Reads the objects of the gm_* libraries a build left (cmake's object
folders); the objects are of this build's tier (with or without CUDA).

Also the layers (../shared/STYLE.md, CONTRIBUTING.md): io renders and never concludes, so no object of gm_io uses
a symbol of gm_analysis, gm_bench or gm_cli; exits 1 on one (each named)."""
import os
import subprocess
import sys

# library -> the libraries its objects must not use
LAYERS = {"gm_io": ("gm_analysis", "gm_bench", "gm_cli")}

build = sys.argv[1] if len(sys.argv) > 1 else "build"
objs = []
for d, _, names in os.walk(build):
    if "/CMakeFiles/gm_" in d + "/" and "/tests/" not in d:
        objs += [os.path.join(d, n) for n in names if n.endswith(".o")]
defs, uses, lib, srcof = {}, {}, {}, {}
for o in objs:
    src = o.split(".dir/", 1)[1][:-2] if ".dir/" in o else o
    lib[src] = o.split("/CMakeFiles/", 1)[1].split(".dir/", 1)[0]
    srcof[o] = src
# one nm for every object (-A: each line starts with its object's path and a colon), not one process an object
for i in range(0, len(objs), 400):
    out = subprocess.run(["nm", "-A"] + objs[i:i + 400], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        path, _, sym = line.partition(".o:")
        parts = sym.split()
        src = srcof.get(path + ".o")
        if src is None:
            continue
        if len(parts) == 3 and parts[1] in "TDBR":
            defs.setdefault(parts[2], set()).add(src)
        elif len(parts) == 2 and parts[0] == "U":
            uses.setdefault(src, set()).add(parts[1])
dep = {a: {b for s in syms for b in defs.get(s, ()) if b != a} for a, syms in uses.items()}
pairs = sorted({tuple(sorted((a, b))) for a in dep for b in dep[a] if a in dep.get(b, ())})
for a, b in pairs:
    print("circle: %s <-> %s" % (a, b))
print("link circles: %d among %d objects" % (len(pairs), len(objs)))
crossed = sorted((a, b, sym) for a, syms in uses.items() for sym in syms for b in defs.get(sym, ())
                 if lib.get(b) in LAYERS.get(lib.get(a), ()))
for a, b, sym in crossed:
    print("layer: %s (%s) uses %s of %s (%s)" % (a, lib[a], sym, b, lib[b]))
print("layer crossings: %d" % len(crossed))
sys.exit(1 if pairs or crossed else 0)
