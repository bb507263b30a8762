/*
 * hierarchy.cu - bandwidth against working-set size (gpumem run hierarchy).
 *
 * Kernels and modes (hier_shapes.h):
 *   l1_*  per-SM footprint: block b (one per SM, 1024 threads) re-reads its
 *         own buffer with ld.global.ca; the kernel asks for the max-L1
 *         carve-out. Past the L1 capacity the same loads go to L2.
 *         Version 1 (hier_kernel): 16 B loads, thread t reads slots
 *         (t + 1024 k) mod n, the index wrapped after every load (a compare,
 *         a select and an address computation per load).
 *         Versions 2-8 (hier_pass): whole passes; thread t walks a pointer
 *         over slots t, t + 1024, ... of the buffer, 4 or 8 loads a step at
 *         immediate offsets (one pointer add, compare and select per step),
 *         16 / 8 / 4 B loads, ld.ca or ld.nc (hier_shapes.h lists them).
 *         Either way a block reads a known multiset of words; the per-thread
 *         sums are checked against its closed form on the CPU. Thread 0 of
 *         block 0 records clock64 and %globaltimer at its start and end: the
 *         SM clock under this load, a note.
 *   l2sh_* (hier_pass, shared): every block (one per SM) reads the WHOLE
 *         footprint, the same buffer, in the same order, with ld.global.cg:
 *         data shared by all SMs, read in lockstep (the shape of gpu-benches'
 *         gpu-cache and gpu-l2-cache, without their drift). l2stag_*: the
 *         same with block b starting b/grid of the way into the buffer, so no
 *         two SMs ask for a line at the same moment. Checked like l1.
 *   l2_*  whole-GPU footprint, an ordered sweep: many short blocks (1024
 *         threads) each read HIER_ILP consecutive 16 KiB chunks, block B
 *         chunks (B*HIER_ILP + u) mod nch, with ld.global.cg (L1 bypassed).
 *         Blocks start in order, so the whole GPU walks the footprint front
 *         to back, pass after pass: each line is read by ONE SM per pass and
 *         reused one footprint later (L2 hit while it fits, HBM beyond, with
 *         a sharp knee). Each warp folds its sum into one of
 *         HIER_SUM_GROUPS*32 counters (atomicAdd); the CPU recomputes every
 *         counter.
 *   wr_*  the same sweep with 16 B stores; every word is checked.
 */
#include <string.h>
#include "families/common/common.cuh"
#include "gpumem/result.h"
#include "families/common/hier_common.cuh"
#include "families/common/host_ref.h"
#include "families/common/hier_shapes.h"
#include "families/kernels.h"

struct hier_state {
	int mode, ver, stagger;
	int width;               /* bytes per load */
	long long passes;        /* hier_pass: whole passes over the footprint per launch */
	double launch_gb;        /* l1 pass kernels: about this many GB a launch */
	size_t footprint;        /* bytes per team */
	uint32_t n;              /* width-byte slots per team */
	unsigned grid;
	long long loads;         /* per thread, multiple of HIER_ILP */
	uint4 *buf;
	uint32_t *sums;          /* one per thread */
	unsigned *sms;           /* %smid of each block */
	struct hier_clock *clk;
	uint32_t seed;
	const struct gm_device_info *dev;
};

template <int MODE>
__global__ void __launch_bounds__(HIER_BLOCK, 2)
hier_kernel(uint4 *buf, uint32_t n, long long loads, uint32_t seed, uint32_t *sums, unsigned *sms,
	    struct hier_clock *clk)
{
	const bool per_block = MODE == HIER_L1_READ;
	const unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
	const unsigned long long T = per_block ? blockDim.x : (unsigned long long)gridDim.x * blockDim.x;
	uint4 *base = per_block ? buf + (size_t)blockIdx.x * n : buf;
	uint32_t pos = (uint32_t)((per_block ? threadIdx.x : g) % n), step = (uint32_t)(T % n);
	uint32_t acc[HIER_ILP] = { 0 };
	const bool timer = g == 0;

