"""p30common.py - held-out set 30 (issue 38): what every program of the set does around its kernels.

A program lists its kernels as (name, fn) steps. Traced (no PLAIN): every step runs once, in order, with no other
kernel launched before or between them (the data are made on the host and copied), then the program exits, so
`gpumem trace -k . -s 0 -c 64` traces exactly the steps. PLAIN=1: every step once, the program's own checks (pairs
that must give the same output), then each step timed with the framework's events (3 warm-ups, the median of 20)."""
import os
import statistics
import sys

PLAIN = os.environ.get("PLAIN") == "1"


def run(steps, event, elapsed, sync, checks=()):
    """steps: [(name, fn)]; event(): a timing event with record(); elapsed(a, b): ms; sync(): wait for the device;
    checks: [(label, fn -> (ok, detail))], run in PLAIN mode only."""
    for _, fn in steps:
        fn()
    sync()
    if not PLAIN:
        return 0
    bad = 0
    for label, fn in checks:
        ok, detail = fn()
        print("check %-28s %s %s" % (label, "ok" if ok else "WRONG", detail))
        bad += not ok
    for name, fn in steps:
        for _ in range(3):
            fn()
        ts = []
        for _ in range(20):
            a, b = event(), event()
            a.record()
            fn()
            b.record()
            b.synchronize()
            ts.append(elapsed(a, b))
        print("time %-28s %.4f ms (median of 20; min %.4f)" % (name, statistics.median(ts), min(ts)))
    sys.stdout.flush()
    return 1 if bad else 0


def same(p, q, rtol=0.0):
    """A check: device arrays p and q hold the same values; with rtol, within rtol of the largest |q| (sums taken in
    another order)."""
    import numpy as np

    def check():
        a, b = p.get(), q.get()
        if a.shape != b.shape:
            return False, "shapes %s %s" % (a.shape, b.shape)
        if rtol == 0.0 and np.array_equal(a, b):
            return True, "max |diff| 0"
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        err = float(np.abs(a - b).max()) if a.size else 0.0
        return err <= rtol * max(float(np.abs(b).max()), 1e-30), "max |diff| %.3g" % err
    return check


def near(p, want, rtol=0.0, label="numpy"):
    """A check: device array p holds the host array want (reshaped to p's shape), exactly, or with rtol within rtol of
    the largest |want|."""
    import numpy as np

    def check():
        a = p.get().reshape(-1)
        b = np.asarray(want() if callable(want) else want).reshape(-1)
        if a.shape != b.shape:
            return False, "sizes %s %s" % (a.shape, b.shape)
        if rtol == 0.0 and np.array_equal(a, b):
            return True, "against %s, max |diff| 0" % label
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        err = float(np.abs(a - b).max()) if a.size else 0.0
        return err <= rtol * max(float(np.abs(b).max()), 1e-30), "against %s, max |diff| %.3g" % (label, err)
    return check


# fp16 <-> float through PTX's cvt (no cuda_fp16.h: NVRTC needs no include path), for the kernels that hold halves
H2F = r'''
__device__ __forceinline__ float h2f(unsigned short h)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}
__device__ __forceinline__ unsigned short f2h(float f)
{
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}
'''
