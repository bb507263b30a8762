/*
 * trace_read.c - the trace document ("gpumem-trace/1", docs/TRACE.md) into
 * struct gm_trace. Strict on what the analysis needs (schema, launches,
 * instructions and their samples, with their types), lenient on the rest
 * (absent or null fields are unknown).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/trace.h"
#include "io/json_file.h"

struct rd {
	const char *origin;
	gm_status st;
};

static gm_status bad(struct rd *r, const char *what)
{
	if (r->st == GM_OK)
		r->st = gm_fail(GM_ERR_PARSE, "'%s': %s", r->origin, what);
	return r->st;
}

static char *str_of(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_string(v) ? strdup(json_string_value(v)) : NULL;
}

static double num_of(const json_t *o, const char *key, double dflt)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

static int64_t int_of(const json_t *o, const char *key, int64_t dflt)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (int64_t)json_integer_value(v) : json_is_real(v) ? (int64_t)json_real_value(v) :
	       dflt;
}

static int dims_of(const json_t *o, const char *key, int64_t out[3])
{
	const json_t *a = json_object_get(o, key);

	out[0] = out[1] = out[2] = 1;
	if (!json_is_array(a) || json_array_size(a) < 1 || json_array_size(a) > 3)
		return -1;
	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *v = json_array_get(a, i);
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return -1;
		out[i] = json_integer_value(v);
	}
	return 0;
}

static int sample_of(const json_t *o, struct gm_trace_sample *s)
{
	int64_t b[3];
	const json_t *a = json_object_get(o, "addr");

	memset(s, 0, sizeof(*s));
	if (!json_is_object(o) || dims_of(o, "block", b) || !json_is_array(a) || json_array_size(a) > GM_WARP_SIZE)
		return -1;
	for (int k = 0; k < 3; k++)
		s->block[k] = b[k] > 2147483647 ? 2147483647 : (int)b[k];
	s->warp = (int)int_of(o, "warp", -1);
	s->iter = (int)int_of(o, "iter", 0);
	s->mask = (uint32_t)int_of(o, "mask", 0xffffffffll);
	if (s->warp < 0 || s->warp >= 32 || s->iter < 0)
		return -1;
	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *v = json_array_get(a, i);
		if (json_is_null(v))
			continue;
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return -1;
		s->addr[i] = json_integer_value(v);
		s->have |= 1u << i;
	}
	s->have &= s->mask;
	return 0;
}

static int space_of(const char *s, enum gm_trace_space *out)
{
	static const char *const n[] = { "global", "shared", "local" };

	for (int k = 0; k < 3; k++)
		if (s && !strcmp(s, n[k]))
			return *out = (enum gm_trace_space)k, 0;
	return -1;
}

static int op_of(const char *s, enum gm_trace_op *out)
{
	static const char *const n[] = { "load", "store", "atomic", "reduction" };

	for (int k = 0; k < 4; k++)
		if (s && !strcmp(s, n[k]))
			return *out = (enum gm_trace_op)k, 0;
	return -1;
}

/* A file of the CUDA toolkit, the C library or a Python package (pip's CUDA headers, CuPy's), not the user's:
   the toolkit's include folders, /usr/include, /usr/lib, site- or dist-packages, NVRTC's built-in headers
   (no folder). */
static int toolkit_file(const char *f)
{
	static const char *const prefix[] = { "/usr/local/cuda", "/usr/include/", "/usr/lib/", "/opt/nvidia/" };
	static const char *const part[] = { "/site-packages/", "/dist-packages/", "/include/cuda/std/", "/include/cub/",
					    "/include/thrust/", "/include/cccl/" };
	const char *t = strstr(f, "/targets/");

	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(f, prefix[i], strlen(prefix[i])))
			return 1;
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		if (strstr(f, part[i]))
			return 1;
	return (t && strstr(t, "/include/")) || (!strchr(f, '/') && !strncmp(f, "__nv", 4));
}