	hier_start(timer, clk, sms);
	/* (Unrolled whole passes with immediate offsets were slower on the H100:
	 * 15-32 TB/s against 30.8 TB/s for this loop; results/.../hierarchy/README.md.) */
	for (long long j = 0; j < loads; j += HIER_ILP) {
#pragma unroll
		for (int u = 0; u < HIER_ILP; u++) {
			uint4 v = MODE == HIER_L1_READ ? hier_ld_ca(base + pos) : hier_ld_cg(base + pos);
			acc[u] += v.x + v.y + v.z + v.w;
			pos += step;
			pos = pos >= n ? pos - n : pos;
		}
	}
	sums[g] = acc[0] + acc[1] + acc[2] + acc[3];
	hier_stop(timer, clk);
}


/*
 * l1 versions 2-8 and l2sh/l2stag: whole passes over n slots of V (n a
 * multiple of the block size; m = n / HIER_BLOCK loads per thread a pass).
 * Block b reads the buffer at buf + b * team (team = n: its own; team = 0:
 * the one all blocks share). Thread t reads slots t + HIER_BLOCK k, U loads a
 * step at immediate offsets from one pointer. When U divides m the passes
 * run as one flat loop whose pointer wraps to the start at a step boundary
 * (one compare and select per U loads); else pass by pass with the last
 * m mod U loads one by one. stagger: block b starts (b * m / U / grid) steps
 * into the pass (flat loop only), so blocks sharing a buffer do not read the
 * same line at the same moment. HINT: 0 ld.ca, 1 ld.cg, 2 ld.nc.
 */
template <int HINT, typename V>
static __device__ __forceinline__ V hier_ld(const V *p)
{
	if (HINT == 1)
		return hier_ld_cg(p);
	if (HINT == 2)
		return hier_ld_nc(p);
	return hier_ld_ca(p);
}

template <int HINT, typename V, int U>
__global__ void __launch_bounds__(HIER_BLOCK, 1)
hier_pass(const V *buf, uint32_t n, uint32_t team, long long passes, int stagger, uint32_t *sums, unsigned *sms,
	  struct hier_clock *clk)
{
	const V *p = buf + (size_t)blockIdx.x * team + threadIdx.x;
	const V *end = p + n;
	const uint32_t m = n / HIER_BLOCK;
	uint32_t a[4] = { 0, 0, 0, 0 };
	const bool timer = blockIdx.x == 0 && threadIdx.x == 0;

	hier_start(timer, clk, sms);
	if (m % U == 0) {
		const V *q = p;
		const uint32_t steps = (uint32_t)(passes * (m / U));
		if (stagger)
			q += (size_t)((unsigned long long)blockIdx.x * (m / U) / gridDim.x) * U * HIER_BLOCK;
		for (uint32_t j = 0; j < steps; j++) {
			V v[U];
#pragma unroll
			for (int u = 0; u < U; u++)
				v[u] = hier_ld<HINT>(q + u * HIER_BLOCK);
#pragma unroll
			for (int u = 0; u < U; u++)
				a[u & 3] += hier_fold(v[u]);
			q += U * HIER_BLOCK;
			q = q == end ? p : q;
		}
	} else {
		for (long long k = 0; k < passes; k++) {
			const V *q = p;
			for (; q + (U - 1) * HIER_BLOCK < end; q += U * HIER_BLOCK) {
				V v[U];
#pragma unroll
				for (int u = 0; u < U; u++)
					v[u] = hier_ld<HINT>(q + u * HIER_BLOCK);
#pragma unroll
				for (int u = 0; u < U; u++)
					a[u & 3] += hier_fold(v[u]);
			}
			for (; q < end; q += HIER_BLOCK)
				a[0] += hier_fold(hier_ld<HINT>(q));
		}
	}
	sums[blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x] = a[0] + a[1] + a[2] + a[3];
	hier_stop(timer, clk);
}

