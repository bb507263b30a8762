/*
 * rowcol.cu - a W x H matrix of 4 B elements (row pitch P elements) copied,
 * read by rows or by columns.
 *
 * Versions (gpumem run rowcol):
 *   ref w4096_rows     even width, lanes along a row: every warp reads 128
 *                      aligned bytes; the copy at its best.
 *   v0  *_cols         lanes walk DOWN a column (lane -> row, warp -> column):
 *                      32 sectors per request, 4 useful bytes in each; the
 *                      output is written in read order, so only the read
 *                      strides. The 8 warps of a block read 8 neighbouring
 *                      columns, i.e. the same sectors: how much of the 8x
 *                      sector traffic L1/L2 absorb is what it measures.
 *   v1  w4097_packed_rows  odd width, rows packed (P = W) in both matrices:
 *                      row r starts 4r bytes past a sector boundary (mod 32),
 *                      so 7 rows in 8 cost 5 sectors per warp instead of 4,
 *                      on the load and on the store.
 *   v2  w4097_pitch_rows   same width, both matrices from cudaMallocPitch:
 *                      every row starts on a 512 B boundary; the kernel uses
 *                      the returned pitch and leaves the padding alone.
 * Every kernel uses 32x8 blocks copying a 32x32 tile, 4 rows (or columns) per
 * thread, all 4 loads issued before the first store so that several loads are
 * in flight. The odd width leaves a last tile column with one valid column.
 *
 * Shapes: H = array_bytes / 2 / (4W) rounded down to a multiple of 32 (and
 * at most 65535*32, the grid's y limit): half the array size keeps the
 * column reads near 2-3 ms a launch on an H100 while each matrix stays far
 * above L2 (2 GiB at the default 4 GiB, 512 MiB with --quick).
 * Rows output: out[r*P + c], the input's own layout (pitch P): a dense W-wide
 * output would put 7 rows in 8 of the 4097-wide stores off sector boundaries
 * whatever the input layout; in a trial on an H200 that made packed and
 * pitched inputs measure the same (3089 vs 3100 GB/s): the stores hid the
 * input layout entirely.
 * The padding columns c >= W of a pitched output are never written and are
 * checked to still hold the poison.
 * Columns output: band-major in read order, out[((r/32)*W + c)*32 + r%32],
 * dense and written 128 B at a time, so only the read strides.
 *
 * Byte convention (see prepare): bytes_useful = W*H*4*2 (read + write).
 * bytes_hw counts 32 B sectors per warp request, exactly:
 *   rows: a warp copies lanes c = 32k..min(32k+31, W-1) of row r, the
 *     contiguous bytes 4(rP + 32k) .. +4n-1: run_sectors() of that. The count
 *     only depends on the start mod 32 B, which repeats every 8 rows
 *     (8*4P = 32P), so 8 rows are summed and scaled by H/8. The store has
 *     the same addresses in the output: twice that.
 *   cols: each lane reads its own row, P*4 >= 32 B apart, one 4 B element
 *     inside one sector: 32 sectors per request, W*H/32 requests -> W*H
 *     sectors. Stores: 32 lanes x 4 B at a multiple of 128 B -> 4 sectors,
 *     W*H/32 requests -> W*H/8 sectors.
 */
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/common/shapes.h"

#define RC_TILE RC_BX             /* 32x32 tiles */
#define RC_ROWS RC_BY             /* blockDim.y: each thread does RC_TILE / RC_ROWS */
#define RC_RESERVE (256u << 20)   /* the headroom gm_gpu_alloc keeps too */
#define RC_MAX_H (65535u * RC_TILE)

struct rowcol_state {
	int by, pitched;
	int w;                       /* width, elements */
	size_t p;                    /* input row pitch, elements */
	size_t h;                    /* height, a multiple of 32 */
	uint32_t *in, *out;
	uint32_t seed;
	const struct gm_device_info *dev;
};

__global__ void rc_rows(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, int w, size_t p)
{
	int c = blockIdx.x * RC_TILE + threadIdx.x;
	size_t r = (size_t)blockIdx.y * RC_TILE + threadIdx.y;
	uint32_t v[RC_TILE / RC_ROWS];

	if (c >= w)
		return;
#pragma unroll
	for (int j = 0; j < RC_TILE / RC_ROWS; j++)
		v[j] = in[(r + j * RC_ROWS) * p + c];
#pragma unroll
	for (int j = 0; j < RC_TILE / RC_ROWS; j++)
		out[(r + j * RC_ROWS) * p + c] = v[j];
}

