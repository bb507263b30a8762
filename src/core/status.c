/* status.c - status strings and the per-thread failure detail. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/status.h"

static _Thread_local char last_error[512];

const char *gm_strerror(gm_status s)
{
	switch (s) {
	case GM_OK: return "success";
	case GM_ERR_INVALID_ARG: return "invalid argument";
	case GM_ERR_NOMEM: return "out of host memory";
	case GM_ERR_IO: return "input/output error";
	case GM_ERR_NO_DEVICE: return "no CUDA device";
	case GM_ERR_DRIVER: return "CUDA driver missing or too old";
	case GM_ERR_CUDA: return "CUDA error";
	case GM_ERR_VALIDATION: return "validation failed";
	case GM_ERR_TOO_LARGE: return "not enough device memory";
	case GM_ERR_UNSUPPORTED: return "not supported on this device";
	case GM_ERR_PARSE: return "syntax error";
	case GM_ERR_EVAL: return "evaluation error";
	case GM_ERR_INTERRUPTED: return "interrupted";
	case GM_ERR_NOT_FOUND: return "not found";
	}
	return "unknown status";
}

const char *gm_last_error(void)
{
	return last_error;
}

gm_status gm_fail(gm_status s, const char *fmt, ...)
{
	char buf[sizeof(last_error)];   /* an argument may be gm_last_error() itself: format apart, then copy */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	memcpy(last_error, buf, sizeof(last_error));
	return s;
}

void gm_clear_error(void)
{
	last_error[0] = '\0';
}