/*
 * l1 version 9: hier_pass's flat loop (ld.ca, U loads a step, one wrap per
 * step) with the position a 32-bit byte offset o into the block's own buffer
 * instead of a 64-bit pointer: the wrap is one add, one 32-bit compare and one
 * select a step (v6: a 64-bit add, compare and two selects), the address one
 * 64-bit add of o to the base. Thread t starts at byte t * sizeof(V); after a
 * whole pass o comes back to bytes + t * sizeof(V) and wraps to the start.
 * Needs U to divide m = n / HIER_BLOCK and the buffer under 4 GiB (prepare).
 */
template <typename V, int U>
__global__ void __launch_bounds__(HIER_BLOCK, 1)
hier_flat(const V *buf, uint32_t n, long long passes, uint32_t *sums, unsigned *sms, struct hier_clock *clk)
{
	const char *base = (const char *)(buf + (size_t)blockIdx.x * n);
	const uint32_t stride = HIER_BLOCK * (uint32_t)sizeof(V), first = threadIdx.x * (uint32_t)sizeof(V);
	const uint32_t wrap = n * (uint32_t)sizeof(V) + first;
	const uint32_t steps = (uint32_t)(passes * (n / HIER_BLOCK / U));
	uint32_t o = first, a[4] = { 0, 0, 0, 0 };
	const bool timer = blockIdx.x == 0 && threadIdx.x == 0;

	hier_start(timer, clk, sms);
	for (uint32_t j = 0; j < steps; j++) {
		V v[U];
#pragma unroll
		for (int u = 0; u < U; u++)
			v[u] = hier_ld_ca((const V *)(base + o + u * stride));
#pragma unroll
		for (int u = 0; u < U; u++)
			a[u & 3] += hier_fold(v[u]);
		o += U * stride;
		o = o == wrap ? first : o;
	}
	sums[blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x] = a[0] + a[1] + a[2] + a[3];
	hier_stop(timer, clk);
}

#define HIER_V9_U 8 /* loads a step of version 9 */

template <int HINT, typename V, int U>
static void pass_launch(const struct hier_state *s, uint32_t team, int stagger)
{
	hier_pass<HINT, V, U><<<s->grid, HIER_BLOCK, 0, gm_stream()>>>((const V *)s->buf, s->n, team, s->passes, stagger,
									  s->sums, s->sms, s->clk);
}

/* l1 versions: 2-4 ld.ca 16/8/4 B, 4 a step; 5 ld.nc 16 B; 6 ld.ca 8 B, 8 a step; 7 ld.nc 4 B, 8 a step; 8 ld.ca 16 B, 8 a step;
 * 9 ld.ca 8 B, 8 a step, 32-bit offset */
static const void *hier_l1_func(int ver)
{
	switch (ver) {
	case 2: return (const void *)hier_pass<0, uint4, 4>;
	case 3: return (const void *)hier_pass<0, uint2, 4>;
	case 4: return (const void *)hier_pass<0, uint32_t, 4>;
	case 5: return (const void *)hier_pass<2, uint4, 4>;
	case 6: return (const void *)hier_pass<0, uint2, 8>;
	case 7: return (const void *)hier_pass<2, uint32_t, 8>;
	case 8: return (const void *)hier_pass<0, uint4, 8>;
	case 9: return (const void *)hier_flat<uint2, HIER_V9_U>;
	default: return (const void *)hier_kernel<HIER_L1_READ>;
	}
}

static int hier_l1_width(int ver)
{
	return ver == 3 || ver == 6 || ver == 9 ? 8 : ver == 4 || ver == 7 ? 4 : 16;
}

