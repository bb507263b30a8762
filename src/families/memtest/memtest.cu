/*
 * memtest.cu - the memory test of `gpumem check` (cases.c lists the cases).
 *
 * Versions (gpumem run memtest.moving_inversions memtest.address):
 *   moving_inversions  for each pattern P of {0, 0x5555..., a random word}: write P upward;
 *                      read P and write ~P upward; read ~P and write P downward; read P.
 *                      Stuck bits, coupling between neighbours and retention over the pass
 *                      show as a word that does not hold what was written.
 *   address            each 64-bit word holds its own byte offset, read back; then its
 *                      complement, read back: a write landing at the wrong address shows.
 * Every word is checked on the device; the first 8 failing words keep their offset, the
 * expected and the read value for the message (the failing address reported).
 * Timed launches: read + invert one eighth of the buffer (the slices in turn), errors counted
 * too (annotate: note "errors").
 * Test hook: GPUMEM_TEST_HOOKS=1 with GPUMEM_MEMTEST_FLIP=BYTE_OFFSET flips the lowest bit of
 * that word after the first write, so a test proves the checker finds a corrupted word.
 */
#include <stdlib.h>
#include <string.h>
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "gpumem/result.h"

#define MT_BLOCK 512
#define MT_SLICES 8
#define MT_KEEP 8
#define MT_GRAIN ((size_t)64 << 20)       /* the buffer is a multiple of 64 MiB */
#define MT_SANITIZE_BYTES ((size_t)8 << 20)
#define MT_QUICK_BYTES ((size_t)4 << 30)

struct mt_err {
	unsigned long long count;
	unsigned long long off[MT_KEEP], want[MT_KEEP], got[MT_KEEP];
};

struct mt_state {
	int mode;                 /* 0 moving inversions, 1 address */
	uint64_t *p;
	size_t n;                 /* 64-bit words */
	unsigned grid;
	uint32_t seed;
	struct mt_err *err;       /* device */
	uint64_t slice_pat[MT_SLICES];
	int next;
	long long flip;           /* byte offset to corrupt, -1 none */
	unsigned long long verified_errors;
};

static __device__ void mt_record(struct mt_err *e, size_t i, uint64_t want, uint64_t got)
{
	unsigned long long k = atomicAdd(&e->count, 1ull);

	if (k < MT_KEEP) {
		e->off[k] = (unsigned long long)i * 8;
		e->want[k] = want;
		e->got[k] = got;
	}
}

static __device__ __forceinline__ uint64_t mt_want(size_t i, uint64_t pat, int addr)
{
	return addr ? ((uint64_t)i * 8) ^ pat : pat;
}

__global__ void mt_fill(uint64_t *p, size_t lo, size_t hi, uint64_t pat, int addr)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = lo + blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < hi; i += stride)
		p[i] = mt_want(i, pat, addr);
}

/* Every word of [lo, hi) must hold its pattern; with invert it then gets the complement; down: from hi down. */
__global__ void mt_check(uint64_t *p, size_t lo, size_t hi, uint64_t pat, int addr, int invert, int down,
			 struct mt_err *e)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < hi - lo; k += stride) {
		size_t i = down ? hi - 1 - k : lo + k;
		uint64_t want = mt_want(i, pat, addr), v = p[i];
		if (v != want)
			mt_record(e, i, want, v);
		if (invert)
			p[i] = ~want;
	}
}

static uint64_t mt_random_pattern(uint32_t seed)
{
	return ((uint64_t)gm_hash(seed, 1) << 32) | gm_hash(seed, 2);
}

static gm_status mt_fill_all(struct mt_state *s, uint64_t pat)
{
	mt_fill<<<s->grid, MT_BLOCK, 0, gm_stream()>>>(s->p, 0, s->n, pat, s->mode);
	GM_CU_LAUNCH();
	return GM_OK;
}

static gm_status mt_check_all(struct mt_state *s, uint64_t pat, int invert, int down)
{
	mt_check<<<s->grid, MT_BLOCK, 0, gm_stream()>>>(s->p, 0, s->n, pat, s->mode, invert, down, s->err);
	GM_CU_LAUNCH();
	return GM_OK;
}

/* The test hook: flip the lowest bit of one word (only with GPUMEM_TEST_HOOKS=1). */
static gm_status mt_flip(struct mt_state *s)
{
	uint64_t w;
	size_t off;

	if (s->flip < 0)
		return GM_OK;
	off = ((size_t)s->flip / 8) % s->n;
	GM_CU(cudaMemcpyAsync(&w, s->p + off, 8, cudaMemcpyDeviceToHost, gm_stream()));
	GM_CU(cudaStreamSynchronize(gm_stream()));
	w ^= 1;
	GM_CU(cudaMemcpyAsync(s->p + off, &w, 8, cudaMemcpyHostToDevice, gm_stream()));
	GM_CU(cudaStreamSynchronize(gm_stream()));
	return GM_OK;
}

static gm_status mt_moving(struct mt_state *s)
{
	const uint64_t pats[3] = { 0, 0x5555555555555555ull, mt_random_pattern(s->seed) };
	gm_status st = GM_OK;

	for (int k = 0; k < 3 && !st; k++) {
		st = mt_fill_all(s, pats[k]);
		if (!st && k == 0)
			st = mt_flip(s);
		if (!st)
			st = mt_check_all(s, pats[k], 1, 0);
		if (!st)
			st = mt_check_all(s, ~pats[k], 1, 1);
		if (!st)
			st = mt_check_all(s, pats[k], 0, 0);
	}
	for (int k = 0; k < MT_SLICES; k++)
		s->slice_pat[k] = pats[2];
	return st;
}

