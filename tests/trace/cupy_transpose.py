"""cupy_transpose.py - a Python program for `gpumem trace`: a CuPy RawKernel with a naive transpose
(reads along rows, writes down columns: each warp's store touches 32 rows) and a strided read.
Run: python3 cupy_transpose.py [n]"""
import sys
import cupy as cp

SRC = r'''
extern "C" __global__ void transpose_naive(const float *in, float *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n)
        out[(size_t)x * n + y] = in[(size_t)y * n + x];
}
extern "C" __global__ void strided_read(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(size_t)i * stride];
}
'''

def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    mod = cp.RawModule(code=SRC, options=("-lineinfo",))
    a = cp.arange(n * n, dtype=cp.float32).reshape(n, n)
    t = cp.empty_like(a)
    mod.get_function("transpose_naive")(((n + 31) // 32, (n + 7) // 8), (32, 8), (a, t, cp.int32(n)))
    ok = bool(cp.all(t == a.T))
    m = n * n // 8
    s = cp.empty(m, dtype=cp.float32)
    mod.get_function("strided_read")(((m + 255) // 256,), (256,), (a, s, cp.int32(m), cp.int32(8)))
    ok = ok and bool(s[1] == a.ravel()[8])
    cp.cuda.Device().synchronize()
    print("transpose_naive and strided_read", "ok" if ok else "WRONG")
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
