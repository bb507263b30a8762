#!/usr/bin/env python3
"""Round trips per thread of a kernel, read from its SASS (cuobjdump -sass).

A thread waits for a global load when an instruction reads the register the
load fills. Loads issued after such a wait start a new round trip (the warp
issues in order). Straight-line count over the kernel's code as laid out:
branches are not followed, so a kernel with two paths (a fast and a bounds-
checked one) prints the round trips of each path it finds, split at each EXIT
that is not predicated.
The launch model's rule T2 takes the count a case declares (docs/MODEL.md).

usage: cuobjdump -sass gpumem | scripts/lab/sass_round_trips.py [NAME_SUBSTRING...]
"""
import re
import sys

INSN = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(.*?);")
REG = re.compile(r"\bR(\d+)\b")


def width(op):
    return 4 if ".128" in op else 2 if ".64" in op else 1


def paths(lines):
    """Round trips and loads of each straight-line piece ending at EXIT."""
    out, pending, rounds, loads, waited = [], set(), 0, 0, False
    for text in lines:
        guarded = text.lstrip().startswith("@")
        text = re.sub(r"^\s*@!?U?P\w+\s+", "", text)
        op = text.split()[0] if text.split() else ""
        regs = [int(r) for r in REG.findall(text)]
        if op.startswith("LDG"):
            srcs = regs[1:]
        elif op.startswith(("ST", "RED", "ATOM")):
            srcs = regs
        else:
            srcs = regs[1:] if regs else []
        if pending & set(srcs):
            pending.clear()
            waited = True
        if op.startswith("LDG"):
            if rounds == 0 or waited:
                rounds += 1
                waited = False
            loads += 1
            pending.update(range(regs[0], regs[0] + width(op)))
        if op == "EXIT" and not guarded:
            if loads:
                out.append((rounds, loads))
            pending, rounds, loads, waited = set(), 0, 0, False
    return out


def main():
    want = sys.argv[1:]
    name, body = None, []
    funcs = []
    for line in sys.stdin:
        m = re.search(r"Function : (\S+)", line)
        if m:
            if name:
                funcs.append((name, body))
            name, body = m.group(1), []
            continue
        m = INSN.match(line)
        if m and name:
            body.append(m.group(1))
    if name:
        funcs.append((name, body))
    for name, body in funcs:
        if want and not any(w in name for w in want):
            continue
        ps = paths(body)
        if ps:
            print(name, " ".join(f"{r} round trip{'s' if r != 1 else ''} ({n} loads)" for r, n in ps))


if __name__ == "__main__":
    main()
