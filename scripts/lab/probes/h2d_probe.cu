// h2d_probe.cu - per-buffer pinned H2D / D2H rates with the guest-physical place of the buffer's pages (diagnostic for
// issue 22/25: is host-transfer noise placement or time?). Built by hand: see h2d_probe.sh.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sched.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
static int pm = -1;
static double gpa_gib(void *p) {
	uint64_t v = 0;
	if (pm < 0 || pread(pm, &v, 8, (off_t)((uintptr_t)p / 4096) * 8) != 8 || !(v >> 63)) return -1;
	uint64_t f = v & ((1ull << 55) - 1);
	return f ? (double)f * 4096 / (1 << 30) : -1;
}
static void places(char *p, size_t n, char *out) {
	out[0] = 0;
	for (int i = 0; i < 8; i++) { char b[32]; snprintf(b, 32, "%s%.2f", i ? "," : "", gpa_gib(p + n / 8 * i)); strcat(out, b); }
}
static float rate(void *dst, void *src, size_t n, cudaMemcpyKind k, int copies, cudaStream_t s, float *best) {
	cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
	float r[5];
	CK(cudaMemcpyAsync(dst, src, n, k, s));
	for (int t = 0; t < 5; t++) {
		CK(cudaEventRecord(a, s));
		for (int c = 0; c < copies; c++) CK(cudaMemcpyAsync(dst, src, n, k, s));
		CK(cudaEventRecord(b, s)); CK(cudaEventSynchronize(b));
		float ms; CK(cudaEventElapsedTime(&ms, a, b)); r[t] = (float)((double)n * copies / ms / 1e6);
	}
	CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
	for (int i = 0; i < 5; i++) for (int j = i + 1; j < 5; j++) if (r[j] < r[i]) { float x = r[i]; r[i] = r[j]; r[j] = x; }
	*best = r[4]; return r[2];
}
int main(int argc, char **argv) {
	int nb = argc > 1 ? atoi(argv[1]) : 6; const char *mode = argc > 2 ? argv[2] : "host";
	size_t n = 256ull << 20; int copies = 4;
	pm = open("/proc/self/pagemap", O_RDONLY);
	void *d; CK(cudaMalloc(&d, n)); cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	printf("pid %d cpu %d mode %s\n", getpid(), sched_getcpu(), mode);
	char **h = (char **)calloc(nb, sizeof(char *));
	for (int i = 0; i < nb; i++) {
		if (!strcmp(mode, "host")) CK(cudaHostAlloc((void **)&h[i], n, 0));
		else {
			h[i] = (char *)aligned_alloc(2 << 20, n);
			if (!strcmp(mode, "thp")) madvise(h[i], n, MADV_HUGEPAGE); else madvise(h[i], n, MADV_NOHUGEPAGE);
			memset(h[i], 1, n); CK(cudaHostRegister(h[i], n, 0));
		}
		memset(h[i], i, n);
		float bh, bd, mh = rate(d, h[i], n, cudaMemcpyHostToDevice, copies, s, &bh), md = rate(h[i], d, n, cudaMemcpyDeviceToHost, copies, s, &bd);
		/* halves: first and last 128 MiB of the buffer */
		float b1, b2, m1 = rate(d, h[i], n / 2, cudaMemcpyHostToDevice, copies * 2, s, &b1), m2 = rate(d, h[i] + n / 2, n / 2, cudaMemcpyHostToDevice, copies * 2, s, &b2);
		char pl[256]; places(h[i], n, pl);
		printf("buf %d h2d %.2f (max %.2f) d2h %.2f (max %.2f) h2d_half1 %.2f half2 %.2f gpa_gib %s\n", i, mh, bh, md, bd, m1, m2, pl);
		fflush(stdout);
	}
	for (int i = 0; i < nb; i++) { if (!strcmp(mode, "host")) CK(cudaFreeHost(h[i])); else { CK(cudaHostUnregister(h[i])); free(h[i]); } }
	CK(cudaFree(d)); return 0;
}
