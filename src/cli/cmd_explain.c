/*
 * cmd_explain.c - `gpumem explain`: what one warp-level access costs, from
 * the analytic model alone (no GPU needed).
 *
 *   gpumem explain 'lane*32' --space shared
 *   gpumem explain --type double --block 16,2 --json 'ty*pitch + tx'
 *
 * Parses the options into a struct gm_access, calls gm_model_predict and
 * hands the prediction to explain's renderers (src/io/explain_text.c,
 * src/io/explain_json.c); --n and --run add their sections after it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "gpumem/gpu.h"
#include "gpumem/model.h"
#include "io/explain_io.h"
#include "cli/explain_suggest.h"

struct explain_opts {
	struct gm_access a;
	int run, have_block;
	int suggest;        /* --suggest: the rewrites, ranked (docs/SUGGEST.md) */
	struct explain_run_opts ro;
	const char *type;   /* type name shown in the output, NULL with --bytes */
	int have_type, have_bytes;
	int json;
	int help;
	const char *profile; /* --profile FILE for the launch model */
};

enum {
	OPT_SPACE = 256, OPT_OP, OPT_TYPE, OPT_BYTES, OPT_BLOCK, OPT_WARP,
	OPT_BLOCK_IDX, OPT_BASE, OPT_ACTIVE, OPT_JSON, OPT_RUN, OPT_N, OPT_HINT, OPT_REPS, OPT_DEVICE, OPT_SOURCE, OPT_PROFILE,
	OPT_NO_COUNTERS, OPT_SUGGEST, OPT_LAYOUT_FREE,
};