/*
 * The user's line (TRACE.md, "Lines inlined from a header"): an instruction whose line is in a toolkit file
 * (atomicMax's wrapper in device_atomic_functions.hpp, an intrinsic) is named at the innermost of its call sites
 * ("inlined_at", innermost first) in a file of the user's, the header's line kept as file_inner:line_inner. A
 * document without call sites, or with none of the user's, keeps its line.
 */
static int user_site(const json_t *o, struct gm_trace_instr *in)
{
	const json_t *at = json_object_get(o, "inlined_at"), *s;
	size_t i;

	if (!in->file || in->line <= 0 || !toolkit_file(in->file))
		return 0;
	json_array_foreach(at, i, s) {
		const char *f = json_string_value(json_object_get(s, "file"));
		int line = (int)int_of(s, "line", 0);
		if (!f || line <= 0 || toolkit_file(f))
			continue;
		in->file_inner = in->file, in->line_inner = in->line;
		in->file = strdup(f), in->line = line;
		return in->file ? 0 : -1;
	}
	return 0;
}

/* The instruction's "values" (docs/TRACE.md, "Values"): absent or null leaves have 0 (an older document); present,
   it must be an object with a non-negative "lanes" and every count within it. 0, or -1 when malformed. */
static int values_of(const json_t *o, struct gm_trace_values *v)
{
	const json_t *a = json_object_get(o, "small");

	memset(v, 0, sizeof(*v));
	v->silent = v->float_exact = v->own_x = v->own_y = v->own_elem = -1;
	v->nsmall = -1;
	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o) || !json_is_integer(json_object_get(o, "lanes")))
		return -1;
	v->lanes = num_of(o, "lanes", -1);
	v->zero = num_of(o, "zero", 0);
	v->silent = num_of(o, "silent", -1);
	v->float_exact = num_of(o, "float_exact", -1);
	v->own_x = num_of(o, "own_x", -1);
	v->own_y = num_of(o, "own_y", -1);
	v->own_elem = num_of(o, "own_elem", -1);
	v->ints = json_is_integer(json_object_get(o, "min")) && json_is_integer(json_object_get(o, "max"));
	v->min = int_of(o, "min", 0);
	v->max = int_of(o, "max", 0);
	v->int_bits = (int)int_of(o, "int_bits", 64);
	if (json_is_array(a) && json_array_size(a) <= 64)
		v->nsmall = (int)json_array_size(a);
	if (v->lanes < 0 || v->zero < 0 || v->zero > v->lanes || v->silent > v->lanes || v->float_exact > v->lanes ||
	    v->own_x > v->lanes || v->own_y > v->lanes || v->own_elem > v->lanes || (v->ints && v->min > v->max) || v->int_bits < 0 ||
	    v->int_bits > 64)
		return -1;
	v->have = v->lanes > 0;
	return 0;
}