/* l2/wr: block B handles chunks (B*HIER_ILP + u) mod nch, u < HIER_ILP (nch >= HIER_ILP). */
template <int MODE>
__global__ void __launch_bounds__(HIER_BLOCK, 2)
hier_sweep(uint4 *buf, uint32_t nch, uint32_t seed, uint32_t *sums)
{
	const uint32_t c0 = (uint32_t)(((unsigned long long)blockIdx.x * HIER_ILP) % nch);
	uint32_t acc = 0;

#pragma unroll
	for (int u = 0; u < HIER_ILP; u++) {
		uint32_t c = c0 + u;
		c = c >= nch ? c - nch : c;
		const size_t slot = (size_t)c * HIER_BLOCK + threadIdx.x;
		if (MODE == HIER_WRITE) {
			uint32_t w = (uint32_t)(4 * slot);
			hier_st(buf + slot, make_uint4(seed ^ w, seed ^ (w + 1), seed ^ (w + 2), seed ^ (w + 3)));
		} else {
			uint4 v = hier_ld_cg(buf + slot);
			acc += v.x + v.y + v.z + v.w;
		}
	}
	if (MODE != HIER_WRITE) {
#pragma unroll
		for (int o = 16; o > 0; o >>= 1)
			acc += __shfl_xor_sync(0xffffffffu, acc, o);
		if ((threadIdx.x & 31) == 0)
			atomicAdd(&sums[(blockIdx.x % HIER_SUM_GROUPS) * 32 + threadIdx.x / 32], acc);
	}
}

static gm_status hier_launch(void *state)
{
	struct hier_state *s = (struct hier_state *)state;

	switch (s->mode) {
	case HIER_L2_SHARED:
		pass_launch<1, uint4, 4>(s, 0, s->stagger);
		break;
	case HIER_L1_READ:
		switch (s->ver) {
		case 2: pass_launch<0, uint4, 4>(s, s->n, 0); break;
		case 3: pass_launch<0, uint2, 4>(s, s->n, 0); break;
		case 4: pass_launch<0, uint32_t, 4>(s, s->n, 0); break;
		case 5: pass_launch<2, uint4, 4>(s, s->n, 0); break;
		case 6: pass_launch<0, uint2, 8>(s, s->n, 0); break;
		case 7: pass_launch<2, uint32_t, 8>(s, s->n, 0); break;
		case 8: pass_launch<0, uint4, 8>(s, s->n, 0); break;
		case 9:
			hier_flat<uint2, HIER_V9_U><<<s->grid, HIER_BLOCK, 0, gm_stream()>>>((const uint2 *)s->buf, s->n,
											    s->passes, s->sums, s->sms, s->clk);
			break;
		default:
			hier_kernel<HIER_L1_READ><<<s->grid, HIER_BLOCK, 0, gm_stream()>>>(s->buf, s->n, s->loads, s->seed,
											   s->sums, s->sms, s->clk);
		}
		break;
	case HIER_L2_READ:
		hier_sweep<HIER_L2_READ><<<s->grid, HIER_BLOCK, 0, gm_stream()>>>(s->buf, s->n / HIER_BLOCK, s->seed,
										   s->sums);
		break;
	default:
		hier_sweep<HIER_WRITE><<<s->grid, HIER_BLOCK, 0, gm_stream()>>>(s->buf, s->n / HIER_BLOCK, s->seed,
										 s->sums);
	}
	GM_CU_LAUNCH();
	return GM_OK;
}

static void hier_release(void *state)
{
	struct hier_state *s = (struct hier_state *)state;

	if (!s)
		return;
	/* the carve-out preference belongs to the kernel: put the default back */
	if (s->mode == HIER_L1_READ)
		cudaFuncSetAttribute(hier_l1_func(s->ver), cudaFuncAttributePreferredSharedMemoryCarveout,
				     cudaSharedmemCarveoutDefault);
	gm_gpu_free(s->buf);
	gm_gpu_free(s->sums);
	gm_gpu_free(s->sms);
	gm_gpu_free(s->clk);
	free(s);
}

