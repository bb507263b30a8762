/*
 * cachehints.cu - load and store cache hints (gpumem run cachehints).
 *
 * One grid-stride kernel: out[i] = in[i] + table[h(i) mod T], where in/out
 * are 256 MiB streams touched once and table is a 16 MiB array gathered at
 * random (h = gm_hash), so its lines are reused many times per launch while
 * the streams pass through L2 beside it. The stream load or store carries
 * the hint under test; the table is always read with a default load.
 *   table_ld_default  plain load (ld.global, may use L1)
 *   table_ld_ldg      __ldg (ld.global.nc: read-only / texture path)
 *   table_ld_cg       __ldcg (ld.global.cg: cache in L2 only, bypass L1)
 *   table_ld_cs       __ldcs (ld.global.cs: streaming, evict-first)
 *   table_ld_lu       __ldlu (ld.global.lu: last use)
 *   table_st_cs       __stcs (st.global.cs: streaming store)
 *   table_st_wt       __stwt (st.global.wt: write-through)
 * The big_* cases use a 40 MiB table: its reuse distance (table + the
 * stream passing between two touches of a sector) is close to the 50 MiB L2,
 * where evict-first stream lines could keep the table resident.
 * The plain_* cases do the same without the table (out[i] = in[i] + 1): a
 * pure stream, where no hint has anything to protect.
 * Validation: every output word on the device against the closed form, plus
 * a CPU sample (gm_validate).
 */
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/common/special_shapes.h"

#define CH_THREADS 256
#define CH_TSEED(s) ((s) ^ 0x7ab1e5u)
#define CH_ISEED(s) ((s) ^ 0x1d3e7u)

template <int MODE> __device__ __forceinline__ uint32_t ch_load(const uint32_t *p)
{
	switch (MODE) {
	case CH_LD_LDG: return __ldg(p);
	case CH_LD_CG: return __ldcg(p);
	case CH_LD_CS: return __ldcs(p);
	case CH_LD_LU: return __ldlu(p);
	default: return *p;
	}
}

template <int MODE> __device__ __forceinline__ void ch_store(uint32_t *p, uint32_t v)
{
	switch (MODE) {
	case CH_ST_CS: __stcs(p, v); break;
	case CH_ST_WT: __stwt(p, v); break;
	default: *p = v;
	}
}

template <int MODE, int TABLE>
__global__ void ch_kernel(const uint32_t *in, uint32_t *out, size_t n, const uint32_t *table, uint32_t tw,
			  uint32_t seed)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
		uint32_t x = ch_load<MODE>(in + i);
		x += TABLE ? table[gm_hash(CH_ISEED(seed), i) % tw] : 1u;
		ch_store<MODE>(out + i, x);
	}
}

struct ch_expect {
	uint32_t seed;
	uint32_t tw;        /* table words, 0 = no table */
	__host__ __device__ uint32_t operator()(size_t w) const
	{
		uint32_t t = tw ? gm_hash(CH_TSEED(seed), gm_hash(CH_ISEED(seed), w) % tw) : 1u;
		return gm_hash(seed, w) + t;
	}
};

struct ch_state {
	int mode, table;
	uint32_t tw;
	size_t n;
	uint32_t *in, *out, *tab;
	uint32_t seed;
	const struct gm_device_info *dev;
};

static void ch_release(void *state)
{
	struct ch_state *s = (struct ch_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->in);
	gm_gpu_free(s->out);
	gm_gpu_free(s->tab);
	free(s);
}

static gm_status ch_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct ch_state *s = (struct ch_state *)calloc(1, sizeof(*s));
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	s->mode = (int)gm_case_param(c, "hint", CH_LD_DEFAULT);
	s->tw = (uint32_t)gm_case_param(c, "table_words", CH_TABLE_WORDS);
	s->table = s->tw > 0;
	s->n = (size_t)CH_STREAM_WORDS;
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	st = gm_gpu_alloc((void **)&s->in, s->n * 4);
	if (!st)
		st = gm_gpu_alloc((void **)&s->out, s->n * 4);
	if (!st)
		st = gm_gpu_alloc((void **)&s->tab, (size_t)(s->tw ? s->tw : 1) * 4);
	if (!st)
		st = gm_fill_random(s->in, s->n, s->seed);
	if (!st)
		st = gm_fill_random(s->tab, s->tw ? s->tw : 1, CH_TSEED(s->seed));
	if (st) {
		ch_release(s);
		return st;
	}
	t->bytes_useful = (double)s->n * (s->table ? 12 : 8);
	t->bytes_hw = (double)s->n * 8 + (s->table ? (double)s->n * 32 : 0);
	t->working_set = (int64_t)(s->n * 8 + (size_t)s->tw * 4);
	*state = s;
	return GM_OK;
}

template <int MODE> static void ch_go(struct ch_state *s, unsigned blocks)
{
	if (s->table)
		ch_kernel<MODE, 1><<<blocks, CH_THREADS, 0, gm_stream()>>>(s->in, s->out, s->n, s->tab, s->tw, s->seed);
	else
		ch_kernel<MODE, 0><<<blocks, CH_THREADS, 0, gm_stream()>>>(s->in, s->out, s->n, s->tab, s->tw, s->seed);
}

static gm_status ch_launch(void *state)
{
	struct ch_state *s = (struct ch_state *)state;
	unsigned blocks = gm_resident_blocks(s->dev, CH_THREADS);

	switch (s->mode) {
	case CH_LD_LDG: ch_go<CH_LD_LDG>(s, blocks); break;
	case CH_LD_CG: ch_go<CH_LD_CG>(s, blocks); break;
	case CH_LD_CS: ch_go<CH_LD_CS>(s, blocks); break;
	case CH_LD_LU: ch_go<CH_LD_LU>(s, blocks); break;
	case CH_ST_CS: ch_go<CH_ST_CS>(s, blocks); break;
	case CH_ST_WT: ch_go<CH_ST_WT>(s, blocks); break;
	default: ch_go<CH_LD_DEFAULT>(s, blocks); break;
	}
	GM_CU_LAUNCH();
	return GM_OK;
}

static gm_status ch_verify(void *state, char *why, size_t n)
{
	struct ch_state *s = (struct ch_state *)state;
	ch_expect want = { s->seed, s->tw };
	gm_status st = gm_poison(s->out, s->n * 4);

	if (!st)
		st = ch_launch(s);
	if (!st)
		st = gm_validate(s->out, s->n, want, s->seed, s->dev, why, n);
	return st;
}

static const struct gm_family_ops ch_ops = { ch_prepare, ch_launch, ch_verify, ch_release };

extern "C" const struct gm_family_ops *gm_cachehints_ops(void)
{
	return &ch_ops;
}
