/*
 * main.c - gpumem's entry point: global options and the dispatch over the
 * command table (src/cli/cmd_help.c: gm_commands, each with its page).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "families/kernels.h"
#include "families/remnants/remnants_shapes.h"
#include "gpumem/result.h"

/* stdout is data: a failed flush or close (disk full, closed pipe) is an error. */
static int finish_stdout(int code)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		fprintf(stderr, "error: cannot write standard output: %s\n", strerror(errno));
		return code ? code : GM_EXIT_IO;
	}
	return code;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		gm_main_usage(stderr);
		return GM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		gm_main_usage(stdout);
		return finish_stdout(GM_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("gpumem %s\n", gm_tool_version());
		return finish_stdout(GM_EXIT_OK);
	}
	/* not a command: gpumem as the second process of the remnants family (src/families/remnants/remnants.cu) */
	if (!strcmp(argv[1], RM_CHILD_COMMAND))
		return gm_remnants_child_main(argc - 1, argv + 1);
	for (int i = 0; i < gm_ncommands; i++)
		if (!strcmp(argv[1], gm_commands[i].doc->name))
			return finish_stdout(gm_commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "error: unknown command '%s'\n", argv[1]);
	gm_main_usage(stderr);
	return GM_EXIT_USAGE;
}
