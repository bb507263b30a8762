/*
 * stride.cu - strided gather: out[i] = in[i*S] for i < n_out.
 *
 * Versions (gpumem run stride):
 *   v0  the only kernel; the cases sweep its parameters (element size 4/8/16 B,
 *       stride S). Each block copies tiles of 4*256 output elements, every
 *       thread issuing its 4 independent loads (256 elements apart) before
 *       the first store, so enough sectors are in flight that the time
 *       reflects how many sectors the pattern moves, not the latency of one
 *       load. The tiles are walked by a grid-stride loop, but the grid is one
 *       tile per block (capped at 2^31-1 blocks): on an H200 a persistent grid
 *       (resident blocks only) reached 74% of peak at S = 1, E = 4 against 89%
 *       for this one, and 3-5% less at the larger strides. The element type
 *       sets the access width (LDG.E / LDG.E.64 / LDG.E.128).
 *
 * Shapes: in = array_bytes of random words (n_in = array_bytes / E elements);
 * out is dense, n_out = n_in / S rounded down to a whole warp (32), so every
 * warp-level load and store has all 32 lanes active (a warp's lanes hold 32
 * consecutive i starting at a multiple of 32, in the loop and in the tail).
 *
 * Byte convention (see prepare): bytes_useful = n_out * E * 2 (each element
 * read once, written once). bytes_hw counts 32 B sectors per warp request,
 * the quantity the model predicts for the declared patterns:
 *   - a warp's 32 elements i = c..c+31 (c a multiple of 32) load from byte c*S*E + l*g,
 *     g = S*E, l = 0..31; c*S*E is a multiple of 32 B. No element straddles a
 *     sector (E divides 32). If g <= 32 the lanes leave no sector untouched
 *     across the span 32*g bytes = g sectors (touched: from 0 to
 *     floor((31g + E - 1)/32) = g - 1, because 0 <= g - E < 32); if g > 32
 *     every lane hits its own sector: 32. So load sectors = min(S*E, 32).
 *   - the store covers 32*E contiguous bytes starting 32*E-aligned: E sectors.
 *   bytes_hw = (n_out/32) * (min(S*E, 32) + E) * 32 = n_out * (min(S*E, 32) + E).
 */
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/common/shapes.h"

#define STRIDE_TILE (STRIDE_ILP * STRIDE_BLOCK)

struct stride_state {
	int eb;
	size_t s;                /* stride in elements */
	size_t n_in, n_out;      /* elements */
	uint32_t *in, *out;
	uint32_t seed;
	unsigned grid;
	const struct gm_device_info *dev;
};

template <typename T>
__global__ void stride_gather(const T *__restrict__ in, T *__restrict__ out, size_t n_out, size_t s)
{
	size_t gs = (size_t)gridDim.x * STRIDE_TILE;
	size_t i = blockIdx.x * (size_t)STRIDE_TILE + threadIdx.x;

	/* n_out is a multiple of 32: both conditions are uniform across a warp */
	for (; i + (STRIDE_ILP - 1) * STRIDE_BLOCK < n_out; i += gs) {
		T v[STRIDE_ILP];
#pragma unroll
		for (int u = 0; u < STRIDE_ILP; u++)
			v[u] = in[(i + u * STRIDE_BLOCK) * s];
#pragma unroll
		for (int u = 0; u < STRIDE_ILP; u++)
			out[i + u * STRIDE_BLOCK] = v[u];
	}
	for (int u = 0; u < STRIDE_ILP && i + u * STRIDE_BLOCK < n_out; u++)
		out[i + u * STRIDE_BLOCK] = in[(i + u * STRIDE_BLOCK) * s];
}

