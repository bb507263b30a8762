/*
 * findlib.c - where the injection library is, whether it can load here, and whether the driver
 * restricts profiling to administrators.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "trace/trace_internal.h"

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

gm_status gm_trace_find_lib(const char *exe_path, char *buf, unsigned long n)
{
	const char *env = getenv("GPUMEM_TRACE_LIB");
	char exe[4096], *slash;
	ssize_t len;

	if (n)
		buf[0] = 0;
	if (env && *env) {
		if (!is_file(env))
			return gm_fail(GM_ERR_NO_DEVICE, "trace library not found '%s' (GPUMEM_TRACE_LIB)", env);
		snprintf(buf, n, "%s", env);
		return GM_OK;
	}
	if (exe_path) {
		snprintf(exe, sizeof(exe), "%s", exe_path);
	} else {
		len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (len <= 0)
			return gm_fail(GM_ERR_NO_DEVICE, "trace library not found: cannot read /proc/self/exe");
		exe[len] = 0;
	}
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(exe, sizeof(exe), ".");
	snprintf(buf, n, "%s/%s", exe, GM_TRACE_LIB_NAME);
	if (is_file(buf))
		return GM_OK;
	snprintf(buf, n, "%s/../lib/gpumem/%s", exe, GM_TRACE_LIB_NAME);
	if (is_file(buf))
		return GM_OK;
	buf[0] = 0;
	return gm_fail(GM_ERR_NO_DEVICE,
	               "trace library not found '%s/%s': gpumem was built without the Compute Sanitizer API "
	               "(bash scripts/deps.sh, then rebuild; or set GPUMEM_TRACE_LIB)", exe, GM_TRACE_LIB_NAME);
}

int gmt_lib_loads(const char *lib, char *why, size_t n)
{
	int fds[2], st = 0;
	pid_t pid;
	ssize_t got;

	if (n)
		why[0] = 0;
	if (pipe(fds) != 0)
		return 0;   /* cannot check: let the pass tell */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]), close(fds[1]);
		return 0;
	}
	if (pid == 0) {   /* the loader's verdict, in a child so that nothing stays loaded here */
		void *h;
		close(fds[0]);
		unsetenv("GPUMEM_TRACE_LOAD");
		h = dlopen(lib, RTLD_LAZY | RTLD_LOCAL);
		if (!h) {
			const char *e = dlerror();
			if (e && write(fds[1], e, strlen(e)) < 0)
				_exit(2);
			_exit(1);
		}
		_exit(0);
	}
	close(fds[1]);
	got = read(fds[0], why, n ? n - 1 : 0);
	if (n)
		why[got > 0 ? got : 0] = 0;
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int gmt_profiling_restricted(void)
{
	FILE *f = fopen("/proc/driver/nvidia/params", "r");
	char line[256];
	int restricted = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "RmProfilingAdminOnly:", 21) == 0)
			restricted = atoi(line + 21) != 0;
	fclose(f);
	return restricted && geteuid() != 0;
}
