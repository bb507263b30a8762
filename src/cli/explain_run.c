/*
 * explain_run.c - `gpumem explain --run`: the access the model just explained,
 * built into a kernel (src/kernels/jit.cu), validated and timed by the runner,
 * printed beside the prediction. Semantics: include/gpumem/jit.h.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/io.h"
#include "gpumem/jit.h"
#include "gpumem/result.h"
#include "bench/family.h"
#include "gpumem/counters.h"
#include "io/counters_io.h"

#define RUN_SAMPLES 1024  /* warps the model samples over the launch */

static const struct gm_family jit_family = {
	"explain", "explain --run: the user's index expression as a kernel", NULL, gm_jit_ops, NULL,
};

/* The model's sector bytes of one launch: the EXPR side and the gid side, sampled. */
static int sample_bytes(const struct gm_access *a, int64_t n, double *bytes, struct gm_launch_sample *ls)
{
	struct gm_access g = *a;
	struct gm_launch_sample lg;
	struct gm_expr_error err;
	gm_status s = gm_launch_sample(a, n, RUN_SAMPLES, ls, &err);

	if (s)
		return gm_error(GM_EXIT_USAGE, "%s", err.msg[0] ? err.msg : gm_strerror(s));
	g.index = "gid";
	g.op = a->op == GM_OP_LOAD ? GM_OP_STORE : GM_OP_LOAD;
	if (gm_launch_sample(&g, n, RUN_SAMPLES, &lg, &err))
		return gm_error(GM_EXIT_USAGE, "%s", err.msg);
	*bytes = (double)ls->warps * (ls->sectors_per_warp + lg.sectors_per_warp) * GM_SECTOR_BYTES;
	return 0;
}

/* The thread the GPU found with a negative index, and that index, from the model's evaluator. */
static int bad_index(const struct gm_access *a, int64_t n, int64_t gid)
{
	int64_t tpb = (int64_t)a->block[0] * a->block[1] * a->block[2], tid = gid % tpb, idx = 0;
	struct gm_thread_vars v = { 0 };
	struct gm_expr *e = NULL;
	struct gm_expr_error err;

	v.tid = tid;
	v.lane = tid % GM_WARP_SIZE;
	v.warp = tid / GM_WARP_SIZE;
	v.tx = tid % a->block[0];
	v.ty = tid / a->block[0] % a->block[1];
	v.tz = tid / ((int64_t)a->block[0] * a->block[1]);
	v.bx = gid / tpb;
	v.bdx = a->block[0];
	v.bdy = a->block[1];
	v.bdz = a->block[2];
	v.gid = gid;
	v.n = n;
	if (gm_expr_parse(a->index, &e, &err) || gm_expr_eval(e, &v, &idx, &err)) {
		gm_expr_free(e);
		return gm_error(GM_EXIT_USAGE, "thread gid=%lld computes a negative index (before any launch)",
				(long long)gid);
	}
	gm_expr_free(e);
	return gm_error(GM_EXIT_USAGE, "thread gid=%lld (block %lld, tid %lld) computes index %lld: below 0; "
			"nothing was launched with it", (long long)gid, (long long)v.bx, (long long)tid,
			(long long)idx);
}

/* The model's per-warp figures beside the counted ones, then the counter lines. */
static void print_counted(const struct gm_case_result *cr, const struct gm_launch_sample *ls,
			  const struct gm_jit_spec *sp)
{
	const struct gm_counters *c = &cr->counters;
	int st = sp->op == GM_OP_STORE;
	double req = st ? c->gst_requests : c->gld_requests, sec = st ? c->gst_sectors : c->gld_sectors;

	if (c->state == GM_COUNTERS_OK && sp->space == GM_SPACE_SHARED && c->smem_ld_inst > 0)
		printf("  per warp      tile loads: model %.0f wavefronts (ideal %.0f); counted %.2f wavefronts and %.2f "
		       "bank conflicts per shared load instruction (%.0f instructions)\n",
		       cr->npred ? cr->pred[0].per_request : 0, cr->npred ? cr->pred[0].ideal : 0,
		       c->smem_ld_wavefronts / c->smem_ld_inst, c->smem_ld_conflicts / c->smem_ld_inst, c->smem_ld_inst);
	else if (c->state == GM_COUNTERS_OK && ls->warps > 0 && req > 0)
		printf("  per warp      EXPR side (%s): model %.2f requests, %.2f sectors per warp access; counted "
		       "%.2f requests, %.2f sectors per warp (%.2f per request; %.0f requests over %lld warps)\n",
		       st ? "stores" : "loads", ls->requests_per_warp, ls->sectors_per_warp, req / (double)ls->warps,
		       sec / (double)ls->warps, sec / req, req, (long long)ls->warps);
	gm_counters_lines_write(stdout, c, cr->ms.median * 1e-3);
}

