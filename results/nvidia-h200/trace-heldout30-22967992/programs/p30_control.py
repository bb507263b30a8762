"""p30_control.py - held-out set 30 (issue 38), CuPy RawKernels as a user writes them: three well-written kernels with
nothing to fix (the set's controls), each launched once:
- swiglu_bf16: the SwiGLU gate of an MLP, out = silu(a) * b over 67,108,864 bf16 elements (134 MB each of a, b and
  out), eight elements a thread: one 16-byte uint4 load of each input and one uint4 store, 256x1 blocks;
- yuyv_gray8: the luma plane of an 8K YUYV 4:2:2 frame (7680 x 4320, 2 bytes a pixel, 66 MB in, 33 MB out), eight
  pixels a thread: one 16-byte uint4 load (Y0 U Y1 V ..) and one 8-byte uint2 store of the eight Y bytes, 256x1 blocks;
- ema_f4: an exponential moving average of a model's 67,108,864 float weights, e = d e + (1 - d) w in place, a float4
  a thread (two 16-byte loads, one 16-byte store), 256x1 blocks.
Checked against numpy: the SwiGLU (every 16th of 4096 rows) within one bf16 rounding of numpy's, the luma exactly, the
EMA within 1e-6 of the largest |e|."""
import sys
import numpy as np
import cupy as cp
from p30common import run, near

SRC = r'''
__device__ __forceinline__ float bf2f(unsigned short h)
{
    return __uint_as_float((unsigned)h << 16);
}

__device__ __forceinline__ unsigned short f2bf(float f)   // round to nearest even (finite values)
{
    unsigned u = __float_as_uint(f);
    return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

__device__ __forceinline__ unsigned swiglu2(unsigned a, unsigned b)   // two bf16 pairs
{
    float a0 = bf2f(a & 0xffffu), a1 = bf2f(a >> 16), b0 = bf2f(b & 0xffffu), b1 = bf2f(b >> 16);
    float r0 = a0 / (1.0f + expf(-a0)) * b0, r1 = a1 / (1.0f + expf(-a1)) * b1;
    return f2bf(r0) | ((unsigned)f2bf(r1) << 16);
}

extern "C" __global__ void swiglu_bf16(const uint4 *a, const uint4 *b, uint4 *out, int n8)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n8)
        return;
    uint4 p = a[i], q = b[i];
    out[i] = make_uint4(swiglu2(p.x, q.x), swiglu2(p.y, q.y), swiglu2(p.z, q.z), swiglu2(p.w, q.w));
}

// w: two pixels Y0 U Y1 V (bytes, little-endian); the two Y bytes packed
__device__ __forceinline__ unsigned ys2(unsigned w)
{
    return (w & 0xffu) | ((w >> 8) & 0xff00u);
}

extern "C" __global__ void yuyv_gray8(const uint4 *yuyv, uint2 *y, int oct)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= oct)
        return;
    uint4 p = yuyv[i];
    y[i] = make_uint2(ys2(p.x) | (ys2(p.y) << 16), ys2(p.z) | (ys2(p.w) << 16));
}

extern "C" __global__ void ema_f4(float4 *e, const float4 *w, float d, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4)
        return;
    float4 a = e[i], b = w[i];
    float c = 1.0f - d;
    e[i] = make_float4(d * a.x + c * b.x, d * a.y + c * b.y, d * a.z + c * b.z, d * a.w + c * b.w);
}
'''


def bf16_to_f32(h):
    return (h.astype(np.uint32) << 16).view(np.float32)


def main():
    g = np.random.default_rng(3004)
    N = 1 << 26
    a16 = ((g.standard_normal(N, dtype=np.float32) * 2.0).view(np.uint32) >> 16).astype(np.uint16)
    b16 = ((g.standard_normal(N, dtype=np.float32)).view(np.uint32) >> 16).astype(np.uint16)
    da, db = cp.asarray(a16), cp.asarray(b16)
    dsw = cp.asarray(np.full(N, 0xffff, np.uint16))
    FH, FW = 4320, 7680
    frame = g.integers(0, 256, (FH, FW * 2), dtype=np.uint8)
    dfr, dy = cp.asarray(frame), cp.asarray(np.full((FH, FW), 7, np.uint8))
    e0 = g.standard_normal(N, dtype=np.float32)
    wv = g.standard_normal(N, dtype=np.float32)
    de, dw = cp.asarray(e0), cp.asarray(wv)
    d = np.float32(0.999)
    mod = cp.RawModule(code=SRC, options=("-lineinfo",))
    fn = lambda n: mod.get_function(n)
    oct_ = FH * FW // 8
    steps = [
        ("swiglu_bf16", lambda: fn("swiglu_bf16")((N // 8 // 256,), (256,), (da, db, dsw, cp.int32(N // 8)))),
        ("yuyv_gray8", lambda: fn("yuyv_gray8")((oct_ // 256,), (256,), (dfr, dy, cp.int32(oct_)))),
        ("ema_f4", lambda: fn("ema_f4")((N // 4 // 256,), (256,), (de, dw, cp.float32(d), cp.int32(N // 4)))),
    ]

    def check_swiglu():
        rows = np.arange(N).reshape(4096, -1)[::16].reshape(-1)   # every 16th of 4096 rows
        got = bf16_to_f32(dsw.get()[rows]).astype(np.float64)
        a, b = bf16_to_f32(a16[rows]).astype(np.float64), bf16_to_f32(b16[rows]).astype(np.float64)
        want = a / (1.0 + np.exp(-a)) * b
        err = np.abs(got - want) / np.maximum(np.abs(want), 1e-30)
        worst = float(err.max()) if np.isfinite(got).all() else float("inf")
        return worst <= 2.0 ** -8 + 1e-6, "against numpy, max relative |diff| %.3g (bf16: 2^-8 = 0.0039)" % worst
    return run(steps, cp.cuda.Event, cp.cuda.get_elapsed_time, cp.cuda.Device().synchronize,
               [("swiglu_bf16 = numpy", check_swiglu),
                ("yuyv_gray8 = numpy", near(dy, lambda: frame[:, 0::2])),
                ("ema_f4 = numpy", near(de, lambda: d * e0 + (np.float32(1.0) - d) * wv, 1e-6))])


if __name__ == "__main__":
    sys.exit(main())
