/*
 * banks.cu - shared-memory bank conflicts: every warp issues the same
 * shared-memory load pattern over and over, and the time per warp access
 * shows the wavefronts the banks need for it.
 *
 * Cases (gpumem run banks; patterns in src/families/banks/cases.c):
 *   b{4,8,16}_sNN  lane i reads element i*S (S = 1..32, 33, 64) of 4, 8 or 16 B
 *                  words: conflicts grow with gcd(S*E/4, 32); stride 1 of each
 *                  width is its group's ideal.
 *   bcast / mcast  all lanes one word; groups of lanes sharing words (no
 *                  conflict: one word serves many lanes), and a multicast whose
 *                  distinct words all sit in one bank.
 *   tile_*         a 32x32 float tile read by column unpadded (32-way), padded
 *                  to 33 and XOR-swizzled (both conflict-free), and the row read
 *                  as the conflict-free reference.
 *
 * Kernel: a persistent grid (as many 256-thread blocks as fit, each with a
 * 32 KB shared buffer holding word w = gm_hash(seed, w)). Each thread has 8
 * loop-invariant byte offsets, one per unrolled access u (the case's pattern
 * for its lane; u shifts the pattern by u*128 B or walks the tile column),
 * and iteration `it` loads from offset ^ K(it), K a multiple of 128 B below
 * 32 KB: the low 7 address bits, hence every lane's bank, and the equality
 * or distinctness of lanes' addresses are unchanged, while the address
 * varies with the loop counter, so the compiler can neither hoist nor merge
 * the loads. 8 independent accumulators keep 8 loads in flight per warp.
 * Each thread adds up what it loaded and writes one word; the expected value
 * depends only on its lane and is computed on the CPU from the same offsets.
 *
 * Iterations are scaled by 1/(most distinct words in one bank) so that every
 * case runs about as long (~0.2 ms on an H100) whatever its conflicts; the
 * runner divides by traffic.accesses, so the number per access is exact.
 */
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/common/shapes.h"

#define BK_UNROLL 8
#define BK_BUF_BYTES 32768
#define BK_BASE_ITERS 1024

struct bk_state {
	int pattern, eb, stride;
	int iters;
	unsigned grid;
	int *offsets;            /* device: [BK_UNROLL][32] byte offsets */
	uint32_t *out;           /* one word per thread */
	uint32_t seed;
	int host_off[BK_UNROLL][32];
};

/* Column of the tile read by unrolled access u (first access reads column 1). */
static int tile_col(int u)
{
	return 4 * u + 1;
}

/* Byte offset lane `lane` reads in access u of the pattern. */
static int bk_offset(int pattern, int eb, int stride, int lane, int u)
{
	int c = tile_col(u);

	switch (pattern) {
	case PAT_STRIDE: return lane * stride * eb + u * 128;
	case PAT_BCAST: return u * 128;
	case PAT_MC_DIV4: return (lane / 4) * 4 + u * 128;
	case PAT_MC_MOD4: return (lane % 4) * 4 + u * 128;
	case PAT_MC_DIV4_S32: return (lane / 4) * 128 + u * 128;
	case PAT_TILE_ROW: return (c * 32 + lane) * 4;
	case PAT_TILE_COL: return (lane * 32 + c) * 4;
	case PAT_TILE_PAD: return (lane * 33 + c) * 4;
	case PAT_TILE_XOR: return (lane * 32 + (c ^ lane)) * 4;
	}
	return -1;
}

/* Rotation of iteration it: a multiple of 128 B below the buffer size. */
__host__ __device__ __forceinline__ int bk_rot(int it)
{
	return ((it * 37) & (BK_BUF_BYTES / 128 - 1)) << 7;
}

template <typename T> struct bk_word;
template <> struct bk_word<uint32_t> { static __device__ __forceinline__ uint32_t sum(uint32_t v) { return v; } };
template <> struct bk_word<uint2> { static __device__ __forceinline__ uint32_t sum(uint2 v) { return v.x + v.y; } };
template <> struct bk_word<uint4> {
	static __device__ __forceinline__ uint32_t sum(uint4 v) { return v.x + v.y + v.z + v.w; }
};

template <typename T>
__global__ void __launch_bounds__(BK_BLOCK) bk_kernel(const int *__restrict__ offsets, int iters, uint32_t seed,
						      uint32_t *__restrict__ out)
{
	extern __shared__ __align__(16) uint32_t buf[];
	int lane = threadIdx.x & 31;
	int off[BK_UNROLL];
	uint32_t acc[BK_UNROLL];

	for (int w = threadIdx.x; w < BK_BUF_BYTES / 4; w += BK_BLOCK)
		buf[w] = gm_hash(seed, (uint64_t)w);
#pragma unroll
	for (int u = 0; u < BK_UNROLL; u++) {
		off[u] = offsets[u * 32 + lane];
		acc[u] = 0;
	}
	__syncthreads();
	const char *base = reinterpret_cast<const char *>(buf);
	for (int it = 0; it < iters; it++) {
		int k = bk_rot(it);
#pragma unroll
		for (int u = 0; u < BK_UNROLL; u++)
			acc[u] += bk_word<T>::sum(*reinterpret_cast<const T *>(base + (off[u] ^ k)));
	}
	uint32_t r = 0;
#pragma unroll
	for (int u = 0; u < BK_UNROLL; u++)
		r += acc[u];
	out[blockIdx.x * (size_t)BK_BLOCK + threadIdx.x] = r;
}