static gm_status mt_address(struct mt_state *s)
{
	gm_status st = mt_fill_all(s, 0);

	if (!st)
		st = mt_flip(s);
	if (!st)
		st = mt_check_all(s, 0, 1, 0);
	if (!st)
		st = mt_check_all(s, ~0ull, 0, 1);
	for (int k = 0; k < MT_SLICES; k++)
		s->slice_pat[k] = ~0ull;
	return st;
}

static void mt_release(void *state)
{
	struct mt_state *s = (struct mt_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->p);
	gm_gpu_free(s->err);
	free(s);
}

static long long mt_flip_offset(void)
{
	const char *hooks = getenv("GPUMEM_TEST_HOOKS"), *off = getenv("GPUMEM_MEMTEST_FLIP");
	char *end;
	long long v;

	if (!hooks || strcmp(hooks, "1") || !off || !*off)
		return -1;
	v = strtoll(off, &end, 0);
	return *end || v < 0 ? -1 : v;
}

static gm_status mt_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state, struct gm_traffic *t)
{
	struct mt_state *s = (struct mt_state *)calloc(1, sizeof(*s));
	int64_t free_b = 0, total_b = 0;
	size_t bytes, reserve;
	gm_status st;

	*state = NULL;
	if (!s)
		return GM_ERR_NOMEM;
	s->mode = (int)gm_case_param(c, "mode", 0);
	s->seed = cfg->seed;
	s->flip = mt_flip_offset();
	s->grid = gm_resident_blocks(cfg->dev, MT_BLOCK);
	st = gm_gpu_mem_info(&free_b, &total_b);
	/* most of the free memory: leave 1 GiB or 4 % of the total for the context and the driver */
	reserve = (size_t)total_b / 25 > ((size_t)1 << 30) ? (size_t)total_b / 25 : ((size_t)1 << 30);
	bytes = !st && (size_t)free_b > reserve + MT_GRAIN ? ((size_t)free_b - reserve) / MT_GRAIN * MT_GRAIN : MT_GRAIN;
	if (cfg->quick && bytes > MT_QUICK_BYTES)   /* run --quick: a taste; gpumem check runs the whole */
		bytes = MT_QUICK_BYTES;
	if (cfg->sanitize)
		bytes = MT_SANITIZE_BYTES;
	s->n = bytes / 8;
	if (!st)
		st = gm_gpu_alloc((void **)&s->p, bytes);
	if (!st)
		st = gm_gpu_alloc((void **)&s->err, sizeof(struct mt_err));
	if (st) {
		mt_release(s);
		return st;
	}
	t->bytes_useful = t->bytes_hw = 2.0 * (double)(s->n / MT_SLICES) * 8;
	t->working_set = (int64_t)bytes;
	*state = s;
	return GM_OK;
}

/* The first failing words, as a message: "N of M words wrong: at byte offset 0x.. (address 0x..) expected .. read ..; ..." */
static void mt_describe(const struct mt_state *s, const struct mt_err *e, char *why, size_t n)
{
	size_t used = (size_t)snprintf(why, n, "%llu of %zu words wrong:", e->count, s->n);

	for (unsigned long long k = 0; k < e->count && k < MT_KEEP && used < n; k++)
		used += (size_t)snprintf(why + used, n - used, "%s offset 0x%llx (address %p) expected 0x%016llx read 0x%016llx",
					 k ? ";" : "", e->off[k], (void *)((char *)s->p + e->off[k]), e->want[k], e->got[k]);
}

static gm_status mt_verify(void *state, char *why, size_t n)
{
	struct mt_state *s = (struct mt_state *)state;
	struct mt_err e;
	gm_status st;

	GM_CU(cudaMemsetAsync(s->err, 0, sizeof(*s->err), gm_stream()));
	st = s->mode ? mt_address(s) : mt_moving(s);
	if (st)
		return st;
	GM_CU(cudaMemcpyAsync(&e, s->err, sizeof(e), cudaMemcpyDeviceToHost, gm_stream()));
	GM_CU(cudaStreamSynchronize(gm_stream()));
	s->verified_errors = e.count;
	if (!e.count)
		return GM_OK;
	mt_describe(s, &e, why, n);
	return GM_ERR_VALIDATION;
}

static gm_status mt_launch(void *state)
{
	struct mt_state *s = (struct mt_state *)state;
	int k = s->next++ % MT_SLICES;
	size_t per = s->n / MT_SLICES, lo = (size_t)k * per, hi = k == MT_SLICES - 1 ? s->n : lo + per;

	mt_check<<<s->grid, MT_BLOCK, 0, gm_stream()>>>(s->p, lo, hi, s->slice_pat[k], s->mode, 1, 0, s->err);
	GM_CU_LAUNCH();
	s->slice_pat[k] = ~s->slice_pat[k];
	return GM_OK;
}

/* The words found wrong by the timed passes (beyond the verification's): note "errors". */
static void mt_annotate(void *state, struct gm_case_result *cr)
{
	struct mt_state *s = (struct mt_state *)state;
	struct mt_err e;

	if (cudaMemcpy(&e, s->err, sizeof(e), cudaMemcpyDeviceToHost) != cudaSuccess)
		return;
	gm_result_note(cr, "errors", GM_UNIT_RATIO, (double)(e.count - s->verified_errors));
	gm_result_note(cr, "bytes_tested", GM_UNIT_BYTES, (double)s->n * 8);
}

static const struct gm_family_ops memtest_ops = {
	mt_prepare, mt_launch, mt_verify, mt_release, NULL, NULL, mt_annotate,
};

extern "C" const struct gm_family_ops *gm_memtest_ops(void)
{
	return &memtest_ops;
}
