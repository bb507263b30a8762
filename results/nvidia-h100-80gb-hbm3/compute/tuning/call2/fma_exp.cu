// standalone experiment: FMA ceiling variants (not part of gpumem)
#include <cstdio>
#include <cuda_fp16.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); return 1; } } while (0)
template <typename T> __device__ T mk(float x);
template <> __device__ float mk<float>(float x) { return x; }
template <> __device__ double mk<double>(float x) { return x; }
template <> __device__ __half2 mk<__half2>(float x) { return __float2half2_rn(x); }
template <typename T> __device__ T myfma(T x, T a, T c);
template <> __device__ float myfma(float x, float a, float c) { return fmaf(x, a, c); }
template <> __device__ double myfma(double x, double a, double c) { return fma(x, a, c); }
template <> __device__ __half2 myfma(__half2 x, __half2 a, __half2 c) { return __hfma2(x, a, c); }
template <typename T> __device__ float fold(T x);
template <> __device__ float fold(float x) { return x; }
template <> __device__ float fold(double x) { return (float)x; }
template <> __device__ float fold(__half2 x) { return __low2float(x); }

// SQ: x = x*x + c (mixbench style) else x = x*a + c
template <typename T, int CH, int SQ, int UNR>
__global__ void __launch_bounds__(256) k(float *out, int iters, float fa, float fc)
{
	T a = mk<T>(fa), c = mk<T>(fc), x[CH];
	size_t gid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
#pragma unroll
	for (int j = 0; j < CH; j++) x[j] = mk<T>((float)((gid + j) & 7));
#pragma unroll UNR
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int j = 0; j < CH; j++) x[j] = SQ ? myfma(x[j], x[j], c) : myfma(x[j], a, c);
	}
	float s = 0;
#pragma unroll
	for (int j = 0; j < CH; j++) s += fold(x[j]);
	out[gid] = s;
}

template <typename T, int CH, int SQ, int UNR>
int bench(const char *name, int blocks_per_sm, int flops_per, int sms, float *out)
{
	int iters = 16384 * 8 / CH;
	int grid = sms * blocks_per_sm;
	cudaEvent_t e0, e1;
	CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
	float fa = SQ ? 0.f : -1.f, fc = SQ ? 0.f : 3.f;
	for (int w = 0; w < 3; w++) k<T, CH, SQ, UNR><<<grid, 256>>>(out, iters, fa, fc);
	CK(cudaGetLastError());
	float best = 1e30f;
	for (int r = 0; r < 5; r++) {
		CK(cudaEventRecord(e0));
		for (int l = 0; l < 10; l++) k<T, CH, SQ, UNR><<<grid, 256>>>(out, iters, fa, fc);
		CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
		float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); ms /= 10; if (ms < best) best = ms;
	}
	double flops = (double)grid * 256 * iters * CH * flops_per;
	printf("%-34s bps=%d  %8.2f TFLOP/s  (%.3f ms)\n", name, blocks_per_sm, flops / best / 1e9, best);
	return 0;
}

int main()
{
	int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	float *out; CK(cudaMalloc(&out, 132 * 8 * 256 * 4 * 2));
	bench<double, 8, 0, 16>("fp64 ch8 a,c", 8, 2, sms, out);
	bench<double, 8, 1, 16>("fp64 ch8 x*x+c", 8, 2, sms, out);
	bench<double, 16, 0, 8>("fp64 ch16 a,c", 8, 2, sms, out);
	bench<double, 4, 0, 16>("fp64 ch4 a,c", 8, 2, sms, out);
	bench<double, 8, 0, 16>("fp64 ch8 a,c", 4, 2, sms, out);
	bench<double, 8, 0, 16>("fp64 ch8 a,c", 2, 2, sms, out);
	bench<double, 8, 0, 16>("fp64 ch8 a,c", 1, 2, sms, out);
	bench<double, 8, 0, 1>("fp64 ch8 a,c unroll1", 8, 2, sms, out);
	bench<double, 8, 0, 16>("fp64 ch8 a,c (again)", 8, 2, sms, out);
	bench<float, 8, 0, 16>("fp32 ch8 a,c", 8, 2, sms, out);
	bench<float, 8, 1, 16>("fp32 ch8 x*x+c", 8, 2, sms, out);
	bench<__half2, 8, 0, 16>("half2 ch8 a,c", 8, 4, sms, out);
	bench<__half2, 8, 1, 16>("half2 ch8 x*x+c", 8, 4, sms, out);
	bench<__half2, 16, 0, 8>("half2 ch16 a,c", 8, 4, sms, out);
	bench<__half2, 16, 1, 8>("half2 ch16 x*x+c", 8, 4, sms, out);
	bench<double, 8, 0, 16>("fp64 ch8 a,c (end)", 8, 2, sms, out);
	return 0;
}
