/* run_args.c - option parsing for `gpumem run`, free of side effects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/units.h"

/* "--opt=value" or "--opt value": returns the value or NULL (and advances *i). */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);

	if (strncmp(argv[*i], name, len))
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int is_opt(const char *arg, const char *name)
{
	size_t len = strlen(name);
	return !strncmp(arg, name, len) && (arg[len] == '\0' || arg[len] == '=');
}

static gm_status parse_one(int argc, char **argv, int *i, struct gm_run_args *a)
{
	const char *v;
	long x;

	if (!strcmp(argv[*i], "--quick"))
		a->quick = 1;
	else if (!strcmp(argv[*i], "--full"))
		a->full = 1;
	else if (!strcmp(argv[*i], "--counters"))
		a->counters = 1;
	else if (!strcmp(argv[*i], "--all-devices"))
		a->all_devices = 1;
	else if (!strcmp(argv[*i], "--concurrent"))
		a->concurrent = 1;
	else if (!strcmp(argv[*i], "--mpi"))
		a->mpi = 1;
	else if (!strcmp(argv[*i], "--barrier"))
		a->barrier = 1;
	else if ((v = opt_value(argc, argv, i, "--timeout"))) {
		if (gm_parse_int(v, 1, 86400, &x))
			return gm_fail(GM_ERR_INVALID_ARG, "--timeout: %s", gm_last_error());
		a->timeout_s = (double)x;
	} else if (!strcmp(argv[*i], "--help") || !strcmp(argv[*i], "-h"))
		a->help = 1;
	else if ((v = opt_value(argc, argv, i, "--json")))
		a->json_path = v;
	else if ((v = opt_value(argc, argv, i, "--profile")))
		a->profile = v;
	else if ((v = opt_value(argc, argv, i, "--csv")))
		a->csv_path = v;
	else if ((v = opt_value(argc, argv, i, "--reps"))) {
		if (gm_parse_int(v, 1, 100000, &x))
			return gm_fail(GM_ERR_INVALID_ARG, "--reps: %s", gm_last_error());
		a->reps = (int)x;
	} else if ((v = opt_value(argc, argv, i, "--size"))) {
		if (gm_parse_size(v, &a->size))
			return gm_fail(GM_ERR_INVALID_ARG, "--size: %s", gm_last_error());
	} else if ((v = opt_value(argc, argv, i, "--device"))) {
		if (gm_parse_int(v, 0, 1023, &x))
			return gm_fail(GM_ERR_INVALID_ARG, "--device: %s", gm_last_error());
		a->device = (int)x;
	} else if (argv[*i][0] == '-') {
		static const char *const need[] = { "--json", "--csv", "--reps", "--size", "--device",
						    "--timeout", "--profile" };
		for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++)
			if (is_opt(argv[*i], need[k]))
				return gm_fail(GM_ERR_INVALID_ARG, "option '%s' needs a value", need[k]);
		return gm_fail(GM_ERR_INVALID_ARG, "unknown option '%s'", argv[*i]);
	} else
		a->selectors[a->nselectors++] = argv[*i];
	return GM_OK;
}

gm_status gm_run_args_parse(int argc, char **argv, struct gm_run_args *a, char *err, size_t n)
{
	memset(a, 0, sizeof(*a));
	a->selectors = calloc((size_t)argc + 1, sizeof(*a->selectors));
	if (!a->selectors)
		return GM_ERR_NOMEM;
	for (int i = 1; i < argc; i++) {
		if (parse_one(argc, argv, &i, a)) {
			snprintf(err, n, "%s", gm_last_error());
			gm_run_args_free(a);
			return GM_ERR_INVALID_ARG;
		}
	}
	if (a->quick && a->full) {
		snprintf(err, n, "--quick and --full cannot be used together");
		gm_run_args_free(a);
		return GM_ERR_INVALID_ARG;
	}
	if ((a->all_devices || a->concurrent || a->mpi) && a->csv_path) {
		snprintf(err, n, "--csv is for one device; write --json and use 'gpumem report --csv'");
		gm_run_args_free(a);
		return GM_ERR_INVALID_ARG;
	}
	if (a->barrier && !a->mpi) {
		snprintf(err, n, "--barrier needs --mpi");
		gm_run_args_free(a);
		return GM_ERR_INVALID_ARG;
	}
	if (a->json_path && a->csv_path && !strcmp(a->json_path, a->csv_path)) {
		snprintf(err, n, "--json and --csv name the same file '%s'", a->json_path);
		gm_run_args_free(a);
		return GM_ERR_INVALID_ARG;
	}
	return GM_OK;
}

void gm_run_args_free(struct gm_run_args *a)
{
	free(a->selectors);
	a->selectors = NULL;
	a->nselectors = 0;
}
