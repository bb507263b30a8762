"""p30_cumsum.py - held-out set 30 (issue 38), CuPy RawKernels as a user writes them: the inclusive running sums
along the rows of an int32 [8192][512] count matrix (16 MB in, 16 MB out; per-row offsets, as CSR row pointers and
compaction offsets are made), a 512-thread block a row, a thread an output, each launched once:
- cumsum_prefix_loop: thread j sums the row's first j + 1 counts itself (for k <= j: s += c[row][k]): 256 loads a
  thread on average, the lanes still summing on the same address, the row's 2 KB read again by each of its 512
  threads from L1 and L2;
- cumsum_block_scan: each thread loads its one count; a warp's inclusive scan by __shfl_up_sync, the 16 warp totals
  scanned in shared memory by the first warp, each warp adding the total of the warps before it.
Both give the running sums exactly (int32; checked equal to each other and to numpy's cumsum)."""
import sys
import numpy as np
import cupy as cp
from p30common import run, near, same

SRC = r'''
extern "C" __global__ void cumsum_prefix_loop(const int *c, int *out, int cols)
{
    const int *row = c + (size_t)blockIdx.x * cols;
    int j = threadIdx.x, s = 0;
    for (int k = 0; k <= j; k++)
        s += row[k];
    out[(size_t)blockIdx.x * cols + j] = s;
}

// blockDim.x == cols == 512 (16 warps)
extern "C" __global__ void cumsum_block_scan(const int *c, int *out, int cols)
{
    __shared__ int wsum[16];
    int j = threadIdx.x, lane = j & 31, w = j >> 5;
    size_t p = (size_t)blockIdx.x * cols + j;
    int s = c[p];
    for (int o = 1; o < 32; o <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, s, o);
        if (lane >= o)
            s += t;
    }
    if (lane == 31)
        wsum[w] = s;
    __syncthreads();
    if (w == 0) {
        int t = lane < 16 ? wsum[lane] : 0;
        for (int o = 1; o < 16; o <<= 1) {
            int u = __shfl_up_sync(0xffffffffu, t, o);
            if (lane >= o)
                t += u;
        }
        if (lane < 16)
            wsum[lane] = t;   // the inclusive totals of warps 0 .. lane
    }
    __syncthreads();
    out[p] = s + (w > 0 ? wsum[w - 1] : 0);
}
'''


def main():
    g = np.random.default_rng(3005)
    R, C = 8192, 512
    counts = g.integers(0, 16, (R, C), dtype=np.int32)
    dc = cp.asarray(counts)
    o0 = cp.asarray(np.full((R, C), -1, np.int32))
    o1 = cp.asarray(np.full((R, C), -1, np.int32))
    mod = cp.RawModule(code=SRC, options=("-lineinfo",))
    fn = lambda n: mod.get_function(n)
    steps = [("cumsum_prefix_loop", lambda: fn("cumsum_prefix_loop")((R,), (C,), (dc, o0, cp.int32(C)))),
             ("cumsum_block_scan", lambda: fn("cumsum_block_scan")((R,), (C,), (dc, o1, cp.int32(C))))]
    return run(steps, cp.cuda.Event, cp.cuda.get_elapsed_time, cp.cuda.Device().synchronize,
               [("prefix_loop = block_scan", same(o0, o1)),
                ("block_scan = numpy", near(o1, lambda: np.cumsum(counts, axis=1, dtype=np.int32)))])


if __name__ == "__main__":
    sys.exit(main())
