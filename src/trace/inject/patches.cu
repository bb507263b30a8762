/*
 * patches.cu - the device callbacks gpumem's injection library patches into the traced kernels
 * (Compute Sanitizer patching API; built with nvcc --fatbin --compile-as-tools-patch and embedded in
 * libgpumem_trace.so).
 *
 * Every lane of a warp that executes a patched memory instruction calls one callback together. The
 * lanes compute the warp-level figures with warp intrinsics over the active lanes (distinct 32 B
 * sectors, distinct addresses, shared wavefronts by docs/MODEL.md's rule), then the lowest active lane
 * adds them with one atomic each to the instruction's counters (one of GMT_STRIPES copies, by SM).
 * Sampled warps (GMT sample_warps of them, spread evenly over the counted blocks) also write their
 * lanes' addresses. userdata NULL (a launch that is not traced) returns at once, as does a block that is
 * not counted: the callbacks themselves hold only these tests (a 16-byte frame instead of 104), the work
 * of a counted warp is the out-of-line gmt_access_counted.
 */
#include <stdint.h>
#include <sanitizer_patching.h>
#include "trace_dev.h"

static __device__ __forceinline__ unsigned gmt_lane(void)
{
	unsigned r;
	asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
	return r;
}

static __device__ __forceinline__ unsigned gmt_smid(void)
{
	unsigned r;
	asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
	return r;
}

/* 1 when this lane is the lowest of the lanes holding the same key. */
static __device__ __forceinline__ int gmt_first(unsigned mask, unsigned long long key, unsigned lane)
{
	unsigned m = __match_any_sync(mask, key);
	return (unsigned)(__ffs(m) - 1) == lane;
}

/* The slot of pc, claimed on first sight; NULL when the table is full. Called by one lane. */
static __device__ struct gmt_slot *gmt_slot_of(struct gmt_launch *L, unsigned long long pc, unsigned space,
                                               unsigned size, unsigned flags, unsigned *index)
{
	unsigned h = (unsigned)((pc >> 4) * 2654435761u) & (GMT_SLOTS - 1);

	for (unsigned probe = 0; probe < GMT_SLOTS; probe++, h = (h + 1) & (GMT_SLOTS - 1)) {
		struct gmt_slot *s = &L->slots[h];
		/* a plain (L1-cached) read: a stale 0 only sends this lane to the CAS, which returns the truth */
		unsigned long long k = s->pc;

		if (k == 0)
			k = atomicCAS(&s->pc, 0ull, pc);
		if (k == 0) {   /* claimed here: describe it, then publish sample_base (its readiness flag) */
			unsigned ord = atomicAdd(&L->h.pool_used, L->h.samples_per_pc);
			s->space = space;
			s->size = size;
			s->flags = flags;
			atomicAdd(&L->h.slots_used, 1u);
			__threadfence();
			/* sample_base holds first record + 1; 0 = not yet published, ~0u = no room */
			atomicExch(&s->sample_base,
			           ord + L->h.samples_per_pc <= GMT_SAMPLE_POOL && L->h.samples_per_pc ? ord + 1 : 0xffffffffu);
			*index = h;
			return s;
		}
		if (k == pc) {
			*index = h;
			return s;
		}
	}
	return 0;
}

/*
 * Which sampled warp this is (0..sample_warps-1), or -1, in the block of ordinal blin among the S blocks the
 * samples spread over (B = sample_blocks: the counted ones). Sample k is warp k % wpb of block floor(k B / S):
 * spread evenly over the grid and over the warps of a block. When those blocks hold no more warps than S,
 * every warp is sampled. No 64-bit division: the host gives S / B.
 */