__global__ void rc_cols(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, int w, size_t p)
{
	size_t r = (size_t)blockIdx.y * RC_TILE + threadIdx.x;
	int c0 = blockIdx.x * RC_TILE + threadIdx.y;
	uint32_t v[RC_TILE / RC_ROWS];

#pragma unroll
	for (int j = 0; j < RC_TILE / RC_ROWS; j++)
		if (c0 + j * RC_ROWS < w)
			v[j] = in[r * p + c0 + j * RC_ROWS];
#pragma unroll
	for (int j = 0; j < RC_TILE / RC_ROWS; j++)
		if (c0 + j * RC_ROWS < w)
			out[((size_t)blockIdx.y * w + c0 + j * RC_ROWS) * RC_TILE + threadIdx.x] = v[j];
}

static gm_status rowcol_launch(void *state)
{
	struct rowcol_state *s = (struct rowcol_state *)state;
	dim3 block(RC_TILE, RC_ROWS);
	dim3 grid((unsigned)((s->w + RC_TILE - 1) / RC_TILE), (unsigned)(s->h / RC_TILE));

	if (s->by == BY_ROWS)
		rc_rows<<<grid, block, 0, gm_stream()>>>(s->in, s->out, s->w, s->p);
	else
		rc_cols<<<grid, block, 0, gm_stream()>>>(s->in, s->out, s->w, s->p);
	GM_CU_LAUNCH();
	return GM_OK;
}

static void rowcol_release(void *state)
{
	struct rowcol_state *s = (struct rowcol_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->in);
	gm_gpu_free(s->out);
	free(s);
}

/*
 * One W x H matrix from cudaMallocPitch, refused beforehand (as gm_gpu_alloc
 * does) when it cannot fit: a failed cudaMalloc* would leave an error behind
 * that the next launch check would report. *pitch in elements.
 */
static gm_status rc_alloc_pitched(const struct rowcol_state *s, uint32_t **p, size_t *pitch)
{
	int64_t fr = 0, tot = 0;
	size_t bytes = 0, row = (size_t)s->w * 4;
	size_t want = (row + RC_PITCH_ALIGN - 1) / RC_PITCH_ALIGN * RC_PITCH_ALIGN * s->h;
	gm_status st = gm_gpu_mem_info(&fr, &tot);
	cudaError_t e;

	if (st)
		return st;
	if ((int64_t)(want + RC_RESERVE) > fr)
		return gm_fail(GM_ERR_TOO_LARGE, "needs %.2f GiB of device memory, %.2f GiB free",
			       want / 1073741824.0, fr / 1073741824.0);
	e = cudaMallocPitch((void **)p, &bytes, row, s->h);
	if (e != cudaSuccess) {
		*p = NULL;
		(void)cudaGetLastError();
		return gm_cuda_status(e, "cudaMallocPitch(&p, &pitch, width*4, height)", __FILE__, __LINE__);
	}
	if (bytes % 4 || bytes < row)
		return gm_fail(GM_ERR_CUDA, "cudaMallocPitch returned pitch %zu B for %zu B rows", bytes, row);
	*pitch = bytes / 4;
	return GM_OK;
}

/* Words of the output: the input's layout for rows, W*H dense for columns. */
static size_t rc_out_words(const struct rowcol_state *s)
{
	return s->by == BY_ROWS ? s->p * s->h : (size_t)s->w * s->h;
}

static gm_status rc_alloc(struct rowcol_state *s)
{
	size_t out_pitch = 0;
	gm_status st;

	if (s->pitched) {
		st = rc_alloc_pitched(s, &s->in, &s->p);
	} else {
		s->p = (size_t)s->w;
		st = gm_gpu_alloc((void **)&s->in, s->p * s->h * 4);
	}
	if (!st && s->pitched && s->by == BY_ROWS) {
		st = rc_alloc_pitched(s, &s->out, &out_pitch);
		if (!st && out_pitch != s->p)
			st = gm_fail(GM_ERR_CUDA, "cudaMallocPitch gave pitches %zu and %zu B for equal rows",
				     s->p * 4, out_pitch * 4);
	} else if (!st) {
		st = gm_gpu_alloc((void **)&s->out, rc_out_words(s) * 4);
	}
	if (!st)
		st = gm_fill_random(s->in, s->p * s->h, s->seed);
	return st;
}

