// probe_merge_store.cu - two lab measurements for the trace rules (not built by CMake; nvcc -O3 -arch=sm_90):
// (1) a warp's shuffle merge: each thread loads V floats (coalesced, 2^26 threads), then R rounds of
//     __shfl_xor_sync on its V values, one store a warp; the time against R says what a merge round costs a
//     memory-bound kernel (rule warp_rows prices a warp-a-row rewrite without it);
// (2) K 4-byte stores a thread, 4*K bytes apart (an array of K-float structures, g[K*i + c]) against K planes
//     (g[c*n + i]), the same bytes: what stores whose instructions together write whole sectors cost.
// PROBE_ONCE=1 launches each kernel once (for ncu). Every kernel's output is checked on the host before it is timed; each time is the median of 20 launches (events).
#include "probe_time.cuh"

template <int V, int R> __global__ void merge(const float *in, float *out, long n)
{
	long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
	float v[V];
#pragma unroll
	for (int k = 0; k < V; k++)
		v[k] = in[k * n + i];
#pragma unroll
	for (int r = 0; r < R; r++)
#pragma unroll
		for (int k = 0; k < V; k++)
			v[k] += __shfl_xor_sync(0xffffffffu, v[k], 1 << r);
	float s = 0.f;
#pragma unroll
	for (int k = 0; k < V; k++)
		s += v[k];
	if ((threadIdx.x & 31) == 0)
		out[i >> 5] = s;
}

template <int K> __global__ void aos(const float *in, float *g, long n)
{
	long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
	float x = in[i];
#pragma unroll
	for (int c = 0; c < K; c++)
		g[K * i + c] = x + c;
}

template <int K> __global__ void soa(const float *in, float *g, long n)
{
	long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
	float x = in[i];
#pragma unroll
	for (int c = 0; c < K; c++)
		g[c * n + i] = x + c;
}

static std::vector<float> host_in;

template <int V, int R> static void run_merge(const float *in, float *out, long n)
{
	int B = 256; long G = n / B;
	auto L = [&] { merge<V, R><<<G, B>>>(in, out, n); };
	float ms = median_ms(L);
	std::vector<float> h(n / 32);
	CK(cudaMemcpy(h.data(), out, h.size() * 4, cudaMemcpyDeviceToHost));
	int bad = 0;
	for (long w = 0; w < n / 32 && bad == 0; w += 9973) {
		double ref = 0;
		int m = 1 << R;  // each lane sums the 2^R lanes of its group, lane 0's group is lanes 0..2^R-1
		for (int k = 0; k < V; k++)
			for (int l = 0; l < m; l++)
				ref += host_in[k * n + w * 32 + l];
		if (fabs(ref - h[w]) > 1e-3 * (1 + fabs(ref))) bad = 1;
	}
	printf("merge V=%d R=%d: %s %.4f ms, %.1f GB/s read\n", V, R, bad ? "WRONG" : "ok", bad ? 0.f : ms,
	       bad ? 0.0 : V * 4.0 * n / ms / 1e6);
}

template <int K> static void run_store(const float *in, float *g, long n)
{
	int B = 256; long G = n / B;
	for (int which = 0; which < 2; which++) {
		auto L = [&] { if (which) soa<K><<<G, B>>>(in, g, n); else aos<K><<<G, B>>>(in, g, n); };
		float ms = median_ms(L);
		std::vector<float> h((size_t)K * n);
		CK(cudaMemcpy(h.data(), g, h.size() * 4, cudaMemcpyDeviceToHost));
		int bad = 0;
		for (long i = 0; i < n && !bad; i += 7919)
			for (int c = 0; c < K; c++) {
				float want = host_in[i] + c, got = which ? h[c * n + i] : h[K * i + c];
				if (got != want) bad = 1;
			}
		printf("store K=%d %s: %s %.4f ms, %.1f GB/s (read 4 B + write %d B a thread)\n", K, which ? "planes" : "aos",
		       bad ? "WRONG" : "ok", bad ? 0.f : ms, bad ? 0.0 : (4.0 + 4.0 * K) * n / ms / 1e6, 4 * K);
	}
}

int main()
{
	const long n = 1L << 26;  // 2^26 threads: 256 MiB a plane
	host_in.resize(4 * n);
	for (long i = 0; i < 4 * n; i++) host_in[i] = (float)((i * 2654435761u) % 1000) / 1000.f;
	float *in, *out;
	CK(cudaMalloc(&in, 4 * n * 4)); CK(cudaMalloc(&out, 4 * n * 4));
	CK(cudaMemcpy(in, host_in.data(), 4 * n * 4, cudaMemcpyHostToDevice));
	run_merge<1, 0>(in, out, n); run_merge<1, 1>(in, out, n); run_merge<1, 3>(in, out, n); run_merge<1, 5>(in, out, n);
	run_merge<2, 0>(in, out, n); run_merge<2, 5>(in, out, n);
	run_merge<4, 0>(in, out, n); run_merge<4, 1>(in, out, n); run_merge<4, 3>(in, out, n); run_merge<4, 5>(in, out, n);
	run_store<1>(in, out, n); run_store<2>(in, out, n); run_store<3>(in, out, n); run_store<4>(in, out, n);
	CK(cudaFree(in)); CK(cudaFree(out));
	return 0;
}
