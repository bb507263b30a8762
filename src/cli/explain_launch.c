/*
 * explain_launch.c - `explain --n N`: the launch-level model over the kernel
 * `explain --run` builds (a 1D grid of N threads in blocks of --block;
 * --op load: out[gid] = in[EXPR]; --op store: out[EXPR] = in[gid]). Two
 * global patterns: the EXPR side and the gid side. Counts 2 x N x element
 * bytes as useful (one read and one write per thread), GB = 1e9. Rendered by
 * the writers of GM_DOC_EXPLAIN (src/io/explain_text.c and explain_json.c).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "cli/cli.h"
#include "gpumem/parallel.h"
#include "gpumem/profile.h"
#include "io/explain_io.h"

#define WINDOWS 8
#define WINDOW_WARPS 256
/* Rule T15: the instructions --run's kernel (src/families/jit/jit.cu: gid and the index in 64-bit signed
   arithmetic from threadIdx, blockIdx and blockDim) issues before its load beyond calibrate's copy kernels
   (copy_one, copy_one_table: gid in one 32x32-bit multiply-add). SASS of sm_90 (nvcc 13.0, nvdisasm): the load is
   instruction 29 of `out[gid] = in[gid]` and of `in[gid % 2^20]`, 17 of copy_one_table. The expression's own
   instructions are not counted (a 64-bit division or modulo by a constant not a power of two adds 11 more). */
#define GM_JIT_INDEX_INSTRUCTIONS 12

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int explain_launch_profile(const char *profile)
{
	struct gm_profile p;

	return gm_cli_profile(profile, NULL, &p, 1);
}

/* The model's input and output, kept while the explain document is written (one explanation a process). */
static struct gm_access pats[2];
static struct gm_launch_in in;
static struct gm_launch_out out;
static struct gm_profile p;
static struct gm_explain_launch_view v = { &in, &p, &out, 0 };

int explain_launch(const struct gm_access *a, int64_t n, const char *profile, const char *device, const char *uuid,
		   struct gm_explain_doc *doc, struct explain_run_opts *ro)
{
	struct gm_expr_error err;
	double t0;
	int rc = gm_cli_profile_dev(profile, device, uuid, &p, 0, NULL);

	if (rc)
		return rc;
	memset(pats, 0, sizeof(pats));
	memset(&in, 0, sizeof(in));
	pats[0] = *a;
	pats[0].active = NULL;
	pats[1] = pats[0];
	pats[1].index = "gid";
	pats[1].base = 0;
	pats[1].op = a->op == GM_OP_LOAD ? GM_OP_STORE : GM_OP_LOAD;
	in.pats = pats;
	in.npats = 2;
	memcpy(in.block, a->block, sizeof(in.block));
	in.n_threads = n;
	in.useful_bytes = 2.0 * (double)n * a->elem_bytes;
	in.windows = WINDOWS;
	in.window_warps = WINDOW_WARPS;
	in.one_element_per_thread = 1; /* the kernel --run builds: one element per thread, no loop */
	in.back_to_back = 1;           /* --run times it so (rules D11, S3) */
	in.index_instructions = GM_JIT_INDEX_INSTRUCTIONS; /* its 64-bit index prelude (rule T15) */
	in.threads = gm_cores(); /* the windows in parallel; the same numbers */
	t0 = now_ms();
	if (gm_launch_predict(&in, &p, &out, &err) != GM_OK) {
		gm_error(GM_EXIT_USAGE, "launch of %lld threads: %s", (long long)n, err.msg);
		return GM_EXIT_USAGE;
	}
	ro->predicted_gbs = out.gbs;
	ro->predicted_dram[0] = out.dram_read_bytes;
	ro->predicted_dram[1] = out.dram_write_bytes;
	v.model_ms = now_ms() - t0;
	if (doc)
		doc->launch = &v;
	else
		gm_write(stdout, GM_DOC_EXPLAIN, "text", &(struct gm_explain_doc){ .launch = &v });
	return GM_EXIT_OK;
}
