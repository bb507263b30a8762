/*
 * cmd_selftest.c - `gpumem selftest --counters`: the model against the
 * hardware counters on this GPU. Every probe pattern (tests/gpu/patterns.tsv,
 * built into the binary) is predicted by the model and launched once under
 * CUPTI; global patterns compare requests and sectors of their op, shared
 * ones wavefronts and bank conflicts, exactly (the same rule as
 * tests/gpu/probe.c's ncu comparison). Prints "N/M patterns agree" and each
 * pattern that does not; exit 0 when all agree, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "gpumem/counters.h"
#include "gpumem/gpu.h"
#include "gpumem/model.h"
#include "gpumem/probe.h"
#include "gpumem/units.h"

#define GLOBAL_ROUND (64 * 1024)
#define SMEM_MAX (48 * 1024)

enum { S_COUNTERS = 256, S_DEVICE };

static const struct gm_opt selftest_opts[] = {
	{ "counters", S_COUNTERS, 0, NULL, "run the model-vs-counters probe set (one warp access per pattern, counted with\n"
	  "CUPTI) and report how many patterns the model predicts exactly", NULL },
	{ "device", S_DEVICE, 0, "N", "GPU (default 0)", NULL },
	{ "verbose", 'v', 'v', NULL, "one line per pattern, not only the disagreements", NULL },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_selftest = {
	"selftest", "--counters: check the model against this GPU's hardware counters",
	"--counters [--device N] [--verbose]",
	"Every probe pattern built into the binary (tests/gpu/patterns.tsv) is predicted by the model\n"
	"and launched once under CUPTI: requests and sectors (global), wavefronts and bank conflicts\n"
	"(shared) must agree exactly. Exit 0 when every pattern agrees, 1 otherwise.",
	selftest_opts, NULL,
};

struct probe_row {
	struct gm_probe_desc d;
	struct gm_prediction pred;
	int pred_ok;
	long long p[2], m[2];
	const char *agree;  /* yes, no, model-error, error */
	char why[160];
};

static int64_t span_end(const struct gm_prediction *pred, int elem)
{
	int64_t end = 0;

	for (int i = 0; i < GM_WARP_SIZE; i++)
		if (pred->lanes[i].active && pred->lanes[i].addr + elem > end)
			end = pred->lanes[i].addr + elem;
	return end;
}

static void predict(struct probe_row *r)
{
	struct gm_access a;
	struct gm_expr_error err;

	memset(&a, 0, sizeof(a));
	a.space = r->d.space ? GM_SPACE_SHARED : GM_SPACE_GLOBAL;
	a.op = r->d.op ? GM_OP_STORE : GM_OP_LOAD;
	a.elem_bytes = r->d.elem_bytes;
	memcpy(a.block, r->d.block, sizeof(a.block));
	a.warp = r->d.warp;
	a.base = r->d.base;
	a.index = r->d.index;
	a.active = r->d.active;
	r->pred_ok = gm_model_predict(&a, &r->pred, &err) == GM_OK;
	if (!r->pred_ok) {
		r->agree = "model-error";
		snprintf(r->why, sizeof(r->why), "%s", err.msg);
		return;
	}
	r->p[0] = r->d.space ? r->pred.shared.wavefronts : r->pred.global.requests;
	r->p[1] = r->d.space ? r->pred.shared.bank_conflicts : r->pred.global.sectors;
}

static void judge(struct probe_row *r, const struct gm_counters *c)
{
	int st = r->d.op;

	if (r->d.space) {
		r->m[0] = (long long)(st ? c->smem_st_wavefronts : c->smem_ld_wavefronts);
		r->m[1] = (long long)(st ? c->smem_st_conflicts : c->smem_ld_conflicts);
	} else {
		r->m[0] = (long long)(st ? c->gst_requests : c->gld_requests);
		r->m[1] = (long long)(st ? c->gst_sectors : c->gld_sectors);
	}
	r->agree = r->p[0] == r->m[0] && r->p[1] == r->m[1] ? "yes" : "no";
}

static void print_row(const struct probe_row *r)
{
	const char *q0 = r->d.space ? "wavefronts" : "requests", *q1 = r->d.space ? "conflicts" : "sectors";

	printf("  %s %s %s %dB block %d,%d,%d warp %d base %lld active [%s] index [%s]: %s", r->d.name,
	       r->d.space ? "shared" : "global", r->d.op ? "store" : "load", r->d.elem_bytes, r->d.block[0],
	       r->d.block[1], r->d.block[2], r->d.warp, r->d.base, r->d.active, r->d.index, r->agree);
	if (!strcmp(r->agree, "yes") || !strcmp(r->agree, "no"))
		printf(": %s model %lld hw %lld, %s model %lld hw %lld", q0, r->p[0], r->m[0], q1, r->p[1], r->m[1]);
	else
		printf(": %s", r->why);
	printf("\n");
}

