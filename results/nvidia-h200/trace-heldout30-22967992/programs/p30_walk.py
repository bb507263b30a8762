"""p30_walk.py - held-out set 30 (issue 38), a CuPy RawKernel as a user writes it: the random walks of DeepWalk /
node2vec's first order sampler on a power-law graph (1,048,576 vertices in CSR, out-degrees 4 .. 1024 drawn from a
Zipf-like law, 4 + 4 x a Pareto(1.2) draw: median 7, mean 16.9; 17.7 M edges of 4-byte vertex ids, the neighbours'
ids random), one kernel `random_walk`, launched once: a thread a walker (1,048,576 walkers, walker w starting at vertex w), 16 steps, each step reading the current vertex's
rowptr pair and then one neighbour picked by a hash of (walker, step): col[rowptr[v] + h % degree]; the vertex at each
step stored step-major, path[s][w] (coalesced). The loads' addresses come from the graph and the walk itself (data).
Checked: the paths equal numpy's walk with the same hash (uint32 arithmetic)."""
import sys
import numpy as np
import cupy as cp
from p30common import run, near

SRC = r'''
__device__ __forceinline__ unsigned mix(unsigned w, unsigned s)
{
    unsigned h = w * 0x9e3779b1u ^ (s + 0x7f4a7c15u) * 0x85ebca6bu;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h;
}

extern "C" __global__ void random_walk(const int *rowptr, const int *col, int *path, int walkers, int steps)
{
    int w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= walkers)
        return;
    int v = w;
    for (int s = 0; s < steps; s++) {
        int b = rowptr[v], d = rowptr[v + 1] - b;
        v = col[b + (int)(mix((unsigned)w, (unsigned)s) % (unsigned)d)];
        path[(size_t)s * walkers + w] = v;
    }
}
'''


def mix_numpy(w, s):
    """the kernel's hash in uint32 arithmetic (w: an array, s: a step)"""
    w = w.astype(np.uint32)
    h = (w * np.uint32(0x9e3779b1)) ^ np.uint32((s + 0x7f4a7c15) * 0x85ebca6b & 0xffffffff)
    h ^= h >> np.uint32(15)
    h *= np.uint32(0x2c1b3c6d)
    h ^= h >> np.uint32(12)
    return h


def main():
    g = np.random.default_rng(3003)
    V, S = 1 << 20, 16
    deg = np.minimum(4 + (g.pareto(1.2, V) * 4).astype(np.int64), 1024).astype(np.int32)
    rowptr = np.zeros(V + 1, np.int64)
    np.cumsum(deg, out=rowptr[1:])
    col = g.integers(0, V, int(rowptr[-1]), dtype=np.int32)
    rowptr = rowptr.astype(np.int32)

    def want():
        v = np.arange(V, dtype=np.int64)
        out = np.empty((S, V), np.int32)
        w = np.arange(V, dtype=np.uint32)
        for s in range(S):
            b = rowptr[v].astype(np.int64)
            d = (rowptr[v + 1] - rowptr[v]).astype(np.uint32)
            v = col[b + (mix_numpy(w, s) % d).astype(np.int64)].astype(np.int64)
            out[s] = v
        return out
    drp, dcol = cp.asarray(rowptr), cp.asarray(col)
    path = cp.asarray(np.full((S, V), -1, np.int32))
    fn = cp.RawModule(code=SRC, options=("-lineinfo",)).get_function("random_walk")
    steps = [("random_walk", lambda: fn((V // 256,), (256,), (drp, dcol, path, cp.int32(V), cp.int32(S))))]
    return run(steps, cp.cuda.Event, cp.cuda.get_elapsed_time, cp.cuda.Device().synchronize,
               [("random_walk = numpy", near(path, want))])


if __name__ == "__main__":
    sys.exit(main())
