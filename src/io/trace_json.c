/*
 * trace_json.c - `gpumem trace --json FILE`: the report as one
 * "gpumem-trace-report/1" document (docs/SCHEMA.md, "The trace report").
 * Unknown figures are null.
 */
#include <jansson.h>
#include <stdio.h>
#include "io/trace_io.h"

#define TK_SCHEMA "schema"
#define TK_TOOL "tool"
#define TK_PROGRAM "program"
#define TK_DEVICE "device"
#define TK_PROFILE "profile"
#define TK_NOTES "notes"
#define TK_KERNELS "kernels"

static json_t *num(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

static json_t *str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *strings(char *const *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *fix_json(const struct gm_trace_kernel *k, const struct gm_trace_fix *x)
{
	if (x->same_as)   /* the change of another instruction's group */
		return json_pack("{s:I}", "same_as_pc", (json_int_t)k->ins[x->same_as - 1].in->pc);
	if (!x->have)
		return json_null();
	return json_pack("{s:i,s:f,s:o,s:o,s:f,s:f,s:i,s:o,s:b,s:s,s:s}", "instructions", x->ninstr, "time_share",
			 x->share, "rewrite", x->rewrite[0] ? json_string(x->rewrite) : json_null(),
			 "change", x->change[0] ? json_string(x->change) : json_null(), "pattern_speedup",
			 x->pattern_speedup, "kernel_speedup", x->kernel_speedup, "wide_elements", x->wide > 1 ? x->wide : 1,
			 "wide_speedup", x->wide > 1 ? json_real(x->wide_speedup) : json_null(), "worth_changing", x->worth,
			 "words", x->words, "sketch", x->sketch);
}

static json_t *pattern_json(const struct gm_trace_fit *f)
{
	static const char *const nm[] = { "tx", "ty", "tz", "bx", "by", "bz" };
	json_t *as = json_array();

	for (int v = 0; as && v < 6; v++)
		if (f->map.assumed >> v & 1)
			json_array_append_new(as, json_string(nm[v]));
	if (!f->map.known)
		return json_decref(as), json_pack("{s:b,s:s,s:i,s:o}", "fitted", 0, "why", f->why, "lanes", f->lanes,
						  "stand_in_1d", f->approx ? json_string(f->expr1d) : json_null());
	json_t *tab = f->map.niter_tab ? json_array() : json_null();
	for (int q = 0; q < f->map.niter_tab; q++)
		json_array_append_new(tab, json_integer(f->map.iter_tab[q]));
	return json_pack("{s:b,s:s,s:s,s:I,s:o,s:i,s:I,s:i,s:o,s:b}", "fitted", 1, "expr", f->expr, "expr_1d", f->expr1d,
			 "iter_step", (json_int_t)f->map.iter_step, "iter_table", tab, "iters", f->iters, "base",
			 (json_int_t)f->map.base, "lanes", f->lanes, "assumed", as, "lanes_sorted", f->lanes_sorted != 0);
}

static json_t *per_req_json(const struct gm_trace_fit *f)
{
	const char *chk = f->check_ok == 1 ? "ok" : f->check_ok == 0 ? "differs" : "not checked";

	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:s}", "measured", num(f->meas_per_req), "ideal", num(f->ideal_per_req),
			 "sampled", num(f->sample_per_req), "model", num(f->model_per_req), "check_diff_pct",
			 f->check_ok >= 0 ? json_real(f->check_diff_pct) : json_null(), "check", chk);
}

/* the instruction's sampled values as the document gives them (docs/TRACE.md, "Values"); null without */
static json_t *ivalues_json(const struct gm_trace_values *v)
{
	if (!v->have)
		return json_null();
	return json_pack("{s:f,s:f,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "lanes", v->lanes, "zero", v->zero, "silent",
			 num(v->silent), "float_exact", num(v->float_exact), "min", v->ints ? json_integer(v->min) : json_null(),
			 "max", v->ints ? json_integer(v->max) : json_null(), "int_bits", v->ints ? json_integer(v->int_bits) :
			 json_null(), "distinct_small", v->nsmall >= 0 ? json_integer(v->nsmall) : json_null(), "own_x",
			 num(v->own_x), "own_y", num(v->own_y), "own_elem", num(v->own_elem));
}