/* Predict all, size the shared global buffer from the model's addresses. */
static int64_t predict_all(struct probe_row *rows, int n)
{
	int64_t need = 256;

	for (int i = 0; i < n; i++) {
		gm_probe_get(i, &rows[i].d);
		predict(&rows[i]);
		if (rows[i].pred_ok && !rows[i].d.space) {
			int64_t end = span_end(&rows[i].pred, rows[i].d.elem_bytes);
			need = end > need ? end : need;
		}
	}
	return (need + GLOBAL_ROUND - 1) / GLOBAL_ROUND * GLOBAL_ROUND;
}

static int run_probes(struct probe_row *rows, int n, struct gm_counters_session *s, int verbose)
{
	int agree = 0;

	for (int i = 0; i < n; i++) {
		struct probe_row *r = &rows[i];
		struct gm_probe_launch l = { i, 0 };
		struct gm_counters c;

		if (r->pred_ok) {
			if (r->d.space) {
				int64_t end = span_end(&r->pred, r->d.elem_bytes);
				l.smem = (size_t)((end > 16 ? end : 16) + 15) / 16 * 16;
			}
			if (l.smem > SMEM_MAX || gm_counters_collect(s, gm_probe_launch_fn, &l, &c)) {
				r->agree = "error";
				snprintf(r->why, sizeof(r->why), "%s", l.smem > SMEM_MAX ? "needs more than 48 KiB of "
					 "shared memory" : gm_last_error());
				gm_clear_error();
			} else
				judge(r, &c);
		}
		agree += !strcmp(r->agree, "yes");
	}
	printf("%d/%d patterns agree\n", agree, n);
	for (int i = 0; i < n; i++)
		if (verbose || strcmp(rows[i].agree, "yes"))
			print_row(&rows[i]);
	return agree == n ? GM_EXIT_OK : GM_EXIT_CASE_FAILED;
}

static int selftest_counters(int device, int verbose)
{
	struct gm_device_info dev;
	struct gm_counters_session *s = NULL;
	struct probe_row *rows;
	int n = gm_probe_count(), code;
	gm_status st = gm_gpu_open(device, &dev);

	if (st)
		return gm_error(gm_exit_code(st), "%s", gm_last_error());
	if (n == 0)
		return gm_error(GM_EXIT_NO_DEVICE, "selftest --counters: this gpumem was built without CUDA");
	st = gm_counters_open(GM_CSET_PROBE, &s);
	if (st)
		return gm_error(GM_EXIT_NO_DEVICE, "%s", gm_last_error());
	rows = calloc((size_t)n, sizeof(*rows));
	if (!rows) {
		gm_counters_close(s);
		return gm_error(GM_EXIT_USAGE, "out of memory");
	}
	st = gm_probe_buffers((size_t)predict_all(rows, n));
	printf("selftest --counters on %s (sm_%d%d): %d probe patterns, CUPTI, %d replay passes each\n", dev.name,
	       dev.cc_major, dev.cc_minor, n, gm_counters_passes(s));
	code = st ? gm_error(gm_exit_code(st), "%s", gm_last_error()) : run_probes(rows, n, s, verbose);
	gm_probe_buffers_free();
	gm_counters_close(s);
	free(rows);
	gm_gpu_close();
	return code;
}

struct selftest_args {
	int counters, verbose;
	long device;
};

static int selftest_option(void *ctx, const struct gm_opt *o, const char *v)
{
	struct selftest_args *a = ctx;

	if (o->key == S_COUNTERS)
		a->counters = 1;
	else if (o->key == 'v')
		a->verbose = 1;
	else if (gm_parse_int(v, 0, 1023, &a->device))
		return gm_error(GM_EXIT_USAGE, "--device: %s", gm_last_error());
	return 0;
}

int cmd_selftest(int argc, char **argv)
{
	struct selftest_args a = { 0 };
	struct gm_opts_state st;
	int rc = gm_opts_parse(&gm_doc_selftest, argc, argv, selftest_option, &a, &st);

	if (rc == GM_OPTS_HELP)
		gm_cmd_help(stdout, &gm_doc_selftest);
	else if (rc == GM_OPTS_UNKNOWN || rc == GM_OPTS_MISSING || (!rc && st.noperands))
		rc = gm_error(GM_EXIT_USAGE, "unknown option '%s' (see 'gpumem selftest --help')",
			      rc ? st.bad : st.operands[0]);
	else if (rc < 0)
		rc = gm_opts_error(&gm_doc_selftest, rc, &st);
	gm_opts_release(&st);
	if (rc)
		return rc == GM_OPTS_HELP ? GM_EXIT_OK : rc;
	if (!a.counters)
		return gm_error(GM_EXIT_USAGE, "selftest needs --counters (the only self-test so far; see "
				"'gpumem selftest --help')");
	return selftest_counters((int)a.device, a.verbose);
}