static gm_status stride_launch(void *state)
{
	struct stride_state *s = (struct stride_state *)state;
	cudaStream_t st = gm_stream();

	if (s->eb == 4)
		stride_gather<uint32_t><<<s->grid, STRIDE_BLOCK, 0, st>>>(
			s->in, s->out, s->n_out, s->s);
	else if (s->eb == 8)
		stride_gather<uint2><<<s->grid, STRIDE_BLOCK, 0, st>>>(
			(const uint2 *)s->in, (uint2 *)s->out, s->n_out, s->s);
	else
		stride_gather<uint4><<<s->grid, STRIDE_BLOCK, 0, st>>>(
			(const uint4 *)s->in, (uint4 *)s->out, s->n_out, s->s);
	GM_CU_LAUNCH();
	return GM_OK;
}

/* One tile per block; the kernel's loop covers what a capped grid leaves. */
static unsigned stride_grid(size_t n_out)
{
	size_t tiles = (n_out + STRIDE_TILE - 1) / STRIDE_TILE;

	return (unsigned)(tiles < 0x7fffffffu ? tiles : 0x7fffffffu);
}

static void stride_release(void *state)
{
	struct stride_state *s = (struct stride_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->in);
	gm_gpu_free(s->out);
	free(s);
}

/* Sectors of one warp-level load: see the top comment for why. */
static double load_sectors(size_t s, int eb)
{
	size_t g = s * (size_t)eb;

	return (double)(g < GM_SECTOR_BYTES ? g : GM_SECTOR_BYTES);
}

static void stride_traffic(const struct stride_state *s, struct gm_traffic *t)
{
	double n = (double)s->n_out;

	t->bytes_useful = n * s->eb * 2;
	t->bytes_hw = n * (load_sectors(s->s, s->eb) + s->eb);
	t->accesses = 0;
	t->working_set = (int64_t)((s->n_in + s->n_out) * s->eb);
}

static gm_status stride_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
				struct gm_traffic *t)
{
	int eb = (int)gm_case_param(c, "elem_bytes", 4);
	int64_t stride = gm_case_param(c, "stride", 1);
	size_t n_in = cfg->array_bytes / (eb > 0 ? eb : 1);
	struct stride_state *s;
	gm_status st;

	*state = NULL;
	if ((eb != 4 && eb != 8 && eb != 16) || stride < 1 || n_in / (size_t)stride < GM_WARP_SIZE)
		return gm_fail(GM_ERR_INVALID_ARG, "stride case '%s': %d B elements at stride %lld "
			       "do not fit %zu bytes", c->name, eb, (long long)stride, cfg->array_bytes);
	s = (struct stride_state *)calloc(1, sizeof(*s));
	if (!s)
		return GM_ERR_NOMEM;
	s->eb = eb;
	s->s = (size_t)stride;
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	s->n_in = n_in;
	s->n_out = n_in / s->s / GM_WARP_SIZE * GM_WARP_SIZE;
	s->grid = stride_grid(s->n_out);
	st = gm_gpu_alloc((void **)&s->in, s->n_in * eb);
	if (!st)
		st = gm_gpu_alloc((void **)&s->out, s->n_out * eb);
	if (!st)
		st = gm_fill_random(s->in, s->n_in * eb / 4, s->seed);
	if (st) {
		stride_release(s);
		return st;
	}
	stride_traffic(s, t);
	*state = s;
	return GM_OK;
}

/* Output element d holds input element d*S. */
struct stride_map {
	long long s;
	__host__ __device__ long long operator()(size_t d) const { return (long long)d * s; }
};

static gm_status stride_verify(void *state, char *why, size_t n)
{
	struct stride_state *s = (struct stride_state *)state;
	int wpe = s->eb / 4;
	stride_map m = { (long long)s->s };
	gm_status st = gm_poison(s->out, s->n_out * s->eb);

	if (!st)
		st = stride_launch(s);
	if (st)
		return st;
	return gm_validate(s->out, s->n_out * wpe, gm_make_gather(m, wpe, s->seed), s->seed, s->dev,
			   why, n);
}

static const struct gm_family_ops stride_ops = { stride_prepare, stride_launch, stride_verify,
						 stride_release };

extern "C" const struct gm_family_ops *gm_stride_ops(void)
{
	return &stride_ops;
}
