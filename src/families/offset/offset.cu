/*
 * offset.cu - misaligned copy of 4 B elements:
 *   side 0 (read):  out[i] = in[i + off]     side 1 (write): out[i + off] = in[i]
 * for i < n and off = 0..32 elements.
 *
 * Versions (gpumem run offset):
 *   v0  the only kernel; the cases sweep side and offset. Each block copies
 *       tiles of 4*256 elements, each thread issuing its 4 loads (256 apart)
 *       before its first store, so the time reflects the sectors moved
 *       rather than the latency of one load; the grid is one tile per block
 *       (the loop covers what a capped grid leaves), which on an H200 reached
 *       89% of peak for the aligned 4 B copy against 74% for a persistent
 *       grid (stride.cu measured both). Both buffers are cudaMalloc'd (256 B
 *       aligned); the shift is applied to the pointer of one side only.
 *
 * Shapes: words = array_bytes / 2 / 4 rounded down to a multiple of 32, n =
 * words - 32 (a multiple of 32). Half the array size: misaligned stores run
 * at about half speed, and a full 4 GiB pair took over 5 ms a launch on an
 * H200; each array is still 40x L2 at the default size. The shifted side's buffer holds `words` elements so
 * every offset up to 32 fits; the other holds n. On the write side the first
 * off and the last 32 - off output words are never written: they must still
 * hold the poison after the validation launch, and are checked as such.
 *
 * Byte convention (see prepare): bytes_useful = n * 4 * 2 (read + write).
 * bytes_hw counts 32 B sectors per warp request: a warp handles elements
 * c..c+31 with c a multiple of 32 (tiles and n are multiples of 32), i.e.
 * 128 bytes starting at c*4 (line aligned) on the aligned side: 4 sectors; on
 * the shifted side they start a0 = 4*(off mod 32) bytes into a line and span
 * floor((a0 + 127)/32) - floor(a0/32) + 1 sectors = 4 if off is a multiple
 * of 8 (a0 on a sector boundary), else 5.
 *   bytes_hw = (n/32) * (sectors_load + sectors_store) * 32.
 */
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/common/shapes.h"

#define OFFSET_TILE (OFFSET_ILP * OFFSET_BLOCK)

struct offset_state {
	int side, off;
	size_t n;                  /* elements copied */
	size_t in_words, out_words;
	uint32_t *in, *out;
	uint32_t seed;
	unsigned grid;
	const struct gm_device_info *dev;
};

/* in and out arrive already shifted by the launcher: in + roff, out + woff. */
__global__ void offset_copy(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, size_t n)
{
	size_t gs = (size_t)gridDim.x * OFFSET_TILE;
	size_t i = blockIdx.x * (size_t)OFFSET_TILE + threadIdx.x;

	/* n is a multiple of 32: both conditions are uniform across a warp */
	for (; i + (OFFSET_ILP - 1) * OFFSET_BLOCK < n; i += gs) {
		uint32_t v[OFFSET_ILP];
#pragma unroll
		for (int u = 0; u < OFFSET_ILP; u++)
			v[u] = in[i + u * OFFSET_BLOCK];
#pragma unroll
		for (int u = 0; u < OFFSET_ILP; u++)
			out[i + u * OFFSET_BLOCK] = v[u];
	}
	for (int u = 0; u < OFFSET_ILP && i + u * OFFSET_BLOCK < n; u++)
		out[i + u * OFFSET_BLOCK] = in[i + u * OFFSET_BLOCK];
}

/* One tile per block; the kernel's loop covers what a capped grid leaves. */
static unsigned offset_grid(size_t n)
{
	size_t tiles = (n + OFFSET_TILE - 1) / OFFSET_TILE;

	return (unsigned)(tiles < 0x7fffffffu ? tiles : 0x7fffffffu);
}

