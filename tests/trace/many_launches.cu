// many_launches.cu - 10^5 launches (or argv[1]) of a tiny kernel, for `gpumem trace` in bounded time and
// memory: trace the last one with --launch-skip N-1.
// Build: nvcc -O3 -arch=sm_90 -lineinfo many_launches.cu -o many_launches    Run: ./many_launches [n]
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void tick(int *x, int i)
{
	x[threadIdx.x] += i;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000, *x, h = 0;

	if (cudaMalloc(&x, 32 * sizeof(int)) != cudaSuccess || cudaMemset(x, 0, 32 * sizeof(int)) != cudaSuccess)
		return 1;
	for (int i = 0; i < n; i++)
		tick<<<1, 32>>>(x, 1);
	if (cudaMemcpy(&h, x, sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess)
		return 1;
	printf("%d launches, x[0] = %d%s\n", n, h, h == n ? "" : " WRONG");
	return h != n;
}
