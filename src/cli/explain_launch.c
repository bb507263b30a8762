/*
 * explain_launch.c - `explain --n N`: the launch-level model over the kernel
 * `explain --run` builds (a 1D grid of N threads in blocks of --block;
 * --op load: out[gid] = in[EXPR]; --op store: out[EXPR] = in[gid]). Two
 * global patterns: the EXPR side and the gid side. Counts 2 x N x element
 * bytes as useful (one read and one write per thread), GB = 1e9.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "cli/cli.h"
#include "gpumem/parallel.h"
#include "gpumem/profile.h"

#define WINDOWS 8
#define WINDOW_WARPS 256

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static void print_launch(const struct gm_access *a, int64_t n, const struct gm_profile *p,
			 const struct gm_launch_out *o, double ms)
{
	printf("\nlaunch: %lld threads in blocks of %dx%dx%d, %s, profile %s (%s)\n", (long long)n, a->block[0],
	       a->block[1], a->block[2], a->op == GM_OP_LOAD ? "out[gid] = in[EXPR]" : "out[EXPR] = in[gid]",
	       p->device, p->origin);
	if (o->sampled)
		printf("  sampled           %lld of %lld warps, in %d windows of %d consecutive warps\n",
		       (long long)o->sampled_warps, (long long)o->warps, WINDOWS, WINDOW_WARPS);
	else
		printf("  evaluated         all %lld warps\n", (long long)o->warps);
	printf("  L1 requests       %.4g (%.4g sectors)\n", o->requests, o->l1_sectors);
	printf("  L2 sectors        %.4g (loads %.4g, stores %.4g; %.4g partly written)\n", o->l2_sectors,
	       o->l2_load_sectors, o->l2_store_sectors, o->partial_store_sectors);
	if (o->l2_part_lines + o->l2_merged_lines > 0)
		printf("  L2 partial lines  %.4g written partly: %.4g with sectors other blocks wrote last, %.4g merged (rule L4)\n",
		       o->l2_part_lines + o->l2_merged_lines, o->l2_part_lines, o->l2_merged_lines);
	printf("  DRAM bytes        read %.4g, written %.4g (read density %.2f)", o->dram_read_bytes,
	       o->dram_write_bytes, o->read_density);
	if (o->l2_reuse_bytes - o->l2_footprint_bytes > 0)
		printf("; %.4g B of loads found in L2, left by earlier warps", o->l2_reuse_bytes - o->l2_footprint_bytes);
	if (o->l2_footprint_bytes > 0)
		printf("; %.4g B kept in L2 (footprints that fit, rule D7)", o->l2_footprint_bytes);
	printf("\n");
	printf("  time by level     DRAM %.4f ms, L2 %.4f ms", o->t_dram_ms, o->t_l2_ms);
	if (o->l2_by_lines)
		printf(" (%.4g line lookups, rule L3)", o->l2_lines);
	printf(", L1 %.4f ms", o->t_l1_ms);
	if (o->t_blocks_ms > 0)
		printf(", blocks %.4f ms (%.4g blocks started, rule T4)", o->t_blocks_ms, o->blocks);
	if (o->t_waves_ms > 0)
		printf(", latency %.4f ms (%.0f wave%s of resident threads", o->t_waves_ms, o->waves,
		       o->waves == 1 ? "" : "s");
	if (o->t_waves_ms > 0 && fabs(o->block_tail - 1.0) > 1e-9)
		printf(", blocks of %d threads x%.3f, rule T5", a->block[0] * a->block[1] * a->block[2], o->block_tail);
	if (o->t_waves_ms > 0)
		printf(")");
	printf("\n");
	printf("  predicted         %.4f ms, %.1f GB/s (2 x n x %d B), limited by %s", o->time_ms, o->gbs,
	       a->elem_bytes, o->limited_by);
	if (o->t_waves_ms > 0 && p->knee > 0)
		printf(" (latency and %.4f ms of bandwidth joined with knee %.2f)", o->t_bandwidth_ms, p->knee);
	printf("\n");
	printf("  model time        %.1f ms\n", ms);
}

static json_t *launch_json(int64_t n, const struct gm_profile *p, const struct gm_launch_out *o, double ms)
{
	json_t *j = json_pack("{s:I, s:s, s:s, s:I, s:I, s:b, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "n",
			      (json_int_t)n, "profile_device", p->device, "profile", p->origin, "warps",
			      (json_int_t)o->warps, "sampled_warps", (json_int_t)o->sampled_warps, "sampled",
			      o->sampled, "l1_requests", o->requests, "l1_sectors", o->l1_sectors, "l2_sectors",
			      o->l2_sectors, "l2_partial_store_sectors", o->partial_store_sectors,
			      "dram_bytes_read", o->dram_read_bytes, "dram_bytes_written", o->dram_write_bytes,
			      "read_density", o->read_density, "t_dram_ms", o->t_dram_ms);

	if (!j)
		return NULL;
	json_object_set_new(j, "l2_reuse_bytes", json_real(o->l2_reuse_bytes));
	json_object_set_new(j, "l2_footprint_bytes", json_real(o->l2_footprint_bytes));
	json_object_set_new(j, "t_l2_ms", json_real(o->t_l2_ms));
	json_object_set_new(j, "l2_lines", json_real(o->l2_lines));
	json_object_set_new(j, "l2_part_lines", json_real(o->l2_part_lines));
	json_object_set_new(j, "l2_merged_lines", json_real(o->l2_merged_lines));
	json_object_set_new(j, "t_l1_ms", json_real(o->t_l1_ms));
	json_object_set_new(j, "t_blocks_ms", json_real(o->t_blocks_ms));
	json_object_set_new(j, "t_latency_ms", json_real(o->t_waves_ms));
	json_object_set_new(j, "block_tail", json_real(o->block_tail));
	json_object_set_new(j, "t_bandwidth_ms", json_real(o->t_bandwidth_ms));
	json_object_set_new(j, "knee", json_real(p->knee));
	json_object_set_new(j, "predicted_ms", json_real(o->time_ms));
	json_object_set_new(j, "predicted_gbs", json_real(o->gbs));
	json_object_set_new(j, "limited_by", json_string(o->limited_by));
	json_object_set_new(j, "model_ms", json_real(ms));
	return j;
}

int explain_launch_profile(const char *profile)
{
	struct gm_profile p;

	return gm_cli_profile(profile, NULL, &p, 1);
}

int explain_launch(const struct gm_access *a, int64_t n, const char *profile, const char *device, void *json,
		   struct explain_run_opts *ro)
{
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out out;
	struct gm_profile p;
	struct gm_expr_error err;
	double t0;
	int rc = gm_cli_profile(profile, device, &p, 0);

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
	in.threads = gm_cores(); /* the windows in parallel; the same numbers */
	t0 = now_ms();
	if (gm_launch_predict(&in, &p, &out, &err) != GM_OK) {
		gm_error(GM_EXIT_USAGE, "launch of %lld threads: %s", (long long)n, err.msg);
		return GM_EXIT_USAGE;
	}
	ro->predicted_gbs = out.gbs;
	ro->predicted_dram[0] = out.dram_read_bytes;
	ro->predicted_dram[1] = out.dram_write_bytes;
	if (json)
		json_object_set_new((json_t *)json, "launch", launch_json(n, &p, &out, now_ms() - t0));
	else
		print_launch(a, n, &p, &out, now_ms() - t0);
	return GM_EXIT_OK;
}
