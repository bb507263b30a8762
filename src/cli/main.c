/*
 * main.c - gpumem's entry point: the command table and global options.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "info", cmd_info, "show the device: clocks, bus, caches, peak bandwidth" },
	{ "list", cmd_list, "list every benchmark case with a one-line description" },
	{ "run", cmd_run, "validate and time benchmark cases (default suite when none named)" },
	{ "report", cmd_report, "print a saved run, or write an HTML report of runs (-o FILE.html)" },
	{ "compare", cmd_compare, "compare two saved runs case by case; non-zero exit on a regression" },
	{ "fleet", cmd_fleet, "the GPUs of a multi-device run side by side; flag the ones out of line" },
	{ "calibrate", cmd_calibrate, "measure the device profile of the launch model (-o FILE)" },
	{ "predict", cmd_predict, "re-predict a saved run's bandwidth cases with the launch model" },
	{ "explain", cmd_explain, "predict sectors / bank conflicts of one warp access, or a launch with --n (no GPU)" },
	{ "selftest", cmd_selftest, "--counters: check the model against this GPU's hardware counters" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: gpumem [--version] [--help] <command> [<args>]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'gpumem <command> --help' describes a command.\n"
		   "exit codes: 0 ok, 1 a case failed, 2 usage, 3 no GPU/driver, 4 too large,\n"
		   "            5 I/O error, 6 CUDA error, 130 interrupted\n");
}

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
		usage(stderr);
		return GM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish_stdout(GM_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("gpumem %s\n", GPUMEM_VERSION);
		return finish_stdout(GM_EXIT_OK);
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish_stdout(commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "error: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return GM_EXIT_USAGE;
}
