// p30_sum.cu - held-out set 30 (issue 38), a CUDA C++ program (nvcc -O3 -lineinfo -arch=sm_90; mangled C++ kernel
// names, a namespace): the first pass of a sum of 2^26 floats (268 MB; the block sums summed on the host), as the
// reduction sample's kernels go:
//   red::sum_tree: one float a thread (a coalesced 4-byte load), 262,144 blocks of 256 threads, the block's 256
//     values summed in shared memory by a tree with sequential addressing (sh[t] += sh[t + s], conflict-free, eight
//     __syncthreads rounds in which at most half the threads work), one store a block;
//   red::sum_wide: sixteen floats a thread (four float4 loads, 4096 contiguous floats a block), the thread's sum in
//     registers, then warp shuffles and the block's 8 warp sums in shared memory, one store a block (16,384 blocks).
// Both give the block sums of the same data (checked: each block sum within 1e-5 of the host's double sum of its
// values, and the two totals within 1e-6 of each other). Launches: 0 tree, 1 wide; PLAIN=1: the checks, then each
// launch's median of 20 (events).
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include "p30bench.h"

namespace red {
__global__ void sum_tree(const float *x, float *part)
{
	__shared__ float sh[256];
	int t = threadIdx.x;
	sh[t] = x[(size_t)blockIdx.x * 256 + t];
	__syncthreads();
	for (int s = 128; s > 0; s >>= 1) {
		if (t < s)
			sh[t] += sh[t + s];
		__syncthreads();
	}
	if (t == 0)
		part[blockIdx.x] = sh[0];
}

__global__ void sum_wide(const float4 *x, float *part)
{
	__shared__ float wsum[8];
	int t = threadIdx.x;
	const float4 *p = x + (size_t)blockIdx.x * 1024 + t;
	float4 a = p[0], b = p[256], c = p[512], d = p[768];
	float s = ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w)) + ((c.x + c.y) + (c.z + c.w)) +
		  ((d.x + d.y) + (d.z + d.w));
	for (int o = 16; o > 0; o >>= 1)
		s += __shfl_xor_sync(0xffffffffu, s, o);
	if ((t & 31) == 0)
		wsum[t >> 5] = s;
	__syncthreads();
	if (t < 32) {
		s = t < 8 ? wsum[t] : 0.0f;
		for (int o = 4; o > 0; o >>= 1)
			s += __shfl_xor_sync(0xffffffffu, s, o);
		if (t == 0)
			part[blockIdx.x] = s;
	}
}
} // namespace red

// the largest relative difference of block sums of w floats each from the host's double sums
static double block_err(const std::vector<float> &x, const std::vector<float> &part, int w)
{
	double e = 0;
	for (size_t b = 0; b < part.size(); b++) {
		double s = 0;
		for (int k = 0; k < w; k++)
			s += x[b * w + k];
		double d = fabs(part[b] - s) / fmax(fabs(s), 1e-30);
		e = d == d ? fmax(e, d) : INFINITY;   // a NaN: a block sum left unwritten
	}
	return e;
}

int main()
{
	const size_t n = (size_t)1 << 26;
	const int nb0 = (int)(n / 256), nb1 = (int)(n / 4096);
	std::vector<float> hx(n), p0(nb0, NAN), p1(nb1, NAN);
	lcg_fill(hx, 0x30300002ull);
	float *dx = to_device(hx), *d0 = to_device(p0), *d1 = to_device(p1);
	std::function<void()> steps[2] = {
		[&] { red::sum_tree<<<nb0, 256>>>(dx, d0); },
		[&] { red::sum_wide<<<nb1, 256>>>((const float4 *)dx, d1); },
	};
	const char *const names[2] = {"sum_tree", "sum_wide"};
	if (!launch_steps(steps, 2))
		return 0;
	CK(cudaMemcpy(p0.data(), d0, nb0 * sizeof(float), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(p1.data(), d1, nb1 * sizeof(float), cudaMemcpyDeviceToHost));
	double e0 = block_err(hx, p0, 256), e1 = block_err(hx, p1, 4096), t0 = 0, t1 = 0;
	for (float v : p0)
		t0 += v;
	for (float v : p1)
		t1 += v;
	bool ok0 = e0 <= 1e-5, ok1 = e1 <= 1e-5, ok2 = fabs(t0 - t1) <= 1e-6 * fabs(t1) && t1 > 1e6;
	printf("check %-28s %s max relative |diff| %.3g\n", "tree blocks = host", ok0 ? "ok" : "WRONG", e0);
	printf("check %-28s %s max relative |diff| %.3g\n", "wide blocks = host", ok1 ? "ok" : "WRONG", e1);
	printf("check %-28s %s totals %.9g %.9g\n", "tree total = wide total", ok2 ? "ok" : "WRONG", t0, t1);
	time_steps(steps, names, 2);
	return ok0 && ok1 && ok2 ? 0 : 1;
}
