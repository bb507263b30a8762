/*
 * explain_suggest.c - `gpumem explain --suggest [--run] EXPR`: the rewrites of
 * the access (src/model/suggest*.c), ranked by the launch model; with --run
 * each one, the original first, built by NVRTC (src/families/jit/jit.cu), validated
 * against the original's semantics and timed by the runner; rendered by
 * src/io/suggest_out.c. docs/SUGGEST.md.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli/cli.h"
#include "gpumem/writer.h"
#include "gpumem/gpu.h"
#include "gpumem/io.h"
#include "gpumem/jit.h"
#include "gpumem/parallel.h"
#include "gpumem/profile.h"
#include "gpumem/result.h"
#include "gpumem/suggest.h"
#include "families/family.h"
#include "io/suggest_io.h"
#include "cli/explain_suggest.h"

static const struct gm_family suggest_family = {
	"explain", "explain --suggest --run: a rewrite of the user's index expression as a kernel", NULL, gm_jit_ops,
	NULL,
};

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* The jit spec of row r: the original's semantics (checker), the rewrite's kernel and launch. */
static void spec_of(const struct gm_suggest *s, const struct gm_rewrite *r, const char *expr_c, struct gm_jit_spec *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->expr = s->in.a.index;
	sp->expr_c = expr_c;
	sp->op = s->in.a.op;
	sp->elem_bytes = s->in.a.elem_bytes;
	memcpy(sp->block, s->in.a.block, sizeof(sp->block));
	sp->n = s->in.n;
	sp->hint = (enum gm_hint)r->hint;
	sp->space = s->in.a.space;
	sp->run_src = r->src[0] ? r->src : NULL;
	memcpy(sp->run_block, r->block, sizeof(sp->run_block));
	sp->run_threads = r->threads;
	sp->in_pad_bytes = r->in_pad_bytes;
	sp->out_pad_bytes = r->out_pad_bytes;
	sp->layout = r->layout;
	sp->smem_padded = r->smem_padded;
}

static int print_sources(const struct gm_suggest *s, const char *expr_c)
{
	static char buf[20000];
	struct gm_jit_spec sp;

	for (int k = 0; k < s->nrows; k++) {
		if (!s->rows[k].applies)
			continue;
		spec_of(s, &s->rows[k], expr_c, &sp);
		if (gm_jit_source(&sp, buf, sizeof(buf)) != GM_OK)
			return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
		gm_suggest_source_write(stdout, &s->rows[k], buf);
	}
	return GM_EXIT_OK;
}

/* One row through the runner: compile, validate, time. */
static void run_row(const struct gm_suggest *s, int k, const char *expr_c, const struct explain_run_opts *ro,
		    const struct gm_device_info *dev, struct gm_suggest_meas *m)
{
	struct gm_jit_spec sp;
	struct gm_jit_info info;
	struct gm_run_result r;
	struct gm_case c;
	const struct gm_case *cp = &c;
	struct gm_runner_opts o = { 0 };
	gm_status st;

	memset(&info, 0, sizeof(info));
	info.bad_gid = -1;
	spec_of(s, &s->rows[k], expr_c, &sp);
	gm_jit_set(&sp, &info);
	memset(&c, 0, sizeof(c));
	snprintf(c.name, sizeof(c.name), "explain.suggest.%s", s->rows[k].name);
	snprintf(c.label, sizeof(c.label), "%s", s->rows[k].name);
	c.family = &suggest_family;
	c.kind = s->in.a.space == GM_SPACE_SHARED ? GM_KIND_MEASURE : GM_KIND_DRAM;
	c.unit = GM_UNIT_GBS;
	c.timing = GM_TIME_EVENTS;
	o.reps = ro->reps > 0 ? ro->reps : 20;
	o.warmup = 2;
	o.min_sample_ms = 0.5;
	o.seed = 0x5eed1234u;
	gm_result_init(&r);
	r.dev = *dev;
	r.have_device = 1;
	st = gm_run_cases(&cp, 1, &o, dev, &r);
	m->row[k].compile_ms = info.compile_ms;
	m->row[k].layout_ms = info.layout_ms;
	m->row[k].layout_first_ms = info.layout_first_ms;
	if (st || r.ncases != 1) {
		m->row[k].status = GM_SG_FAILED;
		snprintf(m->row[k].message, sizeof(m->row[k].message), "%.190s", st ? gm_last_error() : "no result");
	} else if (r.cases[0].status != GM_CASE_OK) {
		m->row[k].status = r.cases[0].status == GM_CASE_SKIPPED ? GM_SG_SKIPPED : GM_SG_FAILED;
		snprintf(m->row[k].message, sizeof(m->row[k].message), "%.190s", r.cases[0].message);
	} else {
		/* GB/s over the original's useful bytes: every row does the same work */
		m->row[k].status = GM_SG_OK;
		m->row[k].ms = r.cases[0].ms.median;
		m->row[k].cov_pct = r.cases[0].ms.cov_pct;
		m->row[k].gbs = m->row[k].ms > 0 ? s->useful_bytes / (m->row[k].ms * 1e6) : 0;
	}
	gm_result_release(&r);
}

