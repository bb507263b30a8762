"""p30_interp.py - held-out set 30 (issue 38), CuPy RawKernels as a user writes them: np.interp on the GPU, a
piecewise-linear curve of 1024 breakpoints (xs sorted, xs[0] = 0, xs[1023] = 1; 4 KB each of xs and ys) applied to
2,097,152 samples in [0, 1) (a tone curve, an inverse CDF), a thread a sample, each launched once:
- interp_scan: the sample's interval found by walking the breakpoints from the first (while xs[k + 1] <= v: k++), 512
  steps on average, each a load of xs[k + 1] (the lanes still walking share the address; a warp walks as far as its
  largest sample: about 1000 steps);
- interp_bsearch: the same interval found by bisection of xs (10 steps, each lane its own address in the 4 KB table).
Both then read xs[k], xs[k + 1], ys[k], ys[k + 1] and store y = ys[k] + (v - xs[k]) / (xs[k + 1] - xs[k]) (ys[k + 1] -
ys[k]); the same k, so the same y (checked equal, and within 1e-5 of numpy's np.interp in double)."""
import sys
import numpy as np
import cupy as cp
from p30common import run, near, same

SRC = r'''
__device__ __forceinline__ float lerp_at(const float *xs, const float *ys, int k, float v)
{
    float x0 = xs[k], x1 = xs[k + 1], y0 = ys[k], y1 = ys[k + 1];
    return y0 + (v - x0) / (x1 - x0) * (y1 - y0);
}

extern "C" __global__ void interp_scan(const float *v, float *y, const float *xs, const float *ys, int m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = v[i];
    int k = 0;
    while (k < m - 2 && xs[k + 1] <= s)
        k++;
    y[i] = lerp_at(xs, ys, k, s);
}

extern "C" __global__ void interp_bsearch(const float *v, float *y, const float *xs, const float *ys, int m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = v[i];
    int lo = 0, hi = m - 1;   // xs[lo] <= s < xs[hi]
    while (hi - lo > 1) {
        int mid = (lo + hi) >> 1;
        if (xs[mid] <= s)
            lo = mid;
        else
            hi = mid;
    }
    y[i] = lerp_at(xs, ys, lo, s);
}
'''


def main():
    g = np.random.default_rng(3002)
    M, N = 1024, 1 << 21
    xs = np.sort(g.random(M, dtype=np.float32))
    xs[0], xs[-1] = 0.0, 1.0
    xs = np.unique(xs)
    while len(xs) < M:   # distinct breakpoints (a float draw may repeat)
        xs = np.unique(np.concatenate([xs, g.random(M - len(xs), dtype=np.float32)]))
    ys = np.cumsum(g.random(M, dtype=np.float32)).astype(np.float32) / np.float32(M)
    v = g.random(N, dtype=np.float32)
    dv, dxs, dys = cp.asarray(v), cp.asarray(xs), cp.asarray(ys)
    y0 = cp.asarray(np.full(N, np.nan, np.float32))
    y1 = cp.asarray(np.full(N, np.nan, np.float32))
    mod = cp.RawModule(code=SRC, options=("-lineinfo",))
    fn = lambda n: mod.get_function(n)
    grid, args = (N // 256,), (dxs, dys, cp.int32(M), cp.int32(N))
    steps = [("interp_scan", lambda: fn("interp_scan")(grid, (256,), (dv, y0) + args)),
             ("interp_bsearch", lambda: fn("interp_bsearch")(grid, (256,), (dv, y1) + args))]
    return run(steps, cp.cuda.Event, cp.cuda.get_elapsed_time, cp.cuda.Device().synchronize,
               [("interp_scan = interp_bsearch", same(y0, y1)),
                ("interp_bsearch = numpy", near(y1, lambda: np.interp(v.astype(np.float64), xs.astype(np.float64),
                                                                      ys.astype(np.float64)), 1e-5))])


if __name__ == "__main__":
    sys.exit(main())
