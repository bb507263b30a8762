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

/* Every case of every run, predicted in one pool of workers; a case whose inputs equal an earlier one's is
   predicted once. gm_launch_case_out reads of a case only its name (the registry's patterns, grid, trips), kind,
   unit and bytes_useful (src/bench/launch_case.c), so two runs of the same case with the same profile give the
   same prediction: the H100 and H200 suites and their launch suites share 464 of their 939 cases. Every
   SHARE_CHECK-th copy is predicted again and must print the same line, so that the day the model reads more of
   a case this test says so instead of printing another run's prediction. */
#define SHARE_CHECK 8

struct item {
	const struct gm_case_result *c;
	const struct gm_profile *p;
	int prof;                /* index of the profile's file among the arguments */
	int same;                /* the first item with the same inputs; its own index when it is the first */
	int predict;             /* predicted: a first item, or a copy rechecked against its first */
	gm_status st;
	struct gm_launch_out out;
};

static void predict_one(void *arg, void *state, int k)
{
	struct item **todo = arg;

	(void)state;
	todo[k]->st = gm_launch_case_out(todo[k]->c, todo[k]->p, &todo[k]->out);
}

static int same_inputs(const struct item *a, const struct item *b)
{
	return a->prof == b->prof && a->c->kind == b->c->kind && a->c->unit == b->c->unit &&
	       a->c->traffic.bytes_useful == b->c->traffic.bytes_useful && !strcmp(a->c->name, b->c->name);
}

static void print_key(FILE *f, const char *name, const struct gm_launch_out *o)
{
	fprintf(f, "%s %s time_ms=%a gbs=%a dram_read=%a dram_write=%a l1_sectors=%a l2_sectors=%a t_dram=%a t_l2=%a "
	       "t_l1=%a t_waves=%a t_blocks=%a\n", name, o->limited_by, o->time_ms, o->gbs, o->dram_read_bytes,
	       o->dram_write_bytes, o->l1_sectors, o->l2_sectors, o->t_dram_ms, o->t_l2_ms, o->t_l1_ms,
	       o->t_waves_ms, o->t_blocks_ms);
}

static void print_all(FILE *f, const char *name, const struct gm_launch_out *o)
{
	fprintf(f, "%s %s warps=%lld sampled=%lld/%d", name, o->limited_by, (long long)o->warps,
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
		fprintf(f, " %a", v[k]);
	fprintf(f, "\n");
}

static void print_line(char *buf, size_t n, int all, const char *name, const struct gm_launch_out *o)
{
	FILE *f = fmemopen(buf, n, "w");

	if (!f) {
		buf[0] = 0;
		return;
	}
	(all ? print_all : print_key)(f, name, o);
	fclose(f);
}

/* The items of every run in argument order; runs[i] and profs[i] filled, the items' count returned (-1: an error). */
static int load(int npairs, char **argv, struct gm_run_result *runs, struct gm_profile *profs, struct item **items)
{
	int total = 0, k = 0;
	char why[256];

	for (int i = 0; i < npairs; i++) {
		if (gm_json_read(argv[2 * i], &runs[i]) != GM_OK) {
			fprintf(stderr, "repredict: %s: %s\n", argv[2 * i], gm_last_error());
			return -1;
		}
		if (gm_profile_read(argv[2 * i + 1], &profs[i], why, sizeof(why)) != GM_OK) {
			fprintf(stderr, "repredict: %s\n", why);
			return -1;
		}
		total += runs[i].ncases;
	}
	if (!(*items = calloc((size_t)total + 1, sizeof(**items))))
		return -1;
	for (int i = 0; i < npairs; i++) {
		int prof = i;

		for (int j = 0; j < i; j++)   /* the same profile's file: one profile */
			if (!strcmp(argv[2 * j + 1], argv[2 * i + 1])) {
				prof = j;
				break;
			}
		for (int c = 0; c < runs[i].ncases; c++, k++)
			(*items)[k] = (struct item){ &runs[i].cases[c], &profs[prof], prof, k, 0, GM_OK, { 0 } };
	}
	for (k = 0; k < total; k++)
		for (int j = 0; j < k; j++)
			if ((*items)[j].same == j && same_inputs(&(*items)[j], &(*items)[k])) {
				(*items)[k].same = j;
				break;
			}
	return total;
}

/* The first item of each set of equal inputs, and every SHARE_CHECK-th copy, in one list for the workers. */
static struct item **to_predict(struct item *items, int total, int *n)
{
	struct item **todo = calloc((size_t)total + 1, sizeof(*todo));
	int copies = 0;

	*n = 0;
	for (int k = 0; todo && k < total; k++)
		if ((items[k].predict = items[k].same == k || copies++ % SHARE_CHECK == 0))
			todo[(*n)++] = &items[k];
	return todo;
}

/* A rechecked copy that predicts otherwise than its first item (1), else 0. */
static int differs(const struct item *copy, const struct item *first, int all)
{
	static char a[4096], b[4096];

	if (copy->st != first->st)
		return 1;
	print_line(a, sizeof(a), all, first->c->name, &first->out);
	print_line(b, sizeof(b), all, copy->c->name, &copy->out);
	return strcmp(a, b) != 0;
}

/* Each run's lines as the golden file has them, every case with its first item's prediction. */
static int print_runs(int npairs, char **argv, const struct gm_run_result *runs, const struct item *items, int all)
{
	int k = 0, rc = 0;

	for (int i = 0; i < npairs; i++) {
		int n = 0;

		printf("## %s with %s\n", argv[2 * i], argv[2 * i + 1]);
		for (int c = 0; c < runs[i].ncases; c++, k++) {
			const struct item *first = &items[items[k].same];

			if (items[k].same != k && items[k].predict && differs(&items[k], first, all)) {
				fprintf(stderr, "repredict: %s in %s predicts otherwise than the same case before it: the "
					"model reads more of a case than repredict's same_inputs compares\n",
					items[k].c->name, argv[2 * i]);
				rc = 1;
			}
			if (first->st == GM_OK) {
				(all ? print_all : print_key)(stdout, runs[i].cases[c].name, &first->out);
				n++;
			}
		}
		printf("## %d cases predicted\n", n);
	}
	return rc;
}

int main(int argc, char **argv)
{
	int all = argc > 1 && !strcmp(argv[1], "--all"), npairs = (argc - 1 - all) / 2, rc = 1, total, ndone = 0;
	struct gm_run_result *runs;
	struct gm_profile *profs;
	struct item *items = NULL, **todo = NULL;

	if ((argc - 1 - all) < 2 || (argc - 1 - all) % 2) {
		fprintf(stderr, "usage: repredict [--all] RUN PROFILE [RUN PROFILE ...]\n");
		return 2;
	}
	runs = calloc((size_t)npairs, sizeof(*runs));
	profs = calloc((size_t)npairs, sizeof(*profs));
	if (!runs || !profs)
		return 1;
	for (int i = 0; i < npairs; i++)
		gm_result_init(&runs[i]);
	total = load(npairs, argv + 1 + all, runs, profs, &items);
	if (total >= 0 && (todo = to_predict(items, total, &ndone))) {
		int n = 0;

		(void)gm_registry_cases(&n); /* built once, before the workers read it */
		gm_parallel_for(ndone, gm_cores(), NULL, NULL, predict_one, todo);
		rc = print_runs(npairs, argv + 1 + all, runs, items, all);
	}
	for (int i = 0; i < npairs; i++)
		gm_result_release(&runs[i]);
	free(items);
	free(todo);
	free(runs);
	free(profs);
	return rc;
}
