/*
 * latency.cu - dependent pointer chases (gpumem run latency).
 *
 * One thread on one SM (every launch runs on the SM where block 0 of the
 * first launch ran: the other blocks exit, so near/far lines stay near/far)
 * chases 64-bit pointers stored at the start of stride-sized slots, linked
 * in a random single cycle (Sattolo). A sample: optional warm pass over the
 * whole cycle, then `steps` timed loads between clock64/%globaltimer reads;
 * cycles/steps, ns/steps and the clock (cycles/ns) come back to the runner.
 * The chase continues where the last sample stopped; the host walks the same
 * permutation and every sample's final pointer must equal the host's.
 *   l1_*    ld.global.ca, warm: L1 hits.
 *   l2_*    ld.global.cg, warm: L2 hits. A warm pass leaves every line in the
 *           L2 half next to the chasing SM (H100 keeps a copy of far lines
 *           in the near half), so l2_near/l2_far first rewrite every link
 *           (a kernel on all SMs: the lines are then only in their home
 *           half) and chase without a warm pass, each line once per sample,
 *           over only the lines a probe (each line timed once the same way,
 *           split in two clusters) found fast (home near) or slow (home far).
 *   hbm_*   cold: L2 flushed (memset of 2.5x L2) before each sample, no warm
 *           pass, never a line twice.
 *   tlb*_*  2, 32 or 512 MiB (or 64 KiB) strides, one access per page,
 *           over footprints up to most of the device memory (footprint 0:
 *           90 % of the free memory), warm: the data stays in L2, so a step
 *           is a TLB miss. Strides of 64 KiB and more place slot i
 *           ((97 i) mod 256) lines into its stride (lat_off), so the few
 *           lines of a large power-of-two stride do not share L2 sets.
 */
#include <string.h>
#include "families/common/common.cuh"
#include "gpumem/result.h"
#include "families/common/hier_common.cuh"
#include "families/common/hier_shapes.h"
#include "families/kernels.h"

#define LAT_STEPS 4096
#define LAT_PROBE_BLOCKS 2

struct lat_dev {
	unsigned long long cur;       /* pointer where the chase stands */
	unsigned long long cycles, ns;
	unsigned smid;
	int won;
	int claim;
};

struct lat_state {
	size_t footprint, stride, nslots;
	int hint, select, cold, skew;
	char *buf;
	struct lat_dev *d;
	void *flush;
	size_t flush_bytes;
	void *links;                  /* device: offsets and targets of the cycle, for rewriting it */
	uint32_t nlinks;
	uint32_t *next;               /* host: next slot of each slot in the cycle (UINT32_MAX: not in it) */
	uint32_t start, cur, ncycle;  /* host position of the chase */
	unsigned target;              /* SM every chase runs on */
	double probe_near, probe_far, near_share;
	const struct gm_device_info *dev;
};

/*
 * Byte offset of a slot. With skew (strides of 64 KiB and more), slot i sits
 * ((97 i) mod 256) lines into its stride: still one access per page, but the
 * lines of large power-of-two strides spread over the L2 sets instead of
 * sharing a few (which would read as misses of a TLB level).
 */
static inline unsigned long long lat_off(const struct lat_state *s, size_t slot)
{
	return (unsigned long long)slot * s->stride + (s->skew ? ((97ull * slot) & 255) * 128 : 0);
}

template <int HINT>
static __device__ __forceinline__ unsigned long long chase_ld(unsigned long long p)
{
	unsigned long long v;
	if (HINT == LAT_HINT_CA)
		asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p));
	else
		asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p));
	return v;
}

/* true for the one thread that runs: lane 0 of the first block to reach the target SM */
static __device__ __forceinline__ bool lat_winner(struct lat_dev *d, unsigned target)
{
	return threadIdx.x == 0 && hier_smid() == target && atomicCAS(&d->claim, 0, 1) == 0;
}

template <int HINT>
__global__ void lat_chase(struct lat_dev *d, unsigned target, unsigned warm, unsigned steps)
{
	unsigned long long p, c0, c1, t0, t1;

	if (!lat_winner(d, target))
		return;
	p = d->cur;
	for (unsigned i = 0; i < warm; i++)
		p = chase_ld<HINT>(p);
	t0 = hier_globaltimer();
	c0 = hier_clock64();
#pragma unroll 8
	for (unsigned i = 0; i < steps; i++)
		p = chase_ld<HINT>(p);
	d->cur = p;              /* waits for the last load before the clocks are read */
	c1 = hier_clock64();
	t1 = hier_globaltimer();
	d->cycles = c1 - c0;
	d->ns = t1 - t0;
	d->won = 1;
}

