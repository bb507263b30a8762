/*
 * explain_text.c - `gpumem explain` as text: one warp's lane table and
 * counts, the launch model's section (--n) and the run beside it (--run).
 * Moved from src/cli (cmd_explain.c, explain_launch.c, explain_run.c);
 * tests/explain/golden.sh holds the output byte for byte.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/io.h"
#include "gpumem/units.h"
#include "io/counters_io.h"
#include "io/explain_io.h"

/* ---- one warp ---------------------------------------------------------- */

/* The four numbers a lane row shows after its lane number. */
static void lane_columns(const struct gm_access *a, const struct gm_lane *L, long long col[4])
{
	int global = a->space == GM_SPACE_GLOBAL;

	col[0] = L->index;
	col[1] = L->addr;
	col[2] = global ? L->sector : L->bank;
	col[3] = global ? L->line : L->word;
}

static int num_width(long long v)
{
	char buf[32];

	return snprintf(buf, sizeof(buf), "%lld", v);
}

static void column_widths(const struct gm_explain_view *v, int w[4])
{
	static const int header[4] = { 5, 7, 6, 4 };
	long long col[4];
	int lane, k;

	memcpy(w, header, sizeof(header));
	for (lane = 0; lane < v->p->nlanes; lane++) {
		if (!v->p->lanes[lane].active)
			continue;
		lane_columns(v->a, &v->p->lanes[lane], col);
		for (k = 0; k < 4; k++)
			if (num_width(col[k]) > w[k])
				w[k] = num_width(col[k]);
	}
}

static void print_lane(FILE *f, const struct gm_explain_view *v, int lane, const int w[4])
{
	long long col[4];
	int k;

	fprintf(f, "%4d", lane);
	if (!v->p->lanes[lane].active) {
		for (k = 0; k < 4; k++)
			fprintf(f, "  %*s", w[k], "-");
		return;
	}
	lane_columns(v->a, &v->p->lanes[lane], col);
	for (k = 0; k < 4; k++)
		fprintf(f, "  %*lld", w[k], col[k]);
}

static void print_header(FILE *f, const struct gm_access *a, const int w[4])
{
	int global = a->space == GM_SPACE_GLOBAL;

	fprintf(f, "lane  %*s  %*s  %*s  %*s", w[0], "index", w[1], "address",
		w[2], global ? "sector" : "bank", w[3], global ? "line" : "word");
}

/* Two lanes a row: lane l on the left, l + 16 on the right. */
static void print_lane_table(FILE *f, const struct gm_explain_view *v)
{
	int half = GM_WARP_SIZE / 2, nlanes = v->p->nlanes, w[4], row;

	column_widths(v, w);
	print_header(f, v->a, w);
	if (nlanes > half) {
		fputs("  |  ", f);
		print_header(f, v->a, w);
	}
	fputc('\n', f);
	for (row = 0; row < half && row < nlanes; row++) {
		print_lane(f, v, row, w);
		if (row + half < nlanes) {
			fputs("  |  ", f);
			print_lane(f, v, row + half, w);
		}
		fputc('\n', f);
	}
}

static void print_setup(FILE *f, const struct gm_explain_view *v)
{
	const struct gm_access *a = v->a;
	const struct gm_prediction *p = v->p;

	fprintf(f, "%s %s, %d B elements", gm_explain_space_name(a->space), gm_explain_op_name(a->op),
		a->elem_bytes);
	if (v->type)
		fprintf(f, " (%s)", v->type);
	fprintf(f, ", block %dx%dx%d, blockIdx (%d,%d,%d), warp %d: %d lane%s, %d active\n",
		a->block[0], a->block[1], a->block[2], a->block_idx[0],
		a->block_idx[1], a->block_idx[2], a->warp, p->nlanes,
		p->nlanes == 1 ? "" : "s", p->nactive);
	fprintf(f, "address = %lld + (%s) * %d", (long long)a->base, a->index, a->elem_bytes);
	if (a->active)
		fprintf(f, ", where %s", a->active);
	fprintf(f, "\n\n");
}

static void print_global_counts(FILE *f, const struct gm_global_counts *c)
{
	fprintf(f, "requests           %lld\n", (long long)c->requests);
	fprintf(f, "sectors (32 B)     %lld   (fewest possible %lld)\n",
		(long long)c->sectors, (long long)c->min_sectors);
	fprintf(f, "lines (128 B)      %lld\n", (long long)c->lines);
	fprintf(f, "bytes requested    %lld\n", (long long)c->bytes_requested);
	fprintf(f, "bytes transferred  %lld\n", (long long)c->bytes_transferred);
	fprintf(f, "efficiency         %.1f%%\n", c->efficiency_pct);
}

