"""cupy_values.py - a Python program for `gpumem trace` (issue 38's values): CuPy kernels storing int64 labels 0-3,
float64 values that are all exactly float32, an in-place clip that rewrites what is there (silent stores), and a
control (random floats scaled). Run: python3 cupy_values.py [n]"""
import sys
import cupy as cp

SRC = r'''
extern "C" __global__ void label64(const float *x, long long *lab, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        lab[i] = (long long)(x[i] * 4.0f) & 3;
}
extern "C" __global__ void scale64(const double *a, double *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = 0.5 * a[i];
}
extern "C" __global__ void clip(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = fminf(fmaxf(a[i], 0.0f), 1.0f);
}
extern "C" __global__ void scale32(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 1.7f * x[i] + 0.3f;
}
'''

def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 22
    mod = cp.RawModule(code=SRC, options=("-lineinfo",))
    rs = cp.random.RandomState(7)
    x = rs.random_sample(n, dtype=cp.float32)
    lab = cp.empty(n, dtype=cp.int64)
    a = x.astype(cp.float64)
    b = cp.empty_like(a)
    y = cp.empty_like(x)
    g, blk = ((n + 255) // 256,), (256,)
    mod.get_function("label64")(g, blk, (x, lab, cp.int32(n)))
    mod.get_function("scale64")(g, blk, (a, b, cp.int32(n)))
    c = x.copy()
    mod.get_function("clip")(g, blk, (c, cp.int32(n)))
    mod.get_function("scale32")(g, blk, (x, y, cp.int32(n)))
    cp.cuda.Device().synchronize()
    ok = bool(cp.all((lab >= 0) & (lab < 4))) and bool(cp.all(b == 0.5 * a)) and bool(cp.all(c == x))
    print("cupy_values n %d:" % n, "ok" if ok else "WRONG")
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
