/* cmd_report.c - `gpumem report FILE.json [--csv]`: render a saved run again. */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/io.h"

int cmd_report(int argc, char **argv)
{
	struct gm_run_result r;
	const char *path = NULL;
	int csv = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			printf("usage: gpumem report FILE.json [--csv]\n");
			return GM_EXIT_OK;
		}
		if (!strcmp(argv[i], "--csv"))
			csv = 1;
		else if (argv[i][0] == '-' || path)
			return gm_error(GM_EXIT_USAGE, "unexpected argument '%s' (see 'gpumem report --help')",
					argv[i]);
		else
			path = argv[i];
	}
	if (!path)
		return gm_error(GM_EXIT_USAGE, "report needs a JSON file written by 'gpumem run --json'");
	if (gm_json_read(path, &r))
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (csv)
		gm_csv_write(stdout, &r);
	else {
		printf("%s\n%s, %s\n", r.command, r.have_device ? r.dev.name : "no device", r.started_utc);
		gm_table_write(stdout, &r);
		gm_derived_write(stdout, &r);
		gm_spec_write(stdout, &r);
	}
	gm_result_release(&r);
	return GM_EXIT_OK;
}
