/*
 * time.c - the time pass: the program runs unpatched while CUPTI's activity API records every kernel's
 * device start and end. At exit the records are put in launch order (correlation id, then start), the
 * same window as the trace pass is applied (kernels inside CUDA graphs counted, never selected), and
 * the selected launches' times are written with their ordinals. libcupti is opened with dlopen.
 * A thread flushes the records twice a second and rewrites the document, so that a timeout or a crash
 * keeps the times already recorded; with GPUMEM_TRACE_STOP=1 it ends the program once the launch
 * GPUMEM_TRACE_LAST_INDEX has its record.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cupti_activity.h>
#include "inject.h"

#define MAX_RECORDS 10000000L
#define BUF_BYTES (8u << 20)

struct rec {
	uint32_t corr, graph;
	uint64_t start, end;
	unsigned name;       /* index into names[] */
	int32_t dyn_smem;    /* the launch's dynamic shared memory, bytes (the trace pass cannot see it) */
	int regs;            /* registers a thread of the unpatched function */
};

static struct {
	CUptiResult (*reg)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
	CUptiResult (*enable)(CUpti_ActivityKind);
	CUptiResult (*flush)(uint32_t);
	CUptiResult (*next)(uint8_t *, size_t, CUpti_Activity **);
} cupti;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct rec *recs;
static long nrecs, caprecs, lost;
static char **names;
static signed char *name_match;   /* the window's regex on each name: -1 not yet asked */
static size_t nnames;

/* The index of name s, added on first sight; 0 ("?") when out of memory. */
static unsigned intern(const char *s)
{
	if (!nnames) {
		names = malloc(sizeof(*names));
		name_match = malloc(1);
		if (!names || !name_match)
			return 0;
		names[0] = "?";
		name_match[0] = -1;
		nnames = 1;
	}
	if (!s)
		return 0;
	for (size_t i = nnames; i-- > 1;)
		if (strcmp(names[i], s) == 0)
			return (unsigned)i;
	char **p = realloc(names, (nnames + 1) * sizeof(*p));
	if (p)
		names = p;
	signed char *m = realloc(name_match, nnames + 1);
	if (m)
		name_match = m;
	if (!p || !m || !(names[nnames] = strdup(s)))
		return 0;
	name_match[nnames] = -1;
	return (unsigned)nnames++;
}

static int matches(unsigned i)
{
	if (name_match[i] < 0)
		name_match[i] = (signed char)gmt_name_matches(names[i]);
	return name_match[i];
}

static void CUPTIAPI buf_request(uint8_t **buf, size_t *size, size_t *max)
{
	*buf = aligned_alloc(8, BUF_BYTES);
	*size = *buf ? BUF_BYTES : 0;
	*max = 0;
}

static void keep(const CUpti_ActivityKernel10 *k)
{
	if (nrecs == caprecs) {
		long cap = caprecs ? caprecs * 2 : 4096;
		struct rec *p = cap <= MAX_RECORDS ? realloc(recs, cap * sizeof(*p)) : NULL;
		if (!p) {
			lost++;
			return;
		}
		recs = p;
		caprecs = cap;
	}
	recs[nrecs].corr = k->correlationId;
	recs[nrecs].graph = k->graphId;
	recs[nrecs].start = k->start;
	recs[nrecs].end = k->end;
	recs[nrecs].name = intern(k->name);
	recs[nrecs].dyn_smem = k->dynamicSharedMemory;
	recs[nrecs].regs = k->registersPerThread;
	nrecs++;
}

static void CUPTIAPI buf_complete(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid)
{
	CUpti_Activity *r = NULL;

	(void)ctx, (void)stream, (void)size;
	pthread_mutex_lock(&lock);
	while (valid && cupti.next(buf, valid, &r) == CUPTI_SUCCESS)
		if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || r->kind == CUPTI_ACTIVITY_KIND_KERNEL)
			keep((const CUpti_ActivityKernel10 *)r);
	pthread_mutex_unlock(&lock);
	free(buf);
}

