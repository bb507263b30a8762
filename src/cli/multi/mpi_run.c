/*
 * mpi_run.c - `gpumem run --mpi`: one GPU per MPI rank, chosen by the rank's
 * node-local rank (MPI_COMM_TYPE_SHARED) modulo the GPUs the rank sees. Each
 * rank runs its cases in a child process (src/cli/multi/multi_run.c), so a crash
 * or hang of the run is reported and never takes the MPI job down; rank 0
 * gathers one device block per rank into one multi-device document.
 *
 * Every wait is bounded: the start-up exchange (JOIN_S), each barrier of
 * --barrier (the run timeout + SLACK_S) and the gather (the whole run's
 * budget + SLACK_S). A rank that misses a deadline is reported by rank 0 with
 * its host and GPU, then the job is ended (rank 0 leaves without MPI_Finalize,
 * abort_job) instead of hanging in MPI_Finalize. Ranks of different gpumem versions are refused.
 *
 * Test hooks (tests/mpi/): GPUMEM_MPI_TEST_VERSION=R:V makes rank R claim
 * version V; GPUMEM_MPI_TEST_HANG=R makes rank R hang before it reports.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gpumem/result.h"
#include "cli/multi/multi.h"
#include "gpumem/bench.h"
#include "gpumem/compare.h"
#include "gpumem/io.h"

#define JOIN_S 60.0
#define SLACK_S 60.0
#define DEFAULT_TIMEOUT_S 1800.0
#define TAG_LEN 7101
#define TAG_BLOCK 7102

struct hello {
	char version[32];
	char host[64];
	int local_rank, device, ndev;
	char bus[24];
};

static volatile int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void usleep_(long us)
{
	struct timespec t = { us / 1000000L, (us % 1000000L) * 1000L };
	nanosleep(&t, NULL);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Wait for req until deadline (absolute now_s()); 0 done, -1 timed out or failed. */
static int wait_bounded(MPI_Request *req, double deadline)
{
	int done = 0;

	while (!done) {
		if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -1;
		if (!done && now_s() > deadline)
			return -1;
		if (!done)
			usleep_(2000);
	}
	return 0;
}

/*
 * End the whole job: this rank leaves with code, without MPI_Finalize, and the
 * launcher ends the others (a rank that exits early with a non-zero status
 * aborts the job under Open MPI's mpirun and MPICH's hydra). Not MPI_Abort:
 * Open MPI 4.1's mpirun crashed (segmentation fault) or hung on its message in
 * 10 of 20 tries here (ORTE_ERROR_LOG "Data unpack had inadequate space" in
 * show_help.c), which is how CI's mpi_np4 hung.
 */
static void abort_job(int code)
{
	fflush(NULL);
	_exit(code);
}

static int test_hook_rank(const char *var)
{
	const char *v = getenv(var);
	return v && v[0] ? atoi(v) : -1;
}

static void fill_hello(struct hello *h, int rank, int local, char *why, size_t n)
{
	const char *tv = getenv("GPUMEM_MPI_TEST_VERSION");

	memset(h, 0, sizeof(*h));
	snprintf(h->version, sizeof(h->version), "%s", GPUMEM_VERSION);
	if (tv && atoi(tv) == rank && strchr(tv, ':'))
		snprintf(h->version, sizeof(h->version), "%s", strchr(tv, ':') + 1);
	if (gethostname(h->host, sizeof(h->host) - 1))
		snprintf(h->host, sizeof(h->host), "?");
	h->local_rank = local;
	h->device = -1;
	why[0] = '\0';
	if (gm_gpu_count(&h->ndev) || h->ndev <= 0) {
		snprintf(why, n, "%s", gm_last_error());
		gm_clear_error();
		h->ndev = 0;
		return;
	}
	h->device = local % h->ndev;
	if (gm_gpu_bus_id(h->device, h->bus, sizeof(h->bus)))
		gm_clear_error();
}

/* 0 when every rank runs this version; else rank 0 names the others. */
static int check_versions(const struct hello *all, int size, int rank)
{
	int bad = 0;

	for (int r = 1; r < size; r++)
		if (strcmp(all[r].version, all[0].version)) {
			if (rank == 0)
				fprintf(stderr, "error: rank %d on %s runs gpumem %s, rank 0 runs %s: mixed versions are refused\n",
					r, all[r].host, all[r].version, all[0].version);
			bad = 1;
		}
	return bad;
}

