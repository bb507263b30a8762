/*
 * jit.cu - `explain --run` on the device: the generated source, NVRTC through
 * dlopen, the library loaded with cudaLibraryLoadData, and the ops the runner
 * times (include/gpumem/jit.h has the semantics).
 *
 * Four kernels are generated around the expression:
 *   gm_x_range  every thread's index: smallest, largest, first thread with a
 *               negative one - before anything is allocated or launched;
 *   gm_x_fill   in[k] holds k (xor the seed) in its first words, so a value
 *               names the element it came from (1- and 2-byte elements: a hash
 *               of it, so every element is checked, not only the low bits);
 *   gm_x_run    the timed kernel: out[gid] = in[EXPR] or out[EXPR] = in[gid];
 *               with --space shared, each block copies its tile of S elements
 *               in[bx*S ..) into shared memory and does out[gid] = tile[EXPR];
 *   gm_x_check  every thread checks its own element: a load must have fetched
 *               in[EXPR(gid)] (through a tile: in[bx*S + EXPR(gid)]); a stored
 *               value names its writer w, which must
 *               be a thread with EXPR(w) == the index it was found at.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <nvrtc.h>
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "gpumem/jit.h"
#include "gpumem/model.h"

#define JIT_SRC_MAX 16384
#define JIT_TILE_MAX (48 * 1024)  /* dynamic shared memory without the opt-in attribute */

static struct {
	nvrtcResult (*create)(nvrtcProgram *, const char *, const char *, int, const char *const *,
			      const char *const *);
	nvrtcResult (*compile)(nvrtcProgram, int, const char *const *);
	nvrtcResult (*log_size)(nvrtcProgram, size_t *);
	nvrtcResult (*log)(nvrtcProgram, char *);
	nvrtcResult (*cubin_size)(nvrtcProgram, size_t *);
	nvrtcResult (*cubin)(nvrtcProgram, char *);
	nvrtcResult (*destroy)(nvrtcProgram *);
	int tried, ok;
} rtc;

static int rtc_load(void)
{
	static const char *const names[] = {
		"libnvrtc.so.13", "libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so.13",
		"/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so.13",
	};
	void *lib = NULL;

	if (rtc.tried)
		return rtc.ok;
	rtc.tried = 1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !lib; i++)
		lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return 0;
	*(void **)&rtc.create = dlsym(lib, "nvrtcCreateProgram");
	*(void **)&rtc.compile = dlsym(lib, "nvrtcCompileProgram");
	*(void **)&rtc.log_size = dlsym(lib, "nvrtcGetProgramLogSize");
	*(void **)&rtc.log = dlsym(lib, "nvrtcGetProgramLog");
	*(void **)&rtc.cubin_size = dlsym(lib, "nvrtcGetCUBINSize");
	*(void **)&rtc.cubin = dlsym(lib, "nvrtcGetCUBIN");
	*(void **)&rtc.destroy = dlsym(lib, "nvrtcDestroyProgram");
	rtc.ok = rtc.create && rtc.compile && rtc.log_size && rtc.log && rtc.cubin_size && rtc.cubin && rtc.destroy;
	return rtc.ok;
}

struct jit_state {
	struct gm_jit_spec spec;
	char expr_c[4096];
	cudaLibrary_t lib;
	cudaKernel_t k_range, k_fill, k_run, k_check, k_layout;
	void *in, *out;                  /* in / out past their pads (suggest's alignment rewrite) */
	void *in_raw, *out_raw, *lay;    /* the allocations; lay (spec.layout): load: the converted input;
					    store: the strided out the compact one converts to */
	char *run_src;                   /* a rewrite's gm_x_run (copied) */
	long long *range;                /* lo, hi, first negative gid */
	unsigned long long *bad;         /* count, first gid */
	int64_t in_elems, out_elems, lay_elems;
	long long tile;                  /* --space shared: elements per block's tile; 0 = global */
	unsigned grid;                   /* the original's grid (range, check) */
	unsigned run_grid;               /* the timed kernel's */
	size_t smem;                     /* its dynamic shared memory */
	uint32_t seed;
	const struct gm_device_info *dev;
};