static void print_run(const struct gm_run_result *r, const struct gm_case_result *cr, const struct gm_jit_info *in,
		      const struct gm_launch_sample *ls, const struct gm_jit_spec *sp, const struct explain_run_opts *ro)
{
	char a[32], b[32];

	printf("\nrun on %s (%s): n = %lld threads, blocks of %d x %d x %d, %d-byte elements, %s%s%s\n",
	       r->dev.name, in->arch, (long long)sp->n, sp->block[0], sp->block[1], sp->block[2], sp->elem_bytes,
	       sp->op == GM_OP_LOAD ? "out[gid] = in[EXPR]" : "out[EXPR] = in[gid]",
	       sp->hint ? ", hint " : "", sp->hint == GM_HINT_CG ? "cg" : sp->hint == GM_HINT_CS ? "cs" :
	       sp->hint == GM_HINT_LU ? "lu" : sp->hint == GM_HINT_NC ? "nc" : "");
	printf("  index range   %lld .. %lld (in %s, out %s); NVRTC compile %.0f ms\n", (long long)in->index_lo,
	       (long long)in->index_hi, gm_format_bytes((double)in->in_elems * sp->elem_bytes, a, sizeof(a)),
	       gm_format_bytes((double)in->out_elems * sp->elem_bytes, b, sizeof(b)), in->compile_ms);
	if (cr->status != GM_CASE_OK) {
		printf("  %s: %s\n", gm_case_status_name(cr->status), cr->message);
		return;
	}
	printf("  validated     every thread's element\n");
	printf("  measured      %.1f GB/s (median of %d; min %.1f, max %.1f; CoV %.2f %%), %.4f ms per launch\n",
	       cr->gbs_median, cr->ms.n, cr->gbs_min, cr->gbs_max, cr->ms.cov_pct, cr->ms.median);
	if (sp->space == GM_SPACE_SHARED)
		printf("  model         %.0f wavefronts per warp access of the tile (ideal %.0f), warp 0 of block 0\n",
		       cr->npred ? cr->pred[0].per_request : 0, cr->npred ? cr->pred[0].ideal : 0);
	else
		printf("  model         %.2f sectors per warp on the EXPR side over %d sampled warps of %lld\n",
		       ls->sectors_per_warp, ls->sampled, (long long)ls->warps);
	if (cr->pred_gbs > 0)
		printf("  model bound   %.1f GB/s (peak %.1f x useful / sector bytes); measured / bound %.0f %%\n",
		       cr->pred_gbs, r->dev.peak_gbs, 100.0 * cr->gbs_median / cr->pred_gbs);
	if (sp->space == GM_SPACE_SHARED)
		printf("  bytes         (tiles %lld x %lld + n) x %d (every tile read once, one write per thread), "
		       "GB = 1e9\n", (long long)(in->in_elems / (in->tile_elems ? in->tile_elems : 1)),
		       (long long)in->tile_elems, sp->elem_bytes);
	else
		printf("  bytes         2 x n x %d (one read, one write per thread), GB = 1e9\n", sp->elem_bytes);
	if (ro->predicted_gbs > 0)
		printf("  launch model  predicted %.1f GB/s, measured %.1f GB/s: measured / predicted %.0f %%\n",
		       ro->predicted_gbs, cr->gbs_median, 100.0 * cr->gbs_median / ro->predicted_gbs);
	if (ro->predicted_gbs > 0 && cr->counters.state == GM_COUNTERS_OK)
		printf("  launch DRAM   predicted %.3f GB read, %.3f GB written; counted %.3f and %.3f GB\n",
		       ro->predicted_dram[0] / 1e9, ro->predicted_dram[1] / 1e9, cr->counters.dram_read_bytes / 1e9,
		       cr->counters.dram_write_bytes / 1e9);
	print_counted(cr, ls, sp);
}