static const struct gm_opt explain_table[] = {
	{ "EXPR", GM_OPT_OPERAND, 0, NULL, "the element index each thread uses (quoted; -- before one that starts with '-')", NULL },
	{ "space", OPT_SPACE, 0, "global|shared", "memory space (default global)", "global shared" },
	{ "op", OPT_OP, 0, "load|store", "operation (default load)", "load store" },
	{ "type", OPT_TYPE, 0, "T", "element type: char short half int float double\n"
	  "float2 float4 int4 double2 long long ... (default float)",
	  "char short half int float double float2 float4 int4 double2" },
	{ "bytes", OPT_BYTES, 0, "N", "element size instead of --type: 1, 2, 4, 8 or 16", "1 2 4 8 16" },
	{ "block", OPT_BLOCK, 0, "X[,Y[,Z]]", "blockDim (default 32)", NULL },
	{ "warp", OPT_WARP, 0, "W", "warp of the block to explain (default 0)", NULL },
	{ "block-idx", OPT_BLOCK_IDX, 0, "X[,Y[,Z]]", "blockIdx (default 0)", NULL },
	{ "base", OPT_BASE, 0, "BYTES", "byte offset of element 0 (default 0)", NULL },
	{ "active", OPT_ACTIVE, 0, "EXPR", "only lanes where EXPR is non-zero access memory", NULL },
	{ "json", OPT_JSON, 0, NULL, "print one JSON object instead of text", NULL },
	{ NULL, GM_OPT_HEADING, 0, NULL, "run on the GPU (global memory):", NULL },
	{ "run", OPT_RUN, 0, NULL, "build a kernel around EXPR with NVRTC, validate it, time it,\n"
	  "print it beside the prediction. A 1D grid of --n threads in\n"
	  "blocks of --block; gid = blockIdx.x * threads per block + tid;\n"
	  "--op load: out[gid] = in[EXPR]; --op store: out[EXPR] = in[gid].\n"
	  "EXPR may also use gid and n.\n"
	  "--space shared (--op load): each block copies its tile\n"
	  "in[blockIdx.x*S .. +S) into shared memory, then\n"
	  "out[gid] = tile[EXPR]; S = largest EXPR + 1 (<= 48 KiB)", NULL },
	{ "hint", OPT_HINT, 0, "cg|cs|lu|nc", "cache hint of the access (stores: cg, cs)", "cg cs lu nc" },
	{ "reps", OPT_REPS, 0, "N", "timed samples (default 20)", NULL },
	{ "device", OPT_DEVICE, 0, "N", "GPU (default 0)", NULL },
	{ "source", OPT_SOURCE, 0, NULL, "print the generated CUDA source instead of running it", NULL },
	{ "no-counters", OPT_NO_COUNTERS, 0, NULL, "skip the profiled launch (CUPTI counters are read by default)", NULL },
	{ NULL, GM_OPT_HEADING, 0, NULL, "rewrites (docs/SUGGEST.md):", NULL },
	{ "suggest", OPT_SUGGEST, 0, NULL, "the kernel --run builds and every rewrite of it that computes the\n"
	  "same output (thread order, shared tiles, wider elements, block size,\n"
	  "alignment, data layout, cache hint, shared padding / swizzle), ranked\n"
	  "by the launch model; those that do not apply with the reason. With\n"
	  "--run each is validated against the original's output and timed;\n"
	  "with --source their CUDA sources are printed", NULL },
	{ "layout-free", OPT_LAYOUT_FREE, 0, NULL, "with --suggest: the data can live in a rewritten layout, so the\n"
	  "layout rewrite's speedup leaves out its conversion (counted once by default)", NULL },
	{ NULL, GM_OPT_HEADING, 0, NULL, "the launch model (no GPU needed):", NULL },
	{ "n", OPT_N, 0, "N", "threads of the launch (with --run, default: 1 GiB per array; --block\n"
	  "defaults to 256). Alone: also predict the whole launch --run builds: L1/L2\n"
	  "sectors, DRAM bytes read and written, time, GB/s (2 x N x element bytes)\n"
	  "and the limiting level; the grid is sampled in 8 windows of 256 warps when larger", NULL },
	{ "profile", OPT_PROFILE, 0, "FILE", "device profile (default: the built-in one, named in the output)", "@file" },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_explain = {
	"explain", "predict sectors / bank conflicts of one warp access, or a launch with --n (no GPU)",
	"[options] [--] EXPR",
	"Predict what one warp-level load or store costs: every lane's address, then\n"
	"requests / 32 B sectors / 128 B lines (global) or wavefronts and bank\n"
	"conflicts (shared), and a one-line verdict with the fix. No GPU needed.\n"
	"\n"
	"EXPR is the element index each thread uses, a C integer expression of\n"
	"  lane warp tid threadIdx.x/y/z (tx ty tz) blockIdx.x/y/z (bx by bz)\n"
	"  blockDim.x/y/z (bdx bdy bdz)\n"
	"with + - * / % << >> & | ^ ~ ! < <= > >= == != && || ?: and 0x literals.\n"
	"Address = base + EXPR * element size. Quote EXPR; put -- before one that\n"
	"starts with '-'.",
	explain_table,
	"examples:\n"
	"  gpumem explain 'lane*2'\n"
	"  gpumem explain --space shared 'lane*32'\n"
	"  gpumem explain --type double --block 16,2 'ty*1024 + tx'\n"
	"  gpumem explain --n 67108864 'gid*4'\n"
	"  gpumem explain --suggest --run '(gid%16384)*16384 + gid/16384'\n",
};

/* ---- option values ---------------------------------------------------- */

static int bad_value(const char *opt, const char *val, const char *hint)
{
	return gm_error(GM_EXIT_USAGE, "invalid value '%s' for --%s%s%s", val, opt,
			hint ? ": " : "", hint ? hint : "");
}

/* val must be a (*out = 0) or b (*out = 1). */
static int set_choice(const char *opt, const char *val, const char *a,
		      const char *b, int *out)
{
	char hint[48];

	*out = strcmp(val, b) == 0;
	if (strcmp(val, a) == 0 || *out)
		return 0;
	snprintf(hint, sizeof(hint), "use %s or %s", a, b);
	return bad_value(opt, val, hint);
}

static int set_type(struct explain_opts *o, const char *val)
{
	int bytes = gm_type_bytes(val);

	if (bytes == 0)
		return gm_error(GM_EXIT_USAGE,
				"unknown type '%s'; give its size with --bytes N (1, 2, 4, 8 or 16)",
				val);
	o->a.elem_bytes = bytes;
	o->type = val;
	o->have_type = 1;
	return 0;
}

/* One option; returns 0 or the exit code of a bad value. */
static int set_option(struct explain_opts *o, int c, const char *val)
{
	int space, op, rc;

	switch (c) {
	case OPT_SPACE:
		rc = set_choice("space", val, "global", "shared", &space);
		o->a.space = space ? GM_SPACE_SHARED : GM_SPACE_GLOBAL;
		return rc;
	case OPT_OP:
		rc = set_choice("op", val, "load", "store", &op);
		o->a.op = op ? GM_OP_STORE : GM_OP_LOAD;
		return rc;
	case OPT_TYPE:
		return set_type(o, val);
	case OPT_BYTES:
		o->have_bytes = 1;
		o->type = NULL;
		return gm_opt_int(val, &o->a.elem_bytes) < 0 ? bad_value("bytes", val, NULL) : 0;
	case OPT_BLOCK:
		o->have_block = 1;
		return gm_opt_dims(val, o->a.block, 1) < 0 ?
		       bad_value("block", val, "expected X[,Y[,Z]]") : 0;
	case OPT_BLOCK_IDX:
		return gm_opt_dims(val, o->a.block_idx, 0) < 0 ?
		       bad_value("block-idx", val, "expected X[,Y[,Z]]") : 0;
	case OPT_WARP:
		return gm_opt_int(val, &o->a.warp) < 0 ? bad_value("warp", val, NULL) : 0;
	case OPT_BASE:
		return gm_opt_i64(val, &o->a.base) < 0 ? bad_value("base", val, NULL) : 0;
	case OPT_ACTIVE:
		o->a.active = val;
		return 0;
	case OPT_RUN:
		o->run = 1;
		return 0;
	case OPT_SUGGEST:
		o->suggest = 1;
		return 0;
	case OPT_LAYOUT_FREE:
		o->ro.layout_free = 1;
		return 0;
	case OPT_SOURCE:
		o->run = o->ro.source = 1;
		return 0;
	case OPT_PROFILE:
		o->profile = val;
		return 0;
	case OPT_NO_COUNTERS:
		o->ro.no_counters = 1;
		return 0;
	case OPT_N:
		return gm_opt_i64(val, &o->ro.n) < 0 || o->ro.n <= 0 || o->ro.n > ((int64_t)1 << 40) ?
		       bad_value("n", val, "a thread count from 1 to 2^40") : 0;
	case OPT_REPS:
		return gm_opt_int(val, &o->ro.reps) < 0 || o->ro.reps < 1 || o->ro.reps > 10000 ?
		       bad_value("reps", val, "1..10000") : 0;
	case OPT_DEVICE:
		return gm_opt_int(val, &o->ro.device) < 0 || o->ro.device < 0 ? bad_value("device", val, NULL) : 0;
	case OPT_HINT: {
		static const char *const h[] = { "cg", "cs", "lu", "nc" };
		for (int k = 0; k < 4; k++)
			if (!strcmp(val, h[k])) {
				o->ro.hint = k + 1;
				return 0;
			}
		return bad_value("hint", val, "use cg, cs, lu or nc");
	}
	default: /* OPT_JSON */
		o->json = 1;
		return 0;
	}
}

/* What --run accepts beyond what the model does. */
static int check_run(const struct explain_opts *o)
{
	if (!o->run && (o->ro.hint || o->ro.reps))
		return gm_error(GM_EXIT_USAGE, "--hint and --reps go with --run");
	if (o->suggest && o->a.space == GM_SPACE_SHARED && o->a.op == GM_OP_STORE)
		return gm_error(GM_EXIT_USAGE, "--suggest --space shared rewrites loads from a shared tile; --op store "
			       "makes no sense with it");
	if (o->suggest && (o->a.active || o->a.base || o->a.warp || o->a.block_idx[0] || o->a.block_idx[1] ||
			   o->a.block_idx[2]))
		return gm_error(GM_EXIT_USAGE, "--suggest rewrites every thread of the launch: --active, --base, --warp "
			       "and --block-idx do not apply");
	if (o->ro.layout_free && !o->suggest)
		return gm_error(GM_EXIT_USAGE, "--layout-free goes with --suggest");
	if (o->profile && !o->run && !o->ro.n && !o->suggest)
		return gm_error(GM_EXIT_USAGE, "--profile goes with --n (the launch model) or --run");
	if (o->ro.n && !o->run && !o->suggest && o->a.space != GM_SPACE_GLOBAL)
		return gm_error(GM_EXIT_USAGE, "--n predicts a launch over global memory; --space shared is not supported");
	if (o->ro.n && !o->run && (o->a.active || o->a.warp || o->a.block_idx[0] || o->a.block_idx[1] ||
				   o->a.block_idx[2]))
		return gm_error(GM_EXIT_USAGE, "--n predicts every thread of the launch: --active, --warp "
			       "and --block-idx do not apply");
	if (!o->run)
		return 0;
	if (o->a.space == GM_SPACE_SHARED && o->a.op == GM_OP_STORE)
		return gm_error(GM_EXIT_USAGE, "--run --space shared measures loads from a shared tile; --op store is "
			       "not supported with it");
	if (o->a.space == GM_SPACE_SHARED && o->ro.hint)
		return gm_error(GM_EXIT_USAGE, "--hint applies to global accesses, not to --space shared");
	if (o->a.active || o->a.base || o->a.warp || o->a.block_idx[0] || o->a.block_idx[1] || o->a.block_idx[2])
		return gm_error(GM_EXIT_USAGE, "--run times every thread of the launch: --active, --base, --warp "
			       "and --block-idx do not apply");
	if (o->a.op == GM_OP_STORE && o->a.elem_bytes < 4)
		return gm_error(GM_EXIT_USAGE, "--run --op store needs elements of 4 bytes or more (a stored "
			       "value must name the thread that wrote it)");
	if (o->a.op == GM_OP_STORE && (o->ro.hint == 3 || o->ro.hint == 4))
		return gm_error(GM_EXIT_USAGE, "--hint lu and nc are load hints; stores take cg or cs");
	return 0;
}

static void opts_init(struct explain_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->a.space = GM_SPACE_GLOBAL;
	o->a.op = GM_OP_LOAD;
	o->a.elem_bytes = 4;
	o->type = "float";
	o->a.block[0] = o->a.block[1] = o->a.block[2] = 1;
	o->a.block[0] = 32;
}

static int explain_option(void *ctx, const struct gm_opt *row, const char *val)
{
	return set_option(ctx, row->key, val);
}

static int parse_args(int argc, char **argv, struct explain_opts *o)
{
	struct gm_opts_state st;
	int rc;

	opts_init(o);
	rc = gm_opts_parse(&gm_doc_explain, argc, argv, explain_option, o, &st);
	if (rc == GM_OPTS_HELP)
		o->help = 1;
	else if (rc == GM_OPTS_MISSING)
		rc = gm_error(GM_EXIT_USAGE, "option '%s' needs a value; see 'gpumem explain --help'", st.bad);
	else if (rc == GM_OPTS_UNKNOWN)
		rc = gm_error(GM_EXIT_USAGE, "unknown option '%s'; see 'gpumem explain --help'", st.bad);
	else if (rc < 0)
		rc = gm_opts_error(&gm_doc_explain, rc, &st);
	else if (!rc && o->have_type && o->have_bytes)
		rc = gm_error(GM_EXIT_USAGE, "--type and --bytes both given; use one");
	else if (!rc && st.noperands == 0)
		rc = gm_error(GM_EXIT_USAGE, "no index expression; see 'gpumem explain --help'");
	else if (!rc && st.noperands > 1)
		rc = gm_error(GM_EXIT_USAGE, "unexpected argument '%s' (one index expression expected; quote it)",
			      st.operands[1]);
	else if (!rc)
		o->a.index = st.operands[0];
	gm_opts_release(&st);
	return rc == GM_OPTS_HELP ? 0 : rc;
}

/* ---- errors ----------------------------------------------------------- */

/* The expression, then a caret under byte `pos` (blanks keep the columns). */
static void print_caret(const char *text, size_t pos)
{
	size_t len = strlen(text), k;

	fputs("    ", stderr);
	for (k = 0; k < len; k++)
		fputc(text[k] == '\t' || text[k] == '\n' || text[k] == '\r' ?
		      ' ' : text[k], stderr);
	fputs("\n    ", stderr);
	for (k = 0; k < pos && k < len; k++)
		fputc(' ', stderr);
	fputs("^\n", stderr);
}

static int model_error(const struct explain_opts *o, gm_status s,
		       const struct gm_expr_error *err)
{
	int in_active = err->text && err->text == o->a.active;
	int code = s == GM_ERR_NOMEM ? GM_EXIT_CASE_FAILED : GM_EXIT_USAGE;

	gm_error(code, "%s%s", err->msg[0] ? err->msg : gm_strerror(s),
		 in_active ? " (in --active)" : "");
	if (err->text && (s == GM_ERR_PARSE || s == GM_ERR_EVAL))
		print_caret(err->text, err->pos);
	return code;
}

/* ---- output ----------------------------------------------------------- */

/*
 * With --run, the launch model takes the profile of the GPU that will run the
 * kernel (its name). A GPU that cannot be opened ends the command here with
 * its one line and exit code (it used to fall back to no device silently,
 * leaving the error for the run to trip over: the fault walk of 2026-11-25).
 */
static int run_device(const struct explain_opts *o, struct gm_device_info *info, const char **name)
{
	gm_status s;

	*name = NULL;
	if (!o->run || !o->ro.n)
		return GM_EXIT_OK;
	s = gm_gpu_open(o->ro.device, info);
	if (s)
		return gm_error(gm_exit_code(s), "%s", gm_last_error());
	*name = info->name;
	return GM_EXIT_OK;
}

/* The explain document, written whole once --n and --run have added their sections (the run writes it). */
static int print_json(struct explain_opts *o, const struct gm_prediction *p)
{
	struct gm_explain_view v = { &o->a, o->type, p };
	struct gm_explain_doc doc = { &v };
	struct gm_device_info info;
	const char *dev = NULL;
	int rc = GM_EXIT_OK;

	if (o->ro.n && !(rc = run_device(o, &info, &dev)))
		rc = explain_launch(&o->a, o->a.n_threads, o->profile, dev, dev ? info.uuid : NULL, &doc, &o->ro);
	if (!rc && o->run)
		return explain_run(&o->a, &o->ro, &doc);
	return rc ? rc : explain_write_json(&doc);
}

/* The warp's explanation, then the launch model's section (--n) and the run (--run). */
static int print_text(struct explain_opts *o, const struct gm_prediction *p)
{
	struct gm_explain_view v = { &o->a, o->type, p };
	struct gm_device_info info;
	int rc = GM_EXIT_OK;

	const char *dev = NULL;

	if ((rc = run_device(o, &info, &dev)))
		return rc;
	gm_write(stdout, GM_DOC_EXPLAIN, "text", &(struct gm_explain_doc){ &v });
	if (o->ro.n)
		rc = explain_launch(&o->a, o->a.n_threads, o->profile, dev, dev ? info.uuid : NULL, NULL, &o->ro);
	return rc || !o->run ? rc : explain_run(&o->a, &o->ro, NULL);
}

int cmd_explain(int argc, char **argv)
{
	struct explain_opts o;
	struct gm_prediction p;
	struct gm_expr_error err;
	gm_status s;
	int rc = parse_args(argc, argv, &o);

	if (rc != 0)
		return rc;
	if (o.help) {
		gm_cmd_help(stdout, &gm_doc_explain);
		return GM_EXIT_OK;
	}
	if ((rc = check_run(&o)) != 0)
		return rc;
	if ((o.run || o.ro.n || o.suggest) && !o.have_block)
		o.a.block[0] = 256; /* a launch, not one warp: fill the SMs as the families do */
	if (o.run || o.ro.n || o.suggest)
		o.a.n_threads = o.ro.n ? o.ro.n : ((int64_t)1 << 30) / o.a.elem_bytes;
	if (o.ro.n && !o.ro.source && (rc = explain_launch_profile(o.profile)) != 0)
		return rc; /* a bad --profile stops before any output */
	s = gm_model_predict(&o.a, &p, &err);
	if (s != GM_OK)
		return model_error(&o, s, &err);
	if (o.suggest)
		return explain_suggest(&o.a, &o.ro, o.run, o.profile, o.json);
	if (o.ro.source)
		return explain_run(&o.a, &o.ro, NULL);
	return o.json ? print_json(&o, &p) : print_text(&o, &p);
}
