/*
 * repredict.c - re-predict saved runs with the launch model and print every
 * prediction exactly (C99 hex floats), for tests/launch/golden.sh:
 *
 *   repredict [--all] RUN PROFILE [RUN PROFILE ...]
 *
 * One line per predicted case: name, limiting level, time, GB/s, DRAM bytes
 * read and written, L1 and L2 sectors, each level's time. --all prints every
 * field of struct gm_launch_out (a wider net while refactoring; not the
 * committed golden file). The cases are predicted on the machine's cores
 * (the predictions do not depend on it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/bench.h"
#include "gpumem/io.h"
#include "gpumem/parallel.h"
#include "gpumem/profile.h"

struct job {
	const struct gm_run_result *r;
	const struct gm_profile *p;
	struct gm_launch_out *out;
	gm_status *st;
};

static void predict_one(void *arg, void *state, int k)
{
	struct job *j = arg;

	(void)state;
	j->st[k] = gm_launch_case_out(&j->r->cases[k], j->p, &j->out[k]);
}

static void print_key(const char *name, const struct gm_launch_out *o)
{
	printf("%s %s time_ms=%a gbs=%a dram_read=%a dram_write=%a l1_sectors=%a l2_sectors=%a t_dram=%a t_l2=%a "
	       "t_l1=%a t_waves=%a t_blocks=%a\n", name, o->limited_by, o->time_ms, o->gbs, o->dram_read_bytes,
	       o->dram_write_bytes, o->l1_sectors, o->l2_sectors, o->t_dram_ms, o->t_l2_ms, o->t_l1_ms,
	       o->t_waves_ms, o->t_blocks_ms);
}

static void print_all(const char *name, const struct gm_launch_out *o)
{
	printf("%s %s warps=%lld sampled=%lld/%d", name, o->limited_by, (long long)o->warps,
	       (long long)o->sampled_warps, o->sampled);
	const double v[] = { o->requests, o->l1_sectors, o->l1_lines, o->l2_lines, o->l1_load_sectors,
			     o->l2_load_sectors, o->l2_store_sectors, o->l2_sectors, o->partial_store_sectors,
			     o->l2_store_bytes, o->l2_partial_lines[0], o->l2_partial_lines[1], o->l2_partial_lines[2],
			     o->l2_partial_lines[3], o->l2_partial_lines[4], o->l2_part_lines, o->l2_merged_lines,
			     o->smem_wavefronts, o->dram_read_bytes, o->dram_write_bytes, o->dram_fill_bytes,
			     o->l2_reuse_bytes, o->l2_footprint_bytes, o->read_density, o->t_dram_ms, o->t_l2_ms,
			     o->t_l1_ms, o->l2_by_lines, o->t_waves_ms, o->blocks, o->block_tail, o->t_blocks_ms,
			     o->t_bandwidth_ms, o->waves, o->time_ms, o->useful_bytes, o->gbs };
	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
		printf(" %a", v[k]);
	printf("\n");
}

static int repredict(const char *run, const char *prof, int all)
{
	struct gm_run_result r;
	struct gm_profile p;
	char why[256];
	int rc = 1;

	gm_result_init(&r);
	if (gm_json_read(run, &r) != GM_OK)
		fprintf(stderr, "repredict: %s: %s\n", run, gm_last_error());
	else if (gm_profile_read(prof, &p, why, sizeof(why)) != GM_OK)
		fprintf(stderr, "repredict: %s\n", why);
	else {
		struct gm_launch_out *out = calloc((size_t)r.ncases + 1, sizeof(*out));
		gm_status *st = calloc((size_t)r.ncases + 1, sizeof(*st));
		struct job j = { &r, &p, out, st };
		int n = 0;

		if (out && st) {
			(void)gm_registry_cases(&n); /* built once, before the workers read it */
			n = 0;
			gm_parallel_for(r.ncases, gm_cores(), NULL, NULL, predict_one, &j);
			printf("## %s with %s\n", run, prof);
			for (int k = 0; k < r.ncases; k++)
				if (st[k] == GM_OK) {
					(all ? print_all : print_key)(r.cases[k].name, &out[k]);
					n++;
				}
			printf("## %d cases predicted\n", n);
			rc = 0;
		}
		free(out);
		free(st);
	}
	gm_result_release(&r);
	return rc;
}

int main(int argc, char **argv)
{
	int all = argc > 1 && !strcmp(argv[1], "--all"), rc = 0;

	if ((argc - 1 - all) < 2 || (argc - 1 - all) % 2) {
		fprintf(stderr, "usage: repredict [--all] RUN PROFILE [RUN PROFILE ...]\n");
		return 2;
	}
	for (int k = 1 + all; k + 1 < argc; k += 2)
		rc |= repredict(argv[k], argv[k + 1], all);
	return rc;
}
