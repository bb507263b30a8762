/*
 * explain_json.c - `gpumem explain --json`: the explain document of one warp
 * access, its "launch" object (--n) and its "run" object (--run), as jansson
 * objects the CLI assembles and prints. Moved from src/cli (cmd_explain.c,
 * explain_launch.c, explain_run.c); tests/explain/golden.sh holds the output.
 */
#include <jansson.h>
#include "gpumem/io.h"
#include "io/counters_io.h"
#include "io/explain_io.h"

/* JSON keys of the explain document. */
#define EK_SPACE "space"
#define EK_OP "op"
#define EK_ELEM_BYTES "elem_bytes"
#define EK_TYPE "type"
#define EK_BLOCK "block"
#define EK_WARP "warp"
#define EK_BLOCK_IDX "block_idx"
#define EK_BASE "base"
#define EK_ACTIVE "active"
#define EK_EXPR "expr"
#define EK_NLANES "lanes_in_warp"
#define EK_NACTIVE "active_lanes"
#define EK_STRIDE "lane_stride_bytes"
#define EK_REQUESTS "requests"
#define EK_SECTORS "sectors"
#define EK_MIN_SECTORS "min_sectors"
#define EK_LINES "lines"
#define EK_BYTES_REQ "bytes_requested"
#define EK_BYTES_XFER "bytes_transferred"
#define EK_EFFICIENCY "efficiency_pct"
#define EK_WAVEFRONTS "wavefronts"
#define EK_IDEAL "ideal_wavefronts"
#define EK_CONFLICTS "bank_conflicts"
#define EK_MAX_WAYS "max_ways"
#define EK_BROADCAST "broadcast"
#define EK_VERDICT "verdict"
#define EK_LANES "lanes"
#define EK_L_LANE "lane"
#define EK_L_ACTIVE "active"
#define EK_L_INDEX "index"
#define EK_L_ADDR "addr"
#define EK_L_SECTOR "sector"
#define EK_L_LINE "line"
#define EK_L_BANK "bank"
#define EK_L_WORD "word"

/* ---- one warp ---------------------------------------------------------- */

static json_t *int3(const int v[3])
{
	return json_pack("[iii]", v[0], v[1], v[2]);
}

static json_t *lane_json(const struct gm_access *a, const struct gm_lane *L, int lane)
{
	int global = a->space == GM_SPACE_GLOBAL;

	if (!L->active)
		return json_pack("{s:i, s:b}", EK_L_LANE, lane, EK_L_ACTIVE, 0);
	return json_pack("{s:i, s:b, s:I, s:I, s:I, s:I}", EK_L_LANE, lane,
			 EK_L_ACTIVE, 1, EK_L_INDEX, (json_int_t)L->index,
			 EK_L_ADDR, (json_int_t)L->addr,
			 global ? EK_L_SECTOR : EK_L_BANK,
			 (json_int_t)(global ? L->sector : L->bank),
			 global ? EK_L_LINE : EK_L_WORD,
			 (json_int_t)(global ? L->line : L->word));
}

static json_t *lanes_json(const struct gm_explain_view *v)
{
	json_t *arr = json_array();
	int lane;

	for (lane = 0; arr && lane < v->p->nlanes; lane++)
		if (json_array_append_new(arr, lane_json(v->a, &v->p->lanes[lane], lane)) < 0) {
			json_decref(arr);
			return NULL;
		}
	return arr;
}

static json_t *inputs_json(const struct gm_explain_view *v)
{
	const struct gm_access *a = v->a;
	const struct gm_prediction *p = v->p;
	json_t *obj = json_pack("{s:s, s:s, s:i}", EK_SPACE, gm_explain_space_name(a->space),
				EK_OP, gm_explain_op_name(a->op), EK_ELEM_BYTES, a->elem_bytes);

	if (!obj)
		return NULL;
	if (v->type)
		json_object_set_new(obj, EK_TYPE, json_string(v->type));
	json_object_set_new(obj, EK_BLOCK, int3(a->block));
	json_object_set_new(obj, EK_WARP, json_integer(a->warp));
	json_object_set_new(obj, EK_BLOCK_IDX, int3(a->block_idx));
	json_object_set_new(obj, EK_BASE, json_integer(a->base));
	json_object_set_new(obj, EK_ACTIVE, a->active ? json_string(a->active) : json_null());
	json_object_set_new(obj, EK_EXPR, json_string(a->index));
	json_object_set_new(obj, EK_NLANES, json_integer(p->nlanes));
	json_object_set_new(obj, EK_NACTIVE, json_integer(p->nactive));
	json_object_set_new(obj, EK_STRIDE, p->stride_known ?
			    json_integer(p->stride_bytes) : json_null());
	return obj;
}