static json_t *instr_json(const struct gm_trace_kernel *k, const struct gm_trace_insn *x)
{
	const struct gm_trace_instr *in = x->in;
	json_t *o;

	o = json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:s,s:s,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:f,s:f,s:o,s:s,s:I,s:s,"
			 "s:o}", "pc", (json_int_t)in->pc, "sass", str(in->sass), "file", str(in->file), "line",
			 in->line > 0 ? json_integer(in->line) : json_null(), "file_inner", str(in->file_inner),
			 "line_inner", in->line_inner > 0 ? json_integer(in->line_inner) : json_null(),
			 "space", gm_trace_space_name(in->space),
			 "op", gm_trace_op_name(in->op), "size", in->size, "executions", num(in->executions), "requests",
			 num(in->requests), "sectors", num(in->sectors), "wavefronts", num(in->wavefronts),
			 "ideal_sectors", num(in->ideal_sectors), "per_request", per_req_json(&x->fit), "bytes",
			 num(x->bytes), "share", x->share, "time_share", x->time_share, "pattern", pattern_json(&x->fit),
			 "class", gm_trace_class_name(x->fit.cls), "class_k", (json_int_t)x->fit.cls_k, "class_text",
			 x->fit.cls_text, "fix", fix_json(k, &x->fix));
	if (o)
		json_object_set_new(o, "values", ivalues_json(&in->values));
	return o;
}

static json_t *pred_json(const struct gm_trace_kernel *k)
{
	if (!k->pred_ok)
		return json_pack("{s:n,s:s}", "time_ms", "why", k->pred_why);
	char rules[400];

	gm_launch_rules_names(k->pred.rules_fired, rules, sizeof(rules));
	return json_pack("{s:f,s:o,s:o,s:s,s:f,s:f,s:s,s:o,s:s,s:i,s:f}", "time_ms", k->pred.time_ms, "time_low_ms",
			 num(k->pred_lo_ms), "time_high_ms", num(k->pred_hi_ms), "rules", rules, "dram_read_bytes",
			 k->pred.dram_read_bytes, "dram_write_bytes", k->pred.dram_write_bytes, "limited_by",
			 k->limited_by, "error_pct", k->time_ms > 0 ? json_real(k->pred_err_pct) : json_null(), "note",
			 k->pred_why, "round_trips", k->trips, "steps_ms", k->steps_ms);
}

/* the waste the kernel's values show (src/analysis/trace_values.c; docs/SCHEMA.md, "value_findings") */
static json_t *values_json(const struct gm_trace_kernel *k)
{
	json_t *a = json_array();

	for (int i = 0; a && i < k->nvf; i++) {
		const struct gm_trace_value_finding *x = &k->vf[i];
		json_array_append_new(a, json_pack("{s:s,s:I,s:b,s:o,s:f,s:f,s:o,s:b,s:s,s:s}", "rule",
				      gm_trace_value_rule_name(x->rule), "pc", (json_int_t)k->ins[x->ins].in->pc, "refused",
				      x->refused, "new_size", x->new_size ? json_integer(x->new_size) : json_null(), "fraction",
				      x->fraction, "bytes", x->bytes, "kernel_speedup", x->priced ? json_real(x->kernel_speedup) :
				      json_null(), "worth", x->worth,
				      "words", x->words, "sketch", x->sketch));
	}
	return a;
}

static json_t *kernel_json(const struct gm_trace_kernel *k)
{
	const struct gm_trace_launch *l = k->l;
	json_t *ins = json_array();

	json_t *o;

	for (int j = 0; ins && j < k->norder; j++)
		json_array_append_new(ins, instr_json(k, &k->ins[k->order[j]]));
	o = json_pack("{s:I,s:s,s:o,s:[III],s:[iii],s:I,s:o,s:o,s:o,s:b,s:o,s:o,s:o,s:o,s:s,s:s,s:o}",
			 "launch_index", (json_int_t)l->index, "kernel", l->kernel, "name", str(l->name), "grid",
			 (json_int_t)l->grid[0], (json_int_t)l->grid[1], (json_int_t)l->grid[2], "block", l->block[0],
			 l->block[1], l->block[2], "threads", (json_int_t)k->threads, "time_ms", num(k->time_ms),
			 "time_source", str(l->time_source), "dram_bytes", num(k->dram_bytes), "dram_measured",
			 k->dram_measured, "achieved_gbs", num(k->gbs), "roof_gbs", num(k->roof_gbs), "roof_pct",
			 num(k->roof_pct), "predicted", pred_json(k), "primary", k->primary, "secondary", k->secondary,
			 "instructions", ins);
	if (o)   /* docs/TRACE.md, "Memory-bound" */
		json_object_set_new(o, "memory_bound", json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:f}", "bound",
				    k->memory_bound < 0 ? json_null() : json_boolean(k->memory_bound), "share",
				    num(k->bound_share), "level", str(k->bound_level), "dram_ms", num(k->bound_dram_ms),
				    "l2_ms", num(k->bound_l2_ms), "l1_ms", num(k->bound_l1_ms), "threshold",
				    GM_TRACE_MEMORY_BOUND));
	if (o && k->occ.blocks > 0)   /* docs/TRACE.md, "Occupancy" (rule OC) */
		json_object_set_new(o, "occupancy", json_pack("{s:i,s:i,s:o,s:o,s:s?,s:I,s:o,s:I,s:I}", "blocks_per_sm",
				    k->occ.blocks, "of", k->occ.of, "by_shared", k->occ.by_smem > 0 ? json_integer(k->occ.by_smem) :
				    json_null(), "by_registers", k->occ.by_regs > 0 ? json_integer(k->occ.by_regs) : json_null(),
				    "limit", k->occ.limit, "shared_block_bytes", (json_int_t)k->occ.smem_block,
				    "shared_dynamic", l->shared_dynamic >= 0 ? json_integer(l->shared_dynamic) : json_null(),
				    "shared_used_bytes", (json_int_t)k->occ.smem_used, "registers", (json_int_t)l->registers));
	if (o)
		json_object_set_new(o, "value_findings", values_json(k));
	if (o && k->run)   /* --run: the top fix's pattern and rewrites timed (docs/SCHEMA.md) */
		json_object_set(o, "run", (json_t *)k->run);
	return o;
}

