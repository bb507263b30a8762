// p30_hash.cu - held-out set 30 (issue 38), a CUDA C++ program (nvcc -O3 -lineinfo -arch=sm_90; mangled C++ kernel
// names, a namespace): lookups in an open-addressing hash map (linear probing, 2^21 slots of 8 bytes {key, value},
// 16 MB, load factor 0.5) holding 2^20 keys that are byte offsets of 1 KiB records (key = 1024 i: multiples of 1024),
// queried with every key once in a shuffled order, a thread a query:
//   kv::probe_mod: the home slot is key & (2^21 - 1) (the identity hash, as std::hash<uint32_t> is): the keys'
//     home slots are only 2048 distinct slots 1024 apart, 512 keys on each, so the table is 2048 runs of 512 full
//     slots and a lookup walks 256 slots on average (up to 512) from its home slot;
//   kv::probe_mix: the same table layout and loop, the home slot from murmur3's 32-bit finaliser of the key (the
//     table built with the same hash): a lookup walks 1.5 slots on average.
// Both give every query's value (checked equal to each other and to the value inserted on the host). Launches:
// 0 mod, 1 mix; PLAIN=1: the checks, then each launch's median of 20 (events).
#include <vector>
#include <cuda_runtime.h>
#include "p30bench.h"

namespace kv {
const unsigned EMPTY = 0xffffffffu;

__host__ __device__ inline unsigned fmix32(unsigned h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

__global__ void probe_mod(const uint2 *slots, unsigned mask, const unsigned *queries, unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned key = queries[i], s = key & mask, v = EMPTY;
	for (;;) {
		uint2 e = slots[s];
		if (e.x == key) {
			v = e.y;
			break;
		}
		if (e.x == EMPTY)
			break;
		s = (s + 1) & mask;
	}
	out[i] = v;
}

__global__ void probe_mix(const uint2 *slots, unsigned mask, const unsigned *queries, unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned key = queries[i], s = fmix32(key) & mask, v = EMPTY;
	for (;;) {
		uint2 e = slots[s];
		if (e.x == key) {
			v = e.y;
			break;
		}
		if (e.x == EMPTY)
			break;
		s = (s + 1) & mask;
	}
	out[i] = v;
}
} // namespace kv

static unsigned value_of(unsigned key)
{
	return kv::fmix32(key ^ 0x30303030u) >> 1;
}

// the table: every key inserted in order by linear probing from home(key)
template <typename H>
static std::vector<uint2> build(const std::vector<unsigned> &keys, unsigned mask, H home)
{
	std::vector<uint2> t(mask + 1, make_uint2(kv::EMPTY, 0));
	for (unsigned k : keys) {
		unsigned s = home(k);
		while (t[s].x != kv::EMPTY)
			s = (s + 1) & mask;
		t[s] = make_uint2(k, value_of(k));
	}
	return t;
}

int main()
{
	const int n = 1 << 20;
	const unsigned mask = (1u << 21) - 1;
	std::vector<unsigned> keys(n), queries(n), poison(n, 0xdeadbeefu);
	std::vector<double> r(2 * n);
	lcg_fill(r, 0x30300001ull);
	for (int i = 0; i < n; i++)
		keys[i] = queries[i] = 1024u * (unsigned)i;
	for (int i = n - 1; i > 0; i--) {   // shuffled insert and query orders (Fisher-Yates)
		std::swap(keys[i], keys[(int)(r[i] * (i + 1))]);
		std::swap(queries[i], queries[(int)(r[n + i] * (i + 1))]);
	}
	std::vector<uint2> tmod = build(keys, mask, [&](unsigned k) { return k & mask; });
	std::vector<uint2> tmix = build(keys, mask, [&](unsigned k) { return kv::fmix32(k) & mask; });
	uint2 *dmod = to_device(tmod), *dmix = to_device(tmix);
	unsigned *dq = to_device(queries), *o0 = to_device(poison), *o1 = to_device(poison);
	int g = n / 256;
	std::function<void()> steps[2] = {
		[&] { kv::probe_mod<<<g, 256>>>(dmod, mask, dq, o0, n); },
		[&] { kv::probe_mix<<<g, 256>>>(dmix, mask, dq, o1, n); },
	};
	const char *const names[2] = {"probe_mod", "probe_mix"};
	if (!launch_steps(steps, 2))
		return 0;
	std::vector<unsigned> r0(n), r1(n);
	CK(cudaMemcpy(r0.data(), o0, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(r1.data(), o1, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
	int bad01 = 0, badref = 0;
	for (int i = 0; i < n; i++) {
		bad01 += r0[i] != r1[i];
		badref += r1[i] != value_of(queries[i]);
	}
	printf("check %-28s %s %d of %d differ\n", "mod = mix", bad01 ? "WRONG" : "ok", bad01, n);
	printf("check %-28s %s %d of %d differ\n", "mix = host values", badref ? "WRONG" : "ok", badref, n);
	time_steps(steps, names, 2);
	return bad01 || badref ? 1 : 0;
}
