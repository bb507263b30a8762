/*
 * check_run.c - `gpumem check` on a GPU (check_run.h): the check's cases run
 * through the normal runner (validated, warmed up and timed as `run` times
 * them, at the default suite's sizes so the figures compare with the
 * baselines made from default-suite runs); NVML counters before and after;
 * a watch thread every 100 ms polls XID events and samples clocks, power,
 * temperature, throttle reasons and the PCIe link; --burn alternates the
 * checked GEMM and the memory test until the duration or SIGINT.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/check_run.h"
#include "gpumem/bench.h"
#include "gpumem/telemetry.h"

#define WATCH_MS 100
#define REPS 20
#define QUICK_REPS 7
#define BURN_GEMM "gemm.v9_grouped_4096"
#define BURN_MEMTEST "memtest.moving_inversions"
#define BURN_PHASE_S 1.0     /* each phase of the burn (GEMM, memory test) lasts this long at least */

struct watch {
	pthread_t th;
	pthread_mutex_t mu;
	int quit, running;
	char bus[32];
	void *xid;
	struct gm_counter_read xid_read;
	uint64_t reasons;
	int gen_best, width_best, have_now;
	double t0;
	struct gm_burn *burn;       /* samples go here while burning (NULL otherwise) */
	int phase;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void watch_once(struct watch *w)
{
	struct gm_burn_sample s = { 0 };
	int gen = -1, width = -1;

	pthread_mutex_lock(&w->mu);
	gm_tel_xid_poll(w->xid, &w->xid_read);
	if (gm_tel_now(w->bus, &s, &gen, &width)) {
		w->have_now = 1;
		w->reasons |= s.reasons;
		w->gen_best = gen > w->gen_best ? gen : w->gen_best;
		w->width_best = width > w->width_best ? width : w->width_best;
		if (w->burn) {
			s.t_s = now_s() - w->t0;
			s.phase = w->phase;
			gm_burn_add(w->burn, &s);
		}
	}
	pthread_mutex_unlock(&w->mu);
}

/* A sample every WATCH_MS on the clock (absolute ticks: the NVML reads, ~30 ms, do not stretch the period). */
static void *watch_main(void *arg)
{
	struct watch *w = arg;
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		pthread_mutex_lock(&w->mu);
		int quit = w->quit;
		pthread_mutex_unlock(&w->mu);
		if (quit)
			break;
		watch_once(w);
		next.tv_nsec += WATCH_MS * 1000000L;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	return NULL;
}

static void watch_start(struct watch *w, const char *bus)
{
	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->mu, NULL);
	snprintf(w->bus, sizeof(w->bus), "%s", bus);
	w->xid = gm_tel_xid_open(bus, &w->xid_read);
	w->t0 = now_s();
	w->running = pthread_create(&w->th, NULL, watch_main, w) == 0;
}

static void watch_stop(struct watch *w)
{
	if (w->running) {
		pthread_mutex_lock(&w->mu);
		w->quit = 1;
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->th, NULL);
	}
	watch_once(w);   /* the last XIDs */
	gm_tel_xid_close(w->xid);
	pthread_mutex_destroy(&w->mu);
}

/* The watch's findings over the counters read at the end. */
static void watch_fold(const struct watch *w, struct gm_check_counters *c)
{
	c->after[GM_CNT_XID] = w->xid_read;
	if (!w->have_now)
		return;
	if (c->after[GM_CNT_THROTTLE].state == GM_CNT_OK)
		c->after[GM_CNT_THROTTLE].value |= (int64_t)w->reasons;
	if (c->after[GM_CNT_PCIE_GEN].state == GM_CNT_OK && w->gen_best > c->after[GM_CNT_PCIE_GEN].value)
		c->after[GM_CNT_PCIE_GEN].value = w->gen_best;
	if (c->after[GM_CNT_PCIE_WIDTH].state == GM_CNT_OK && w->width_best > c->after[GM_CNT_PCIE_WIDTH].value)
		c->after[GM_CNT_PCIE_WIDTH].value = w->width_best;
}

/* The registry's cases of these names, in the names' order; a name the registry lacks is left out. */
static int cases_named(const char *const *names, int n, const struct gm_case **out)
{
	int nall, k = 0;
	const struct gm_case *all = gm_registry_cases(&nall);

	for (int i = 0; i < n; i++)
		for (int j = 0; j < nall; j++)
			if (!strcmp(all[j].name, names[i])) {
				out[k++] = &all[j];
				break;
			}
	return k;
}

int check_line_listed(const char *list, const char *id)
{
	size_t n = strlen(id);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p))
		if (!strncmp(p, id, n) && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return !list;
}

/* The cases of the lines to run: the tier's, narrowed by --only. */
static int line_cases(const struct check_opts *o, const char **names, int max)
{
	int n, k = 0;
	const struct gm_check_line_def *l = gm_check_lines(&n);

	for (int i = 0; i < n && k < max; i++)
		if ((!o->quick || l[i].quick) && check_line_listed(o->only, l[i].id))
			names[k++] = l[i].case_name;
	return k;
}