static json_t *counts_json(const struct gm_explain_view *v)
{
	const struct gm_global_counts *g = &v->p->global;
	const struct gm_shared_counts *s = &v->p->shared;

	if (v->a->space == GM_SPACE_GLOBAL)
		return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:f}",
				 EK_REQUESTS, (json_int_t)g->requests,
				 EK_SECTORS, (json_int_t)g->sectors,
				 EK_MIN_SECTORS, (json_int_t)g->min_sectors,
				 EK_LINES, (json_int_t)g->lines,
				 EK_BYTES_REQ, (json_int_t)g->bytes_requested,
				 EK_BYTES_XFER, (json_int_t)g->bytes_transferred,
				 EK_EFFICIENCY, g->efficiency_pct);
	return json_pack("{s:I, s:I, s:I, s:i, s:b}",
			 EK_WAVEFRONTS, (json_int_t)s->wavefronts,
			 EK_IDEAL, (json_int_t)s->ideal_wavefronts,
			 EK_CONFLICTS, (json_int_t)s->bank_conflicts,
			 EK_MAX_WAYS, s->max_ways, EK_BROADCAST, s->broadcast);
}

static int add_counts(json_t *obj, const struct gm_explain_view *v)
{
	json_t *counts = counts_json(v);
	int rc = counts ? json_object_update(obj, counts) : -1;

	json_decref(counts);
	return rc;
}