/* Whole passes per launch: about `bytes` read by grid blocks of footprint each, at least one. */
static long long hier_passes(double bytes, unsigned grid, size_t footprint)
{
	long long p = (long long)(bytes / ((double)grid * (double)footprint) + 0.5);
	return p < 1 ? 1 : p;
}

static gm_status hier_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			      struct gm_traffic *t)
{
	struct hier_state *s = (struct hier_state *)calloc(1, sizeof(*s));
	size_t threads, total, sums_bytes;
	int pass_kernel;
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	*state = s;
	s->dev = cfg->dev;
	s->seed = cfg->seed;
	s->mode = (int)gm_case_param(c, "mode", 0);
	s->ver = (int)gm_case_param(c, "ver", s->mode == HIER_L1_READ ? HIER_L1_VER : 0);
	s->footprint = (size_t)gm_case_param(c, "footprint", 1 << 20);
	if (s->mode < HIER_L1_READ || s->mode > HIER_L2_SHARED || (s->mode == HIER_L1_READ && (s->ver < 1 || s->ver > HIER_L1_VERS)))
		return gm_fail(GM_ERR_INVALID_ARG, "mode %d, version %d: modes 0-3, l1 versions 1-%d", s->mode, s->ver,
			       HIER_L1_VERS);
	pass_kernel = s->mode == HIER_L2_SHARED || (s->mode == HIER_L1_READ && s->ver >= 2);
	s->width = s->mode == HIER_L1_READ ? hier_l1_width(s->ver) : 16;
	s->stagger = (int)gm_case_param(c, "stagger", 0);
	s->launch_gb = (double)gm_case_param(c, "launch_gb", HIER_L1_LAUNCH_GB);
	if (s->mode == HIER_L1_READ && (s->launch_gb < 1 || s->launch_gb > 4096))
		return gm_fail(GM_ERR_INVALID_ARG, "launch_gb %.0f: 1 to 4096 GB a launch", s->launch_gb);
	if (s->footprint < 16 * 1024 || s->footprint % 16 || s->footprint / 16 > UINT32_MAX / 8)
		return gm_fail(GM_ERR_INVALID_ARG, "footprint %zu B: must be a multiple of 16 B from 16 KiB to 32 GiB",
			       s->footprint);
	s->n = (uint32_t)(s->footprint / s->width);
	if ((s->mode != HIER_L1_READ || pass_kernel) && s->n % HIER_BLOCK)
		return gm_fail(GM_ERR_INVALID_ARG, "footprint %zu B: must be a multiple of %d KiB", s->footprint,
			       HIER_BLOCK * s->width / 1024);
	if (s->mode == HIER_L1_READ && s->ver == 9 &&
	    (s->n / HIER_BLOCK % HIER_V9_U || s->footprint + (size_t)HIER_BLOCK * 8 > UINT32_MAX))
		return gm_fail(GM_ERR_INVALID_ARG, "footprint %zu B: version 9 needs a multiple of %d KiB under 4 GiB",
			       s->footprint, HIER_BLOCK * 8 * HIER_V9_U / 1024);
	if ((s->mode == HIER_L2_READ || s->mode == HIER_WRITE) && s->n / HIER_BLOCK < HIER_ILP)
		return gm_fail(GM_ERR_INVALID_ARG, "footprint %zu B: must be at least %d KiB", s->footprint,
			       HIER_BLOCK * 16 * HIER_ILP / 1024);
	if (s->mode == HIER_L1_READ || s->mode == HIER_L2_SHARED) {
		s->grid = (unsigned)cfg->dev->sm_count;
		threads = (size_t)s->grid * HIER_BLOCK;
		total = s->mode == HIER_L1_READ ? s->footprint * s->grid : s->footprint;
		sums_bytes = threads * 4;
		if (pass_kernel) {
			/* about 2 ms per launch at L1 (launch_gb, 64 GB) or 0.5-1 ms at L2 (8 GB) bandwidth, whole passes */
			s->passes = hier_passes(s->mode == HIER_L1_READ ? s->launch_gb * 1e9 : 8e9, s->grid, s->footprint);
			if (cfg->sanitize) /* run --sanitize: one whole pass */
				s->passes = 1;
			if (s->stagger && s->n / HIER_BLOCK % 4)
				return gm_fail(GM_ERR_INVALID_ARG, "footprint %zu B: staggered blocks need a multiple of %d KiB",
					       s->footprint, 4 * HIER_BLOCK * 16 / 1024);
			t->bytes_useful = (double)s->grid * (double)s->passes * (double)s->footprint;
		} else {
			s->loads = (long long)(16e9 / (16.0 * threads));
			s->loads = (s->loads + HIER_ILP - 1) / HIER_ILP * HIER_ILP;
			if (cfg->sanitize) /* run --sanitize: past the end of the footprint once (the wrap) */
				s->loads = ((long long)s->n / HIER_BLOCK + 2 * HIER_ILP) / HIER_ILP * HIER_ILP;
			t->bytes_useful = 16.0 * (double)threads * (double)s->loads;
		}
	} else {
		/* about a millisecond per launch at L2 bandwidth, at least one whole pass */
		double chunks = (s->mode == HIER_L2_READ ? 8e9 : 4e9) / (16.0 * HIER_BLOCK);
		unsigned nch = s->n / HIER_BLOCK;
		if (chunks < nch + HIER_ILP || cfg->sanitize) /* run --sanitize: one pass and the wrap */
			chunks = nch + HIER_ILP;
		s->grid = (unsigned)(chunks / HIER_ILP);
		threads = (size_t)s->grid * HIER_BLOCK;
		total = s->footprint;
		s->loads = HIER_ILP;
		sums_bytes = (size_t)HIER_SUM_GROUPS * 32 * 4;
		t->bytes_useful = 16.0 * (double)threads * (double)s->loads;
	}
	if ((st = gm_gpu_alloc((void **)&s->buf, total)) || (st = gm_gpu_alloc((void **)&s->sums, sums_bytes)) ||
	    (st = gm_gpu_alloc((void **)&s->sms, s->grid * sizeof(unsigned))) ||
	    (st = gm_gpu_alloc((void **)&s->clk, sizeof(struct hier_clock))))
		return st;
	if (s->mode == HIER_L1_READ)
		GM_CU(cudaFuncSetAttribute(hier_l1_func(s->ver), cudaFuncAttributePreferredSharedMemoryCarveout,
					   cudaSharedmemCarveoutMaxL1));
	if (s->mode != HIER_WRITE && (st = gm_fill_random((uint32_t *)s->buf, total / 4, s->seed)))
		return st;
	t->bytes_hw = t->bytes_useful;
	t->working_set = (int64_t)total;
	return GM_OK;
}