static __device__ __forceinline__ int gmt_sampled(const struct gmt_launch *L, unsigned long long blin, unsigned ltid)
{
	unsigned long long S = L->h.sample_warps, B = L->h.sample_blocks, lo, hi;
	unsigned wpb = L->h.warps_per_block, w = ltid / 32;

	if (S == 0 || wpb == 0)
		return -1;
	if (B * wpb <= S)
		return (int)(blin * wpb + w);
	/* lo = ceil(blin S / B), hi = ceil((blin + 1) S / B): estimated in double, then made exact */
	lo = (unsigned long long)ceil((double)blin * L->h.s_over_b);
	while (lo * B < blin * S)
		lo++;
	while (lo > 0 && (lo - 1) * B >= blin * S)
		lo--;
	hi = (unsigned long long)ceil((double)(blin + 1) * L->h.s_over_b);
	while (hi * B < (blin + 1) * S)
		hi++;
	while (hi > 0 && (hi - 1) * B >= (blin + 1) * S)
		hi--;
	if (hi > S)
		hi = S;
	if (lo >= hi)
		return -1;
	unsigned long long k = lo + (w + wpb - (unsigned)(lo % wpb)) % wpb;   /* the first k of this warp */
	return k < hi ? (int)k : -1;
}

/* Shared wavefronts of this warp execution (docs/MODEL.md "Shared memory"); *ideal = passes. */
static __device__ unsigned gmt_wavefronts(unsigned mask, unsigned lane, unsigned leader, unsigned addr,
                                          unsigned E, int is_load, unsigned *ideal)
{
	unsigned G = 32 / E, per, passes, phase, nw, blk, bg, ways, total = 0, cm = 0;
	unsigned long long key;
	int first;

	first = is_load ? gmt_first(mask, ((unsigned long long)(lane / G) << 32) | addr, lane) : 1;
	passes = (__popc(__ballot_sync(mask, first)) * E + 127) / 128;
	if (!is_load) {
		per = E <= 4 ? 32 : 128 / E;
	} else {
		unsigned ph = 1;
		while (ph < passes && ph < 32)
			ph *= 2;
		per = 32 / ph;
	}
	phase = lane / per;
	first = is_load ? gmt_first(mask, ((unsigned long long)phase << 40) |
	                                  ((unsigned long long)((lane % per) / G) << 32) | addr, lane) : 1;
	unsigned data = __ballot_sync(mask, first);
	nw = E >= 4 ? E / 4 : 1;
	blk = E >= 4 ? addr / E : addr / 4;          /* aligned group of nw words */
	first = gmt_first(mask, ((unsigned long long)phase << 40) | blk, lane);
	bg = ((blk * nw) % 32) / nw;                 /* the banks the group lies in */
	key = first ? (((unsigned long long)phase << 40) | (1ull << 39) | bg) : (0xffffffff00000000ull | lane);
	ways = __popc(__match_any_sync(mask, key));
	if (!first)
		ways = 0;
	for (unsigned j = 0; j < 32; j++) {
		unsigned v = __shfl_sync(mask, ways, j);

		if (lane != leader)
			continue;
		if ((mask >> j) & 1u)
			cm = v > cm ? v : cm;
		if (j % per == per - 1) {
			unsigned pm = (per == 32 ? 0xffffffffu : ((1u << per) - 1u) << (j + 1 - per));
			if (mask & pm) {
				unsigned need = (__popc(data & pm) * E + 127) / 128;
				total += cm > need ? cm : need;
			}
			cm = 0;
		}
	}
	*ideal = passes;
	return total;
}

static __device__ int gmt_sample(struct gmt_launch *L, struct gmt_slot *s, unsigned index, int k,
                                  unsigned mask, unsigned lane, unsigned leader, unsigned long long addr,
                                  unsigned ltid)
{
	unsigned rec = 0xffffffffu;

	if (lane == leader) {
		unsigned base;
		while ((base = *(volatile unsigned *)&s->sample_base) == 0)
			;   /* the claiming warp is publishing it */
		if (base != 0xffffffffu) {
			base--;
			unsigned it = atomicAdd(&L->warp_iter[index * GMT_MAX_SAMPLE_WARPS + k], 1u);
			if (it < L->h.sample_iters) {
				rec = base + (unsigned)k * L->h.sample_iters + it;
				struct gmt_sample *r = &L->pool[rec];
				r->block_x = blockIdx.x;
				r->block_y = blockIdx.y;
				r->block_z = blockIdx.z;
				r->warp = ltid / 32;
				r->mask = mask;
				r->iter = it;
				r->valid = 1;
			}
		}
	}
	rec = __shfl_sync(mask, rec, leader);
	if (rec != 0xffffffffu)
		L->pool[rec].addr[lane] = addr;
	return rec != 0xffffffffu;
}