static void runner_opts(const struct check_opts *o, const struct gm_run_result *r, struct gm_runner_opts *ro)
{
	memset(ro, 0, sizeof(*ro));
	ro->reps = r->reps;
	ro->warmup = r->warmup;
	ro->min_sample_ms = 0.5;
	ro->array_bytes = gm_default_array_bytes(&r->dev, 0);  /* the default suite's sizes: the baselines' */
	ro->seed = r->seed;
	ro->stop = o->stop;
}

/* One validated case into a scratch result; 1 when it failed (its message into why). */
static int burn_case(const struct gm_case *c, const struct gm_runner_opts *ro, const struct gm_device_info *dev,
		     char *why, size_t n, gm_status *s)
{
	struct gm_run_result tmp;
	int bad;

	gm_result_init(&tmp);
	*s = gm_run_cases(&c, 1, ro, dev, &tmp);
	bad = tmp.ncases && (tmp.cases[0].status == GM_CASE_FAILED || tmp.cases[0].status == GM_CASE_ERROR);
	if (bad)
		snprintf(why, n, "%.60s: %.120s", c->name, tmp.cases[0].message);
	for (int i = 0; !bad && tmp.ncases && i < tmp.cases[0].nnotes; i++)   /* the memory test's timed passes */
		if (!strcmp(tmp.cases[0].notes[i].name, "errors") && tmp.cases[0].notes[i].median > 0) {
			bad = 1;
			snprintf(why, n, "%.60s: %.0f words wrong in the timed passes", c->name, tmp.cases[0].notes[i].median);
		}
	gm_result_release(&tmp);
	return bad;
}

static gm_status burn_run(const struct check_opts *o, struct gm_run_result *r, struct watch *w, struct gm_burn *b)
{
	const char *names[2] = { BURN_GEMM, BURN_MEMTEST };
	const struct gm_case *cs[2];
	int nc = cases_named(names, 2, cs);
	struct gm_runner_opts ro;
	double t0 = now_s();
	gm_status s = GM_OK;

	runner_opts(o, r, &ro);
	ro.reps = 5;
	b->duration_s = o->burn_s;
	pthread_mutex_lock(&w->mu);
	w->burn = b;
	w->t0 = t0;
	pthread_mutex_unlock(&w->mu);
	for (int k = 0; nc && !s && now_s() - t0 < o->burn_s && !(o->stop && *o->stop); k++) {
		const struct gm_case *c = cs[k % nc];
		double p0 = now_s();
		pthread_mutex_lock(&w->mu);
		w->phase = strcmp(c->name, BURN_GEMM) != 0;
		pthread_mutex_unlock(&w->mu);
		do {   /* a phase lasts BURN_PHASE_S at least: a GEMM round is milliseconds, a memory-test pass a second */
			char why[192] = "";
			if (burn_case(c, &ro, &r->dev, why, sizeof(why), &s) && !b->validation_errors++)
				snprintf(b->first_error, sizeof(b->first_error), "%s", why);
			b->rounds++;
			b->gemm_rounds += !w->phase;
			b->memtest_rounds += w->phase;
		} while (!s && now_s() - p0 < BURN_PHASE_S && now_s() - t0 < o->burn_s && !(o->stop && *o->stop));
	}
	pthread_mutex_lock(&w->mu);
	w->burn = NULL;
	pthread_mutex_unlock(&w->mu);
	b->ran_s = now_s() - t0;
	b->interrupted = s == GM_ERR_INTERRUPTED || (o->stop && *o->stop);
	return b->interrupted ? GM_ERR_INTERRUPTED : s;
}

gm_status check_device(int index, const struct check_opts *o, struct gm_run_result *r, struct gm_check_counters *c,
		       struct gm_burn *burn)
{
	const char *names[GM_CHECK_MAX_LINES];
	const struct gm_case *cases[GM_CHECK_MAX_LINES];
	int n = cases_named(names, line_cases(o, names, GM_CHECK_MAX_LINES), cases);
	char bus[32] = "";
	struct gm_runner_opts ro;
	struct watch w;
	double t0 = now_s();
	gm_status s = gm_gpu_open(index, &r->dev);

	if (s)
		return s;
	r->have_device = 1;
	r->reps = o->quick ? QUICK_REPS : REPS;
	r->warmup = 2;
	r->seed = (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16);   /* random inputs, as run seeds them */
	if (gm_gpu_bus_id(index, bus, sizeof(bus)) || gm_tel_open())
		gm_clear_error();
	memset(c, 0, sizeof(*c));
	c->have = 1;
	gm_tel_counters(bus, c->before);
	watch_start(&w, bus);
	runner_opts(o, r, &ro);
	if (gm_gpu_state_read(&r->state_before))
		gm_clear_error();
	s = gm_run_cases(cases, n, &ro, &r->dev, r);
	if (!s && burn && o->burn_s > 0)
		s = burn_run(o, r, &w, burn);
	if (gm_gpu_state_read(&r->state_after))
		gm_clear_error();
	watch_stop(&w);
	gm_tel_counters(bus, c->after);
	watch_fold(&w, c);
	r->interrupted = s == GM_ERR_INTERRUPTED;
	r->wall_s = now_s() - t0;
	gm_gpu_close();
	return s;
}
