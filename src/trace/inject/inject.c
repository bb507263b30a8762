/*
 * inject.c - the entry of libgpumem_trace.so. The CUDA driver loads the library named by
 * CUDA_INJECTION64_PATH at cuInit and calls InitializeInjection(); with GPUMEM_TRACE_LOAD=preload the
 * collector puts it in LD_PRELOAD instead and the constructor starts it. Either way it starts once.
 *
 * Only the first process that initialises CUDA is traced (it creates <out>.owner); any other process
 * that inherits the environment (a child, or the real program under a wrapper script's child) leaves
 * <out>.other.<pid> holding its executable's path, which the collector turns into a note.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "inject.h"

struct gmt_opts gmt_opt;

static long env_long(const char *name, long def)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return def;
	v = strtol(s, &end, 10);
	return *end ? def : v;
}

/* 1 when this process is the one to trace. */
static int claim(void)
{
	char path[4200], exe[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s.owner", gmt_opt.out);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (errno != EEXIST)
		return 1;   /* cannot tell: trace it */
	snprintf(path, sizeof(path), "%s.other.%ld", gmt_opt.out, (long)getpid());
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	gmt_write_atomic(path, exe, strlen(exe));
	return 0;
}

static int start(void)
{
	static int started;
	const char *mode = getenv("GPUMEM_TRACE_MODE"), *patch = getenv("GPUMEM_TRACE_PATCH");

	if (started)
		return 0;
	started = 1;
	gmt_opt.out = getenv("GPUMEM_TRACE_OUT");
	if (!gmt_opt.out || !*gmt_opt.out)
		return 0;   /* loaded without the collector: do nothing */
	gmt_opt.regex_text = getenv("GPUMEM_TRACE_KERNEL");
	gmt_opt.skip = env_long("GPUMEM_TRACE_SKIP", 0);
	gmt_opt.count = env_long("GPUMEM_TRACE_COUNT", 1);
	gmt_opt.samples = (int)env_long("GPUMEM_TRACE_SAMPLES", 64);
	/* at the first selected launch of a module (the default: launches before the window run unpatched) */
	gmt_opt.patch_at_launch = !(patch && strcmp(patch, "load") == 0);
	gmt_opt.unpatch = env_long("GPUMEM_TRACE_UNPATCH", 1) != 0;
	gmt_opt.devmode = (unsigned)env_long("GPUMEM_TRACE_DEVMODE", 0);
	gmt_opt.count_warps = env_long("GPUMEM_TRACE_COUNT_WARPS", 1L << 20);
	gmt_opt.stop = env_long("GPUMEM_TRACE_STOP", 0) == 1;
	gmt_opt.last_index = env_long("GPUMEM_TRACE_LAST_INDEX", -1);
	gmt_opt.debug = env_long("GPUMEM_TRACE_DEBUG", 0) == 1;
	gmt_dbg("start, mode %s", mode ? mode : "trace");
	if (!claim())
		return 0;
	if (gmt_select_init(gmt_opt.regex_text) != 0) {
		gmt_note("invalid kernel regex: every kernel selected");
	}
	if (mode && strcmp(mode, "time") == 0)
		return gmt_time_start();
	return gmt_trace_start();
}

__attribute__((visibility("default"))) int InitializeInjection(void)
{
	start();
	return 1;
}

__attribute__((constructor)) static void preload_start(void)
{
	const char *how = getenv("GPUMEM_TRACE_LOAD");

	if (how && strcmp(how, "preload") == 0)
		start();
}