/* n bytes (1, 2, 4, 8) at p as an unsigned integer, byte by byte where p may be unaligned (the callback's pData) */
static __device__ __forceinline__ unsigned long long gmt_bytes(const void *p, unsigned n, int aligned)
{
	const unsigned char *b = (const unsigned char *)p;
	unsigned long long v = 0;

	if (aligned)
		return n == 1 ? *b : n == 2 ? *(const unsigned short *)p : n == 4 ? *(const unsigned *)p
		                                                                  : *(const unsigned long long *)p;
	for (unsigned i = 0; i < n; i++)
		v |= (unsigned long long)b[i] << (8 * i);
	return v;
}

/*
 * A sampled warp's values of a global load or store, added to the instruction's summary (struct gmt_vsum). A
 * store's value is pData's (the new one), its old value is read at the address before the store runs (the
 * callback comes first); a load's is read at the address. Atomics are left out (pData NULL).
 */
static __device__ __noinline__ void gmt_values(struct gmt_launch *L, unsigned index, unsigned mask, unsigned lane,
                                               unsigned leader, unsigned long long addr, unsigned size,
                                               unsigned flags, const void *data)
{
	int rd = (flags & SANITIZER_MEMORY_DEVICE_FLAG_READ) != 0, wr = (flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE) != 0;
	unsigned w = size > 8 ? 8 : size, nw = size > 8 ? size / 8 : 1, n = __popc(mask);
	unsigned long long v[2] = {0, 0}, o[2] = {0, 0}, kmax, kmin, sm;
	long long sx = 0, gx, gy, glin;
	int zero, silent = 0, fex = 0, sxm = 0, sym = 0, ints = size <= 8;

	if (rd == wr || (flags & SANITIZER_MEMORY_DEVICE_FLAG_ATOMSYS) || nw > 2 || (w != 1 && w != 2 && w != 4 && w != 8))
		return;
	if (__any_sync(mask, wr && !data))   /* every lane returns together: the shuffles below need them all */
		return;
	for (unsigned i = 0; i < nw; i++) {
		const unsigned char *at = (const unsigned char *)(uintptr_t)addr + 8 * i;
		if (wr) {
			v[i] = gmt_bytes((const unsigned char *)data + 8 * i, w, 0);
			o[i] = gmt_bytes(at, w, 1);
		} else {
			v[i] = gmt_bytes(at, w, 1);
		}
	}
	zero = v[0] == 0 && v[1] == 0;
	silent = wr && v[0] == o[0] && v[1] == o[1];
	if (ints) {
		sx = size == 1 ? (long long)(signed char)v[0] : size == 2 ? (long long)(short)v[0]
		   : size == 4 ? (long long)(int)v[0] : (long long)v[0];
		if (size == 8) {
			double d = __longlong_as_double((long long)v[0]);
			fex = d != d || (double)(float)d == d;
		}
		gx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
		gy = (long long)blockIdx.y * blockDim.y + threadIdx.y;
		glin = ((long long)blockIdx.x + (long long)gridDim.x * ((long long)blockIdx.y + (long long)gridDim.y * blockIdx.z)) *
		       ((long long)blockDim.x * blockDim.y * blockDim.z) +
		       threadIdx.x + (long long)blockDim.x * (threadIdx.y + (long long)blockDim.y * threadIdx.z);
		sxm = sx == gx || sx == glin;
		sym = gridDim.y > 1 && sx == gy;
	}
	/* the warp's max and min keys and its small values, gathered by the leader (no redux in a tools patch) */
	kmax = 0, kmin = ~0ull, sm = 0;
	for (unsigned j = 0; j < 32; j++) {
		long long xj = __shfl_sync(mask, sx, j);
		unsigned long long kj = (unsigned long long)xj ^ 0x8000000000000000ull;
		if (lane != leader || !((mask >> j) & 1u))
			continue;
		kmax = kj > kmax ? kj : kmax;
		kmin = kj < kmin ? kj : kmin;
		if (xj >= 0 && xj < 64)
			sm |= 1ull << xj;
	}
	/* the value against its own element index: one reference (the first sampled warp's leader's), every lane
	   compared with it */
	unsigned long long ek = ints ? (unsigned long long)((long long)(addr / size) - sx) + 1 : 0, eref = 0;
	if (ints && lane == leader) {
		eref = atomicCAS(&L->vsum[index].idx_ref, 0ull, ek);
		eref = eref ? eref : ek;
	}
	eref = __shfl_sync(mask, eref, leader);
	unsigned ce = __popc(__ballot_sync(mask, ints && ek == eref));
	unsigned cz = __popc(__ballot_sync(mask, zero)), cs = __popc(__ballot_sync(mask, silent));
	unsigned cf = __popc(__ballot_sync(mask, fex)), cx = __popc(__ballot_sync(mask, sxm));
	unsigned cy = __popc(__ballot_sync(mask, sym));

	if (lane != leader)
		return;
	struct gmt_vsum *q = &L->vsum[index];
	atomicAdd(&q->lanes, (unsigned long long)n);
	if (cz)
		atomicAdd(&q->zero, (unsigned long long)cz);
	if (cs)
		atomicAdd(&q->silent, (unsigned long long)cs);
	if (cf)
		atomicAdd(&q->fexact, (unsigned long long)cf);
	if (cx)
		atomicAdd(&q->self_x, (unsigned long long)cx);
	if (cy)
		atomicAdd(&q->self_y, (unsigned long long)cy);
	if (ce)
		atomicAdd(&q->own_elem, (unsigned long long)ce);
	if (ints) {
		atomicMax(&q->kmax, kmax);
		atomicMax(&q->nkmin, ~kmin);
		if (sm)
			atomicOr(&q->small, sm);
	}
}