static void print_shared_counts(FILE *f, const struct gm_shared_counts *c)
{
	fprintf(f, "wavefronts         %lld   (ideal %lld)\n", (long long)c->wavefronts,
		(long long)c->ideal_wavefronts);
	fprintf(f, "bank conflicts     %lld\n", (long long)c->bank_conflicts);
	fprintf(f, "max ways           %d\n", c->max_ways);
	fprintf(f, "broadcast          %s\n", c->broadcast ? "yes" : "no");
}

static void warp_text(FILE *f, const struct gm_explain_view *v)
{
	print_setup(f, v);
	print_lane_table(f, v);
	fputc('\n', f);
	if (v->a->space == GM_SPACE_GLOBAL)
		print_global_counts(f, &v->p->global);
	else
		print_shared_counts(f, &v->p->shared);
	fprintf(f, "verdict: %s\n", v->p->verdict);
}

/* ---- the launch model (--n) -------------------------------------------- */

static void print_launch_time(FILE *f, const struct gm_explain_launch_view *v)
{
	const struct gm_launch_out *o = v->out;
	const int *block = v->in->block;

	fprintf(f, "  time by level     DRAM %.4f ms, L2 %.4f ms", o->t_dram_ms, o->t_l2_ms);
	if (o->l2_by_lines)
		fprintf(f, " (%.4g line lookups, rule L3)", o->l2_lines);
	fprintf(f, ", L1 %.4f ms", o->t_l1_ms);
	if (o->t_pages_ms > 0)
		fprintf(f, ", pages %.4f ms (%.4g lanes alone in their 2 MiB page, rule P)", o->t_pages_ms, o->page_lanes);
	if (o->t_blocks_ms > 0)
		fprintf(f, ", blocks %.4f ms (%.4g blocks started, rule T4)", o->t_blocks_ms, o->blocks);
	if (o->t_waves_ms > 0)
		fprintf(f, ", latency %.4f ms (%.0f wave%s of resident threads", o->t_waves_ms, o->waves,
			o->waves == 1 ? "" : "s");
	if (o->t_waves_ms > 0 && fabs(o->block_tail - 1.0) > 1e-9)
		fprintf(f, ", blocks of %d threads reading %.3g lines x%.3f, rule T5", block[0] * block[1] * block[2],
			o->block_lines > 0 ? o->block_lines : (block[0] * block[1] * block[2] + 31) / 32, o->block_tail);
	if (o->t_waves_ms > 0)
		fprintf(f, ")");
	if (o->t_start_ms > 0)
		fprintf(f, ", plus the launch's start-up %.4f ms (rule S)", o->t_start_ms);
	fprintf(f, "\n");
}

/* The interval from the rules that fired and their measured errors (docs/MODEL.md 7.6); where the model
   knows it is weak, it says so and offers explain --run. */
static void print_interval(FILE *f, const struct gm_launch_out *o)
{
	char names[400];

	gm_launch_rules_names(o->rules_fired, names, sizeof(names));
	fprintf(f, "  interval          %.1f - %.1f GB/s (%+.0f / %+.0f %%), from the rules that fired: %s\n",
		o->gbs_low, o->gbs_high, o->gbs > 0 ? 100 * (o->gbs_low / o->gbs - 1) : 0,
		o->gbs > 0 ? 100 * (o->gbs_high / o->gbs - 1) : 0, names);
	if (o->weak) {
		gm_launch_rules_names(o->weak, names, sizeof(names));
		fprintf(f, "  weak here         %s: a wide or thin record on committed kernels; "
			"'gpumem explain --run' measures it instead\n", names);
	}
}