/* --barrier: the arguments without the selectors, one case appended per job. */
static int run_barrier(const struct gm_run_args *a, const char **args, int nargs, struct gm_job *tmpl,
		       const char *tmp, double timeout_s, struct gm_run_result *run)
{
	int n, bad;
	const struct gm_case *all = gm_registry_cases(&n);
	unsigned char *sel = calloc((size_t)n + 1, 1);
	const char **opt = calloc((size_t)nargs + 2, sizeof(*opt));
	int nopt = 0, err = 0, failed = 0;
	enum gm_tier tier = a->quick ? GM_TIER_QUICK : a->full ? GM_TIER_FULL : GM_TIER_DEFAULT;

	if (!sel || !opt || gm_registry_select(a->selectors, a->nselectors, tier, sel, &bad)) {
		if (tmpl)
			snprintf(tmpl->pl->message, sizeof(tmpl->pl->message), "cannot select the cases");
		free(sel);
		free(opt);
		return -1;
	}
	for (int i = 0; i < nargs; i++) {
		int is_sel = 0;
		for (int k = 0; k < a->nselectors; k++)
			is_sel |= args[i] == a->selectors[k];
		if (!is_sel)
			opt[nopt++] = args[i];
	}
	/* a rank whose run broke keeps joining the barriers (without running) so the others go on */
	for (int i = 0; i < n; i++) {
		struct gm_job j;
		struct gm_run_result part;
		MPI_Request req;
		char tag[32];

		if (!sel[i])
			continue;
		if (MPI_Ibarrier(MPI_COMM_WORLD, &req) != MPI_SUCCESS ||
		    wait_bounded(&req, now_s() + timeout_s + SLACK_S)) {
			if (tmpl)
				snprintf(tmpl->pl->message, sizeof(tmpl->pl->message),
					 "the barrier before '%s' timed out: another rank is late or gone", all[i].name);
			err = 2;
			break;
		}
		if (!tmpl || err || stop_flag)
			continue;
		j = *tmpl;
		opt[nopt] = all[i].name;
		gm_result_init(&part);
		snprintf(tag, sizeof(tag), "case%d", i);
		gm_job_init(&j, tmpl->device, tmp, tag, tmpl->pl, &part);
		j.acc = tmpl->acc;
		j.args = opt;
		j.nargs = nopt + 1;
		gm_jobs_run(&j, 1, 0, timeout_s, &stop_flag);
		tmpl->acc = j.acc;
		if (!run->ncases && !run->have_device) {
			gm_result_release(run);
			*run = part;
		} else {
			gm_runs_merge(run, &part, 1);
			gm_result_release(&part);
		}
		unlink(j.json);
		unlink(j.log);
		failed |= !strcmp(tmpl->pl->status, "failed");
		err = strcmp(tmpl->pl->status, "ok") && strcmp(tmpl->pl->status, "failed");
	}
	if (tmpl && failed && !strcmp(tmpl->pl->status, "ok"))
		snprintf(tmpl->pl->status, sizeof(tmpl->pl->status), "failed");
	if (tmpl)
		gm_tel_finish(tmpl->pl->pci_bus_id, &tmpl->acc, &tmpl->pl->tel);
	free(sel);
	free(opt);
	return err ? -1 : 0;
}

/* This rank's device block: its run (or why it has none). */
static void run_rank(const struct gm_run_args *a, int argc, char **argv, const struct hello *me,
		     const char *why, double timeout_s, struct gm_placement *pl, struct gm_run_result *run)
{
	const char **args = calloc((size_t)argc + 1, sizeof(*args));
	int nargs = args ? gm_multi_filter_args(argc, argv, args) : 0;
	char tmp[4096];
	struct gm_job j;

	snprintf(pl->host, sizeof(pl->host), "%s", me->host);
	if (me->device < 0 || !args) {
		snprintf(pl->status, sizeof(pl->status), "no-gpu");
		snprintf(pl->message, sizeof(pl->message), "no GPU on this rank: %s", why);
		if (a->barrier && args)     /* the ranks with a GPU wait for this one at every case */
			run_barrier(a, args, nargs, NULL, NULL, timeout_s, run);
		free(args);
		return;
	}
	if (gm_multi_tmpdir(tmp, sizeof(tmp))) {
		snprintf(pl->status, sizeof(pl->status), "error");
		snprintf(pl->message, sizeof(pl->message), "%s", gm_last_error());
		free(args);
		return;
	}
	memset(&j, 0, sizeof(j));
	gm_tel_open();
	gm_clear_error();
	gm_job_init(&j, me->device, tmp, "rank", pl, run);
	j.args = args;
	j.nargs = nargs;
	if (a->barrier) {
		if (run_barrier(a, args, nargs, &j, tmp, timeout_s, run) && !strcmp(pl->status, "ok"))
			snprintf(pl->status, sizeof(pl->status), "error");
		if (!pl->status[0])
			snprintf(pl->status, sizeof(pl->status), "error");
	} else
		gm_jobs_run(&j, 1, 0, timeout_s, &stop_flag);
	gm_multi_tmp_remove(tmp, &j, 1);
	gm_tel_close();
	free(args);
}