/*
 * l1 and l2sh: each block (team) read a known multiset of its buffer's words:
 * the first W words of the buffer taken cyclically, W = words it loaded
 * (version 1: slots (t + 1024 k) mod n for every thread t and k < loads, that
 * is slots {m mod n : m < 1024 loads}; pass kernels: whole passes). Its
 * threads' sums must add up to that multiset's sum.
 */
static gm_status verify_reads(struct hier_state *s, char *why, size_t n)
{
	size_t threads = (size_t)s->grid * HIER_BLOCK;
	const int teams = (int)s->grid, shared = s->mode == HIER_L2_SHARED;
	const uint64_t nwords = s->footprint / 4;
	const unsigned long long team_words = s->passes ? (unsigned long long)s->passes * nwords
							: (unsigned long long)HIER_BLOCK * s->loads * 4;
	const int nsums = shared ? 1 : teams;   /* shared: every team read the one buffer */
	uint32_t *h = (uint32_t *)malloc(threads * 4), *whole = (uint32_t *)malloc((size_t)nsums * 4),
		 *part = (uint32_t *)malloc((size_t)nsums * 4);
	gm_status st = GM_OK;
	cudaError_t e;

	if (!h || !whole || !part) {
		st = GM_ERR_NOMEM;
		goto out;
	}
	if ((e = cudaMemcpy(h, s->sums, threads * 4, cudaMemcpyDeviceToHost)) != cudaSuccess) {
		st = gm_cuda_status(e, "cudaMemcpy(checksums)", __FILE__, __LINE__);
		goto out;
	}
	/* each team's buffer whole, and its first team_words % nwords words, on every core */
	gm_hash_sums(s->seed, 0, nwords, nwords, (size_t)nsums, whole);
	gm_hash_sums(s->seed, 0, nwords, team_words % nwords, (size_t)nsums, part);
	for (int b = 0; b < teams; b++) {
		int k = shared ? 0 : b;
		uint32_t got = 0, want = (uint32_t)(team_words / nwords) * whole[k] + part[k];
		for (size_t i = 0; i < HIER_BLOCK; i++)
			got += h[(size_t)b * HIER_BLOCK + i];
		if (got != want) {
			snprintf(why, n, "checksum of block %d is 0x%08x, expected 0x%08x", b, got, want);
			st = gm_fail(GM_ERR_VALIDATION, "%s", why);
			break;
		}
	}
out:
	free(h);
	free(whole);
	free(part);
	return st;
}