/* the run-level findings (src/analysis/trace_run.c; docs/SCHEMA.md, "across_launches") */
static json_t *run_json(const struct gm_trace_report *r)
{
	const struct gm_trace_across *u = &r->across;
	json_t *fs = json_array();

	for (int i = 0; fs && i < u->n; i++) {
		const struct gm_trace_run_finding *x = &u->f[i];
		const struct gm_trace_kernel *a = &r->k[x->first], *b = &r->k[x->second];
		json_t *d = x->rule == GM_TR_COPY_BACK ? json_pack("{s:I,s:I}", "first_byte", (json_int_t)x->lo2, "bytes", (json_int_t)(x->hi2 - x->lo2)) :
			    json_null();
		json_array_append_new(fs, json_pack("{s:s,s:I,s:I,s:I,s:I,s:{s:I,s:I},s:o,s:o,s:f,s:f,s:f,s:s,s:s}", "rule",
				      gm_trace_run_rule_name(x->rule), "first_launch", (json_int_t)a->l->index, "second_launch",
				      (json_int_t)b->l->index, "first_pc", (json_int_t)a->ins[x->ins_first].in->pc,
				      "second_pc", (json_int_t)b->ins[x->ins_second].in->pc, "buffer", "first_byte",
				      (json_int_t)x->lo, "bytes", (json_int_t)(x->hi - x->lo), "destination", d, "keep",
				      x->keep > 0 ? json_integer(x->keep) : json_null(), "bytes", x->bytes, "saved_ms", x->saved_ms,
				      "run_speedup", x->run_speedup, "words", x->words, "sketch", x->sketch));
	}
	return json_pack("{s:o,s:f,s:f,s:o}", "run_ms", num(u->run_ms), "saved_ms", u->saved_ms, "speedup", u->speedup,
			 "findings", fs);
}

gm_status gm_trace_json(FILE *f, const struct gm_trace_report *r)
{
	const struct gm_trace *t = r->t;
	json_t *ks = json_array(), *doc;
	int bad;

	for (int i = 0; ks && i < r->nk; i++)
		json_array_append_new(ks, kernel_json(&r->k[i]));
	doc = json_pack("{s:s,s:{s:s,s:s},s:{s:o,s:i,s:i,s:b},s:{s:o,s:o,s:o},s:o,s:o,s:o}", TK_SCHEMA,
			GM_TRACE_REPORT_SCHEMA, TK_TOOL, "name", "gpumem", "version", GPUMEM_VERSION, TK_PROGRAM, "argv",
			strings(t->argv, t->argc), "exit_status", t->exit_status, "signal", t->signal, "timed_out",
			t->timed_out, TK_DEVICE, "name", str(t->dev.name), "uuid", str(t->dev.uuid), "cc", str(t->dev.cc),
			TK_PROFILE, r->prof ? json_string(r->prof->origin) : json_null(), TK_NOTES,
			strings(t->notes, t->nnotes), TK_KERNELS, ks);
	if (doc)
		json_object_set_new(doc, "across_launches", run_json(r));
	if (!doc)
		return gm_fail(GM_ERR_NOMEM, "cannot build the trace report's JSON");
	bad = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0 || fputc('\n', f) == EOF;
	json_decref(doc);
	return bad ? gm_fail(GM_ERR_IO, "cannot write the trace report") : GM_OK;
}
