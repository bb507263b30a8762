/*
 * spawn.c - one pass of the traced program: its environment, its process group, its timeout, and how it
 * ended. SIGINT/SIGTERM reaching gpumem meanwhile are forwarded to the program's group.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "trace/trace_internal.h"

int gmt_env_add(struct gmt_env *e, const char *name, const char *value)
{
	size_t n = strlen(name) + strlen(value) + 2;
	char *s;

	if (e->n == GMT_ENV_MAX || !(s = malloc(n)))
		return -1;
	snprintf(s, n, "%s=%s", name, value);
	e->set[e->n++] = s;
	return 0;
}

void gmt_env_free(struct gmt_env *e)
{
	for (int i = 0; i < e->n; i++)
		free(e->set[i]);
	e->n = 0;
}

static int same_name(const char *a, const char *b)
{
	while (*a && *a != '=' && *a == *b)
		a++, b++;
	return (*a == '=' || !*a) && (*b == '=' || !*b);
}

char **gmt_env_merge(const struct gmt_env *e, char *const *env)
{
	size_t n = 0, k = 0;
	char **out;

	while (env && env[n])
		n++;
	out = malloc((n + (size_t)e->n + 1) * sizeof(*out));
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int replaced = 0;
		for (int j = 0; j < e->n && !replaced; j++)
			replaced = same_name(env[i], e->set[j]);
		if (!replaced)
			out[k++] = env[i];
	}
	for (int j = 0; j < e->n; j++)
		out[k++] = e->set[j];
	out[k] = NULL;
	return out;
}

gm_status gmt_env_for_pass(struct gmt_env *e, const struct gm_trace_opts *o, const char *lib, const char *mode,
                           const char *part_path)
{
	char num[32];
	const char *how = getenv("GPUMEM_TRACE_LOAD");
	int bad = 0;

	if (how && strcmp(how, "preload") == 0) {
		const char *pre = getenv("LD_PRELOAD");
		char *v = malloc(strlen(lib) + (pre ? strlen(pre) : 0) + 2);
		if (!v)
			return gm_fail(GM_ERR_NOMEM, "out of memory");
		sprintf(v, "%s%s%s", lib, pre && *pre ? ":" : "", pre && *pre ? pre : "");
		bad |= gmt_env_add(e, "LD_PRELOAD", v);
		free(v);
	} else {
		bad |= gmt_env_add(e, "CUDA_INJECTION64_PATH", lib);
	}
	if (strcmp(mode, "trace+load") == 0) {   /* the trace pass, every module patched as it loads */
		mode = "trace";
		bad |= gmt_env_add(e, "GPUMEM_TRACE_PATCH", "load");
	}
	bad |= gmt_env_add(e, "GPUMEM_TRACE_MODE", mode);
	bad |= gmt_env_add(e, "GPUMEM_TRACE_OUT", part_path);
	if (o->kernel_regex)
		bad |= gmt_env_add(e, "GPUMEM_TRACE_KERNEL", o->kernel_regex);
	snprintf(num, sizeof(num), "%ld", o->launch_skip);
	bad |= gmt_env_add(e, "GPUMEM_TRACE_SKIP", num);
	snprintf(num, sizeof(num), "%ld", o->launch_count);
	bad |= gmt_env_add(e, "GPUMEM_TRACE_COUNT", num);
	snprintf(num, sizeof(num), "%d", o->sample_warps);
	bad |= gmt_env_add(e, "GPUMEM_TRACE_SAMPLES", num);
	snprintf(num, sizeof(num), "%ld", o->count_warps);
	bad |= gmt_env_add(e, "GPUMEM_TRACE_COUNT_WARPS", num);
	if (o->stop_after)
		bad |= gmt_env_add(e, "GPUMEM_TRACE_STOP", "1");
	if (o->device >= 0) {
		snprintf(num, sizeof(num), "%d", o->device);
		bad |= gmt_env_add(e, "CUDA_VISIBLE_DEVICES", num);
	}
	return bad ? gm_fail(GM_ERR_NOMEM, "out of memory") : GM_OK;
}

static int executable_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

gm_status gmt_resolve_program(const char *argv0, char *path, size_t n)
{
	const char *dirs = getenv("PATH");
	struct stat st;

	if (!argv0 || !*argv0)
		return gm_fail(GM_ERR_INVALID_ARG, "no program given (gpumem trace [options] -- PROGRAM [ARGS])");
	if (strchr(argv0, '/')) {
		if (stat(argv0, &st) != 0)
			return gm_fail(GM_ERR_INVALID_ARG, "program not found '%s'", argv0);
		if (!executable_file(argv0))
			return gm_fail(GM_ERR_INVALID_ARG, "program not executable '%s'", argv0);
		snprintf(path, n, "%s", argv0);
		return GM_OK;
	}
	for (const char *d = dirs ? dirs : "/usr/bin:/bin"; d;) {
		const char *end = strchr(d, ':');
		int len = end ? (int)(end - d) : (int)strlen(d);
		snprintf(path, n, "%.*s%s%s", len, d, len ? "/" : "", argv0);
		if (executable_file(path))
			return GM_OK;
		d = end ? end + 1 : NULL;
	}
	return gm_fail(GM_ERR_INVALID_ARG, "program not found '%s'", argv0);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* Child side: own process group, report a failed exec through the pipe. */
static void child(int wfd, const char *path, const char *const *argv, char *const *envp)
{
	int e;

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execve(path, (char *const *)argv, envp);
	e = errno;
	if (write(wfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static void sleep_ms(int ms)
{
	struct timespec t = {0, ms * 1000000L};

	nanosleep(&t, NULL);
}

gm_status gmt_run_pass(const char *path, const char *const *argv, char *const *envp, double timeout_s,
                       struct gmt_pass *p)
{
	struct sigaction sa, old_int, old_term;
	int fds[2], st = 0, killed_at = 0;
	double t0 = now_s(), kill_time = 0;
	pid_t pid, r;

	memset(p, 0, sizeof(*p));
	if (pipe(fds) != 0)
		return gm_fail(GM_ERR_IO, "cannot start '%s': %s", path, strerror(errno));
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]), close(fds[1]);
		return gm_fail(GM_ERR_IO, "cannot start '%s': %s", path, strerror(errno));
	}
	if (pid == 0)
		child(fds[1], path, argv, envp);
	close(fds[1]);
	setpgid(pid, pid);   /* also here: no race with the first kill */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	got_signal = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	for (;;) {
		r = waitpid(pid, &st, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			break;
		double t = now_s() - t0;
		if (got_signal && !p->interrupted) {
			p->interrupted = 1;
			kill(-pid, got_signal);
			kill_time = t;
			killed_at = 1;
		}
		if (timeout_s > 0 && t > timeout_s && !killed_at) {
			p->timed_out = 1;
			kill(-pid, SIGTERM);
			kill_time = t;
			killed_at = 1;
		}
		if (killed_at == 1 && t > kill_time + 2.0) {
			kill(-pid, SIGKILL);
			killed_at = 2;
		}
		sleep_ms(t < 1.0 ? 2 : 20);
	}
	if (killed_at)
		kill(-pid, SIGKILL);   /* what is left of the group */
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	p->wall_s = now_s() - t0;
	if (read(fds[0], &p->exec_errno, sizeof(p->exec_errno)) != (ssize_t)sizeof(p->exec_errno))
		p->exec_errno = 0;
	close(fds[0]);
	p->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	p->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	if (p->exec_errno)
		return gm_fail(GM_ERR_INVALID_ARG, "cannot run '%s': %s", path, strerror(p->exec_errno));
	return GM_OK;
}