struct hier_written {
	uint32_t seed;
	__host__ __device__ uint32_t operator()(size_t w) const { return seed ^ (uint32_t)w; }
};

/* l2: recompute every counter: warp w of block B folded its 32 slots of each of its chunks. */
static gm_status verify_sweep(struct hier_state *s, char *why, size_t n)
{
	const uint32_t nch = s->n / HIER_BLOCK, ncnt = HIER_SUM_GROUPS * 32;
	uint32_t *ws = (uint32_t *)malloc((size_t)nch * 32 * 4), *want = (uint32_t *)calloc(ncnt, 4),
		 *got = (uint32_t *)malloc(ncnt * 4);
	gm_status st = GM_OK;
	cudaError_t e;

	if (!ws || !want || !got) {
		st = GM_ERR_NOMEM;
		goto out;
	}
	/* warp w of chunk c: the 32 16 B slots from c * HIER_BLOCK + 32 w, that is words 128 (32 c + w) on, 128 of
	   them (HIER_BLOCK = 1024 = 32 x 32 slots): every core */
	static_assert(HIER_BLOCK == 32 * 32, "a chunk is 32 warps of 32 slots");
	gm_hash_sums(s->seed, 0, 128, 128, (size_t)nch * 32, ws);
	for (unsigned b = 0; b < s->grid; b++) {
		uint32_t c0 = (uint32_t)(((unsigned long long)b * HIER_ILP) % nch);
		for (uint32_t w = 0; w < 32; w++)
			for (int u = 0; u < HIER_ILP; u++) {
				uint32_t c = c0 + u >= nch ? c0 + u - nch : c0 + u;
				want[(b % HIER_SUM_GROUPS) * 32 + w] += ws[c * 32 + w];
			}
	}
	if ((e = cudaMemcpy(got, s->sums, ncnt * 4, cudaMemcpyDeviceToHost)) != cudaSuccess) {
		st = gm_cuda_status(e, "cudaMemcpy(checksums)", __FILE__, __LINE__);
		goto out;
	}
	for (uint32_t i = 0; i < ncnt; i++)
		if (got[i] != want[i]) {
			snprintf(why, n, "checksum %u (block group %u, warp %u) is 0x%08x, expected 0x%08x", i, i / 32,
				 i % 32, got[i], want[i]);
			st = gm_fail(GM_ERR_VALIDATION, "%s", why);
			break;
		}
out:
	free(ws);
	free(want);
	free(got);
	return st;
}