static void add_json(json_t *obj, const struct gm_run_result *r, const struct gm_case_result *cr,
		     const struct gm_jit_info *in, const struct gm_launch_sample *ls, const struct gm_jit_spec *sp,
		     double pred_gbs)
{
	static const char *const hints[] = { "none", "cg", "cs", "lu", "nc" };
	json_t *run = json_pack("{s:s, s:s, s:I, s:[i,i,i], s:i, s:s, s:s, s:I, s:I, s:I, s:I, s:f, s:s, s:s, s:b}",
				"device", r->dev.name, "arch", in->arch, "n", (json_int_t)sp->n, "block",
				sp->block[0], sp->block[1], sp->block[2], "elem_bytes", sp->elem_bytes, "kernel",
				sp->op == GM_OP_LOAD ? "out[gid] = in[EXPR]" : "out[EXPR] = in[gid]", "hint",
				hints[sp->hint], "index_lo", (json_int_t)in->index_lo, "index_hi",
				(json_int_t)in->index_hi, "in_elems", (json_int_t)in->in_elems, "out_elems",
				(json_int_t)in->out_elems, "compile_ms", in->compile_ms, "status",
				gm_case_status_name(cr->status), "message", cr->message, "validated",
				cr->status == GM_CASE_OK);

	if (!run)
		return;
	if (cr->status == GM_CASE_OK) {
		json_object_set_new(run, "gbs", json_pack("{s:f, s:f, s:f}", "median", cr->gbs_median, "min",
							  cr->gbs_min, "max", cr->gbs_max));
		json_object_set_new(run, "ms_per_launch", json_real(cr->ms.median));
		json_object_set_new(run, "cov_pct", json_real(cr->ms.cov_pct));
		json_object_set_new(run, "samples", json_integer(cr->ms.n));
		json_object_set_new(run, "bytes_per_launch", json_real(cr->traffic.bytes_useful));
		json_object_set_new(run, "model_bytes_hw", json_real(cr->traffic.bytes_hw));
		json_object_set_new(run, "model_bound_gbs", json_real(cr->pred_gbs));
		if (pred_gbs > 0) {
			json_object_set_new(run, "predicted_gbs", json_real(pred_gbs));
			json_object_set_new(run, "measured_over_predicted", json_real(cr->gbs_median / pred_gbs));
		}
	}
	json_object_set_new(run, "model_sampled_warps", json_integer(ls->sampled));
	json_object_set_new(run, "model_sectors_per_warp", json_real(ls->sectors_per_warp));
	json_object_set_new(run, "space", json_string(sp->space == GM_SPACE_SHARED ? "shared" : "global"));
	if (sp->space == GM_SPACE_SHARED)
		json_object_set_new(run, "tile_elems", json_integer((json_int_t)in->tile_elems));
	if (cr->counters.state != GM_COUNTERS_NONE)
		json_object_set_new(run, "counters", (json_t *)gm_counters_json(&cr->counters));
	json_object_set_new(obj, "run", run);
}

