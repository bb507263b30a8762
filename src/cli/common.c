/* common.c - exit codes and error lines shared by the subcommands. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"

int gm_exit_code(gm_status s)
{
	switch (s) {
	case GM_OK: return GM_EXIT_OK;
	case GM_ERR_NO_DEVICE:
	case GM_ERR_DRIVER: return GM_EXIT_NO_DEVICE;
	case GM_ERR_TOO_LARGE: return GM_EXIT_TOO_LARGE;
	case GM_ERR_IO: return GM_EXIT_IO;
	case GM_ERR_CUDA: return GM_EXIT_CUDA;
	case GM_ERR_INTERRUPTED: return GM_EXIT_INTERRUPTED;
	case GM_ERR_VALIDATION: return GM_EXIT_CASE_FAILED;
	default: return GM_EXIT_USAGE;
	}
}

int gm_error(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

/* A library of Compute Sanitizer or Nsight Compute mapped into this process (their own folders and launchers). */
static int tool_mapped(char *lib, size_t n)
{
	static const char *const marks[] = { "/compute-sanitizer/", "libsanitizer-public", "nsight-compute",
					     "TreeLauncher", NULL };
	char line[4096];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *path = strchr(line, '/');
		for (int k = 0; path && marks[k] && !found; k++)
			if (strstr(path, marks[k])) {
				path[strcspn(path, "\n")] = 0;
				snprintf(lib, n, "%s", path);
				found = 1;
			}
	}
	if (f)
		fclose(f);
	return found;
}

/*
 * A profiler or sanitizer loaded into this process slows kernels and copies: what is timed under it is the
 * tool's time, not the GPU's. Nsight Compute and gpumem trace come in through the driver's
 * CUDA_INJECTION64_PATH; Compute Sanitizer leaves no variable behind, so its libraries are looked for in
 * /proc/self/maps (call it again once the CUDA context exists). Prints one warning, once, naming it; 1 when one is there.
 */
int gm_warn_if_tool_attached(void)
{
	static int warned;
	const char *inj = getenv("CUDA_INJECTION64_PATH");
	char lib[512];

	if (warned)
		return 1;
	if (inj && *inj)
		snprintf(lib, sizeof(lib), "CUDA_INJECTION64_PATH=%s", inj);
	else if (!tool_mapped(lib, sizeof(lib)))
		return 0;
	fprintf(stderr, "warning: a tool is loaded into gpumem (%s): the times measured here are under it, not the "
		"GPU's own\n", lib);
	warned = 1;
	return 1;
}

/* Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
int gm_use_color(FILE *f)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	if (no && no[0])
		return 0;
	if (term && !strcmp(term, "dumb"))
		return 0;
	return isatty(fileno(f));
}