/* Time each of n lines once (after a warm pass when warm), chasing them in order. */
__global__ void lat_probe(struct lat_dev *d, unsigned target, unsigned n, unsigned *lat, int warm)
{
	__shared__ unsigned long long keep[32];
	unsigned long long p, c0;

	if (!lat_winner(d, target))
		return;
	p = d->cur;
	for (unsigned i = 0; warm && i < n; i++)
		p = chase_ld<LAT_HINT_CG>(p);
	for (unsigned i = 0; i < n; i++) {
		c0 = hier_clock64();
		p = chase_ld<LAT_HINT_CG>(p);
		keep[i & 31] = p;        /* the store waits for the load */
		lat[i] = (unsigned)(hier_clock64() - c0);
	}
	d->cur = keep[(n - 1) & 31];
	d->won = 1;
}

__global__ void lat_where(unsigned *smid)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		*smid = hier_smid();
}

/* Write the pointer of each listed slot: *(base + off[i]) = base + to[i]. */
__global__ void lat_scatter(char *base, const unsigned long long *off, const unsigned long long *to, size_t n)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < n)
		*(unsigned long long *)(base + off[i]) = (unsigned long long)(base + to[i]);
}

static uint64_t lat_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Link the listed slots into one random cycle (Sattolo) on the device and in s->next. */
static gm_status lat_link(struct lat_state *s, uint32_t *slots, uint32_t n, uint32_t seed)
{
	uint64_t r = 0x9E3779B97F4A7C15ull ^ seed;
	unsigned long long *off = (unsigned long long *)malloc(n * sizeof(*off) * 2), *to = off + n;
	void *d_off = NULL;
	gm_status st = GM_OK;

	if (!off)
		return GM_ERR_NOMEM;
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(lat_rand(&r) % i), t = slots[i];
		slots[i] = slots[j];
		slots[j] = t;
	}
	for (size_t i = 0; i < s->nslots; i++)
		s->next[i] = UINT32_MAX;
	for (uint32_t i = 0; i < n; i++) {
		s->next[slots[i]] = slots[(i + 1) % n];
		off[i] = lat_off(s, slots[i]);
		to[i] = lat_off(s, slots[(i + 1) % n]);
	}
	s->start = s->cur = slots[0];
	s->ncycle = n;
	if (!(st = gm_gpu_alloc(&d_off, n * sizeof(*off) * 2))) {
		/* on the harness stream: a plain cudaMemcpy from pageable memory may return before its
		 * DMA lands, and the non-blocking harness stream would not wait for it */
		cudaError_t e = cudaMemcpyAsync(d_off, off, n * sizeof(*off) * 2, cudaMemcpyHostToDevice, gm_stream());
		if (e == cudaSuccess) {
			lat_scatter<<<gm_blocks_for(n, 256), 256, 0, gm_stream()>>>(
				s->buf, (unsigned long long *)d_off, (unsigned long long *)d_off + n, n);
			e = cudaGetLastError();
		}
		if (e == cudaSuccess)
			e = cudaStreamSynchronize(gm_stream());
		if (e != cudaSuccess)
			st = gm_cuda_status(e, "lat_scatter", __FILE__, __LINE__);
	}
	if (!st) {
		s->links = d_off;
		s->nlinks = n;
	} else {
		gm_gpu_free(d_off);
	}
	free(off);
	return st;
}

/* Write every link of the cycle again (same values), from all SMs: no L2 half keeps a stale copy. */
static gm_status lat_relink(struct lat_state *s)
{
	unsigned long long *d = (unsigned long long *)s->links;

	lat_scatter<<<gm_blocks_for(s->nlinks, 256), 256, 0, gm_stream()>>>(s->buf, d, d + s->nlinks, s->nlinks);
	GM_CU_LAUNCH();
	return GM_OK;
}

static gm_status lat_run(struct lat_state *s, unsigned warm, unsigned steps, struct lat_dev *out)
{
	struct lat_dev h;

	memset(&h, 0, sizeof(h));
	h.cur = (unsigned long long)(s->buf + lat_off(s, s->cur));
	GM_CU(cudaMemcpyAsync(s->d, &h, sizeof(h), cudaMemcpyHostToDevice, gm_stream()));
	if (s->hint == LAT_HINT_CA)
		lat_chase<LAT_HINT_CA><<<2 * s->dev->sm_count, 32, 0, gm_stream()>>>(s->d, s->target, warm, steps);
	else
		lat_chase<LAT_HINT_CG><<<2 * s->dev->sm_count, 32, 0, gm_stream()>>>(s->d, s->target, warm, steps);
	GM_CU_LAUNCH();
	GM_CU(cudaMemcpyAsync(out, s->d, sizeof(*out), cudaMemcpyDeviceToHost, gm_stream()));
	GM_CU(cudaStreamSynchronize(gm_stream()));
	if (!out->won)
		return gm_fail(GM_ERR_CUDA, "no block of the chase ran on SM %u", s->target);
	return GM_OK;
}

