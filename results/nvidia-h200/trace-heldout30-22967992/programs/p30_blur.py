"""p30_blur.py - held-out set 30 (issue 38), CuPy RawKernels as a user writes them: a 13-tap Gaussian blur (sigma 2,
the border clamped to the edge) of a 4096 x 4096 float image (67 MB), run twice (`blur2d` and `blursep`):
- blur2d (one launch): `gauss2d_13`, a thread an output pixel on 32x8 blocks summing its 13 x 13 window with the
  weights w[dy] w[dx] (169 loads of the image a pixel, the neighbours from L1 and L2), as the filter's 2D kernel
  (the outer product of the 1D weights) is written;
- blursep (two launches): the same filter as its two 1D passes, `gauss_rows_13` (13 loads a pixel along the row,
  into a float temporary of the image's size) then `gauss_cols_13` (13 loads a pixel down the column).
Both give the blur (checked within 1e-5 of the largest value against numpy's separable blur in double, the
weights as float32 gives them)."""
import sys
import numpy as np
import cupy as cp
from p30common import run, near

SRC = r'''
#define R 6
extern "C" __global__ void gauss2d_13(const float *img, float *out, const float *w, int W, int H)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;
    float acc = 0.0f;
    for (int dy = -R; dy <= R; dy++) {
        int yy = min(max(y + dy, 0), H - 1);
        for (int dx = -R; dx <= R; dx++) {
            int xx = min(max(x + dx, 0), W - 1);
            acc += w[dy + R] * w[dx + R] * img[(size_t)yy * W + xx];
        }
    }
    out[(size_t)y * W + x] = acc;
}

extern "C" __global__ void gauss_rows_13(const float *img, float *tmp, const float *w, int W, int H)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;
    float acc = 0.0f;
    for (int dx = -R; dx <= R; dx++)
        acc += w[dx + R] * img[(size_t)y * W + min(max(x + dx, 0), W - 1)];
    tmp[(size_t)y * W + x] = acc;
}

extern "C" __global__ void gauss_cols_13(const float *tmp, float *out, const float *w, int W, int H)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H)
        return;
    float acc = 0.0f;
    for (int dy = -R; dy <= R; dy++)
        acc += w[dy + R] * tmp[(size_t)min(max(y + dy, 0), H - 1) * W + x];
    out[(size_t)y * W + x] = acc;
}
'''


def blur_numpy(img, w):
    """the separable blur in double, the border clamped"""
    r = len(w) // 2
    p = np.pad(img.astype(np.float64), ((0, 0), (r, r)), mode="edge")
    t = sum(w[k] * p[:, k:k + img.shape[1]] for k in range(len(w)))
    p = np.pad(t, ((r, r), (0, 0)), mode="edge")
    return sum(w[k] * p[k:k + img.shape[0], :] for k in range(len(w)))


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("blur2d", "blursep"):
        print("usage: p30_blur.py blur2d|blursep")
        return 2
    H = W = 4096
    g = np.random.default_rng(3001)
    img = g.random((H, W), dtype=np.float32)
    k = np.arange(-6, 7, dtype=np.float64)
    w = np.exp(-k * k / 8.0)
    w = (w / w.sum()).astype(np.float32)
    d_img, d_w = cp.asarray(img), cp.asarray(w)
    out = cp.asarray(np.full((H, W), np.nan, np.float32))
    mod = cp.RawModule(code=SRC, options=("-lineinfo",))
    fn = lambda n: mod.get_function(n)
    grid, block = (W // 32, H // 8), (32, 8)
    args = (cp.int32(W), cp.int32(H))
    if sys.argv[1] == "blur2d":
        steps = [("gauss2d_13", lambda: fn("gauss2d_13")(grid, block, (d_img, out, d_w) + args))]
    else:
        tmp = cp.asarray(np.full((H, W), np.nan, np.float32))
        steps = [("gauss_rows_13", lambda: fn("gauss_rows_13")(grid, block, (d_img, tmp, d_w) + args)),
                 ("gauss_cols_13", lambda: fn("gauss_cols_13")(grid, block, (tmp, out, d_w) + args))]
    return run(steps, cp.cuda.Event, cp.cuda.get_elapsed_time, cp.cuda.Device().synchronize,
               [("%s = numpy (separable)" % sys.argv[1], near(out, lambda: blur_numpy(img, w.astype(np.float64)),
                                                              1e-5))])


if __name__ == "__main__":
    sys.exit(main())
