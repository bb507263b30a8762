#!/usr/bin/env python3
"""test_cpu_times.py BUILD [CTEST_ARGS...] - run each ctest test of BUILD alone, one after another, and print its
CPU seconds (user + sys of the test and all its children, from getrusage) and wall seconds, costliest first.

On a machine shared with other jobs wall times say little; CPU seconds are what a test costs wherever it runs.
CTEST_ARGS select the tests as ctest does (default: -L unit), e.g. `-L unit -E '^launch_golden$'`. The command,
environment and working folder of each test are ctest's own (`ctest --show-only=json-v1`). Run it under
`nice -n 10` on a shared machine. Exit 1 when a test fails (its name and exit status are printed).
"""
import json
import os
import resource
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 2:
        print("usage: test_cpu_times.py BUILD [CTEST_ARGS...]", file=sys.stderr)
        return 2
    build, sel = sys.argv[1], sys.argv[2:] or ["-L", "unit"]
    listing = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"] + sel,
                             check=True, capture_output=True, text=True).stdout
    rows, failed = [], 0
    for t in json.loads(listing)["tests"]:
        env = dict(os.environ)
        wd = build
        for p in t.get("properties", []):
            if p["name"] == "ENVIRONMENT":
                env.update(v.split("=", 1) for v in p["value"])
            elif p["name"] == "WORKING_DIRECTORY":
                wd = p["value"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.time()
        rc = subprocess.run(t["command"], cwd=wd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
        wall = time.time() - w0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rows.append((cpu, wall, t["name"], rc))
        print(f"{t['name']:28s} {cpu:8.2f} s CPU {wall:8.2f} s wall rc {rc}", file=sys.stderr, flush=True)
        failed += rc != 0
    print(f"{'test':28s} {'CPU s':>8s} {'wall s':>8s}")
    for cpu, wall, name, rc in sorted(rows, reverse=True):
        print(f"{name:28s} {cpu:8.2f} {wall:8.2f}" + (f"  FAILED (exit {rc})" if rc else ""))
    print(f"{'all ' + str(len(rows)):28s} {sum(r[0] for r in rows):8.2f} {sum(r[1] for r in rows):8.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