static gm_status hier_verify(void *state, char *why, size_t n)
{
	struct hier_state *s = (struct hier_state *)state;
	gm_status st;

	if ((s->mode == HIER_L1_READ || s->mode == HIER_L2_SHARED) &&
	    (st = gm_poison(s->sums, (size_t)s->grid * HIER_BLOCK * 4)))
		return st;
	if (s->mode == HIER_L2_READ)
		GM_CU(cudaMemsetAsync(s->sums, 0, (size_t)HIER_SUM_GROUPS * 32 * 4, gm_stream()));
	if (s->mode == HIER_WRITE && (st = gm_poison(s->buf, s->footprint)))
		return st;
	if ((st = hier_launch(s)))
		return st;
	GM_CU(cudaStreamSynchronize(gm_stream()));
	if (s->mode == HIER_L1_READ || s->mode == HIER_L2_SHARED)
		return verify_reads(s, why, n);
	if (s->mode == HIER_L2_READ)
		return verify_sweep(s, why, n);
	hier_written want = { s->seed };
	return gm_validate((const uint32_t *)s->buf, s->footprint / 4, want, s->seed, s->dev, why, n);
}

/* The SM clock during the last launch, and how many blocks shared an SM (l1: must be 1). */
static void hier_annotate(void *state, struct gm_case_result *cr)
{
	struct hier_state *s = (struct hier_state *)state;
	struct hier_clock k;
	unsigned *sms = (unsigned *)calloc(s->grid, sizeof(unsigned));
	int most = 0;

	if (s->mode != HIER_L1_READ && s->mode != HIER_L2_SHARED) {
		free(sms);
		return;
	}
	if (cudaMemcpy(&k, s->clk, sizeof(k), cudaMemcpyDeviceToHost) == cudaSuccess) {
		/* block 0's own rate: the bytes it read over the SM cycles it ran (no launch gaps, ramp or
		 * tail of other blocks in it; against 128 B/clk for an SM's L1) */
		double bytes = s->passes ? (double)s->passes * (double)s->footprint : 16.0 * HIER_BLOCK * (double)s->loads;
		gm_result_note(cr, "sm_clock_mhz", GM_UNIT_RATIO, hier_clock_mhz(&k));
		if (k.c1 > k.c0)
			gm_result_note(cr, "block0_bytes_per_clk", GM_UNIT_RATIO, bytes / (double)(k.c1 - k.c0));
	}
	if (sms && cudaMemcpy(sms, s->sms, s->grid * sizeof(unsigned), cudaMemcpyDeviceToHost) == cudaSuccess) {
		for (unsigned i = 0; i < s->grid; i++) {
			int same = 0;
			for (unsigned j = 0; j < s->grid; j++)
				same += sms[j] == sms[i];
			most = same > most ? same : most;
		}
		gm_result_note(cr, "max_blocks_per_sm", GM_UNIT_RATIO, most);
	}
	free(sms);
}

static gm_status hier_supported(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n)
{
	int64_t fp = gm_case_param(c, "footprint", 0);
	int64_t need = gm_case_param(c, "mode", 0) == HIER_L1_READ ? fp * cfg->dev->sm_count : fp;

	if (cfg->dev->total_mem > 0 && need > cfg->dev->total_mem / 2) {
		snprintf(why, n, "footprint %lld B exceeds half the device memory (%lld B)", (long long)need,
			 (long long)cfg->dev->total_mem);
		return GM_ERR_UNSUPPORTED;
	}
	return GM_OK;
}

static const struct gm_family_ops hier_ops = { hier_prepare, hier_launch, hier_verify, hier_release,
					       hier_supported, NULL, hier_annotate };

extern "C" const struct gm_family_ops *gm_hierarchy_ops(void)
{
	return &hier_ops;
}