static gm_status bk_launch(void *state)
{
	struct bk_state *s = (struct bk_state *)state;
	cudaStream_t st = gm_stream();

	if (s->eb == 4)
		bk_kernel<uint32_t><<<s->grid, BK_BLOCK, BK_BUF_BYTES, st>>>(s->offsets, s->iters, s->seed, s->out);
	else if (s->eb == 8)
		bk_kernel<uint2><<<s->grid, BK_BLOCK, BK_BUF_BYTES, st>>>(s->offsets, s->iters, s->seed, s->out);
	else
		bk_kernel<uint4><<<s->grid, BK_BLOCK, BK_BUF_BYTES, st>>>(s->offsets, s->iters, s->seed, s->out);
	GM_CU_LAUNCH();
	return GM_OK;
}

static void bk_release(void *state)
{
	struct bk_state *s = (struct bk_state *)state;

	if (!s)
		return;
	/* the carve-out bk_carveout set goes back to the default (the fault walk checks every one a case set) */
	(void)cudaFuncSetAttribute(bk_kernel<uint32_t>, cudaFuncAttributePreferredSharedMemoryCarveout,
				   cudaSharedmemCarveoutDefault);
	(void)cudaFuncSetAttribute(bk_kernel<uint2>, cudaFuncAttributePreferredSharedMemoryCarveout,
				   cudaSharedmemCarveoutDefault);
	(void)cudaFuncSetAttribute(bk_kernel<uint4>, cudaFuncAttributePreferredSharedMemoryCarveout,
				   cudaSharedmemCarveoutDefault);
	(void)cudaGetLastError();
	gm_gpu_free(s->offsets);
	gm_gpu_free(s->out);
	free(s);
}

/*
 * Most distinct 4-byte words any bank holds among the words of the first
 * access: a lower bound of its wavefronts, used only to balance run times.
 */
static int bk_max_words_per_bank(const struct bk_state *s)
{
	int words[32 * 4], n = 0, most = 1;

	for (int l = 0; l < 32; l++)
		for (int k = 0; k < s->eb / 4; k++) {
			int w = s->host_off[0][l] / 4 + k, dup = 0;
			for (int i = 0; i < n; i++)
				dup |= words[i] == w;
			if (!dup)
				words[n++] = w;
		}
	for (int b = 0; b < 32; b++) {
		int cnt = 0;
		for (int i = 0; i < n; i++)
			cnt += words[i] % 32 == b;
		most = cnt > most ? cnt : most;
	}
	return most;
}

/* Offsets table; each must stay inside the buffer with the element it reads. */
static gm_status bk_offsets(struct bk_state *s)
{
	for (int u = 0; u < BK_UNROLL; u++)
		for (int l = 0; l < 32; l++) {
			int o = bk_offset(s->pattern, s->eb, s->stride, l, u);
			if (o < 0 || o % s->eb || o + s->eb > BK_BUF_BYTES)
				return gm_fail(GM_ERR_INVALID_ARG, "banks: pattern %d stride %d leaves the buffer",
					       s->pattern, s->stride);
			s->host_off[u][l] = o;
		}
	return GM_OK;
}

static gm_status bk_grid(struct bk_state *s, const struct gm_device_info *dev)
{
	int per_sm = 0;
	cudaError_t e;

	if (s->eb == 4)
		e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bk_kernel<uint32_t>, BK_BLOCK, BK_BUF_BYTES);
	else if (s->eb == 8)
		e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bk_kernel<uint2>, BK_BLOCK, BK_BUF_BYTES);
	else
		e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bk_kernel<uint4>, BK_BLOCK, BK_BUF_BYTES);
	if (e != cudaSuccess)
		return gm_cuda_status(e, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", __FILE__, __LINE__);
	if (per_sm < 1)
		return gm_fail(GM_ERR_UNSUPPORTED, "banks: kernel does not fit on an SM");
	s->grid = (unsigned)(per_sm * dev->sm_count);
	return GM_OK;
}

