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

/*
 * A profiler or sanitizer loaded into this process (Nsight Compute and gpumem trace through the driver's
 * CUDA_INJECTION64_PATH, Compute Sanitizer through LD_PRELOAD) slows kernels and copies: what is timed under it
 * is the tool's time, not the GPU's. Prints one warning naming it; 1 when one is attached.
 */
int gm_warn_if_tool_attached(void)
{
	const char *inj = getenv("CUDA_INJECTION64_PATH"), *pre = getenv("LD_PRELOAD");
	const char *what = inj && *inj ? inj : pre && (strstr(pre, "sanitizer") || strstr(pre, "Sanitizer")) ? pre : NULL;

	if (!what)
		return 0;
	fprintf(stderr, "warning: a tool is loaded into gpumem (%s=%s): the times measured here are under it, not "
		"the GPU's own\n", what == inj ? "CUDA_INJECTION64_PATH" : "LD_PRELOAD", what);
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
