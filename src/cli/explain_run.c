/*
 * explain_run.c - `gpumem explain --run`: the access the model just explained,
 * built into a kernel (src/families/jit/jit.cu), validated and timed by the runner,
 * printed beside the prediction. Semantics: include/gpumem/jit.h.
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/io.h"
#include "gpumem/jit.h"
#include "gpumem/result.h"
#include "families/family.h"
#include "gpumem/counters.h"
#include "io/explain_io.h"

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
	int64_t idx = 0;
	struct gm_thread_vars v;
	struct gm_expr *e = NULL;
	struct gm_expr_error err;

	gm_thread_vars_1d(a, n, gid, &v);
	if (gm_expr_parse(a->index, &e, &err) || gm_expr_eval(e, &v, &idx, &err)) {
		gm_expr_free(e);
		return gm_error(GM_EXIT_USAGE, "thread gid=%lld computes a negative index (before any launch)",
				(long long)gid);
	}
	gm_expr_free(e);
	return gm_error(GM_EXIT_USAGE, "thread gid=%lld (block %lld, tid %lld) computes index %lld: below 0; "
			"nothing was launched with it", (long long)gid, (long long)v.bx, (long long)v.tid,
			(long long)idx);
}

int explain_write_json(const struct gm_explain_doc *doc)
{
	gm_status s = gm_write(stdout, GM_DOC_EXPLAIN, "json", doc);

	return s ? gm_error(s == GM_ERR_NOMEM ? GM_EXIT_CASE_FAILED : GM_EXIT_IO, "%s", gm_last_error()) : 0;
}

int explain_run(const struct gm_access *acc, const struct explain_run_opts *ro, struct gm_explain_doc *doc)
{
	struct gm_jit_spec sp;
	struct gm_jit_info info;
	struct gm_launch_sample ls;
	struct gm_expr_error err;
	struct gm_run_result r;
	struct gm_case c;
	const struct gm_case *cp = &c;
	struct gm_runner_opts o = { 0 };
	struct gm_explain_run_view v = { &r, NULL, &info, &ls, &sp, ro->predicted_gbs,
					 { ro->predicted_dram[0], ro->predicted_dram[1] } };
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
	gm_warn_if_tool_attached();
	s = gm_run_cases(&cp, 1, &o, &r.dev, &r);
	gm_counters_close(o.counters);
	gm_warn_if_tool_attached();   /* a sanitizer's libraries are mapped once CUDA is up */
	v.cr = r.ncases == 1 ? &r.cases[0] : NULL;
	if (s)
		rc = gm_error(gm_exit_code(s), "%s", gm_last_error());
	else if (v.cr && !doc) /* the run's section, the verdict on it after */
		gm_write(stdout, GM_DOC_EXPLAIN, "text", &(struct gm_explain_doc){ .run = &v });
	if (!rc && r.ncases == 1 && r.cases[0].status != GM_CASE_OK) {
		if (info.bad_gid >= 0)
			rc = bad_index(acc, sp.n, info.bad_gid);
		else if (r.cases[0].status == GM_CASE_SKIPPED)
			rc = gm_error(GM_EXIT_NO_DEVICE, "%s", r.cases[0].message);
		else
			rc = gm_error(info.status ? gm_exit_code(info.status) : GM_EXIT_CASE_FAILED, "%s",
				      r.cases[0].message);
	}
	if (!rc && doc) {
		doc->run = v.cr ? &v : NULL;
		rc = explain_write_json(doc);
		doc->run = NULL;
	}
	gm_result_release(&r);
	gm_gpu_close();
	return rc;
}