static struct gm_jit_spec next_spec;
static char next_expr_c[4096];
static struct gm_jit_info *next_info;

void gm_jit_set(const struct gm_jit_spec *spec, struct gm_jit_info *info)
{
	next_spec = *spec;
	snprintf(next_expr_c, sizeof(next_expr_c), "%s", spec->expr_c);
	next_spec.expr_c = next_expr_c;
	next_info = info;
}

static const char *elem_type(int eb)
{
	switch (eb) {
	case 1: return "unsigned char";
	case 2: return "unsigned short";
	case 4: return "unsigned int";
	case 8: return "uint2";
	default: return "uint4";
	}
}

/*
 * The element that names k (xor the seed), per width. 1- and 2-byte elements cannot hold k, so they hold a hash
 * of it: an element read from the wrong place (off by 256, say) differs with probability 255/256 (65535/65536)
 * each, so a systematic error is caught on every element it touches, not only on the index's low bits.
 */
static const char *make_fn(int eb)
{
	switch (eb) {
	case 1: return "(unsigned char)((((unsigned long long)k ^ s) * 0x9E3779B97F4A7C15ull) >> 56)";
	case 2: return "(unsigned short)((((unsigned long long)k ^ s) * 0x9E3779B97F4A7C15ull) >> 48)";
	case 4: return "(unsigned)k ^ s";
	case 8: return "make_uint2((unsigned)k ^ s, (unsigned)(k >> 32) ^ s)";
	default: return "make_uint4((unsigned)k ^ s, (unsigned)(k >> 32) ^ s, (unsigned)k * 2654435761u, ~s)";
	}
}

static const char *load_expr(enum gm_hint h)
{
	switch (h) {
	case GM_HINT_CG: return "__ldcg(in + i)";
	case GM_HINT_CS: return "__ldcs(in + i)";
	case GM_HINT_LU: return "__ldlu(in + i)";
	case GM_HINT_NC: return "__ldg(in + i)";
	default: return "in[i]";
	}
}

static const char *store_stmt(enum gm_hint h)
{
	switch (h) {
	case GM_HINT_CG: return "__stcg(out + i, in[gid_]);";
	case GM_HINT_CS: return "__stcs(out + i, in[gid_]);";
	default: return "out[i] = in[gid_];";
	}
}

/* The timed kernel: global (out[gid] = in[EXPR] or out[EXPR] = in[gid]) or through a shared tile. */
static int build_run(const struct gm_jit_spec *sp, char *run, size_t n)
{
	char stmt[64];
	int k;

	if (sp->run_src)
		k = snprintf(run, n, "%s", sp->run_src);
	else if (sp->space == GM_SPACE_SHARED)
		k = snprintf(run, n,
			"extern \"C\" __global__ void gm_x_run(const T *__restrict__ in, T *__restrict__ out, long long n_arg, long long tile) {\n"
			"  extern __shared__ __align__(16) unsigned char smem_[];\n"
			"  T *tile_ = (T *)smem_;\n%s"
			"  const long long per_ = bdx_ * bdy_ * bdz_;\n"
			"  for (long long k = tid_; k < tile; k += per_) tile_[k] = in[bx_ * tile + k];\n"
			"  __syncthreads();\n"
			"  if (gid_ >= n_) return;\n"
			"  long long i = (%s);\n"
			"  out[gid_] = tile_[i];\n"
			"}\n", gm_expr_c_prelude(), sp->expr_c);
	else {
		if (sp->op == GM_OP_LOAD)
			snprintf(stmt, sizeof(stmt), "out[gid_] = %s;", load_expr(sp->hint));
		else
			snprintf(stmt, sizeof(stmt), "%s", store_stmt(sp->hint));
		k = snprintf(run, n,
			"extern \"C\" __global__ void gm_x_run(const T *__restrict__ in, T *__restrict__ out, long long n_arg, long long tile) {\n%s"
			"  (void)tile;\n"
			"  if (gid_ >= n_) return;\n"
			"  long long i = (%s);\n"
			"  %s\n"
			"}\n", gm_expr_c_prelude(), sp->expr_c, stmt);
	}
	return k > 0 && (size_t)k < n ? 0 : -1;
}

