/*
 * compare_multi.c - `gpumem compare A.json B.json` when either is a
 * multi-device document: device by device, paired by GPU UUID when both
 * blocks have one, else by position; a device present in one run only is
 * named. Exit 1 when any device got worse (as for one device).
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/compare.h"
#include "gpumem/fleet.h"

/* The block of b that matches block i of a: same UUID, else the same position. */
static int partner(const struct gm_multi_run *a, int i, const struct gm_multi_run *b)
{
	if (a->pl[i].uuid[0])
		for (int j = 0; j < b->n; j++)
			if (!strcmp(a->pl[i].uuid, b->pl[j].uuid))
				return j;
	return i < b->n && !(a->pl[i].uuid[0] && b->pl[i].uuid[0]) ? i : -1;
}

static int compare_pair(const struct gm_multi_run *a, int i, const struct gm_multi_run *b, int j, double threshold)
{
	struct gm_comparison c;
	int worse;

	printf("\n== GPU %d (%s) %s  vs  GPU %d (%s) %s ==\n", a->pl[i].device, a->pl[i].pci_bus_id, a->pl[i].status,
	       b->pl[j].device, b->pl[j].pci_bus_id, b->pl[j].status);
	if (gm_compare_runs(&a->runs[i], &b->runs[j], threshold, &c)) {
		printf("cannot compare: %s\n", gm_last_error());
		gm_clear_error();
		return 1;
	}
	gm_write(stdout, GM_DOC_COMPARE, "text",
		 &(struct gm_compare_doc){ &c, &a->runs[i], &b->runs[j], NULL, NULL, gm_use_color(stdout) });
	worse = c.nworse > 0;
	gm_comparison_release(&c);
	return worse;
}

int compare_multi(const char *pa, const char *pb, double threshold)
{
	struct gm_multi_run a, b;
	int worse = 0;

	if (gm_multi_read(pa, &a))
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (gm_multi_read(pb, &b)) {
		gm_multi_release(&a);
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	}
	printf("%s: %d device(s); %s: %d device(s)\n", pa, a.n, pb, b.n);
	for (int i = 0; i < a.n; i++) {
		int j = partner(&a, i, &b);
		if (j < 0) {
			printf("\n== GPU %d (%s %s) of %s has no partner in %s ==\n", a.pl[i].device, a.pl[i].pci_bus_id,
			       a.pl[i].uuid, pa, pb);
			worse = 1;
			continue;
		}
		worse |= compare_pair(&a, i, &b, j, threshold);
	}
	gm_multi_release(&a);
	gm_multi_release(&b);
	return worse ? GM_EXIT_CASE_FAILED : GM_EXIT_OK;
}
