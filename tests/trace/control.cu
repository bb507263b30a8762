// control.cu - the control for `gpumem trace`: a coalesced scale-and-add with nothing to fix.
// Run with 268435456 (the default) its two reads and one write are 1 GiB each: the trace-cost case.
// Build: nvcc -O3 -arch=sm_90 -lineinfo control.cu -o control    Run: ./control [n]
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void saxpy(const float *x, const float *y, float *z, float a, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		z[i] = a * x[i] + y[i];
}

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : (1ull << 28);
	float *x, *y, *z, ms = 0, h = 1;
	cudaEvent_t a, b;

	CHECK(cudaMalloc(&x, n * sizeof(float)));
	CHECK(cudaMalloc(&y, n * sizeof(float)));
	CHECK(cudaMalloc(&z, n * sizeof(float)));
	CHECK(cudaMemset(x, 0, n * sizeof(float)));
	CHECK(cudaMemset(y, 0, n * sizeof(float)));
	cudaEventCreate(&a), cudaEventCreate(&b);
	cudaEventRecord(a);
	saxpy<<<(unsigned)((n + 255) / 256), 256>>>(x, y, z, 2.0f, n);
	cudaEventRecord(b);
	CHECK(cudaEventSynchronize(b));
	cudaEventElapsedTime(&ms, a, b);
	CHECK(cudaMemcpy(&h, z, sizeof(float), cudaMemcpyDeviceToHost));
	printf("saxpy %.4f ms, %.1f GB/s (n %zu)%s\n", ms, 3.0 * n * sizeof(float) / ms / 1e6, n, h != 0 ? " WRONG" : "");
	return h != 0;
}