static gm_status instr_of(struct rd *r, const json_t *o, struct gm_trace_instr *in)
{
	const json_t *sm = json_object_get(o, "samples");
	const char *sp = json_string_value(json_object_get(o, "space"));
	const char *op = json_string_value(json_object_get(o, "op"));

	if (!json_is_object(o))
		return bad(r, "an instruction is not an object");
	in->pc = int_of(o, "pc", -1);
	in->sass = str_of(o, "sass");
	in->file = str_of(o, "file");
	in->line = (int)int_of(o, "line", 0);
	if (user_site(o, in))
		return r->st = gm_fail(GM_ERR_NOMEM, "out of memory reading '%s'", r->origin);
	in->size = (int)int_of(o, "size", 0);
	if (space_of(sp, &in->space) || op_of(op, &in->op))
		return bad(r, "an instruction's 'space' or 'op' is missing or unknown");
	if (in->size <= 0 || in->size > 64)
		return bad(r, "an instruction's 'size' is missing or not 1-64 bytes");
	in->executions = num_of(o, "executions", -1);
	in->thread_accesses = num_of(o, "thread_accesses", -1);
	in->sectors = num_of(o, "sectors", -1);
	in->requests = num_of(o, "requests", -1);
	in->wavefronts = num_of(o, "wavefronts", -1);
	in->ideal_sectors = num_of(o, "ideal_sectors", -1);
	in->ideal_wavefronts = num_of(o, "ideal_wavefronts", -1);
	in->host = json_is_string(json_object_get(o, "memory")) &&
		   !strcmp(json_string_value(json_object_get(o, "memory")), "host");
	if (values_of(json_object_get(o, "values"), &in->values))
		return bad(r, "an instruction's 'values' is malformed (an object: lanes, and counts no larger)");
	if (sm && !json_is_null(sm) && !json_is_array(sm))
		return bad(r, "an instruction's 'samples' is not an array");
	size_t n = json_is_array(sm) ? json_array_size(sm) : 0;
	in->samples = n ? calloc(n, sizeof(*in->samples)) : NULL;
	if (n && !in->samples)
		return r->st = gm_fail(GM_ERR_NOMEM, "out of memory reading '%s'", r->origin);
	for (size_t i = 0; i < n; i++, in->nsamples++)
		if (sample_of(json_array_get(sm, i), &in->samples[i]))
			return bad(r, "a sample is malformed (block, warp 0-31, mask, iter, addr: 32 integers or null)");
	return GM_OK;
}

/* an STL / LDL's bytes a thread from its width suffix (.64, .128, .U8 ...; none: 4) */
static int local_width(const char *op)
{
	return strstr(op, ".128") ? 16 : strstr(op, ".64") ? 8 : strstr(op, "8") ? 1 : strstr(op, "16") ? 2 : 4;
}

/* "local_instructions" (optional): the STL / LDL the trace did not record, into l->spill; nspill -1 without */
static gm_status read_spills(struct rd *r, struct gm_trace_launch *l, const json_t *a)
{
	size_t i;
	const json_t *x;

	l->nspill = -1;
	if (!json_is_array(a))
		return GM_OK;
	l->nspill = 0;
	l->spill = calloc(json_array_size(a) + 1, sizeof(*l->spill));
	if (!l->spill)
		return r->st = gm_fail(GM_ERR_NOMEM, "out of memory reading '%s'", r->origin);
	json_array_foreach(a, i, x) {
		const char *op = json_string_value(json_object_get(x, "sass"));
		if (!op || json_is_true(json_object_get(x, "traced")) || (strncmp(op, "STL", 3) && strncmp(op, "LDL", 3)))
			continue;
		struct gm_trace_spill *sp = &l->spill[l->nspill++];
		sp->pc = int_of(x, "pc", -1);
		sp->store = !strncmp(op, "STL", 3);
		sp->bytes = local_width(op);
		sp->file = str_of(x, "file");
		sp->line = (int)int_of(x, "line", 0);
	}
	return GM_OK;
}