static void launch_text(FILE *f, const struct gm_explain_launch_view *v)
{
	const struct gm_launch_in *in = v->in;
	const struct gm_access *a = &in->pats[0];
	const struct gm_launch_out *o = v->out;
	const struct gm_profile *p = v->prof;

	fprintf(f, "\nlaunch: %lld threads in blocks of %dx%dx%d, %s, profile %s (%s)\n", (long long)in->n_threads,
		in->block[0], in->block[1], in->block[2],
		a->op == GM_OP_LOAD ? "out[gid] = in[EXPR]" : "out[EXPR] = in[gid]", p->device, p->origin);
	if (o->sampled)
		fprintf(f, "  sampled           %lld of %lld warps, in %d windows of %d consecutive warps\n",
			(long long)o->sampled_warps, (long long)o->warps, in->windows, in->window_warps);
	else
		fprintf(f, "  evaluated         all %lld warps\n", (long long)o->warps);
	fprintf(f, "  L1 requests       %.4g (%.4g sectors)\n", o->requests, o->l1_sectors);
	fprintf(f, "  L2 sectors        %.4g (loads %.4g, stores %.4g; %.4g partly written)\n", o->l2_sectors,
		o->l2_load_sectors, o->l2_store_sectors, o->partial_store_sectors);
	if (o->l2_part_lines + o->l2_merged_lines > 0)
		fprintf(f, "  L2 partial lines  %.4g written partly: %.4g with sectors other blocks wrote last, "
			"%.4g merged (rule L4)\n", o->l2_part_lines + o->l2_merged_lines, o->l2_part_lines,
			o->l2_merged_lines);
	fprintf(f, "  DRAM bytes        read %.4g, written %.4g (read density %.2f)", o->dram_read_bytes,
		o->dram_write_bytes, o->read_density);
	if (o->l2_reuse_bytes - o->l2_footprint_bytes > 0)
		fprintf(f, "; %.4g B of loads found in L2, left by earlier warps",
			o->l2_reuse_bytes - o->l2_footprint_bytes);
	if (o->l2_footprint_bytes > 0)
		fprintf(f, "; %.4g B kept in L2 (footprints that fit, rule D7)", o->l2_footprint_bytes);
	fprintf(f, "\n");
	print_launch_time(f, v);
	fprintf(f, "  predicted         %.4f ms, %.1f GB/s (2 x n x %d B), limited by %s", o->time_ms, o->gbs,
		a->elem_bytes, o->limited_by);
	if (o->t_waves_ms > 0 && p->knee > 0)
		fprintf(f, " (latency and %.4f ms of bandwidth joined with knee %.2f)", o->t_bandwidth_ms, p->knee);
	fprintf(f, "\n");
	print_interval(f, o);
	fprintf(f, "  model time        %.1f ms\n", v->model_ms);
}

/* ---- the run (--run) ---------------------------------------------------- */

static const char *hint_name(int hint)
{
	return hint == GM_HINT_CG ? "cg" : hint == GM_HINT_CS ? "cs" : hint == GM_HINT_LU ? "lu" :
	       hint == GM_HINT_NC ? "nc" : "";
}

/* The model's per-warp figures beside the counted ones, then the counter lines. */
static void print_counted(FILE *f, const struct gm_explain_run_view *v)
{
	const struct gm_case_result *cr = v->cr;
	const struct gm_launch_sample *ls = v->ls;
	const struct gm_counters *c = &cr->counters;
	int st = v->spec->op == GM_OP_STORE;
	double req = st ? c->gst_requests : c->gld_requests, sec = st ? c->gst_sectors : c->gld_sectors;

	if (c->state == GM_COUNTERS_OK && v->spec->space == GM_SPACE_SHARED && c->smem_ld_inst > 0)
		fprintf(f, "  per warp      tile loads: model %.0f wavefronts (ideal %.0f); counted %.2f wavefronts "
			"and %.2f bank conflicts per shared load instruction (%.0f instructions)\n",
			cr->npred ? cr->pred[0].per_request : 0, cr->npred ? cr->pred[0].ideal : 0,
			c->smem_ld_wavefronts / c->smem_ld_inst, c->smem_ld_conflicts / c->smem_ld_inst,
			c->smem_ld_inst);
	else if (c->state == GM_COUNTERS_OK && ls->warps > 0 && req > 0)
		fprintf(f, "  per warp      EXPR side (%s): model %.2f requests, %.2f sectors per warp access; "
			"counted %.2f requests, %.2f sectors per warp (%.2f per request; %.0f requests over %lld "
			"warps)\n", st ? "stores" : "loads", ls->requests_per_warp, ls->sectors_per_warp,
			req / (double)ls->warps, sec / (double)ls->warps, sec / req, req, (long long)ls->warps);
	gm_counters_lines_write(f, c, cr->ms.median * 1e-3);
}

