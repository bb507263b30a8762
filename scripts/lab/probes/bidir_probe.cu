// bidir_probe.cu - pinned copies both ways at once, measured three ways (issue 25 item 4): (A) gpumem's convention,
// H2D and D2H of the same size started together, each direction's rate over the copies it ended while the other ran,
// summed; (B) nvbandwidth's host_to_device_bidirectional_memcpy_ce: the measured H2D stream issued first, a D2H twice
// its size interfering, only the measured stream's rate; (C) the same for D2H; (D)/(E) B and C with the interfering
// stream issued first. Median of 7 samples each. Built by hand: nvcc -O2 -arch=sm_90 -o bidir_probe bidir_probe.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
static const size_t N = 256ull << 20;
static const int LOOP = 8;
static char *h1, *h2, *d1, *d2;
static cudaStream_t sa, sb;
static cudaEvent_t e0, ea, eb;
static int cmpf(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return x < y ? -1 : x > y; }
/* one sample: stream sa copies LOOP x N (dir da), stream sb LOOP x N*mult (dir db); which stream is issued first */
static void sample(int da, int db, int mult, int first_b, float *ra, float *rb) {
	CK(cudaEventRecord(e0, sa)); CK(cudaStreamWaitEvent(sb, e0, 0));
	for (int o = 0; o < 2; o++) {
		int b = (o == 0) == (first_b != 0);
		cudaStream_t s = b ? sb : sa; int d = b ? db : da; size_t n = b ? N * mult : N;
		for (int i = 0; i < LOOP; i++)
			CK(d ? cudaMemcpyAsync(h2, d2, n, cudaMemcpyDeviceToHost, s) : cudaMemcpyAsync(d1, h1, n, cudaMemcpyHostToDevice, s));
		CK(cudaEventRecord(b ? eb : ea, s));
	}
	CK(cudaDeviceSynchronize());
	float ma, mb; CK(cudaEventElapsedTime(&ma, e0, ea)); CK(cudaEventElapsedTime(&mb, e0, eb));
	*ra = (float)(LOOP * (double)N / ma / 1e6); *rb = (float)(LOOP * (double)N * mult / mb / 1e6);
}
static void test(const char *name, int da, int db, int mult, int first_b) {
	float a[7], b[7];
	sample(da, db, mult, first_b, &a[0], &b[0]);
	for (int i = 0; i < 7; i++) sample(da, db, mult, first_b, &a[i], &b[i]);
	qsort(a, 7, sizeof(float), cmpf); qsort(b, 7, sizeof(float), cmpf);
	printf("%-44s measured %s %.2f GB/s (min %.2f max %.2f)   other %s %.2f\n", name, da ? "D2H" : "H2D", a[3], a[0], a[6], db ? "D2H" : "H2D", b[3]);
}
int main(void) {
	CK(cudaHostAlloc((void **)&h1, N * 2, 0)); CK(cudaHostAlloc((void **)&h2, N * 2, 0));
	CK(cudaMalloc((void **)&d1, N * 2)); CK(cudaMalloc((void **)&d2, N * 2));
	CK(cudaStreamCreateWithFlags(&sa, cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&sb, cudaStreamNonBlocking));
	CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&ea)); CK(cudaEventCreate(&eb));
	for (int r = 0; r < 2; r++) {
		printf("round %d\n", r + 1);
		test("H2D alone", 0, 0, 0, 0);
		test("D2H alone", 1, 1, 0, 0);
		test("A: both, same size, H2D issued first", 0, 1, 1, 0);
		test("A': both, same size, D2H issued first", 0, 1, 1, 1);
		test("B: H2D first, D2H x2 interferes (nvbw)", 0, 1, 2, 0);
		test("C: D2H first, H2D x2 interferes (nvbw)", 1, 0, 2, 0);
		test("D: H2D, D2H x2 issued first", 0, 1, 2, 1);
		test("E: D2H, H2D x2 issued first", 1, 0, 2, 1);
	}
	return 0;
}