/* The lowest active lane adds one warp execution to the instruction's counters (figures of the warp). */
static __device__ __forceinline__ unsigned long long gmt_commit(struct gmt_launch *L, unsigned long long pc,
                                                             unsigned space, unsigned size, unsigned flags,
                                                             unsigned n, unsigned units, unsigned ideal,
                                                             unsigned *index)
{
	struct gmt_slot *s = gmt_slot_of(L, pc, space, size, flags, index);
	unsigned long long *c;

	if (!s) {
		atomicAdd(&L->h.dropped, 1u);
		return 0;
	}
	c = s->counters[gmt_smid() % GMT_STRIPES];
	atomicAdd(&c[GMT_EXEC], 1ull);
	if (n < 32)
		atomicAdd(&c[GMT_MISSING], (unsigned long long)(32 - n));
	atomicAdd(&c[GMT_UNITS], (unsigned long long)units);
	if (units > ideal)
		atomicAdd(&c[GMT_EXCESS], (unsigned long long)(units - ideal));
	return (unsigned long long)s;
}

/*
 * The counted warp's work: its figures, committed by the lowest lane, and its samples. Kept out of line so
 * that the callbacks' own frame stays small: a callback saves the registers its body uses on entry, and the
 * blocks that are not counted (most of them) return before anything else.
 */
