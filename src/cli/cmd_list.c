/* cmd_list.c - `gpumem list [SELECTOR...]`: every case, one line each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/bench.h"

int cmd_list(int argc, char **argv)
{
	int n, bad;
	const struct gm_case *cases = gm_registry_cases(&n);
	unsigned char *sel = calloc((size_t)n + 1, 1);

	if (!sel)
		return gm_error(GM_EXIT_USAGE, "out of memory");
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		free(sel);
		printf("usage: gpumem list [SELECTOR...]\n");
		return GM_EXIT_OK;
	}
	if (gm_registry_select((const char *const *)argv + 1, argc - 1, GM_TIER_FULL, sel, &bad)) {
		free(sel);
		return gm_error(GM_EXIT_USAGE, "no benchmark matches '%s'", argv[1 + bad]);
	}
	for (int f = 0; gm_families[f]; f++)
		if (argc == 1)
			printf("# %-10s %s\n", gm_families[f]->name, gm_families[f]->desc);
	for (int i = 0; i < n; i++)
		if (sel[i])
			printf("%-32s %s%s\n", cases[i].name, cases[i].desc,
			       cases[i].quick ? " [quick]" : cases[i].full ? " [full]" : "");
	free(sel);
	return GM_EXIT_OK;
}
