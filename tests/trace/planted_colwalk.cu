// planted_colwalk.cu - a planted anti-pattern for `gpumem trace`: a column walk (one thread per row of a
// row-major matrix, so the 32 lanes of a warp are a whole row apart: 32 sectors a request).
//   row_sum_thread  (planted) thread r sums row r: lanes read a column, stride = the row length
//   row_sum_warp    (the fix) a warp per row: lanes read along the row, coalesced, then a warp reduction
//   transpose_tile  a 32x32 shared tile without padding (bank conflicts on the column read of the tile)
//   transpose_pad   the same tile padded to 33 columns (conflict-free)
// Build: nvcc -O3 -arch=sm_90 -lineinfo planted_colwalk.cu -o planted_colwalk    Run: ./planted_colwalk [rows cols]
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void row_sum_thread(const float *a, float *out, int rows, int cols)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float s = 0.0f;
	for (int j = 0; j < cols; j++)
		s += a[(size_t)r * cols + j];
	out[r] = s;
}

__global__ void row_sum_warp(const float *a, float *out, int rows, int cols)
{
	int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
	if (r >= rows)
		return;
	float s = 0.0f;
	for (int j = lane; j < cols; j += 32)
		s += a[(size_t)r * cols + j];
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_down_sync(0xffffffffu, s, o);
	if (lane == 0)
		out[r] = s;
}

template <int PAD>
__global__ void transpose(const float *in, float *out, int rows, int cols)
{
	__shared__ float tile[32][32 + PAD];
	int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (int k = 0; k < 32; k += 8)
		if (x < cols && y + k < rows)
			tile[threadIdx.y + k][threadIdx.x] = in[(size_t)(y + k) * cols + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x, y = blockIdx.x * 32 + threadIdx.y;
	for (int k = 0; k < 32; k += 8)
		if (x < rows && y + k < cols)
			out[(size_t)(y + k) * rows + x] = tile[threadIdx.x][threadIdx.y + k];
}

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv)
{
	int rows = argc > 2 ? atoi(argv[1]) : 8192, cols = argc > 2 ? atoi(argv[2]) : 4096;
	size_t n = (size_t)rows * cols;
	float *a, *t, *out, ms[4];
	cudaEvent_t e0, e1;
	const char *names[4] = {"row_sum_thread", "row_sum_warp", "transpose_tile", "transpose_pad"};

	CHECK(cudaMalloc(&a, n * sizeof(float)));
	CHECK(cudaMalloc(&t, n * sizeof(float)));
	CHECK(cudaMalloc(&out, rows * sizeof(float)));
	CHECK(cudaMemset(a, 0, n * sizeof(float)));
	cudaEventCreate(&e0), cudaEventCreate(&e1);
	dim3 tb(32, 8), tg((cols + 31) / 32, (rows + 31) / 32);
	for (int v = 0; v < 4; v++) {
		cudaEventRecord(e0);
		if (v == 0)
			row_sum_thread<<<(rows + 255) / 256, 256>>>(a, out, rows, cols);
		else if (v == 1)
			row_sum_warp<<<(rows * 32 + 255) / 256, 256>>>(a, out, rows, cols);
		else if (v == 2)
			transpose<0><<<tg, tb>>>(a, t, rows, cols);
		else
			transpose<1><<<tg, tb>>>(a, t, rows, cols);
		cudaEventRecord(e1);
		CHECK(cudaEventSynchronize(e1));
		cudaEventElapsedTime(&ms[v], e0, e1);
	}
	for (int v = 0; v < 4; v++)
		printf("%s %.4f ms\n", names[v], ms[v]);
	return 0;
}