/* Every applicable row through the runner; the first row that failed (-1: none). */
static int run_all(const struct gm_suggest *s, const char *expr_c, const struct explain_run_opts *ro,
		   const struct gm_device_info *dev, struct gm_suggest_meas *m)
{
	double t0 = now_ms();
	int failed = -1;

	m->ran = 1;
	snprintf(m->device, sizeof(m->device), "%.90s", dev->name);
	for (int k = 0; k < s->nrows; k++) {
		if (!s->rows[k].applies)
			continue;
		run_row(s, k, expr_c, ro, dev, m);
		if (m->row[k].status == GM_SG_FAILED && failed < 0)
			failed = k;
	}
	for (int k = 0; k < s->nrows; k++)
		if (m->row[k].status == GM_SG_OK && m->row[0].status == GM_SG_OK) {
			double conv = s->rows[k].layout && !s->in.layout_free ? m->row[k].layout_ms : 0;

			m->row[k].speedup_kernel = m->row[0].ms / m->row[k].ms;
			m->row[k].speedup = m->row[0].ms / (m->row[k].ms + conv);
		}
	m->wall_ms = now_ms() - t0;
	return failed;
}

static int render(const struct gm_suggest *s, const struct gm_suggest_meas *m, int json)
{
	if (gm_write(stdout, GM_DOC_SUGGEST, json ? "json" : "text", &(struct gm_suggest_doc){ s, m }))
		return gm_error(json ? GM_EXIT_CASE_FAILED : GM_EXIT_IO, "%s", gm_last_error());
	return GM_EXIT_OK;
}

/* The exit of a run in which row k failed: which row, and the runner's why (docs/SUGGEST.md, "Bad input"). */
static int failure(const struct gm_suggest *s, const struct gm_suggest_meas *m, int k)
{
	if (k == 0)
		return gm_error(GM_EXIT_CASE_FAILED, "the original failed its validation or its run, so no rewrite's "
				"speedup is measured: %s", m->row[0].message);
	return gm_error(GM_EXIT_CASE_FAILED, "rewrite '%s' failed its validation or its run (a bug): %s",
			s->rows[k].name, m->row[k].message);
}

int explain_suggest(const struct gm_access *acc, const struct explain_run_opts *ro, int run, const char *profile,
		    int json)
{
	static struct gm_suggest s;
	static struct gm_suggest_meas m;
	struct gm_suggest_in in;
	struct gm_device_info dev;
	struct gm_profile p;
	struct gm_expr_error err;
	char expr_c[4096];
	int rc, have_dev = 0;

	memset(&m, 0, sizeof(m));
	memset(&in, 0, sizeof(in));
	in.a = *acc;
	in.n = acc->n_threads;
	if (run && !ro->source && gm_suggest_runnable(&in))
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (run && !ro->source) {
		gm_status st = gm_gpu_open(ro->device, &dev);
		if (st)
			return gm_error(gm_exit_code(st), "%s", gm_last_error());
		have_dev = 1;
	}
	if ((rc = gm_cli_profile(profile, have_dev ? dev.name : NULL, &p, 0)) != 0)
		return rc;
	in.hint = ro->hint;
	in.prof = &p;
	in.threads = gm_cores();
	in.layout_free = ro->layout_free;
	if (gm_expr_to_c(acc->index, expr_c, sizeof(expr_c), &err))
		return gm_error(GM_EXIT_USAGE, "%s", err.msg[0] ? err.msg : "expression too long for --suggest");
	gm_status st = gm_suggest_build(&in, &s, &err);
	if (st == GM_ERR_INVALID_ARG)
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (st)
		return gm_error(GM_EXIT_USAGE, "%s", err.msg[0] ? err.msg : gm_strerror(st));
	if (ro->source)
		return print_sources(&s, expr_c);
	int failed = have_dev ? run_all(&s, expr_c, ro, &dev, &m) : -1;
	if (have_dev)
		gm_gpu_close();
	rc = render(&s, have_dev ? &m : NULL, json);
	return rc || failed < 0 ? rc : failure(&s, &m, failed);
}
