// planted_values.cu - wastes `gpumem trace` sees only in values (issue 38, rules in src/analysis/trace_values.c):
//   labels     int64 labels holding 0-3 (int8 would do: 8x fewer bytes stored)
//   widen      float64 data whose every value is exactly a float32 (loads and stores; float would do: 2x)
//   relu       an in-place ReLU on data already non-negative: every store writes the value already there (silent)
//   bias       adds a bias array that is all zeros (the loads read nothing)
//   gather     gathers through an index array whose every entry is the thread's own index (idx[i] == i)
//   control    a scale-and-add of random floats: nothing in its values
// Build: nvcc -O3 -arch=sm_90 -lineinfo planted_values.cu -o planted_values    Run: ./planted_values [n]
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>

__global__ void labels(const float *x, long long *lab, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		lab[i] = (long long)(x[i] * 4.0f) & 3;
}

__global__ void widen(const double *a, double *b, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		b[i] = 2.0 * a[i];
}

__global__ void relu(float *a, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		a[i] = a[i] > 0.0f ? a[i] : 0.0f;
}

__global__ void bias(const float *x, const float *b, float *y, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] + b[i];
}

__global__ void gather(const float *x, const int *idx, float *y, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[idx[i]];
}

__global__ void control(const float *x, const float *y, float *z, float a, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		z[i] = a * x[i] + y[i];
}

// fill with deterministic pseudo-random data: x in [0, 1) floats, a as doubles of floats, idx = i, b = 0
__global__ void fill(float *x, float *y, double *d, int *idx, float *b, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		uint32_t h = (uint32_t)i * 2654435761u;
		h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
		x[i] = (float)(h >> 8) / 16777216.0f;
		y[i] = (float)((h * 2654435761u) >> 8) / 16777216.0f + 0.001f;
		d[i] = (double)x[i];
		idx[i] = (int)i;
		b[i] = 0.0f;
	}
}

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : (1ull << 22);
	unsigned g = (unsigned)((n + 255) / 256);
	float *x, *y, *z, *b, h[2];
	double *d, *d2, hd;
	long long *lab, hl;
	int *idx;

	CHECK(cudaMalloc(&x, n * sizeof(float)));
	CHECK(cudaMalloc(&y, n * sizeof(float)));
	CHECK(cudaMalloc(&z, n * sizeof(float)));
	CHECK(cudaMalloc(&b, n * sizeof(float)));
	CHECK(cudaMalloc(&d, n * sizeof(double)));
	CHECK(cudaMalloc(&d2, n * sizeof(double)));
	CHECK(cudaMalloc(&lab, n * sizeof(long long)));
	CHECK(cudaMalloc(&idx, n * sizeof(int)));
	fill<<<g, 256>>>(x, y, d, idx, b, n);
	labels<<<g, 256>>>(x, lab, n);
	widen<<<g, 256>>>(d, d2, n);
	relu<<<g, 256>>>(y, n);
	bias<<<g, 256>>>(x, b, z, n);
	gather<<<g, 256>>>(x, idx, z, n);
	control<<<g, 256>>>(x, y, z, 2.0f, n);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(&hl, lab + 1, sizeof(hl), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(&hd, d2 + 1, sizeof(hd), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(h, x + 1, sizeof(float), cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(h + 1, y + 1, sizeof(float), cudaMemcpyDeviceToHost));
	int ok = hl >= 0 && hl < 4 && hd == 2.0 * (double)h[0] && h[1] > 0;
	printf("planted_values n %zu: %s\n", n, ok ? "ok" : "WRONG");
	return !ok;
}
