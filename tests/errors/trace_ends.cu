// trace_ends.cu - a CUDA program that ends badly on purpose, for the errors table's `gpumem trace` rows
// (tests/errors/cases.tsv T17-T20): one coalesced copy kernel, then, by its argument,
//   exit   exit with status 3        abort  die of SIGABRT        hang  launch a kernel that never ends
//   ok     exit 0 (built without -lineinfo: the report must say how to get lines)
// Build: nvcc -O3 -arch=sm_90 [-lineinfo] trace_ends.cu -o trace_ends    Run: ./trace_ends MODE
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void copy(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i];
}

__global__ void spin(const volatile int *flag)
{
	while (*flag == 0)
		;
}

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "ok";
	int n = 1 << 20, *flag;
	float *x, *y;

	CHECK(cudaMalloc(&x, n * sizeof(float)));
	CHECK(cudaMalloc(&y, n * sizeof(float)));
	CHECK(cudaMalloc(&flag, sizeof(int)));
	CHECK(cudaMemset(x, 0, n * sizeof(float)));
	CHECK(cudaMemset(flag, 0, sizeof(int)));
	copy<<<n / 256, 256>>>(x, y, n);
	CHECK(cudaDeviceSynchronize());
	if (strcmp(mode, "exit") == 0)
		exit(3);
	if (strcmp(mode, "abort") == 0)
		abort();
	if (strcmp(mode, "hang") == 0) {
		spin<<<1, 1>>>(flag);
		CHECK(cudaDeviceSynchronize());
	}
	return 0;
}