/* Host walk: where the chase must stand after k more loads. */
static gm_status lat_expect(struct lat_state *s, unsigned long long k, const struct lat_dev *got, char *why, size_t n)
{
	uint32_t p = s->cur;
	unsigned long long want;

	for (unsigned long long i = 0; i < k; i++)
		p = s->next[p];
	want = (unsigned long long)(s->buf + lat_off(s, p));
	if (got->cur != want) {
		snprintf(why, n, "chase ended at %#llx, expected slot %u (%#llx)", got->cur, p, want);
		return gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	s->cur = p;
	return GM_OK;
}

/* Two clusters of probe latencies (1-D k-means); near = the lower. */
static void lat_split(const unsigned *lat, uint32_t n, double *lo, double *hi, double *thr)
{
	double a = 1e30, b = 0;

	for (uint32_t i = 0; i < n; i++) {
		a = lat[i] < a ? lat[i] : a;
		b = lat[i] > b ? lat[i] : b;
	}
	for (int it = 0; it < 30; it++) {
		double t = 0.5 * (a + b), sa = 0, sb = 0;
		uint32_t na = 0, nb = 0;
		for (uint32_t i = 0; i < n; i++) {
			if (lat[i] < t) {
				sa += lat[i];
				na++;
			} else {
				sb += lat[i];
				nb++;
			}
		}
		a = na ? sa / na : a;
		b = nb ? sb / nb : b;
	}
	*lo = a;
	*hi = b;
	*thr = 0.5 * (a + b);
}

/* Probe every line once from the target SM, then keep the near or far ones in *slots. */
static gm_status lat_classify(struct lat_state *s, uint32_t *slots, uint32_t *n, uint32_t seed)
{
	unsigned *d_lat = NULL, *lat = (unsigned *)malloc(s->nslots * sizeof(unsigned));
	struct lat_dev h;
	gm_status st;
	double thr;
	uint32_t k = 0, near = 0;

	if (!lat)
		return GM_ERR_NOMEM;
	for (uint32_t i = 0; i < s->nslots; i++)
		slots[i] = i;
	/* in-order cycle for the probe */
	st = gm_gpu_alloc((void **)&d_lat, s->nslots * sizeof(unsigned));
	if (!st) {
		for (size_t i = 0; i < s->nslots; i++)
			s->next[i] = (uint32_t)((i + 1) % s->nslots);
		unsigned long long *off = (unsigned long long *)malloc(s->nslots * 16);
		void *d_off = NULL;
		const char *what = "cudaMemcpyAsync (the probe's links)";
		cudaError_t e = cudaSuccess;

		if (!off)
			st = GM_ERR_NOMEM;
		for (size_t i = 0; !st && i < s->nslots; i++) {
			off[i] = lat_off(s, i);
			off[s->nslots + i] = lat_off(s, (i + 1) % s->nslots);
		}
		if (!st)
			st = gm_gpu_alloc(&d_off, s->nslots * 16);
		if (!st && (e = cudaMemcpyAsync(d_off, off, s->nslots * 16, cudaMemcpyHostToDevice, gm_stream())) != cudaSuccess)
			st = gm_cuda_status(e, what, __FILE__, __LINE__);
		if (!st) {
			lat_scatter<<<gm_blocks_for(s->nslots, 256), 256, 0, gm_stream()>>>(
				s->buf, (unsigned long long *)d_off, (unsigned long long *)d_off + s->nslots, s->nslots);
			memset(&h, 0, sizeof(h));
			h.cur = (unsigned long long)s->buf;
			what = "lat_scatter launch";
			if ((e = cudaGetLastError()) == cudaSuccess && (what = "cudaMemcpyAsync (the probe's head)") != NULL)
				e = cudaMemcpyAsync(s->d, &h, sizeof(h), cudaMemcpyHostToDevice, gm_stream());
			if (e != cudaSuccess)
				st = gm_cuda_status(e, what, __FILE__, __LINE__);
		}
		if (!st) {
			lat_probe<<<2 * s->dev->sm_count, 32, 0, gm_stream()>>>(s->d, s->target, (unsigned)s->nslots, d_lat, 0);
			what = "lat_probe launch";
			if ((e = cudaGetLastError()) == cudaSuccess && (what = "cudaStreamSynchronize (lat_probe)") != NULL)
				e = cudaStreamSynchronize(gm_stream());
			if (e == cudaSuccess && (what = "cudaMemcpy (the probe's latencies)") != NULL)
				e = cudaMemcpy(lat, d_lat, s->nslots * 4, cudaMemcpyDeviceToHost);
			if (e == cudaSuccess && (what = "cudaMemcpy (the probe's head)") != NULL)
				e = cudaMemcpy(&h, s->d, sizeof(h), cudaMemcpyDeviceToHost);
			if (e != cudaSuccess)
				st = gm_cuda_status(e, what, __FILE__, __LINE__);
			else if (!h.won)
				st = gm_fail(GM_ERR_CUDA, "no block of the probe ran on SM %u", s->target);
		}
		gm_gpu_free(d_off);
		free(off);
	}
	if (!st) {
		lat_split(lat, (uint32_t)s->nslots, &s->probe_near, &s->probe_far, &thr);
		for (uint32_t i = 0; i < s->nslots; i++) {
			int is_near = lat[i] < thr;
			near += is_near;
			if (is_near == (s->select == LAT_NEAR))
				slots[k++] = i;
		}
		s->near_share = (double)near / (double)s->nslots;
		if (k < 64)
			st = gm_fail(GM_ERR_UNSUPPORTED, "probe found only %u %s lines", k,
				     s->select == LAT_NEAR ? "near" : "far");
	}
	*n = k;
	(void)seed;
	gm_gpu_free(d_lat);
	free(lat);
	return st;
}

static void lat_release(void *state)
{
	struct lat_state *s = (struct lat_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->buf);
	gm_gpu_free(s->d);
	gm_gpu_free(s->flush);
	gm_gpu_free(s->links);
	free(s->next);
	free(s);
}

static gm_status lat_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			     struct gm_traffic *t)
{
	struct lat_state *s = (struct lat_state *)calloc(1, sizeof(*s));
	uint32_t *slots = NULL, n;
	unsigned *d_sm = NULL;
	gm_status st;
	cudaError_t e;

	if (!s)
		return GM_ERR_NOMEM;
	*state = s;
	s->dev = cfg->dev;
	s->footprint = (size_t)gm_case_param(c, "footprint", 1 << 20);
	s->stride = (size_t)gm_case_param(c, "stride", 128);
	s->hint = (int)gm_case_param(c, "hint", LAT_HINT_CG);
	s->select = (int)gm_case_param(c, "select", LAT_ALL);
	s->cold = (int)gm_case_param(c, "cold", 0);
	if (s->footprint == 0) {
		/* "most of the device memory": 90 % of what is free now, whole strides */
		size_t fr = 0, tot = 0;
		GM_CU(cudaMemGetInfo(&fr, &tot));
		s->footprint = (size_t)(0.9 * (double)fr) / s->stride * s->stride;
	}
	s->skew = s->stride >= 64 * 1024;
	if (s->stride < 8 || s->stride % 8 || s->footprint < 4 * s->stride || s->footprint / s->stride > (1u << 28))
		return gm_fail(GM_ERR_INVALID_ARG,
			       "stride %zu B, footprint %zu B: need a multiple of 8 B, at least 4 and at most 2^28 slots",
			       s->stride, s->footprint);
	s->nslots = s->footprint / s->stride;
	s->next = (uint32_t *)malloc(s->nslots * sizeof(uint32_t));
	slots = (uint32_t *)malloc(s->nslots * sizeof(uint32_t));
	if (!s->next || !slots) {
		free(slots);
		return GM_ERR_NOMEM;
	}
	if ((st = gm_gpu_alloc((void **)&s->buf, s->footprint)) || (st = gm_gpu_alloc((void **)&s->d, sizeof(*s->d))) ||
	    (st = gm_gpu_alloc((void **)&d_sm, sizeof(unsigned))))
		goto out;
	lat_where<<<1, 32, 0, gm_stream()>>>(d_sm);
	if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaStreamSynchronize(gm_stream())) != cudaSuccess ||
	    (e = cudaMemcpy(&s->target, d_sm, 4, cudaMemcpyDeviceToHost)) != cudaSuccess) {
		st = gm_cuda_status(e, "lat_where (the SM id): launch, cudaStreamSynchronize or cudaMemcpy", __FILE__, __LINE__);
		goto out;
	}
	if (s->cold) {
		s->flush_bytes = (size_t)(2.5 * (double)(s->dev->l2_bytes > 0 ? s->dev->l2_bytes : 64 << 20));
		if ((st = gm_gpu_alloc(&s->flush, s->flush_bytes)))
			goto out;
	}
	n = (uint32_t)s->nslots;
	for (uint32_t i = 0; i < n; i++)
		slots[i] = i;
	if (s->select != LAT_ALL && (st = lat_classify(s, slots, &n, cfg->seed)))
		goto out;
	st = lat_link(s, slots, n, cfg->seed);
	t->ops = LAT_STEPS;
	t->working_set = (int64_t)s->footprint;