static int by_order(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int finished;   /* at_exit has written the final document */
static long written_n = -1;

/* Sort the records, apply the window, write the document. Called with lock held. */
static void write_doc(int complete)
{
	struct gmt_buf b = {0};
	long matched = 0, n = 0;

	if (nrecs == written_n && !complete)
		return;
	written_n = nrecs;
	qsort(recs, (size_t)nrecs, sizeof(*recs), by_order);
	gmt_buf_printf(&b, "{\"schema\": \"gpumem-trace-part/1\", \"mode\": \"time\", \"pid\": %ld, \"complete\": %s, "
	               "\"launches_seen\": %ld, \"records_lost\": %ld, \"times\": [", (long)getpid(),
	               complete ? "true" : "false", nrecs, lost);
	for (long i = 0; i < nrecs; i++) {
		int match = !recs[i].graph && matches(recs[i].name);
		int sel = match && matched >= gmt_opt.skip && matched < gmt_opt.skip + gmt_opt.count;
		matched += match;
		if (!sel)
			continue;
		gmt_buf_printf(&b, "%s\n{\"index\": %ld, \"kernel\": ", n++ ? "," : "", i);
		gmt_buf_str(&b, names[recs[i].name]);
		gmt_buf_printf(&b, ", \"time_ms\": %.6f, \"shared_dynamic\": %d, \"registers\": %d}",
		               (double)(recs[i].end - recs[i].start) * 1e-6, (int)recs[i].dyn_smem, recs[i].regs);
	}
	gmt_buf_printf(&b, "],\n\"notes\": ");
	gmt_notes_json(&b);
	gmt_buf_printf(&b, "}\n");
	if (b.oom || gmt_write_atomic(gmt_opt.out, b.p, b.len) != 0)
		fprintf(stderr, "gpumem trace: cannot write '%s'\n", gmt_opt.out);
	gmt_buf_free(&b);
}

static void at_exit(void)
{
	gmt_dbg("time pass at exit: flushing (%ld records)", nrecs);
	cupti.flush(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	gmt_dbg("time pass at exit: flushed (%ld records)", nrecs);
	pthread_mutex_lock(&lock);
	finished = 1;
	write_doc(1);
	pthread_mutex_unlock(&lock);
}

static void *flusher(void *arg)
{
	struct timespec t = {0, 500000000L};

	(void)arg;
	for (;;) {
		nanosleep(&t, NULL);
		cupti.flush(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
		pthread_mutex_lock(&lock);
		if (finished) {
			pthread_mutex_unlock(&lock);
			return NULL;
		}
		int stop = gmt_opt.stop && gmt_opt.last_index >= 0 && nrecs > gmt_opt.last_index;
		gmt_dbg("time pass: %ld records", nrecs);
		write_doc(stop);
		if (stop)
			_exit(0);   /* the window is timed: end here, as asked */
		pthread_mutex_unlock(&lock);
	}
}

static void *open_cupti(void)
{
	static const char *const libs[] = {
		"libcupti.so.13", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13",
		"/usr/local/cuda/lib64/libcupti.so.13", "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so.13",
		"libcupti.so",
	};
	void *h = NULL;

	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]) && !h; i++)
		h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
	return h;
}

int gmt_time_start(void)
{
	void *h = open_cupti();
	struct gmt_buf b = {0};

	if (h) {
		*(void **)&cupti.reg = dlsym(h, "cuptiActivityRegisterCallbacks");
		*(void **)&cupti.enable = dlsym(h, "cuptiActivityEnable");
		*(void **)&cupti.flush = dlsym(h, "cuptiActivityFlushAll");
		*(void **)&cupti.next = dlsym(h, "cuptiActivityGetNextRecord");
	}
	if (!h || !cupti.reg || !cupti.enable || !cupti.flush || !cupti.next ||
	    cupti.reg(buf_request, buf_complete) != CUPTI_SUCCESS ||
	    cupti.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
		gmt_buf_printf(&b, "{\"schema\": \"gpumem-trace-part/1\", \"mode\": \"time\", \"complete\": true, "
		               "\"error\": \"libcupti not found or its activity API refused: no times\", \"times\": []}\n");
		gmt_write_atomic(gmt_opt.out, b.p, b.len);
		gmt_buf_free(&b);
		return -1;
	}
	atexit(at_exit);
	pthread_t th;
	if (pthread_create(&th, NULL, flusher, NULL) == 0)
		pthread_detach(th);
	return 0;
}