/* Shared memory first: the occupancy query and the launch see the same carveout. */
static gm_status bk_carveout(void)
{
	int pct = cudaSharedmemCarveoutMaxShared;

	GM_CU(cudaFuncSetAttribute(bk_kernel<uint32_t>, cudaFuncAttributePreferredSharedMemoryCarveout, pct));
	GM_CU(cudaFuncSetAttribute(bk_kernel<uint2>, cudaFuncAttributePreferredSharedMemoryCarveout, pct));
	GM_CU(cudaFuncSetAttribute(bk_kernel<uint4>, cudaFuncAttributePreferredSharedMemoryCarveout, pct));
	return GM_OK;
}

static gm_status bk_setup(struct bk_state *s, const struct gm_device_info *dev)
{
	size_t out_bytes;
	gm_status st = bk_offsets(s);

	if (!st)
		st = bk_carveout();
	if (!st)
		st = bk_grid(s, dev);
	if (st)
		return st;
	s->iters = BK_BASE_ITERS / bk_max_words_per_bank(s);
	out_bytes = (size_t)s->grid * BK_BLOCK * sizeof(uint32_t);
	st = gm_gpu_alloc((void **)&s->offsets, sizeof(s->host_off));
	if (!st)
		st = gm_gpu_alloc((void **)&s->out, out_bytes);
	if (!st)
		GM_CU(cudaMemcpyAsync(s->offsets, s->host_off, sizeof(s->host_off), cudaMemcpyHostToDevice,
				      gm_stream()));
	if (!st)
		GM_CU(cudaStreamSynchronize(gm_stream()));
	return st;
}

static gm_status bk_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct bk_state *s = (struct bk_state *)calloc(1, sizeof(*s));
	gm_status st;

	*state = NULL;
	if (!s)
		return GM_ERR_NOMEM;
	s->pattern = (int)gm_case_param(c, "pattern", PAT_STRIDE);
	s->eb = (int)gm_case_param(c, "elem_bytes", 4);
	s->stride = (int)gm_case_param(c, "stride", 1);
	s->seed = cfg->seed;
	if (s->eb != 4 && s->eb != 8 && s->eb != 16)
		st = gm_fail(GM_ERR_INVALID_ARG, "banks: element of %d bytes", s->eb);
	else
		st = bk_setup(s, cfg->dev);
	if (!st && cfg->sanitize) { /* run --sanitize: the same accesses and rotations, one SM's blocks, 4 rounds */
		s->grid /= (unsigned)cfg->dev->sm_count;
		s->iters = s->iters > 4 ? 4 : s->iters;
	}
	if (st) {
		bk_release(s);
		return st;
	}
	t->accesses = (double)s->grid * (BK_BLOCK / 32) * s->iters * BK_UNROLL;
	t->bytes_useful = t->accesses * 32 * s->eb;
	t->bytes_hw = 0;
	t->working_set = BK_BUF_BYTES;
	*state = s;
	return GM_OK;
}

/* What every thread of lane `lane` must write: the same loop, on the CPU. */
static uint32_t bk_expect(const struct bk_state *s, int lane)
{
	uint32_t r = 0;

	for (int u = 0; u < BK_UNROLL; u++) {
		uint32_t acc = 0;
		for (int it = 0; it < s->iters; it++) {
			int w = (s->host_off[u][lane] ^ bk_rot(it)) / 4;
			for (int k = 0; k < s->eb / 4; k++)
				acc += gm_hash(s->seed, (uint64_t)(w + k));
		}
		r += acc;
	}
	return r;
}

static gm_status bk_verify(void *state, char *why, size_t n)
{
	struct bk_state *s = (struct bk_state *)state;
	size_t nthreads = (size_t)s->grid * BK_BLOCK, bad = 0, first = 0;
	uint32_t want[32], *got;
	gm_status st = gm_poison(s->out, nthreads * 4);

	if (!st)
		st = bk_launch(s);
	if (st)
		return st;
	got = (uint32_t *)malloc(nthreads * 4);
	if (!got)
		return GM_ERR_NOMEM;
	cudaError_t e = cudaMemcpyAsync(got, s->out, nthreads * 4, cudaMemcpyDeviceToHost, gm_stream());
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(gm_stream());
	if (e != cudaSuccess) {
		free(got);
		return gm_cuda_status(e, "banks verify copy", __FILE__, __LINE__);
	}
	for (int l = 0; l < 32; l++)
		want[l] = bk_expect(s, l);
	for (size_t i = 0; i < nthreads; i++)
		if (got[i] != want[i % 32] && bad++ == 0)
			first = i;
	if (bad) {
		snprintf(why, n, "%zu of %zu threads wrong; first thread %zu wrote 0x%08x, expected 0x%08x",
			 bad, nthreads, first, got[first], want[first % 32]);
		st = gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	free(got);
	return st;
}

static const struct gm_family_ops bk_ops = { bk_prepare, bk_launch, bk_verify, bk_release };

extern "C" const struct gm_family_ops *gm_banks_ops(void)
{
	return &bk_ops;
}
