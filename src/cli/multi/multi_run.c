/*
 * multi_run.c - `gpumem run --all-devices` (every GPU, one after another) and
 * `--concurrent` (every GPU at once). Each device's run is a child process of
 * this binary (`gpumem run ... --device N --json FILE`): no CUDA context,
 * current device, signal handler or static buffer is shared between devices,
 * and a device that crashes or hangs (--timeout) is reported while the
 * others finish. The parent samples NVML every 100 ms for the clocks,
 * temperature, throttle reasons and processes seen during each run, then
 * writes one multi-device document (include/gpumem/fleet.h) and prints the
 * fleet view.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "gpumem/result.h"
#include "cli/multi/multi.h"
#include "gpumem/bench.h"
#include "gpumem/io.h"

#define POLL_MS 100

static volatile int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void sleep_ms(int ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&t, NULL);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Options that name a value: the value goes with them. */
static int takes_value(const char *a)
{
	static const char *const v[] = { "--json", "--csv", "--device", "--timeout" };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(a, v[i]))
			return 2;
		else if (!strncmp(a, v[i], strlen(v[i])) && a[strlen(v[i])] == '=')
			return 1;
	return 0;
}

int gm_multi_filter_args(int argc, char **argv, const char **out)
{
	int n = 0;

	for (int i = 1; i < argc; i++) {
		int t = takes_value(argv[i]);
		if (t) {
			i += t - 1;
			continue;
		}
		if (!strcmp(argv[i], "--all-devices") || !strcmp(argv[i], "--concurrent") ||
		    !strcmp(argv[i], "--mpi") || !strcmp(argv[i], "--barrier"))
			continue;
		out[n++] = argv[i];
	}
	return n;
}

gm_status gm_multi_tmpdir(char *dir, size_t n)
{
	const char *base = getenv("TMPDIR");

	snprintf(dir, n, "%s/gpumem-multi-XXXXXX", base && base[0] ? base : "/tmp");
	if (!mkdtemp(dir))
		return gm_fail(GM_ERR_IO, "cannot create a temporary directory '%s': %s", dir, strerror(errno));
	return GM_OK;
}

void gm_multi_tmp_remove(const char *dir, struct gm_job *jobs, int n)
{
	for (int i = 0; i < n; i++) {
		unlink(jobs[i].json);
		unlink(jobs[i].log);
	}
	rmdir(dir);
}

void gm_job_init(struct gm_job *j, int device, const char *tmpdir, const char *tag, struct gm_placement *pl,
		 struct gm_run_result *run)
{
	j->device = device;
	j->pl = pl;
	j->run = run;
	snprintf(j->json, sizeof(j->json), "%s/%s.json", tmpdir, tag);
	snprintf(j->log, sizeof(j->log), "%s/%s.log", tmpdir, tag);
	gm_tel_acc_init(&j->acc);
	pl->device = device;
	if (gm_gpu_bus_id(device, pl->pci_bus_id, sizeof(pl->pci_bus_id)))
		gm_clear_error();
	gm_tel_place(pl);
}