out:
	gm_gpu_free(d_sm);
	free(slots);
	return st;
}

/* The permutation is one cycle through every chosen slot: the chase returns to its start after exactly n loads. */
static gm_status lat_verify(void *state, char *why, size_t n)
{
	struct lat_state *s = (struct lat_state *)state;
	struct lat_dev got;
	uint32_t p = s->start, len = 0;
	gm_status st;

	do {
		p = s->next[p];
		len++;
	} while (p != s->start && len <= s->ncycle);
	if (len != s->ncycle) {
		snprintf(why, n, "permutation has a cycle of %u, expected %u", len, s->ncycle);
		return gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	if ((st = lat_run(s, 0, s->ncycle + 3, &got)))
		return st;
	return lat_expect(s, s->ncycle + 3ull, &got, why, n);
}

static gm_status lat_sample(void *state, double *values)
{
	struct lat_state *s = (struct lat_state *)state;
	unsigned warm = s->cold || s->select != LAT_ALL ? 0 : s->ncycle;
	struct lat_dev got;
	char why[160];
	gm_status st;

	if (s->select != LAT_ALL && (st = lat_relink(s)))
		return st;
	if (s->cold)
		GM_CU(cudaMemsetAsync(s->flush, 0, s->flush_bytes, gm_stream()));
	if ((st = lat_run(s, warm, LAT_STEPS, &got)) || (st = lat_expect(s, (unsigned long long)warm + LAT_STEPS, &got, why, sizeof(why))))
		return st;
	values[0] = (double)got.cycles / LAT_STEPS;
	values[1] = (double)got.ns / LAT_STEPS;
	values[2] = got.ns ? (double)got.cycles / (double)got.ns * 1e3 : 0;
	return GM_OK;
}

static void lat_annotate(void *state, struct gm_case_result *cr)
{
	struct lat_state *s = (struct lat_state *)state;

	gm_result_note(cr, "sm", GM_UNIT_RATIO, s->target);
	gm_result_note(cr, "footprint_bytes", GM_UNIT_BYTES, (double)s->footprint);
	gm_result_note(cr, "slots", GM_UNIT_RATIO, s->ncycle);
	if (s->select != LAT_ALL) {
		gm_result_note(cr, "probe_near_cycles", GM_UNIT_CYCLES, s->probe_near);
		gm_result_note(cr, "probe_far_cycles", GM_UNIT_CYCLES, s->probe_far);
		gm_result_note(cr, "near_share_pct", GM_UNIT_PCT, 100 * s->near_share);
	}
}

/* A footprint the device cannot hold now (free memory less 1 GiB for the rest) is refused, naming that limit. */
static gm_status lat_supported(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n)
{
	int64_t fp = gm_case_param(c, "footprint", 0);
	int64_t limit = cfg->dev->free_mem > 0 ? cfg->dev->free_mem - (1ll << 30) : cfg->dev->total_mem / 2;

	if (fp > 0 && limit > 0 && fp > limit) {
		snprintf(why, n, "footprint %lld B exceeds the free device memory less 1 GiB (%lld B of %lld B total)",
			 (long long)fp, (long long)limit, (long long)cfg->dev->total_mem);
		return GM_ERR_UNSUPPORTED;
	}
	return GM_OK;
}

static gm_status lat_launch_unused(void *state)
{
	(void)state;
	return gm_fail(GM_ERR_INVALID_ARG, "latency cases are self-timed");
}

static const struct gm_family_ops lat_ops = { lat_prepare, lat_launch_unused, lat_verify, lat_release,
					      lat_supported, lat_sample, lat_annotate };

extern "C" const struct gm_family_ops *gm_latency_ops(void)
{
	return &lat_ops;
}
