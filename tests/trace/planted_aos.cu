// planted_aos.cu - a planted anti-pattern for `gpumem trace`: an array of structures read one field at a time.
//   aos_x   (planted) each thread reads p[i].x of a 32-byte particle: 32 sectors a request where 4 would do
//   soa_x   (the fix) the same values from a structure of arrays: coalesced
// Build: nvcc -O3 -arch=sm_90 -lineinfo planted_aos.cu -o planted_aos    Run: ./planted_aos [n]
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct Particle { float x, y, z, w, vx, vy, vz, m; };   // 32 bytes

__global__ void aos_x(const Particle *p, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = p[i].x * 2.0f;
}

__global__ void soa_x(const float *x, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = x[i] * 2.0f;
}

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : (1 << 24), bad = 0;
	Particle *p;
	float *x, *out, ms[2];
	cudaEvent_t a, b;

	CHECK(cudaMalloc(&p, sizeof(Particle) * (size_t)n));
	CHECK(cudaMalloc(&x, sizeof(float) * (size_t)n));
	CHECK(cudaMalloc(&out, sizeof(float) * (size_t)n));
	CHECK(cudaMemset(p, 0, sizeof(Particle) * (size_t)n));
	CHECK(cudaMemset(x, 0, sizeof(float) * (size_t)n));
	cudaEventCreate(&a), cudaEventCreate(&b);
	for (int v = 0; v < 2; v++) {
		cudaEventRecord(a);
		if (v == 0)
			aos_x<<<(n + 255) / 256, 256>>>(p, out, n);
		else
			soa_x<<<(n + 255) / 256, 256>>>(x, out, n);
		cudaEventRecord(b);
		CHECK(cudaEventSynchronize(b));
		cudaEventElapsedTime(&ms[v], a, b);
	}
	float h = 1.0f;
	CHECK(cudaMemcpy(&h, out, sizeof(float), cudaMemcpyDeviceToHost));
	bad = h != 0.0f;
	printf("aos_x %.4f ms, soa_x %.4f ms (n %d)%s\n", ms[0], ms[1], n, bad ? " WRONG" : "");
	return bad;
}