static json_t *warp_json(const struct gm_explain_view *v)
{
	json_t *obj = inputs_json(v);

	if (!obj || add_counts(obj, v) < 0 ||
	    json_object_set_new(obj, EK_VERDICT, json_string(v->p->verdict)) < 0 ||
	    json_object_set_new(obj, EK_LANES, lanes_json(v)) < 0) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

/* ---- the launch model (--n) -------------------------------------------- */

/* The interval's rules (docs/MODEL.md 7.6) by name. */
static json_t *rules_json(unsigned bits)
{
	json_t *a = json_array();

	for (int k = 0; k < gm_launch_nbands() && a; k++)
		if (bits & (1u << k))
			json_array_append_new(a, json_string(gm_launch_band(k)->name));
	return a;
}

static json_t *launch_json(const struct gm_explain_launch_view *v)
{
	const struct gm_launch_out *o = v->out;
	const struct gm_profile *p = v->prof;
	json_t *j = json_pack("{s:I, s:s, s:s, s:I, s:I, s:b, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "n",
			      (json_int_t)v->in->n_threads, "profile_device", p->device, "profile", p->origin, "warps",
			      (json_int_t)o->warps, "sampled_warps", (json_int_t)o->sampled_warps, "sampled",
			      o->sampled, "l1_requests", o->requests, "l1_sectors", o->l1_sectors, "l2_sectors",
			      o->l2_sectors, "l2_partial_store_sectors", o->partial_store_sectors,
			      "dram_bytes_read", o->dram_read_bytes, "dram_bytes_written", o->dram_write_bytes,
			      "read_density", o->read_density, "t_dram_ms", o->t_dram_ms);

	if (!j)
		return NULL;
	json_object_set_new(j, "low_gbs", json_real(o->gbs_low));
	json_object_set_new(j, "high_gbs", json_real(o->gbs_high));
	json_object_set_new(j, "rules", rules_json(o->rules_fired));
	json_object_set_new(j, "weak_rules", rules_json(o->weak));
	json_object_set_new(j, "l2_reuse_bytes", json_real(o->l2_reuse_bytes));
	json_object_set_new(j, "l2_footprint_bytes", json_real(o->l2_footprint_bytes));
	json_object_set_new(j, "t_l2_ms", json_real(o->t_l2_ms));
	json_object_set_new(j, "l2_lines", json_real(o->l2_lines));
	json_object_set_new(j, "l2_part_lines", json_real(o->l2_part_lines));
	json_object_set_new(j, "l2_merged_lines", json_real(o->l2_merged_lines));
	json_object_set_new(j, "t_l1_ms", json_real(o->t_l1_ms));
	json_object_set_new(j, "t_blocks_ms", json_real(o->t_blocks_ms));
	if (o->page_lanes > 0) { /* rule P, only where a load lane is alone in its page */
		json_object_set_new(j, "page_lanes", json_real(o->page_lanes));
		json_object_set_new(j, "t_pages_ms", json_real(o->t_pages_ms));
	}
	json_object_set_new(j, "t_latency_ms", json_real(o->t_waves_ms));
	json_object_set_new(j, "block_tail", json_real(o->block_tail));
	json_object_set_new(j, "t_bandwidth_ms", json_real(o->t_bandwidth_ms));
	if (o->t_start_ms > 0) /* rule S, only with the profile's launch_us */
		json_object_set_new(j, "t_start_ms", json_real(o->t_start_ms));
	if (o->t_floor_ms > 0) /* rule S3, only back to back with the profile's floor_us */
		json_object_set_new(j, "t_floor_ms", json_real(o->t_floor_ms));
	if (o->l2_kept_bytes > 0) /* rule D11, the same */
		json_object_set_new(j, "l2_kept_bytes", json_real(o->l2_kept_bytes));
	json_object_set_new(j, "knee", json_real(p->knee));
	json_object_set_new(j, "predicted_ms", json_real(o->time_ms));
	json_object_set_new(j, "predicted_gbs", json_real(o->gbs));
	json_object_set_new(j, "limited_by", json_string(o->limited_by));
	json_object_set_new(j, "model_ms", json_real(v->model_ms));
	return j;
}

/* ---- the run (--run) ---------------------------------------------------- */

/* The timing of a validated run, and the launch model's prediction beside it. */
static void add_measured(json_t *run, const struct gm_explain_run_view *v)
{
	const struct gm_case_result *cr = v->cr;

	json_object_set_new(run, "gbs", json_pack("{s:f, s:f, s:f}", "median", cr->gbs_median, "min",
						  cr->gbs_min, "max", cr->gbs_max));
	json_object_set_new(run, "ms_per_launch", json_real(cr->ms.median));
	json_object_set_new(run, "cov_pct", json_real(cr->ms.cov_pct));
	json_object_set_new(run, "samples", json_integer(cr->ms.n));
	json_object_set_new(run, "bytes_per_launch", json_real(cr->traffic.bytes_useful));
	json_object_set_new(run, "model_bytes_hw", json_real(cr->traffic.bytes_hw));
	json_object_set_new(run, "model_bound_gbs", json_real(cr->pred_gbs));
	if (v->predicted_gbs > 0) {
		json_object_set_new(run, "predicted_gbs", json_real(v->predicted_gbs));
		json_object_set_new(run, "measured_over_predicted", json_real(cr->gbs_median / v->predicted_gbs));
	}
}

static json_t *run_json(const struct gm_explain_run_view *v)
{
	static const char *const hints[] = { "none", "cg", "cs", "lu", "nc" };
	const struct gm_case_result *cr = v->cr;
	const struct gm_jit_spec *sp = v->spec;
	const struct gm_jit_info *in = v->info;
	json_t *run = json_pack("{s:s, s:s, s:I, s:[i,i,i], s:i, s:s, s:s, s:I, s:I, s:I, s:I, s:f, s:s, s:s, s:b}",
				"device", v->r->dev.name, "arch", in->arch, "n", (json_int_t)sp->n, "block",
				sp->block[0], sp->block[1], sp->block[2], "elem_bytes", sp->elem_bytes, "kernel",
				sp->op == GM_OP_LOAD ? "out[gid] = in[EXPR]" : "out[EXPR] = in[gid]", "hint",
				hints[sp->hint], "index_lo", (json_int_t)in->index_lo, "index_hi",
				(json_int_t)in->index_hi, "in_elems", (json_int_t)in->in_elems, "out_elems",
				(json_int_t)in->out_elems, "compile_ms", in->compile_ms, "status",
				gm_case_status_name(cr->status), "message", cr->message, "validated",
				cr->status == GM_CASE_OK);

	if (!run)
		return NULL;
	if (cr->status == GM_CASE_OK)
		add_measured(run, v);
	json_object_set_new(run, "model_sampled_warps", json_integer(v->ls->sampled));
	json_object_set_new(run, "model_sectors_per_warp", json_real(v->ls->sectors_per_warp));
	json_object_set_new(run, "space", json_string(gm_explain_space_name(sp->space)));
	if (sp->space == GM_SPACE_SHARED)
		json_object_set_new(run, "tile_elems", json_integer((json_int_t)in->tile_elems));
	if (cr->counters.state != GM_COUNTERS_NONE)
		json_object_set_new(run, "counters", (json_t *)gm_counters_json(&cr->counters));
	return run;
}

/*
 * The explain document: the warp's object, then "launch" (--n) and "run" (--run) when the document has them,
 * indented by two and ended by a newline.
 */
gm_status gm_explain_json(FILE *f, const struct gm_explain_doc *d)
{
	json_t *obj = warp_json(d->warp);
	int err;

	if (obj && d->launch)
		json_object_set_new(obj, "launch", launch_json(d->launch));
	if (obj && d->run)
		json_object_set_new(obj, "run", run_json(d->run));
	if (!obj)
		return gm_fail(GM_ERR_NOMEM, "cannot build the JSON output");
	err = json_dumpf(obj, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0;
	json_decref(obj);
	if (err)
		return gm_fail(GM_ERR_IO, "cannot write the JSON output");
	putc('\n', f);
	return GM_OK;
}