/* Sectors touched by `bytes` contiguous bytes starting at byte a. */
static int64_t run_sectors(int64_t a, int64_t bytes)
{
	return (a + bytes - 1) / GM_SECTOR_BYTES - a / GM_SECTOR_BYTES + 1;
}

/* Sectors of all row-wise warp requests over one matrix of pitch `pitch` (see top comment). */
static double rows_sectors(int w, size_t pitch, size_t h)
{
	int64_t per8 = 0;

	for (int64_t r = 0; r < 8; r++) {
		for (int64_t k = 0; k * RC_TILE < w; k++) {
			int64_t lanes = w - k * RC_TILE < RC_TILE ? w - k * RC_TILE : RC_TILE;
			per8 += run_sectors(4 * (r * (int64_t)pitch + k * RC_TILE), 4 * lanes);
		}
	}
	return (double)per8 * (double)(h / 8);
}

static void rowcol_traffic(const struct rowcol_state *s, struct gm_traffic *t)
{
	double elems = (double)s->w * (double)s->h;
	double sectors;

	if (s->by == BY_ROWS)
		sectors = 2 * rows_sectors(s->w, s->p, s->h);
	else
		sectors = elems + elems / 8;
	t->bytes_useful = elems * 4 * 2;
	t->bytes_hw = sectors * GM_SECTOR_BYTES;
	t->accesses = 0;
	t->working_set = (int64_t)((s->p * s->h + rc_out_words(s)) * 4);
}

static gm_status rowcol_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
				struct gm_traffic *t)
{
	int w = (int)gm_case_param(c, "width", 4096);
	int by = (int)gm_case_param(c, "by", BY_ROWS);
	size_t h = w >= 8 ? cfg->array_bytes / 2 / ((size_t)w * 4) / RC_TILE * RC_TILE : 0;
	struct rowcol_state *s;
	gm_status st;

	*state = NULL;
	if (h > RC_MAX_H)
		h = RC_MAX_H;
	/* w >= 8: a column read then puts every lane in its own sector (rows >= 32 B) */
	if (h == 0 || (by != BY_ROWS && by != BY_COLS))
		return gm_fail(GM_ERR_INVALID_ARG, "rowcol case '%s': width %d does not fit %zu bytes",
			       c->name, w, cfg->array_bytes);
	s = (struct rowcol_state *)calloc(1, sizeof(*s));
	if (!s)
		return GM_ERR_NOMEM;
	s->w = w;
	s->h = h;
	s->by = by;
	s->pitched = (int)gm_case_param(c, "pitched", 0);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	st = rc_alloc(s);
	if (st) {
		rowcol_release(s);
		return st;
	}
	rowcol_traffic(s, t);
	*state = s;
	return GM_OK;
}

/* Row-wise output element d = r*P + c holds input element d; padding (c >= W) stays poisoned. */
struct rows_map {
	long long w, p;
	__host__ __device__ long long operator()(size_t d) const
	{
		long long i = (long long)d;
		return i % p < w ? i : -1;
	}
};

/* Column-wise output element d = (band*W + c)*32 + lane holds input (band*32 + lane)*P + c. */
struct cols_map {
	long long w, p;
	__host__ __device__ long long operator()(size_t d) const
	{
		long long i = (long long)d, band = i / (RC_TILE * w), rem = i % (RC_TILE * w);
		return (band * RC_TILE + rem % RC_TILE) * p + rem / RC_TILE;
	}
};

static gm_status rowcol_verify(void *state, char *why, size_t n)
{
	struct rowcol_state *s = (struct rowcol_state *)state;
	size_t words = rc_out_words(s);
	gm_status st = gm_poison(s->out, words * 4);

	if (!st)
		st = rowcol_launch(s);
	if (st)
		return st;
	if (s->by == BY_ROWS) {
		rows_map m = { s->w, (long long)s->p };
		return gm_validate(s->out, words, gm_make_gather(m, 1, s->seed), s->seed, s->dev, why, n);
	}
	cols_map m = { s->w, (long long)s->p };
	return gm_validate(s->out, words, gm_make_gather(m, 1, s->seed), s->seed, s->dev, why, n);
}

static const struct gm_family_ops rowcol_ops = { rowcol_prepare, rowcol_launch, rowcol_verify,
						 rowcol_release };

extern "C" const struct gm_family_ops *gm_rowcol_ops(void)
{
	return &rowcol_ops;
}