static gm_status launch_of(struct rd *r, const json_t *o, struct gm_trace_launch *l)
{
	int64_t b[3];
	const json_t *ins = json_object_get(o, "instructions");
	const json_t *li = json_object_get(o, "lineinfo"), *cl = json_object_get(o, "constant_lane_loads");

	if (!json_is_object(o))
		return bad(r, "a launch is not an object");
	l->index = int_of(o, "index", -1);
	l->kernel = str_of(o, "kernel");
	l->name = str_of(o, "name");
	if (!l->kernel)
		return bad(r, "a launch has no 'kernel'");
	if (dims_of(o, "grid", l->grid) || dims_of(o, "block", b) || b[0] * b[1] * b[2] > 1024 ||
	    b[0] * b[1] * b[2] < 1 || l->grid[0] * l->grid[1] * l->grid[2] < 1)
		return bad(r, "a launch's 'grid' or 'block' is missing or out of range");
	for (int k = 0; k < 3; k++)
		l->block[k] = (int)b[k];
	l->shared_dynamic = int_of(o, "shared_dynamic", -1);
	l->shared_static = int_of(o, "shared_static", 0);
	l->registers = (int)int_of(o, "registers", 0);
	l->time_ms = num_of(o, "time_ms", -1);
	l->time_source = str_of(o, "time_source");
	l->dram_read_bytes = num_of(o, "dram_read_bytes", -1);
	l->dram_write_bytes = num_of(o, "dram_write_bytes", -1);
	l->lineinfo = json_is_boolean(li) ? json_is_true(li) : -1;
	if (json_is_array(cl) && json_array_size(cl) > 0) {   /* the collector's LDC rows (optional) */
		const json_t *c0 = json_array_get(cl, 0);
		l->const_lane = (int)json_array_size(cl);
		l->const_lane_pc = int_of(c0, "pc", -1);
		l->const_lane_file = str_of(c0, "file");
		l->const_lane_line = (int)int_of(c0, "line", 0);
	}
	l->local_bytes = int_of(o, "local_bytes", -1);
	if (read_spills(r, l, json_object_get(o, "local_instructions")) != GM_OK)
		return r->st;
	if (!json_is_array(ins))
		return bad(r, "a launch has no 'instructions' array");
	size_t n = json_array_size(ins);
	l->ins = n ? calloc(n, sizeof(*l->ins)) : NULL;
	if (n && !l->ins)
		return r->st = gm_fail(GM_ERR_NOMEM, "out of memory reading '%s'", r->origin);
	for (size_t i = 0; i < n; i++) {
		l->nins = (int)i + 1;   /* counted first: gm_trace_free releases a half-read one */
		if (instr_of(r, json_array_get(ins, i), &l->ins[i]))
			return r->st;
	}
	return GM_OK;
}

static char **strings_of(const json_t *a, int *n)
{
	size_t m = json_is_array(a) ? json_array_size(a) : 0;
	char **v = calloc(m + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; v && i < m; i++)
		if (json_is_string(json_array_get(a, i)))
			v[(*n)++] = strdup(json_string_value(json_array_get(a, i)));
	return v;
}

static void head_of(const json_t *doc, struct gm_trace *t)
{
	const json_t *tool = json_object_get(doc, "tool"), *p = json_object_get(doc, "program");
	const json_t *d = json_object_get(doc, "device"), *o = json_object_get(doc, "options");

	t->tool_version = str_of(tool, "version");
	t->commit = str_of(tool, "commit");
	t->argv = strings_of(json_object_get(p, "argv"), &t->argc);
	t->exit_status = (int)int_of(p, "exit_status", -1);
	t->signal = (int)int_of(p, "signal", 0);
	t->timed_out = json_is_true(json_object_get(p, "timed_out"));
	t->wall_s = num_of(p, "wall_s", -1);
	t->passes = (int)int_of(p, "passes", 0);
	t->dev.index = (int)int_of(d, "index", -1);
	t->dev.name = str_of(d, "name");
	t->dev.uuid = str_of(d, "uuid");
	t->dev.cc = str_of(d, "cc");
	t->dev.sm_count = (int)int_of(d, "sm_count", 0);
	t->dev.l2_bytes = int_of(d, "l2_bytes", 0);
	t->dev.clock_khz = int_of(d, "clock_khz", 0);
	t->dev.driver = (int)int_of(d, "driver", 0);
	t->dev.runtime = (int)int_of(d, "runtime", 0);
	const char *cc = t->dev.cc;
	t->dev.sm.cc = cc && cc[0] >= '0' && cc[0] <= '9' && cc[1] == '.' ? (cc[0] - '0') * 10 + (cc[2] - '0') :
		       cc && cc[0] == '1' && cc[2] == '.' ? (10 + cc[1] - '0') * 10 + (cc[3] - '0') : 0;
	t->dev.sm.smem = int_of(d, "smem_per_sm", 0);
	t->dev.sm.smem_reserved = int_of(d, "smem_reserved_per_block", -1);
	t->dev.sm.regs = (int)int_of(d, "regs_per_sm", 0);
	t->dev.sm.blocks = (int)int_of(d, "blocks_per_sm", 0);
	t->dev.sm.threads = (int)int_of(d, "threads_per_sm", 0);
	t->opts.kernel_regex = str_of(o, "kernel_regex");
	t->opts.launch_skip = int_of(o, "launch_skip", 0);
	t->opts.launch_count = int_of(o, "launch_count", 1);
	t->opts.sample_warps = (int)int_of(o, "sample_warps", 0);
	t->opts.timeout_s = num_of(o, "timeout_s", 0);
	t->notes = strings_of(json_object_get(doc, "notes"), &t->nnotes);
}

