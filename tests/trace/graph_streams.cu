// graph_streams.cu - launches `gpumem trace` does not follow in full: kernels inside a CUDA graph (counted, never
// traced) and launches on a second stream. Launch order: scale on stream s (0), the graph of two kernels launched
// twice (1-4: graph nodes), scale on the default stream (5).
// Build: nvcc -O3 -arch=sm_90 -lineinfo graph_streams.cu -o graph_streams    Run: ./graph_streams
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= a;
}

__global__ void shift(float *x, float b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] += b;
}

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main()
{
	const int n = 1 << 20;
	float *x;
	cudaStream_t s;
	cudaGraph_t g;
	cudaGraphExec_t ge;

	CHECK(cudaMalloc(&x, n * sizeof(float)));
	CHECK(cudaMemset(x, 0, n * sizeof(float)));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	scale<<<n / 256, 256, 0, s>>>(x, 2.0f, n);
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	scale<<<n / 256, 256, 0, s>>>(x, 2.0f, n);
	shift<<<n / 256, 256, 0, s>>>(x, 1.0f, n);
	CHECK(cudaStreamEndCapture(s, &g));
	CHECK(cudaGraphInstantiate(&ge, g, 0));
	CHECK(cudaGraphLaunch(ge, s));
	CHECK(cudaGraphLaunch(ge, s));
	CHECK(cudaStreamSynchronize(s));
	scale<<<n / 256, 256>>>(x, 0.5f, n);
	float h = 0;
	CHECK(cudaMemcpy(&h, x, sizeof(float), cudaMemcpyDeviceToHost));
	printf("x[0] = %g%s\n", h, h == 1.5f ? "" : " WRONG");
	return h != 1.5f;
}