int explain_run(const struct gm_access *acc, const struct explain_run_opts *ro, void *json)
{
	struct gm_jit_spec sp;
	struct gm_jit_info info;
	struct gm_launch_sample ls;
	struct gm_expr_error err;
	struct gm_run_result r;
	struct gm_case c;
	const struct gm_case *cp = &c;
	struct gm_runner_opts o = { 0 };
	char expr_c[4096];
	gm_status s;
	int rc;

	memset(&sp, 0, sizeof(sp));
	memset(&info, 0, sizeof(info));
	info.bad_gid = -1;
	if (gm_expr_to_c(acc->index, expr_c, sizeof(expr_c), &err))
		return gm_error(GM_EXIT_USAGE, "%s", err.msg[0] ? err.msg : "expression too long for --run");
	sp.expr = acc->index;
	sp.expr_c = expr_c;
	sp.op = acc->op;
	sp.elem_bytes = acc->elem_bytes;
	memcpy(sp.block, acc->block, sizeof(sp.block));
	sp.n = acc->n_threads;
	sp.hint = ro->hint;
	sp.space = acc->space;
	if (ro->source) {
		static char src[16384];
		s = gm_jit_source(&sp, src, sizeof(src));
		if (s)
			return gm_error(gm_exit_code(s), "%s", gm_last_error());
		fputs(src, stdout);
		return GM_EXIT_OK;
	}
	gm_result_init(&r);
	s = gm_gpu_open(ro->device, &r.dev);
	if (s)
		return gm_error(gm_exit_code(s), "%s", gm_last_error());
	r.have_device = 1;
	/* in and out hold at least n elements each: refuse what cannot fit before anything else */
	double need = 2.0 * (double)sp.n * sp.elem_bytes, tpb = (double)sp.block[0] * sp.block[1] * sp.block[2];
	if (need > (double)r.dev.free_mem)
		return gm_error(GM_EXIT_TOO_LARGE, "--n %lld threads need at least %.1f GiB for in and out; the GPU has "
				"%.1f GiB free", (long long)sp.n, need / (1 << 30), (double)r.dev.free_mem / (1 << 30));
	if ((double)sp.n / tpb > 2147483647.0)
		return gm_error(GM_EXIT_USAGE, "--n %lld threads in blocks of %.0f need more than 2^31-1 blocks",
				(long long)sp.n, tpb);
	memset(&ls, 0, sizeof(ls));
	ls.warps = (sp.n + GM_WARP_SIZE - 1) / GM_WARP_SIZE;
	rc = acc->space == GM_SPACE_SHARED ? 0 : sample_bytes(acc, sp.n, &sp.bytes_hw, &ls);
	if (rc)
		return rc;
	gm_jit_set(&sp, &info);
	memset(&c, 0, sizeof(c));
	snprintf(c.name, sizeof(c.name), "explain.run");
	snprintf(c.label, sizeof(c.label), "run");
	c.family = &jit_family;
	c.kind = acc->space == GM_SPACE_SHARED ? GM_KIND_MEASURE : GM_KIND_DRAM;
	c.unit = GM_UNIT_GBS;
	c.timing = GM_TIME_EVENTS;
	c.patterns[0].space = acc->space;
	c.patterns[0].op = acc->op;
	c.patterns[0].elem_bytes = acc->elem_bytes;
	memcpy(c.patterns[0].block, acc->block, sizeof(c.patterns[0].block));
	c.patterns[0].what = acc->op == GM_OP_LOAD ? "load in" : "store out";
	snprintf(c.patterns[0].index, sizeof(c.patterns[0].index), "%s", acc->index);
	c.npatterns = strlen(acc->index) < sizeof(c.patterns[0].index) ? 1 : 0;
	o.reps = ro->reps > 0 ? ro->reps : 20;
	o.warmup = 2;
	o.min_sample_ms = 0.5;
	o.seed = 0x5eed1234u;
	if (!ro->no_counters && gm_counters_open(GM_CSET_CASE, &o.counters)) {
		fprintf(stderr, "warning: %s\n", gm_last_error());
		gm_clear_error();
		o.counters = NULL;
	}
	s = gm_run_cases(&cp, 1, &o, &r.dev, &r);
	gm_counters_close(o.counters);
	if (s)
		rc = gm_error(gm_exit_code(s), "%s", gm_last_error());
	else if (r.ncases == 1 && json)
		add_json((json_t *)json, &r, &r.cases[0], &info, &ls, &sp, ro->predicted_gbs);
	else if (r.ncases == 1)
		print_run(&r, &r.cases[0], &info, &ls, &sp, ro);
	if (!rc && r.ncases == 1 && r.cases[0].status != GM_CASE_OK) {
		if (info.bad_gid >= 0)
			rc = bad_index(acc, sp.n, info.bad_gid);
		else if (r.cases[0].status == GM_CASE_SKIPPED)
			rc = gm_error(GM_EXIT_NO_DEVICE, "%s", r.cases[0].message);
		else
			rc = gm_error(info.status ? gm_exit_code(info.status) : GM_EXIT_CASE_FAILED, "%s",
				      r.cases[0].message);
	}
	gm_result_release(&r);
	gm_gpu_close();
	return rc;
}