static __device__ __noinline__ void gmt_access_counted(struct gmt_launch *L, uint64_t pc, uint64_t addr,
                                                       unsigned packed, unsigned long long blin, const void *data)
{
	/* size, space and flags in one argument: the callbacks' frame stays 24 bytes with pData passed on (16 before
	   values; 32 with the three apart) */
	uint32_t size = packed & 0xff, space = (packed >> 8) & 0xff, flags = packed >> 16;
	unsigned mask, lane, leader, E, index = 0, units, ideal;
	unsigned long long sp = 0;
	int k = -1;

	mask = __activemask();
	lane = gmt_lane();
	leader = __ffs(mask) - 1;
	E = size >= 1 && size <= 16 ? size : 4;
	if (space == GMT_SHARED) {
		int is_load = (flags & SANITIZER_MEMORY_DEVICE_FLAG_READ) && !(flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE);
		units = gmt_wavefronts(mask, lane, leader, (unsigned)addr, E, is_load, &ideal);
	} else {
		/* local memory is interleaved by lane: the same offset of 32 lanes is one contiguous run */
		unsigned long long v = space == GMT_LOCAL ? (addr / E) * 32ull * E + lane * E + addr % E : addr;
		unsigned long long v0 = __shfl_sync(mask, v, leader);
		unsigned run = mask >> leader, n = __popc(mask);

		/* consecutive active lanes at consecutive elements (a coalesced warp): the figures by arithmetic */
		if ((run & (run + 1)) == 0 && __all_sync(mask, v == v0 + (unsigned long long)(lane - leader) * E)) {
			units = (unsigned)(((v0 + (unsigned long long)(n - 1) * E) >> 5) - (v0 >> 5) + 1);
			ideal = (n * E + 31) / 32;
		} else {
			units = __popc(__ballot_sync(mask, gmt_first(mask, v >> 5, lane)));
			ideal = (__popc(__ballot_sync(mask, gmt_first(mask, v, lane))) * E + 31) / 32;
		}
	}
	if (lane == leader) {
		if (L->h.mode != GMT_MODE_COUNTS)
			k = gmt_sampled(L, blin, threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
		sp = gmt_commit(L, pc, space, size, flags, __popc(mask), units, ideal, &index);
	}
	k = __shfl_sync(mask, k, leader);
	if (k < 0)
		return;
	sp = __shfl_sync(mask, sp, leader);
	index = __shfl_sync(mask, index, leader);
	/* the values of the same sampled executions (global memory only: a shared or local offset is not an address) */
	if (sp && gmt_sample(L, (struct gmt_slot *)sp, index, k, mask, lane, leader, addr,
	                     threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) &&
	    space == GMT_GLOBAL && L->h.mode != GMT_MODE_NOVALUES)
		gmt_values(L, index, mask, lane, leader, addr, size, flags, data);
}

static __device__ __forceinline__ SanitizerPatchResult gmt_access(void *ud, uint64_t pc, uint64_t addr,
                                                                  uint32_t size, uint32_t flags, unsigned space,
                                                                  const void *data)
{
	struct gmt_launch *L = (struct gmt_launch *)ud;
	unsigned long long blin;

	if (!L || (flags & SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH) || L->h.mode == GMT_MODE_RETURN)
		return SANITIZER_PATCH_SUCCESS;
	blin = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
	if (L->h.count_mask) {   /* counting by blocks: a block not counted goes on at once (it holds no sample) */
		if ((blin ^ (blin >> L->h.count_shift)) & L->h.count_mask)
			return SANITIZER_PATCH_SUCCESS;
		blin >>= L->h.count_shift;   /* its ordinal among the counted blocks */
	}
	gmt_access_counted(L, pc, addr, (size & 0xff) | (space << 8) | (flags << 16), blin, data);
	return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult gmt_global_cb(void *ud, uint64_t pc, void *ptr,
                                                                      uint32_t size, uint32_t flags,
                                                                      const void *data)
{
	return gmt_access(ud, pc, (uint64_t)(uintptr_t)ptr, size, flags, GMT_GLOBAL, data);
}

extern "C" __device__ __noinline__ SanitizerPatchResult gmt_shared_cb(void *ud, uint64_t pc, void *ptr,
                                                                      uint32_t size, uint32_t flags,
                                                                      const void *data)
{
	(void)data;
	return gmt_access(ud, pc, (uint64_t)(uintptr_t)ptr, size, flags, GMT_SHARED, 0);
}

extern "C" __device__ __noinline__ SanitizerPatchResult gmt_local_cb(void *ud, uint64_t pc, void *ptr,
                                                                     uint32_t size, uint32_t flags,
                                                                     const void *data)
{
	(void)data;
	return gmt_access(ud, pc, (uint64_t)(uintptr_t)ptr, size, flags, GMT_LOCAL, 0);
}
