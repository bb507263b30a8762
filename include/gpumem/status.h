/*
 * status.h - the one error vocabulary of gpumem.
 *
 * Every library function returns a gm_status; only the CLI turns a status into
 * a message and an exit code. Values are stable: they appear in JSON results
 * ("status_code") and scripts may test them.
 */
#ifndef GPUMEM_STATUS_H
#define GPUMEM_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gm_status {
	GM_OK = 0,
	GM_ERR_INVALID_ARG = 1,  /* a caller passed something out of range */
	GM_ERR_NOMEM = 2,        /* host allocation failed */
	GM_ERR_IO = 3,           /* a file could not be opened, written or renamed */
	GM_ERR_NO_DEVICE = 4,    /* no CUDA device, or a build without CUDA */
	GM_ERR_DRIVER = 5,       /* driver too old or not loadable */
	GM_ERR_CUDA = 6,         /* a CUDA call failed; detail in gm_last_error() */
	GM_ERR_VALIDATION = 7,   /* a kernel produced a wrong result */
	GM_ERR_TOO_LARGE = 8,    /* requested working set exceeds free memory */
	GM_ERR_UNSUPPORTED = 9,  /* case cannot run on this device (skipped) */
	GM_ERR_PARSE = 10,       /* syntax error in an expression or input file */
	GM_ERR_EVAL = 11,        /* expression evaluation error (div by 0, ...) */
	GM_ERR_INTERRUPTED = 12, /* the user pressed Ctrl-C */
	GM_ERR_NOT_FOUND = 13,   /* a name (benchmark, device) matched nothing */
} gm_status;

/* A short lowercase description of a status, never NULL. */
const char *gm_strerror(gm_status s);

/*
 * Detail for the most recent failing call on this thread (for example the CUDA
 * expression, file and line that failed). Empty string when none.
 */
const char *gm_last_error(void);

/* Record detail for the current failure; printf-style. Returns s. */
gm_status gm_fail(gm_status s, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Forget any recorded detail. */
void gm_clear_error(void);

#ifdef __cplusplus
}
#endif
#endif
