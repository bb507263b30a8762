/* host_ref.cu - the CPU side of validation over large buffers, on every core (host_ref.h). */
#include "families/common/common.cuh"
#include "families/common/host_ref.h"
#include <pthread.h>
#include "gpumem/parallel.h"

/* Ranges of at least this many units each: smaller ones cost more to hand out than to compute. */
#define RANGE_MIN 65536

struct ranges {
	size_t n, per;
	void (*fn)(void *arg, size_t from, size_t to);
	void *arg;
};

static void range_item(void *arg, void *state, int k)
{
	struct ranges *r = (struct ranges *)arg;
	size_t from = (size_t)k * r->per, to = from + r->per < r->n ? from + r->per : r->n;

	(void)state;
	r->fn(r->arg, from, to);
}

/* n units in ranges of at least min_per units, about four ranges a thread (a core slowed by another process
   leaves its share to the others) */
static void ranges_run(size_t n, size_t min_per, void (*fn)(void *arg, size_t from, size_t to), void *arg)
{
	int threads = gm_cores();
	size_t items = (size_t)threads * 4, per;
	struct ranges r;

	if (n == 0)
		return;
	per = (n + items - 1) / items;
	if (per < min_per)
		per = min_per;
	r.n = n;
	r.per = per;
	r.fn = fn;
	r.arg = arg;
	gm_parallel_for((int)((n + per - 1) / per), threads, NULL, NULL, range_item, &r);
}

void gm_host_ranges(size_t n, void (*fn)(void *arg, size_t from, size_t to), void *arg)
{
	ranges_run(n, RANGE_MIN, fn, arg);
}

/* gm_hash_sums: unit u = part u % parts of sum u / parts; each part's sum goes to its own slot */
struct sums {
	uint32_t seed;
	uint64_t first, stride, len;
	size_t parts;
	uint32_t *part;
};

static void sums_range(void *arg, size_t from, size_t to)
{
	struct sums *s = (struct sums *)arg;

	for (size_t u = from; u < to; u++) {
		size_t k = u / s->parts, p = u % s->parts;
		uint64_t a = s->first + k * s->stride, lo = a + s->len * p / s->parts, hi = a + s->len * (p + 1) / s->parts;
		uint32_t x = 0;
		for (uint64_t w = lo; w < hi; w++)
			x += gm_hash(s->seed, w);
		s->part[u] = x;
	}
}

void gm_hash_sums(uint32_t seed, uint64_t first, uint64_t stride, uint64_t len, size_t count, uint32_t *out)
{
	struct sums s = { seed, first, stride, len, 1, out };
	size_t want = (size_t)gm_cores() * 4;

	/* few long sums: each cut into parts of at least RANGE_MIN words */
	if (count < want && len >= 2 * RANGE_MIN) {
		s.parts = (want + count - 1) / count;
		if (s.parts > len / RANGE_MIN)
			s.parts = (size_t)(len / RANGE_MIN);
	}
	if (s.parts > 1 && !(s.part = (uint32_t *)malloc(count * s.parts * 4))) {
		s.parts = 1;   /* no memory for the parts: one part a sum */
		s.part = out;
	}
	/* a unit is len / parts words of work: ranges of units of at least RANGE_MIN words */
	uint64_t unit = len / s.parts > 0 ? len / s.parts : 1;
	ranges_run(count * s.parts, (size_t)((RANGE_MIN + unit - 1) / unit), sums_range, &s);
	if (s.part != out) {
		for (size_t k = 0; k < count; k++) {
			uint32_t x = 0;
			for (size_t p = 0; p < s.parts; p++)
				x += s.part[k * s.parts + p];
			out[k] = x;
		}
		free(s.part);
	}
}

struct fill {
	uint32_t *p;
	const uint32_t *q;
	uint32_t seed;
	size_t first_bad;
	pthread_mutex_t lock;
};

static void fill_range(void *arg, size_t from, size_t to)
{
	struct fill *f = (struct fill *)arg;

	for (size_t w = from; w < to; w++)
		f->p[w] = gm_hash(f->seed, w);
}

void gm_host_fill(uint32_t *p, size_t nwords, uint32_t seed)
{
	struct fill f = { p, NULL, seed, 0, PTHREAD_MUTEX_INITIALIZER };

	gm_host_ranges(nwords, fill_range, &f);
	pthread_mutex_destroy(&f.lock);
}

static void check_range(void *arg, size_t from, size_t to)
{
	struct fill *f = (struct fill *)arg;

	for (size_t w = from; w < to; w++)
		if (f->q[w] != gm_hash(f->seed, w)) {
			pthread_mutex_lock(&f->lock);
			if (w < f->first_bad)
				f->first_bad = w;
			pthread_mutex_unlock(&f->lock);
			return;
		}
}

size_t gm_host_first_bad(const uint32_t *p, size_t nwords, uint32_t seed)
{
	struct fill f = { NULL, p, seed, nwords, PTHREAD_MUTEX_INITIALIZER };

	gm_host_ranges(nwords, check_range, &f);
	pthread_mutex_destroy(&f.lock);
	return f.first_bad;
}