static int send_block(const struct gm_placement *pl, const struct gm_run_result *run, double deadline)
{
	char *text = NULL;
	int len;
	MPI_Request req[2];

	if (gm_multi_block_dump(pl, run, &text))
		return -1;
	len = (int)strlen(text) + 1;
	MPI_Isend(&len, 1, MPI_INT, 0, TAG_LEN, MPI_COMM_WORLD, &req[0]);
	MPI_Isend(text, len, MPI_CHAR, 0, TAG_BLOCK, MPI_COMM_WORLD, &req[1]);
	int bad = wait_bounded(&req[0], deadline) || wait_bounded(&req[1], deadline);
	free(text);
	return bad ? -1 : 0;
}

/* Rank 0: one block from each rank until deadline; the rest are marked missing. */
static int gather(struct gm_multi_run *m, const struct hello *all, int size, double deadline)
{
	int got = 1, missing = 0;

	while (got < size && now_s() < deadline) {
		int flag = 0, len = 0;
		MPI_Status st;
		MPI_Iprobe(MPI_ANY_SOURCE, TAG_LEN, MPI_COMM_WORLD, &flag, &st);
		if (!flag) {
			usleep_(5000);
			continue;
		}
		MPI_Recv(&len, 1, MPI_INT, st.MPI_SOURCE, TAG_LEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		char *text = malloc((size_t)len + 1);
		MPI_Request req;
		int r = st.MPI_SOURCE;
		if (!text || len <= 0)
			break;
		MPI_Irecv(text, len, MPI_CHAR, r, TAG_BLOCK, MPI_COMM_WORLD, &req);
		if (wait_bounded(&req, deadline) == 0) {
			text[len - 1] = '\0';
			if (gm_multi_block_load(text, &m->pl[r], &m->runs[r])) {
				snprintf(m->pl[r].status, sizeof(m->pl[r].status), "error");
				snprintf(m->pl[r].message, sizeof(m->pl[r].message), "unreadable block: %s", gm_last_error());
			}
			got++;
		}
		free(text);
	}
	for (int r = 1; r < size; r++)
		if (!m->pl[r].status[0]) {
			struct gm_placement *p = &m->pl[r];
			p->rank = r;
			p->device = all[r].device;
			snprintf(p->host, sizeof(p->host), "%s", all[r].host);
			snprintf(p->pci_bus_id, sizeof(p->pci_bus_id), "%s", all[r].bus);
			snprintf(p->status, sizeof(p->status), "missing");
			snprintf(p->message, sizeof(p->message), "sent no result in time (rank hung or died)");
			fprintf(stderr, "error: rank %d on %s (GPU %d %s) sent no result in time: hung or dead\n", r,
				all[r].host, all[r].device, all[r].bus);
			missing++;
		}
	return missing;
}

static void describe(struct gm_multi_run *m, const struct gm_run_args *a, int argc, char **argv)
{
	time_t now = time(NULL);
	size_t used = (size_t)snprintf(m->command, sizeof(m->command), "gpumem");

	for (int i = 0; i < argc && used < sizeof(m->command); i++)
		used += (size_t)snprintf(m->command + used, sizeof(m->command) - used, " %s", argv[i]);
	strftime(m->started_utc, sizeof(m->started_utc), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(m->mode, sizeof(m->mode), "%s", a->barrier ? "mpi-barrier" : "mpi");
	snprintf(m->tool_version, sizeof(m->tool_version), "%s", gm_tool_version());
}

static int mpi_fail(const char *what, int rc)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len = 0;

	MPI_Error_string(rc, msg, &len);
	return gm_error(GM_EXIT_NO_DEVICE, "%s failed: %s", what, msg);
}

int gm_mpi_run_main(const struct gm_run_args *a, int argc, char **argv)
{
	int rank = 0, size = 1, local = 0, rc, code = GM_EXIT_OK, ncases = 1;
	MPI_Comm node;
	MPI_Request req;
	struct hello me, *all;
	struct gm_multi_run m;
	char why[256];
	double t0 = now_s(), timeout_s = a->timeout_s > 0 ? a->timeout_s : DEFAULT_TIMEOUT_S;

	if ((code = gm_multi_check_selectors(a)))     /* every rank refuses alike, before MPI starts */
		return code;
	if ((rc = MPI_Init(NULL, NULL)) != MPI_SUCCESS)
		return mpi_fail("MPI_Init", rc);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if ((rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node)) != MPI_SUCCESS)
		return mpi_fail("MPI_Comm_split_type", rc);
	MPI_Comm_rank(node, &local);
	MPI_Comm_free(&node);
	fill_hello(&me, rank, local, why, sizeof(why));
	all = calloc((size_t)size, sizeof(*all));
	gm_multi_init(&m);
	if (!all || gm_multi_resize(&m, size)) {
		fprintf(stderr, "error: rank %d: out of memory\n", rank);
		abort_job(GM_EXIT_IO);
	}
	MPI_Iallgather(&me, sizeof(me), MPI_BYTE, all, sizeof(me), MPI_BYTE, MPI_COMM_WORLD, &req);
	if (wait_bounded(&req, now_s() + JOIN_S)) {
		fprintf(stderr, "error: rank %d on %s: not every rank joined within %.0f s\n", rank, me.host, JOIN_S);
		abort_job(GM_EXIT_CUDA);
	}
	if (check_versions(all, size, rank)) {
		MPI_Finalize();
		free(all);
		gm_multi_release(&m);
		return GM_EXIT_USAGE;
	}
	if (a->barrier) {
		int n;
		unsigned char *sel;
		const struct gm_case *cs = gm_registry_cases(&n);
		(void)cs;
		sel = calloc((size_t)n + 1, 1);
		enum gm_tier tier = a->quick ? GM_TIER_QUICK : a->full ? GM_TIER_FULL : GM_TIER_DEFAULT;
		int bad;
		ncases = 0;
		if (sel && !gm_registry_select(a->selectors, a->nselectors, tier, sel, &bad))
			for (int i = 0; i < n; i++)
				ncases += sel[i];
		free(sel);
		ncases = ncases ? ncases : 1;
	}
	if (rank == 0)
		fprintf(stderr, "gpumem --mpi: %d rank(s); each runs on GPU (node-local rank mod GPUs)\n", size);
	describe(&m, a, argc, argv);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	m.pl[rank].rank = rank;
	run_rank(a, argc, argv, &me, why, timeout_s, &m.pl[rank], &m.runs[rank]);
	m.pl[rank].rank = rank;
	/* From here a SIGTERM (the launcher ending the job when a rank left early) ends the rank at once:
	 * a rank that caught it and kept waiting could hold the whole job. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (test_hook_rank("GPUMEM_MPI_TEST_HANG") == rank && rank != 0)
		for (;;)
			pause();
	double deadline = t0 + timeout_s * ncases + SLACK_S * (a->barrier ? ncases : 1);
	if (rank != 0) {
		if (send_block(&m.pl[rank], &m.runs[rank], deadline))
			fprintf(stderr, "error: rank %d on %s could not deliver its result to rank 0\n", rank, me.host);
	} else {
		if (getenv("GPUMEM_MPI_TEST_DEADLINE"))
			deadline = now_s() + atof(getenv("GPUMEM_MPI_TEST_DEADLINE"));
		int missing = gather(&m, all, size, deadline);
		m.wall_s = now_s() - t0;
		code = gm_multi_finish(&m, a->json_path, GM_FLEET_DEFAULT_K);
		if (missing) {
			free(all);
			gm_multi_release(&m);
			abort_job(GM_EXIT_CASE_FAILED);
		}
	}
	free(all);
	gm_multi_release(&m);
	MPI_Finalize();
	return rank == 0 ? code : GM_EXIT_OK;
}