/*
 * explain --suggest's layout rewrite (spec.layout only), the one-off conversion: load: the input stored in
 * the order the threads read it; store: the compact out (element g: what the original stores at EXPR(g))
 * scattered back to the strided layout the original writes. The load's runs as a grid-stride loop over the
 * resident blocks (timed_layout); the store's as the original's access, one thread an element (the loop's
 * scattered stores ran 1.07-1.24x their original on the development sets; docs/SUGGEST.md).
 */
static const char *const layout_kernel_load =
	"extern \"C\" __global__ void gm_x_layout(const T *in, T *lay, long long n_arg, long long bdx, long long bdy, long long bdz) {\n"
	"  for (long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x; g < n_arg; g += (long long)gridDim.x * blockDim.x)\n"
	"    lay[g] = in[index_of(g, n_arg, bdx, bdy, bdz)];\n"
	"}\n";
static const char *const layout_kernel_store =
	"extern \"C\" __global__ void gm_x_layout(const T *in, T *lay, long long n_arg, long long bdx, long long bdy, long long bdz) {\n"
	"  for (long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x; g < n_arg; g += (long long)gridDim.x * blockDim.x)\n"
	"    lay[index_of(g, n_arg, bdx, bdy, bdz)] = in[g];\n"
	"}\n";

/* The checker's branch for a compact out (store layout): element g holds what the original stores at EXPR(g). */
static const char *const compact_check =
	"    else if (1) { long long w = writer(out[g], s); ok = w >= 0 && w < n_arg && index_of(w, n_arg, bdx, bdy, bdz) == i; }\n";

