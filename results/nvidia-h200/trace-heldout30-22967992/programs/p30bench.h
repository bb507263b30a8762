// p30bench.h - held-out set 30 (issue 38): what the set's three CUDA C++ programs do around their kernels (set
// 28's p28bench.h, renamed): CK, a checked CUDA call; launch_steps, each step launched once in order, then whether PLAIN=1
// asks for the checks and timings; lcg_fill and to_device, the host data and its device copy; and time_steps, each
// step's median of 20 with events after 3 warm-ups (PLAIN=1 only, after the checks).
#ifndef P30BENCH_H
#define P30BENCH_H
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static bool launch_steps(const std::function<void()> *steps, int count)
{
	for (int j = 0; j < count; j++) {
		steps[j]();
		CK(cudaGetLastError());
	}
	CK(cudaDeviceSynchronize());
	return getenv("PLAIN") && !strcmp(getenv("PLAIN"), "1");
}

// the programs' host data: values in [0, 1) from a 64-bit LCG with seed st; and a host vector copied to the device
template <typename T>
static void lcg_fill(std::vector<T> &v, unsigned long long st)
{
	for (auto &x : v) {
		st = st * 6364136223846793005ull + 1442695040888963407ull;
		x = (T)((double)(st >> 11) * (1.0 / 9007209254740992.0));
	}
}

template <typename T>
static T *to_device(const std::vector<T> &v)
{
	T *d;
	CK(cudaMalloc(&d, v.size() * sizeof(T)));
	CK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
	return d;
}

static void time_steps(const std::function<void()> *steps, const char *const *names, int count)
{
	cudaEvent_t ea, eb;
	CK(cudaEventCreate(&ea));
	CK(cudaEventCreate(&eb));
	for (int j = 0; j < count; j++) {
		for (int t = 0; t < 3; t++)
			steps[j]();
		std::vector<float> ts;
		for (int t = 0; t < 20; t++) {
			float ms;
			CK(cudaEventRecord(ea));
			steps[j]();
			CK(cudaEventRecord(eb));
			CK(cudaEventSynchronize(eb));
			CK(cudaEventElapsedTime(&ms, ea, eb));
			ts.push_back(ms);
		}
		std::sort(ts.begin(), ts.end());
		printf("time %-28s %.4f ms (median of 20; min %.4f)\n", names[j], (ts[9] + ts[10]) / 2, ts[0]);
	}
	CK(cudaGetLastError());
}
#endif