static gm_status offset_launch(void *state)
{
	struct offset_state *s = (struct offset_state *)state;
	size_t roff = s->side == SIDE_READ ? (size_t)s->off : 0;
	size_t woff = s->side == SIDE_WRITE ? (size_t)s->off : 0;

	offset_copy<<<s->grid, OFFSET_BLOCK, 0, gm_stream()>>>(s->in + roff, s->out + woff, s->n);
	GM_CU_LAUNCH();
	return GM_OK;
}

static void offset_release(void *state)
{
	struct offset_state *s = (struct offset_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->in);
	gm_gpu_free(s->out);
	free(s);
}

/* Sectors of one warp's 128 contiguous bytes starting off*4 bytes into a line. */
static double warp_sectors(int off)
{
	return off % 8 ? 5.0 : 4.0;
}

static void offset_traffic(const struct offset_state *s, struct gm_traffic *t)
{
	double requests = (double)(s->n / GM_WARP_SIZE);
	double ld = warp_sectors(s->side == SIDE_READ ? s->off : 0);
	double stv = warp_sectors(s->side == SIDE_WRITE ? s->off : 0);

	t->bytes_useful = (double)s->n * 4 * 2;
	t->bytes_hw = requests * (ld + stv) * GM_SECTOR_BYTES;
	t->accesses = 0;
	t->working_set = (int64_t)((s->in_words + s->out_words) * 4);
}

static gm_status offset_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
				struct gm_traffic *t)
{
	int side = (int)gm_case_param(c, "side", SIDE_READ);
	int off = (int)gm_case_param(c, "offset", 0);
	size_t words = cfg->array_bytes / 2 / 4 / GM_WARP_SIZE * GM_WARP_SIZE;
	struct offset_state *s;
	gm_status st;

	*state = NULL;
	if ((side != SIDE_READ && side != SIDE_WRITE) || off < 0 || off > OFFSET_MAX || words < 2 * OFFSET_MAX)
		return gm_fail(GM_ERR_INVALID_ARG, "offset case '%s': side %d offset %d does not fit %zu bytes",
			       c->name, side, off, cfg->array_bytes);
	s = (struct offset_state *)calloc(1, sizeof(*s));
	if (!s)
		return GM_ERR_NOMEM;
	s->side = side;
	s->off = off;
	s->n = words - OFFSET_MAX;
	s->in_words = side == SIDE_READ ? words : s->n;
	s->out_words = side == SIDE_WRITE ? words : s->n;
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	s->grid = offset_grid(s->n);
	st = gm_gpu_alloc((void **)&s->in, s->in_words * 4);
	if (!st)
		st = gm_gpu_alloc((void **)&s->out, s->out_words * 4);
	if (!st)
		st = gm_fill_random(s->in, s->in_words, s->seed);
	if (st) {
		offset_release(s);
		return st;
	}
	offset_traffic(s, t);
	*state = s;
	return GM_OK;
}

/* Output word d holds input word d - woff + roff; outside the copied range it stays poisoned. */
struct offset_map {
	long long roff, woff, n;
	__host__ __device__ long long operator()(size_t d) const
	{
		long long i = (long long)d - woff;
		return i < 0 || i >= n ? -1 : i + roff;
	}
};

static gm_status offset_verify(void *state, char *why, size_t n)
{
	struct offset_state *s = (struct offset_state *)state;
	offset_map m = { s->side == SIDE_READ ? s->off : 0, s->side == SIDE_WRITE ? s->off : 0,
			 (long long)s->n };
	gm_status st = gm_poison(s->out, s->out_words * 4);

	if (!st)
		st = offset_launch(s);
	if (st)
		return st;
	return gm_validate(s->out, s->out_words, gm_make_gather(m, 1, s->seed), s->seed, s->dev, why, n);
}

static const struct gm_family_ops offset_ops = { offset_prepare, offset_launch, offset_verify,
						 offset_release };

extern "C" const struct gm_family_ops *gm_offset_ops(void)
{
	return &offset_ops;
}
