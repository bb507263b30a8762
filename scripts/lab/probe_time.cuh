// probe_time.cuh - what the lab probes share (probe_merge_store.cu, probe_smem_atomic.cu): the CUDA check and the
// median of 20 timed launches after 3 warm-up ones (events); PROBE_ONCE=1 launches once instead (for ncu).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

template <class F> static float median_ms(F launch)
{
	if (getenv("PROBE_ONCE")) {  // one launch each, for ncu
		launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
		return 1.f;
	}
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
	for (int w = 0; w < 3; w++) launch();
	CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
	std::vector<float> t;
	for (int s = 0; s < 20; s++) {
		CK(cudaEventRecord(a)); launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
		float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
	}
	std::sort(t.begin(), t.end());
	CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
	return t[t.size() / 2];
}