gm_status gm_trace_read_json(const void *docv, const char *origin, struct gm_trace *t)
{
	const json_t *doc = docv;
	struct rd r = { origin, GM_OK };
	const json_t *sch = json_object_get(doc, "schema"), *ls = json_object_get(doc, "launches");

	memset(t, 0, sizeof(*t));
	if (!json_is_object(doc))
		return bad(&r, "not a JSON object");
	if (!json_is_string(sch))
		return gm_fail(GM_ERR_PARSE, "'%s' is not a gpumem trace document (no field 'schema')", origin);
	if (strcmp(json_string_value(sch), GM_TRACE_DOC_SCHEMA))
		return gm_fail(GM_ERR_PARSE, "'%s' has schema '%.60s', not '%s'", origin, json_string_value(sch),
			       GM_TRACE_DOC_SCHEMA);
	if (!json_is_array(ls))
		return bad(&r, "no 'launches' array");
	head_of(doc, t);
	size_t n = json_array_size(ls);
	t->launches = n ? calloc(n, sizeof(*t->launches)) : NULL;
	if (n && !t->launches)
		return gm_fail(GM_ERR_NOMEM, "out of memory reading '%s'", origin);
	for (size_t i = 0; i < n; i++) {
		t->nlaunches = (int)i + 1;
		if (launch_of(&r, json_array_get(ls, i), &t->launches[i]))
			return r.st;
		t->launches[i].sm = t->dev.sm;
	}
	return GM_OK;
}

gm_status gm_trace_read(const char *path, struct gm_trace *t)
{
	json_error_t e;
	json_t *doc;
	gm_status st;

	memset(t, 0, sizeof(*t));
	doc = gm_json_load_path(path, &e);
	if (!doc)
		return gm_fail(e.line > 0 ? GM_ERR_PARSE : GM_ERR_IO, "cannot read '%s': %s", path, e.text);
	st = gm_trace_read_json(doc, path, t);
	json_decref(doc);
	return st;
}

static void free_instr(struct gm_trace_instr *in)
{
	free(in->sass);
	free(in->file);
	free(in->file_inner);
	free(in->samples);
}

void gm_trace_free(struct gm_trace *t)
{
	for (int i = 0; i < t->nlaunches; i++) {
		struct gm_trace_launch *l = &t->launches[i];
		for (int k = 0; k < l->nins; k++)
			free_instr(&l->ins[k]);
		free(l->ins);
		free(l->kernel);
		free(l->name);
		free(l->time_source);
		free(l->const_lane_file);
		for (int q = 0; q < l->nspill; q++)
			free(l->spill[q].file);
		free(l->spill);
	}
	free(t->launches);
	for (int i = 0; t->argv && i < t->argc; i++)
		free(t->argv[i]);
	free(t->argv);
	for (int i = 0; t->notes && i < t->nnotes; i++)
		free(t->notes[i]);
	free(t->notes);
	free(t->tool_version);
	free(t->commit);
	free(t->dev.name);
	free(t->dev.uuid);
	free(t->dev.cc);
	free(t->opts.kernel_regex);
	memset(t, 0, sizeof(*t));
}