static int build_source(const struct gm_jit_spec *sp, char *src, size_t n)
{
	static char run[8192];

	if (build_run(sp, run, sizeof(run)) < 0)
		return -1;
	int k = snprintf(src, n,
		"#pragma nv_diag_suppress 177\n"
		"typedef %s T;\n"
		"__device__ __forceinline__ T make(long long k, unsigned s) { return %s; }\n"
		"__device__ __forceinline__ bool same(unsigned char a, unsigned char b) { return a == b; }\n"
		"__device__ __forceinline__ bool same(unsigned short a, unsigned short b) { return a == b; }\n"
		"__device__ __forceinline__ bool same(unsigned a, unsigned b) { return a == b; }\n"
		"__device__ __forceinline__ bool same(uint2 a, uint2 b) { return a.x == b.x && a.y == b.y; }\n"
		"__device__ __forceinline__ bool same(uint4 a, uint4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }\n"
		"__device__ __forceinline__ long long writer(unsigned char v, unsigned s) { return -1; }\n"
		"__device__ __forceinline__ long long writer(unsigned short v, unsigned s) { return -1; }\n"
		"__device__ __forceinline__ long long writer(unsigned v, unsigned s) { return (long long)(v ^ s); }\n"
		"__device__ __forceinline__ long long writer(uint2 v, unsigned s) { return (long long)(((unsigned long long)(v.y ^ s) << 32) | (v.x ^ s)); }\n"
		"__device__ __forceinline__ long long writer(uint4 v, unsigned s) { return (long long)(((unsigned long long)(v.y ^ s) << 32) | (v.x ^ s)); }\n"
		/* the expression for any thread g of the launch, from g alone (check kernel) */
		"__device__ long long index_of(long long g, long long n_arg, long long bdx_, long long bdy_, long long bdz_) {\n"
		"  const long long per = bdx_ * bdy_ * bdz_;\n"
		"  const long long tid_ = g %% per, bx_ = g / per, by_ = 0, bz_ = 0;\n"
		"  const long long tx_ = tid_ %% bdx_, ty_ = tid_ / bdx_ %% bdy_, tz_ = tid_ / (bdx_ * bdy_);\n"
		"  const long long lane_ = tid_ %% 32, warp_ = tid_ / 32, gid_ = g, n_ = n_arg;\n"
		"  (void)tx_; (void)ty_; (void)tz_; (void)bx_; (void)by_; (void)bz_; (void)lane_; (void)warp_; (void)gid_; (void)n_;\n"
		"  return (%s);\n"
		"}\n"
		"extern \"C\" __global__ void gm_x_range(long long n_arg, long long *r) {\n%s"
		"  if (gid_ >= n_) return;\n"
		"  long long i = (%s);\n"
		"  atomicMin(&r[0], i); atomicMax(&r[1], i);\n"
		"  if (i < 0) atomicMin((unsigned long long *)&r[2], (unsigned long long)gid_);\n"
		"}\n"
		"%s"
		"extern \"C\" __global__ void gm_x_fill(T *p, long long count, unsigned s) {\n"
		"  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < count; k += (long long)gridDim.x * blockDim.x)\n"
		"    p[k] = make(k, s);\n"
		"}\n"
		"%s"
		"extern \"C\" __global__ void gm_x_check(const T *in, const T *out, long long n_arg, unsigned s, unsigned long long *bad,\n"
		"                                      long long bdx, long long bdy, long long bdz, long long tile) {\n"
		"  for (long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x; g < n_arg; g += (long long)gridDim.x * blockDim.x) {\n"
		"    long long i = index_of(g, n_arg, bdx, bdy, bdz);\n"
		"    bool ok;\n"
		"    if (tile > 0) { ok = same(out[g], make(g / (bdx * bdy * bdz) * tile + i, s)); }\n"
		"    else if (%d) { ok = same(out[g], make(i, s)); }\n"
		"%s"
		"    else { long long w = writer(out[i], s); ok = w >= 0 && w < n_arg && index_of(w, n_arg, bdx, bdy, bdz) == i; }\n"
		"    if (!ok) { atomicAdd(&bad[0], 1ull); atomicMin(&bad[1], (unsigned long long)g); }\n"
		"  }\n"
		"}\n",
		elem_type(sp->elem_bytes), make_fn(sp->elem_bytes), sp->expr_c, gm_expr_c_prelude(), sp->expr_c,
		!sp->layout ? "" : sp->op == GM_OP_LOAD ? layout_kernel_load : layout_kernel_store,
		run, sp->op == GM_OP_LOAD, sp->layout && sp->op == GM_OP_STORE ? compact_check : "");
	return k > 0 && (size_t)k < n ? 0 : -1;
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* NVRTC: source -> cubin for this device. A compiler error is reported against the expression. */
static gm_status compile(struct jit_state *s, const char *src, char **cubin)
{
	nvrtcProgram prog;
	char arch[48], *log = NULL;
	size_t nlog = 0, ncubin = 0;
	const char *opts[2] = { arch, "-std=c++17" };

	snprintf(arch, sizeof(arch), "--gpu-architecture=sm_%d%d", s->dev->cc_major, s->dev->cc_minor);
	if (next_info)
		snprintf(next_info->arch, sizeof(next_info->arch), "sm_%d%d", s->dev->cc_major, s->dev->cc_minor);
	if (rtc.create(&prog, src, "gpumem_explain.cu", 0, NULL, NULL) != NVRTC_SUCCESS)
		return gm_fail(GM_ERR_CUDA, "NVRTC could not create a program");
	nvrtcResult r = rtc.compile(prog, 2, opts);
	if (r != NVRTC_SUCCESS && r != NVRTC_ERROR_COMPILATION) {   /* NVRTC failed, not the expression */
		rtc.destroy(&prog);
		return gm_fail(GM_ERR_CUDA, "nvrtcCompileProgram failed (nvrtcResult %d)", (int)r);
	}
	if (r != NVRTC_SUCCESS) {
		rtc.log_size(prog, &nlog);
		log = (char *)calloc(nlog + 1, 1);
		if (log)
			rtc.log(prog, log);
		/* the expression is the only part the user wrote: name it, keep the log's first line short */
		char first[200] = "";
		if (log)
			sscanf(log, "%199[^\n]", first);
		free(log);
		rtc.destroy(&prog);
		return gm_fail(GM_ERR_PARSE, "the expression '%s' does not compile as CUDA (%s)", s->spec.expr, first);
	}
	if (rtc.cubin_size(prog, &ncubin) != NVRTC_SUCCESS || !ncubin) {
		rtc.destroy(&prog);
		return gm_fail(GM_ERR_CUDA, "nvrtcGetCUBINSize failed");
	}
	*cubin = (char *)malloc(ncubin);
	if (!*cubin) {
		rtc.destroy(&prog);
		return GM_ERR_NOMEM;
	}
	if (rtc.cubin(prog, *cubin) != NVRTC_SUCCESS) {
		free(*cubin);
		*cubin = NULL;
		rtc.destroy(&prog);
		return gm_fail(GM_ERR_CUDA, "nvrtcGetCUBIN failed");
	}
	rtc.destroy(&prog);
	return GM_OK;
}

static gm_status launch_smem(cudaKernel_t k, unsigned grid, dim3 block, void **args, size_t smem)
{
	GM_CU(cudaLaunchKernel((const void *)k, dim3(grid), block, args, smem, gm_stream()));
	return GM_OK;
}

static gm_status launch(cudaKernel_t k, unsigned grid, dim3 block, void **args)
{
	return launch_smem(k, grid, block, args, 0);
}

static dim3 block_of(const struct jit_state *s)
{
	return dim3((unsigned)s->spec.block[0], (unsigned)s->spec.block[1], (unsigned)s->spec.block[2]);
}

/* The range of EXPR over every thread, before anything else runs. */
static gm_status index_range(struct jit_state *s)
{
	long long r[3] = { INT64_MAX, INT64_MIN, INT64_MAX }, n = s->spec.n;
	void *args[] = { &n, &s->range };
	gm_status st;

	GM_CU(cudaMemcpy(s->range, r, sizeof(r), cudaMemcpyHostToDevice));
	st = launch(s->k_range, s->grid, block_of(s), args);
	if (st)
		return st;
	GM_CU(cudaStreamSynchronize(gm_stream()));
	GM_CU(cudaMemcpy(r, s->range, sizeof(r), cudaMemcpyDeviceToHost));
	if (r[2] != INT64_MAX) {
		if (next_info)
			next_info->bad_gid = r[2];
		return gm_fail(GM_ERR_INVALID_ARG, "thread gid=%lld computes a negative index; nothing was launched with it",
			       r[2]);
	}
	if (next_info) {
		next_info->index_lo = r[0];
		next_info->index_hi = r[1];
	}
	int64_t reach = (int64_t)r[1] + 1;
	if (s->spec.space == GM_SPACE_SHARED) {
		if (reach * s->spec.elem_bytes > JIT_TILE_MAX)
			return gm_fail(GM_ERR_INVALID_ARG, "--space shared: the tile must hold indices 0..%lld, %lld B per "
				       "block; --run allows %d B of shared memory per block", r[1],
				       (long long)(reach * s->spec.elem_bytes), JIT_TILE_MAX);
		s->tile = reach;
		s->in_elems = (int64_t)s->grid * reach;
		s->out_elems = s->spec.n;
		if (next_info)
			next_info->tile_elems = reach;
		return GM_OK;
	}
	s->in_elems = s->spec.op == GM_OP_LOAD ? reach : s->spec.n;
	s->out_elems = s->spec.op == GM_OP_LOAD ? s->spec.n : reach;
	if (s->spec.layout) {      /* load: lay holds n converted elements; store: out is compact, lay strided */
		s->lay_elems = s->spec.op == GM_OP_LOAD ? s->spec.n : reach;
		s->out_elems = s->spec.n;
	}
	return GM_OK;
}

static void jit_release(void *state)
{
	struct jit_state *s = (struct jit_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->in_raw);
	gm_gpu_free(s->out_raw);
	gm_gpu_free(s->lay);
	free(s->run_src);
	gm_gpu_free(s->range);
	gm_gpu_free(s->bad);
	if (s->lib)
		cudaLibraryUnload(s->lib);
	free(s);
}

static gm_status load_kernels(struct jit_state *s, const char *cubin)
{
	GM_CU(cudaLibraryLoadData(&s->lib, cubin, NULL, NULL, 0, NULL, NULL, 0));
	GM_CU(cudaLibraryGetKernel(&s->k_range, s->lib, "gm_x_range"));
	GM_CU(cudaLibraryGetKernel(&s->k_fill, s->lib, "gm_x_fill"));
	GM_CU(cudaLibraryGetKernel(&s->k_run, s->lib, "gm_x_run"));
	GM_CU(cudaLibraryGetKernel(&s->k_check, s->lib, "gm_x_check"));
	if (s->spec.layout)
		GM_CU(cudaLibraryGetKernel(&s->k_layout, s->lib, "gm_x_layout"));
	return GM_OK;
}

static gm_status jit_supported(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n)
{
	(void)c;
	(void)cfg;
	if (!rtc_load()) {
		snprintf(why, n, "NVRTC not available (libnvrtc.so.13 not found): explain --run needs it");
		return GM_ERR_UNSUPPORTED;
	}
	return GM_OK;
}

/*
 * The layout rewrite's one-off conversion (load: lay[g] = in[EXPR(g)]; store: lay[EXPR(g)] = in[g]), timed with events
 * like a run: the first launch (reported as such: it pays what the fill left in L2 and cold translations) warms it up,
 * then LAYOUT_REPS launches, each timed, give the median. The conversion writes the same lay every time.
 */
#define LAYOUT_REPS 5
static gm_status timed_layout(struct jit_state *s, cudaEvent_t e0, cudaEvent_t e1, float *ms)
{
	long long n = s->spec.n, bd[3] = { s->spec.block[0], s->spec.block[1], s->spec.block[2] };
	void *args[] = { &s->in, &s->lay, &n, &bd[0], &bd[1], &bd[2] };
	gm_status st;

	GM_CU(cudaEventRecord(e0, gm_stream()));
	st = launch(s->k_layout, s->spec.op == GM_OP_LOAD ? gm_resident_blocks(s->dev, 256) : (unsigned)((n + 255) / 256),
		    dim3(256), args);
	if (st)
		return st;
	GM_CU(cudaEventRecord(e1, gm_stream()));
	GM_CU(cudaEventSynchronize(e1));
	GM_CU(cudaEventElapsedTime(ms, e0, e1));
	return GM_OK;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

static gm_status convert_layout(struct jit_state *s)
{
	cudaEvent_t e0, e1;
	float first = 0, ms[LAYOUT_REPS] = { 0 };
	gm_status st;

	GM_CU(cudaEventCreate(&e0));
	if (cudaEventCreate(&e1) != cudaSuccess) {
		cudaEventDestroy(e0);
		return gm_fail(GM_ERR_CUDA, "cudaEventCreate failed");
	}
	st = timed_layout(s, e0, e1, &first);
	for (int k = 0; !st && k < LAYOUT_REPS; k++)
		st = timed_layout(s, e0, e1, &ms[k]);
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	qsort(ms, LAYOUT_REPS, sizeof(ms[0]), cmp_float);
	if (!st && next_info) {
		next_info->layout_first_ms = first;
		next_info->layout_ms = ms[LAYOUT_REPS / 2];
	}
	return st;
}

static gm_status alloc_arrays(struct jit_state *s)
{
	int64_t free_b = 0, total = 0, eb = s->spec.elem_bytes;
	double need = (double)(s->in_elems + s->out_elems + s->lay_elems) * eb;
	gm_status st = gm_gpu_mem_info(&free_b, &total);

	if (st)
		return st;
	if (need > (double)free_b - (256 << 20))
		return gm_fail(GM_ERR_TOO_LARGE, "in (%lld elements) and out (%lld) need %.2f GiB, the GPU has %.2f GiB free",
			       (long long)s->in_elems, (long long)s->out_elems, need / (1 << 30),
			       (double)free_b / (1 << 30));
	st = gm_gpu_alloc(&s->in_raw, (size_t)(s->in_elems * eb + s->spec.in_pad_bytes));
	if (!st)
		st = gm_gpu_alloc(&s->out_raw, (size_t)(s->out_elems * eb + s->spec.out_pad_bytes));
	if (!st && s->spec.layout)
		st = gm_gpu_alloc(&s->lay, (size_t)(s->lay_elems * eb));
	if (st)
		return st;
	s->in = (char *)s->in_raw + s->spec.in_pad_bytes;
	s->out = (char *)s->out_raw + s->spec.out_pad_bytes;
	long long count = s->in_elems;
	void *args[] = { &s->in, &count, &s->seed };
	st = launch(s->k_fill, gm_resident_blocks(s->dev, 256), dim3(256), args);
	return st || !s->spec.layout ? st : convert_layout(s);
}

/* The timed kernel's dynamic shared memory: the tile, with room for a padded or swizzled slot map. */
static gm_status smem_of(struct jit_state *s)
{
	int64_t eb = s->spec.elem_bytes, W = 128 / eb, elems = s->tile;

	if (s->spec.smem_padded && s->tile)
		elems = s->tile + s->tile / W + W;
	if (elems * eb > JIT_TILE_MAX)
		return gm_fail(GM_ERR_INVALID_ARG, "the padded tile needs %lld B of shared memory; --run allows %d B",
			       (long long)(elems * eb), JIT_TILE_MAX);
	s->smem = (size_t)(elems * eb);
	return GM_OK;
}

static gm_status jit_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state, struct gm_traffic *t)
{
	struct jit_state *s = (struct jit_state *)calloc(1, sizeof(*s));
	char *src = (char *)malloc(JIT_SRC_MAX), *cubin = NULL;
	int64_t per;
	gm_status st = s && src ? GM_OK : GM_ERR_NOMEM;
	double t0 = now_ms();

	(void)c;
	*state = NULL;
	if (s) {
		s->spec = next_spec;
		snprintf(s->expr_c, sizeof(s->expr_c), "%s", next_spec.expr_c);
		s->spec.expr_c = s->expr_c;
		if (next_spec.run_src && !(s->run_src = strdup(next_spec.run_src)))
			st = GM_ERR_NOMEM;
		s->spec.run_src = s->run_src;
		s->seed = cfg->seed;
		s->dev = cfg->dev;
		per = (int64_t)s->spec.block[0] * s->spec.block[1] * s->spec.block[2];
		s->grid = (unsigned)((s->spec.n + per - 1) / per);
		s->run_grid = s->grid;
		if (s->run_src) {
			int64_t rper = (int64_t)s->spec.run_block[0] * s->spec.run_block[1] * s->spec.run_block[2];
			s->run_grid = rper > 0 ? (unsigned)((s->spec.run_threads + rper - 1) / rper) : 0;
			if (rper <= 0 || rper > 1024 || s->spec.run_threads <= 0)
				st = gm_fail(GM_ERR_INVALID_ARG, "a rewrite's launch shape is invalid");
		}
	}
	if (!st && build_source(&s->spec, src, JIT_SRC_MAX) < 0)
		st = gm_fail(GM_ERR_INVALID_ARG, "expression too long for the generated kernel");
	if (!st)
		st = compile(s, src, &cubin);
	if (!st && next_info)
		next_info->compile_ms = now_ms() - t0;
	if (!st)
		st = load_kernels(s, cubin);
	if (!st)
		st = gm_gpu_alloc((void **)&s->range, 3 * sizeof(long long));
	if (!st)
		st = gm_gpu_alloc((void **)&s->bad, 2 * sizeof(unsigned long long));
	if (!st)
		st = index_range(s);
	if (!st)
		st = smem_of(s);
	if (!st)
		st = alloc_arrays(s);
	free(src);
	free(cubin);
	if (st) {
		if (next_info)
			next_info->status = st;
		jit_release(s);
		return st;
	}
	if (next_info) {
		next_info->in_elems = s->in_elems;
		next_info->out_elems = s->out_elems;
	}
	/* global bytes: n read + n written; through shared, every tile is read once */
	t->bytes_useful = (double)(s->tile ? s->in_elems + s->spec.n : 2 * s->spec.n) * s->spec.elem_bytes;
	t->bytes_hw = s->spec.bytes_hw > 0 ? s->spec.bytes_hw : t->bytes_useful;
	t->working_set = (s->in_elems + s->out_elems) * s->spec.elem_bytes;
	*state = s;
	return GM_OK;
}

static gm_status jit_launch(void *state)
{
	struct jit_state *s = (struct jit_state *)state;
	long long n = s->spec.n;
	void *run_in = s->lay && s->spec.op == GM_OP_LOAD ? s->lay : s->in;
	void *args[] = { &run_in, &s->out, &n, &s->tile };
	dim3 b = s->run_src ? dim3((unsigned)s->spec.run_block[0], (unsigned)s->spec.run_block[1],
				     (unsigned)s->spec.run_block[2]) : block_of(s);

	return launch_smem(s->k_run, s->run_grid, b, args, s->smem);
}

static gm_status jit_verify(void *state, char *why, size_t nwhy)
{
	struct jit_state *s = (struct jit_state *)state;
	unsigned long long bad[2] = { 0, ~0ull };
	long long n = s->spec.n;
	long long bd[3] = { s->spec.block[0], s->spec.block[1], s->spec.block[2] };
	void *args[] = { &s->in, &s->out, &n, &s->seed, &s->bad, &bd[0], &bd[1], &bd[2], &s->tile };
	gm_status st = gm_poison(s->out, (size_t)(s->out_elems * s->spec.elem_bytes));

	if (!st)
		st = jit_launch(s);
	if (st)
		return st;
	GM_CU(cudaMemcpyAsync(s->bad, bad, sizeof(bad), cudaMemcpyHostToDevice, gm_stream()));
	st = launch(s->k_check, gm_resident_blocks(s->dev, 256), dim3(256), args);
	if (st)
		return st;
	GM_CU(cudaMemcpyAsync(bad, s->bad, sizeof(bad), cudaMemcpyDeviceToHost, gm_stream()));
	GM_CU(cudaStreamSynchronize(gm_stream()));
	if (bad[0]) {
		snprintf(why, nwhy, "%llu of %lld threads wrong; first gid=%llu", bad[0], n, bad[1]);
		return gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	return GM_OK;
}

extern "C" gm_status gm_jit_source(const struct gm_jit_spec *spec, char *buf, size_t n)
{
	return build_source(spec, buf, n) < 0 ? gm_fail(GM_ERR_INVALID_ARG, "generated source too long") : GM_OK;
}

static const struct gm_family_ops jit_ops = { jit_prepare, jit_launch, jit_verify, jit_release, jit_supported };

extern "C" const struct gm_family_ops *gm_jit_ops(void)
{
	return &jit_ops;
}