static gm_status job_start(struct gm_job *j)
{
	const char *av[256];
	char dev[16];
	int n = 0, fd;

	snprintf(dev, sizeof(dev), "%d", j->device);
	av[n++] = "gpumem";
	av[n++] = "run";
	for (int i = 0; i < j->nargs && n < 248; i++)
		av[n++] = j->args[i];
	av[n++] = "--device";
	av[n++] = dev;
	av[n++] = "--json";
	av[n++] = j->json;
	av[n] = NULL;
	fflush(NULL);
	j->pid = fork();
	if (j->pid < 0)
		return gm_fail(GM_ERR_IO, "cannot start the run on device %d: %s", j->device, strerror(errno));
	if (j->pid == 0) {
		fd = open(j->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		execv("/proc/self/exe", (char *const *)av);
		fprintf(stderr, "error: cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(GM_EXIT_CUDA);
	}
	j->running = 1;
	j->t_start = now_s();
	return GM_OK;
}

/* Reap job j if it ended; kill it when it ran past the timeout. */
static void job_poll(struct gm_job *j, double timeout_s)
{
	int st;

	if (!j->running)
		return;
	if (waitpid(j->pid, &st, WNOHANG) == j->pid) {
		j->running = 0;
		j->wstatus = st;
		return;
	}
	if (timeout_s > 0 && now_s() - j->t_start > timeout_s && !j->timed_out) {
		j->timed_out = 1;
		kill(j->pid, SIGKILL);
	}
}

static int any_running(const struct gm_job *jobs, int n)
{
	for (int i = 0; i < n; i++)
		if (jobs[i].running)
			return 1;
	return 0;
}

/* The last "error:" line of the child's output, or its last line. */
static void last_error_line(const char *log, char *buf, size_t n)
{
	char line[512];
	FILE *f = fopen(log, "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!strncmp(line, "error:", 6) || !buf[0])
			snprintf(buf, n, "%.250s", line);
	}
	fclose(f);
}

static void job_collect(struct gm_job *j)
{
	struct gm_placement *p = j->pl;
	int code = WIFEXITED(j->wstatus) ? WEXITSTATUS(j->wstatus) : -1;

	gm_tel_finish(p->pci_bus_id, &j->acc, &p->tel);
	p->exit_code = code;
	if (j->timed_out) {
		snprintf(p->status, sizeof(p->status), "timeout");
		snprintf(p->message, sizeof(p->message), "no result within the timeout: the run was killed");
	} else if (WIFSIGNALED(j->wstatus)) {
		snprintf(p->status, sizeof(p->status), "crashed");
		snprintf(p->message, sizeof(p->message), "the run died of signal %d (%s)", WTERMSIG(j->wstatus),
			 strsignal(WTERMSIG(j->wstatus)));
	} else if (code == GM_EXIT_OK || code == GM_EXIT_CASE_FAILED || code == GM_EXIT_INTERRUPTED) {
		snprintf(p->status, sizeof(p->status), "%s",
			 code == GM_EXIT_OK ? "ok" : code == GM_EXIT_CASE_FAILED ? "failed" : "interrupted");
	} else {
		snprintf(p->status, sizeof(p->status), code == GM_EXIT_NO_DEVICE ? "no-gpu" : "error");
		last_error_line(j->log, p->message, sizeof(p->message));
	}
	if (access(j->json, R_OK) == 0) {
		gm_result_release(j->run);
		if (gm_json_read(j->json, j->run)) {
			snprintf(p->message, sizeof(p->message), "%s", gm_last_error());
			gm_clear_error();
			gm_result_init(j->run);
		}
	}
	if (j->run->have_device && !p->name[0])
		snprintf(p->name, sizeof(p->name), "%s", j->run->dev.name);
}

gm_status gm_jobs_run(struct gm_job *jobs, int n, int concurrent, double timeout_s, volatile int *stop)
{
	int next = 0, forwarded = 0;
	gm_status s = GM_OK;

	while (next < n || any_running(jobs, n)) {
		while (next < n && !*stop && (concurrent || !any_running(jobs, n)) && !s)
			s = job_start(&jobs[next++]);
		if (s || (*stop && !any_running(jobs, n)))
			break;
		if (*stop && !forwarded) {
			for (int i = 0; i < n; i++)
				if (jobs[i].running)
					kill(jobs[i].pid, SIGINT);
			forwarded = 1;
		}
		for (int i = 0; i < n; i++)
			if (jobs[i].running)
				gm_tel_sample(jobs[i].pl->pci_bus_id, &jobs[i].acc);
		sleep_ms(POLL_MS);
		for (int i = 0; i < n; i++)
			job_poll(&jobs[i], timeout_s);
	}
	for (int i = 0; i < n; i++) {
		if (jobs[i].running) {      /* a failed start: end what runs */
			kill(jobs[i].pid, SIGKILL);
			waitpid(jobs[i].pid, &jobs[i].wstatus, 0);
			jobs[i].running = 0;
		}
		if (jobs[i].pid > 0)
			job_collect(&jobs[i]);
		else
			snprintf(jobs[i].pl->status, sizeof(jobs[i].pl->status), "missing");
	}
	return s;
}

void gm_job_print_log(const struct gm_job *j, FILE *f)
{
	char buf[4096];
	size_t k;
	FILE *in = fopen(j->log, "r");

	fprintf(f, "\n== GPU %d (%s) %s: %s%s%s ==\n", j->device, j->pl->pci_bus_id, j->pl->name, j->pl->status,
		j->pl->message[0] ? ", " : "", j->pl->message);
	if (!in)
		return;
	while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, k, f);
	fclose(in);
}

int gm_multi_finish(struct gm_multi_run *m, const char *json_path, double k)
{
	struct gm_fleet fl;
	struct gm_outfile out;
	int code = GM_EXIT_OK;

	if (gm_fleet_compute(m, k, &fl) == GM_OK) {
		printf("\n");
		gm_write(stdout, GM_DOC_FLEET, "text", &(struct gm_fleet_doc){ m, &fl });
	}
	gm_fleet_release(&fl);
	if (json_path) {
		if (gm_outfile_open(&out, json_path))
			return gm_error(GM_EXIT_IO, "%s", gm_last_error());
		if (gm_write(out.f, GM_DOC_FLEET, "json", &(struct gm_fleet_doc){ m }) || gm_outfile_commit(&out)) {
			gm_outfile_abort(&out);
			return gm_error(GM_EXIT_IO, "%s", gm_last_error());
		}
	}
	int nogpu = 0;
	for (int i = 0; i < m->n; i++)
		nogpu += !strcmp(m->pl[i].status, "no-gpu");
	if (m->n && nogpu == m->n)
		return GM_EXIT_NO_DEVICE;
	for (int i = 0; i < m->n; i++)
		if (strcmp(m->pl[i].status, "ok") && strcmp(m->pl[i].status, "no-gpu") && code != GM_EXIT_INTERRUPTED)
			code = !strcmp(m->pl[i].status, "interrupted") ? GM_EXIT_INTERRUPTED : GM_EXIT_CASE_FAILED;
	return code;
}

static void describe(struct gm_multi_run *m, const char *mode, int argc, char **argv)
{
	time_t now = time(NULL);
	size_t used = (size_t)snprintf(m->command, sizeof(m->command), "gpumem");

	for (int i = 0; i < argc && used < sizeof(m->command); i++)
		used += (size_t)snprintf(m->command + used, sizeof(m->command) - used, " %s", argv[i]);
	strftime(m->started_utc, sizeof(m->started_utc), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(m->mode, sizeof(m->mode), "%s", mode);
	snprintf(m->tool_version, sizeof(m->tool_version), "%s", gm_tool_version());
}

int gm_multi_check_selectors(const struct gm_run_args *a)
{
	int n, bad = 0;
	unsigned char *sel;
	enum gm_tier tier = a->quick ? GM_TIER_QUICK : a->full ? GM_TIER_FULL : GM_TIER_DEFAULT;

	gm_registry_cases(&n);
	sel = calloc((size_t)n + 1, 1);
	if (!sel)
		return gm_error(GM_EXIT_IO, "out of memory");
	if (gm_registry_select(a->selectors, a->nselectors, tier, sel, &bad)) {
		free(sel);
		return gm_error(GM_EXIT_USAGE, "no benchmark matches '%s'; see 'gpumem list'", a->selectors[bad]);
	}
	free(sel);
	return GM_EXIT_OK;
}

int gm_multi_run_main(const struct gm_run_args *a, int argc, char **argv)
{
	struct gm_multi_run m;
	struct gm_job *jobs;
	const char **args = calloc((size_t)argc + 1, sizeof(*args));
	char tmp[4096], tag[32];
	int ndev = 0, nargs, code;
	double t0 = now_s();
	gm_status s;

	if (!args)
		return gm_error(GM_EXIT_IO, "out of memory");
	code = gm_multi_check_selectors(a);
	if (code) {
		free(args);
		return code;
	}
	nargs = gm_multi_filter_args(argc, argv, args);
	s = gm_gpu_count(&ndev);
	if (s) {
		free(args);
		return gm_error(gm_exit_code(s), "%s", gm_last_error());
	}
	gm_multi_init(&m);
	jobs = calloc((size_t)ndev, sizeof(*jobs));
	if (!jobs || gm_multi_resize(&m, ndev) || gm_multi_tmpdir(tmp, sizeof(tmp))) {
		free(jobs);
		free(args);
		gm_multi_release(&m);
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	}
	describe(&m, a->concurrent ? "concurrent" : "sequential", argc, argv);
	if (gm_tel_open())
		fprintf(stderr, "note: %s\n", gm_last_error());
	for (int i = 0; i < ndev; i++) {
		snprintf(tag, sizeof(tag), "gpu%d", i);
		gm_job_init(&jobs[i], i, tmp, tag, &m.pl[i], &m.runs[i]);
		jobs[i].args = args;
		jobs[i].nargs = nargs;
	}
	fprintf(stderr, "running on %d GPU(s) %s\n", ndev, a->concurrent ? "at once" : "one after another");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	s = gm_jobs_run(jobs, ndev, a->concurrent, a->timeout_s, &stop_flag);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	m.wall_s = now_s() - t0;
	for (int i = 0; i < ndev; i++)
		gm_job_print_log(&jobs[i], stdout);
	code = s ? gm_error(GM_EXIT_IO, "%s", gm_last_error()) : gm_multi_finish(&m, a->json_path, GM_FLEET_DEFAULT_K);
	gm_tel_close();
	gm_multi_tmp_remove(tmp, jobs, ndev);
	free(jobs);
	free(args);
	gm_multi_release(&m);
	return code;
}
