// probe_smem_atomic.cu - a lab measurement for trace's block_reduce rewrite (not built by CMake; nvcc -O3 -arch=sm_90):
// (1) a shared-memory atomicAdd by the lanes of a warp on one address: each thread adds 1 REPS times to
//     s[base + idx[lane]], idx[lane] = lane / L (L = 1, 2, 4 .. 32 consecutive lanes an address, read from global
//     memory so that the compiler cannot see a uniform address and aggregate the warp), float and u32; base the
//     warp's own 32 words ("warp") or the block's (all 8 warps of a block on the same words: "block");
//     reported as ns a warp's atomic instruction an SM (the launch's time over the warp instructions an SM runs);
// (2) the flush of a block's window of W floats to global memory: zeroed, one shared add a word, then
//     atomicAdd(&g[blockIdx.x * S + t], s[t]) for t < W (S = W: windows apart; S = 0: every block on the same W
//     words, a k-means' accumulators), reported as us a block and ns a word.
// Every kernel's output is checked on the host before its time is printed; each time is the median of 20 launches.
#include "probe_time.cuh"

enum { BT = 256, REPS = 256 };

template <class T, int BLOCKWIDE> __global__ void lanes(const int *idx, T *out)
{
	__shared__ T s[BT];
	s[threadIdx.x] = 0;
	__syncthreads();
	int a = (BLOCKWIDE ? 0 : (threadIdx.x & ~31)) + idx[threadIdx.x & 31];
#pragma unroll 8
	for (int r = 0; r < REPS; r++)
		atomicAdd(&s[a], (T)1);
	__syncthreads();
	out[(long)blockIdx.x * BT + threadIdx.x] = s[threadIdx.x];
}

__global__ void flush(float *g, int W, int S)
{
	extern __shared__ float w[];
	for (int t = threadIdx.x; t < W; t += blockDim.x)
		w[t] = 0.f;
	__syncthreads();
	for (int t = threadIdx.x; t < W; t += blockDim.x)
		atomicAdd(&w[t], 1.f);
	__syncthreads();
	for (int t = threadIdx.x; t < W; t += blockDim.x)
		atomicAdd(&g[(long)blockIdx.x * S + t], w[t]);
}

template <class T, int BW> static void run_lanes(const char *ty, int L, int *idx, void *outv, long blocks, int sms)
{
	T *out = (T *)outv;
	std::vector<int> h(32);
	for (int l = 0; l < 32; l++) h[l] = l / L;
	CK(cudaMemcpy(idx, h.data(), 32 * 4, cudaMemcpyHostToDevice));
	float ms = median_ms([&] { lanes<T, BW><<<blocks, BT>>>(idx, out); });
	std::vector<T> o(blocks * BT);
	CK(cudaMemcpy(o.data(), out, o.size() * sizeof(T), cudaMemcpyDeviceToHost));
	int bad = 0;
	for (long b = 0; b < blocks && !bad; b += 97)
		for (int t = 0; t < BT; t++) {
			int lane = t & 31, warp = t / 32;
			double want = 0;
			if (BW)
				want = t < 32 / L ? (double)REPS * L * (BT / 32) : 0;
			else
				want = lane < 32 / L ? (double)REPS * L : 0;
			(void)warp;
			if ((double)o[b * BT + t] != want) bad = 1;
		}
	double wi = (double)blocks * (BT / 32) * REPS / sms;   // warp atomic instructions an SM
	printf("lanes %s %s L=%d: %s %.4f ms, %.3f ns a warp instruction an SM\n", ty, BW ? "block" : "warp", L,
	       bad ? "WRONG" : "ok", bad ? 0.f : ms, bad ? 0.0 : ms * 1e6 / wi);
}

static void run_flush(float *g, int W, int S, long blocks)
{
	CK(cudaMemset(g, 0, (blocks * S + W) * 4));
	float ms = median_ms([&] { flush<<<blocks, BT, W * 4>>>(g, W, S); });
	std::vector<float> o(blocks * S + W);
	CK(cudaMemcpy(o.data(), g, o.size() * 4, cudaMemcpyDeviceToHost));
	// 23 launches (3 warm-up, 20 timed), each adding 1 a block to every word of its window
	int bad = 0;
	for (long i = 0; i < (long)o.size() && !bad; i += 13) {
		long cover = S ? ((i / S < blocks && i % S < W) ? 1 : 0) : (i < W ? blocks : 0);
		if (o[i] != 23.f * cover) bad = 1;
	}
	printf("flush W=%d S=%d blocks=%ld: %s %.4f ms, %.3f us a block (%.3f ns a word, launch-wide)\n", W, S, blocks,
	       bad ? "WRONG" : "ok", bad ? 0.f : ms, bad ? 0.0 : ms * 1e3 / blocks * 1.0, bad ? 0.0 : ms * 1e6 / ((double)blocks * W));
}

int main()
{
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	int sms = p.multiProcessorCount;
	long blocks = (long)sms * 8 * 4;   // 8 blocks of 256 an SM resident, 4 waves
	printf("device %s, %d SMs, blocks %ld x %d threads, %d atomics a thread\n", p.name, sms, blocks, BT, REPS);
	int *idx; void *out; float *g;
	CK(cudaMalloc(&idx, 32 * 4)); CK(cudaMalloc(&out, blocks * BT * 4));
	for (int L = 1; L <= 32; L *= 2) {
		run_lanes<float, 0>("f32", L, idx, out, blocks, sms);
		run_lanes<unsigned, 0>("u32", L, idx, out, blocks, sms);
	}
	for (int L = 1; L <= 32; L *= 4)
		run_lanes<float, 1>("f32", L, idx, out, blocks, sms);
	run_lanes<float, 1>("f32", 32, idx, out, blocks, sms);
	run_lanes<unsigned, 1>("u32", 32, idx, out, blocks, sms);
	long fb = 32768;
	CK(cudaMalloc(&g, (fb * 512 + 512) * 4));
	run_flush(g, 64, 64, fb);
	run_flush(g, 512, 512, fb);
	run_flush(g, 104, 0, fb);
	run_flush(g, 0, 0, fb);
	CK(cudaFree(idx)); CK(cudaFree(out)); CK(cudaFree(g));
	return 0;
}