/* What the run measured beside the model's bound and the launch model's prediction. */
static void print_measured(FILE *f, const struct gm_explain_run_view *v)
{
	const struct gm_case_result *cr = v->cr;
	const struct gm_jit_spec *sp = v->spec;
	const struct gm_jit_info *in = v->info;
	const struct gm_launch_sample *ls = v->ls;

	fprintf(f, "  validated     every thread's element\n");
	fprintf(f, "  measured      %.1f GB/s (median of %d; min %.1f, max %.1f; CoV %.2f %%), %.4f ms per launch\n",
		cr->gbs_median, cr->ms.n, cr->gbs_min, cr->gbs_max, cr->ms.cov_pct, cr->ms.median);
	if (sp->space == GM_SPACE_SHARED)
		fprintf(f, "  model         %.0f wavefronts per warp access of the tile (ideal %.0f), warp 0 of block 0\n",
			cr->npred ? cr->pred[0].per_request : 0, cr->npred ? cr->pred[0].ideal : 0);
	else
		fprintf(f, "  model         %.2f sectors per warp on the EXPR side over %d sampled warps of %lld\n",
			ls->sectors_per_warp, ls->sampled, (long long)ls->warps);
	if (cr->pred_gbs > 0)
		fprintf(f, "  model bound   %.1f GB/s (peak %.1f x useful / sector bytes); measured / bound %.0f %%\n",
			cr->pred_gbs, v->r->dev.peak_gbs, 100.0 * cr->gbs_median / cr->pred_gbs);
	if (sp->space == GM_SPACE_SHARED)
		fprintf(f, "  bytes         (tiles %lld x %lld + n) x %d (every tile read once, one write per thread), "
			"GB = 1e9\n", (long long)(in->in_elems / (in->tile_elems ? in->tile_elems : 1)),
			(long long)in->tile_elems, sp->elem_bytes);
	else
		fprintf(f, "  bytes         2 x n x %d (one read, one write per thread), GB = 1e9\n", sp->elem_bytes);
	if (v->predicted_gbs > 0)
		fprintf(f, "  launch model  predicted %.1f GB/s, measured %.1f GB/s: measured / predicted %.0f %%\n",
			v->predicted_gbs, cr->gbs_median, 100.0 * cr->gbs_median / v->predicted_gbs);
	if (v->predicted_gbs > 0 && cr->counters.state == GM_COUNTERS_OK)
		fprintf(f, "  launch DRAM   predicted %.3f GB read, %.3f GB written; counted %.3f and %.3f GB\n",
			v->predicted_dram[0] / 1e9, v->predicted_dram[1] / 1e9, cr->counters.dram_read_bytes / 1e9,
			cr->counters.dram_write_bytes / 1e9);
	print_counted(f, v);
}

static void run_text(FILE *f, const struct gm_explain_run_view *v)
{
	const struct gm_jit_spec *sp = v->spec;
	const struct gm_jit_info *in = v->info;
	char a[32], b[32];

	fprintf(f, "\nrun on %s (%s): n = %lld threads, blocks of %d x %d x %d, %d-byte elements, %s%s%s\n",
		v->r->dev.name, in->arch, (long long)sp->n, sp->block[0], sp->block[1], sp->block[2], sp->elem_bytes,
		sp->op == GM_OP_LOAD ? "out[gid] = in[EXPR]" : "out[EXPR] = in[gid]",
		sp->hint ? ", hint " : "", hint_name(sp->hint));
	fprintf(f, "  index range   %lld .. %lld (in %s, out %s); NVRTC compile %.0f ms\n", (long long)in->index_lo,
		(long long)in->index_hi, gm_format_bytes((double)in->in_elems * sp->elem_bytes, a, sizeof(a)),
		gm_format_bytes((double)in->out_elems * sp->elem_bytes, b, sizeof(b)), in->compile_ms);
	if (v->cr->status != GM_CASE_OK) {
		fprintf(f, "  %s: %s\n", gm_case_status_name(v->cr->status), v->cr->message);
		return;
	}
	print_measured(f, v);
}

/* The sections the document has, in order: the warp, the launch model (--n), the run (--run). */
gm_status gm_explain_text(FILE *f, const struct gm_explain_doc *d)
{
	if (d->warp)
		warp_text(f, d->warp);
	if (d->launch)
		launch_text(f, d->launch);
	if (d->run)
		run_text(f, d->run);
	return ferror(f) ? gm_fail(GM_ERR_IO, "cannot write the explanation") : GM_OK;
}
