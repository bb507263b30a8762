/* parallel.c - independent items on a few threads (include/gpumem/parallel.h). */
#include <pthread.h>
#include <unistd.h>
#include "gpumem/parallel.h"

struct pool {
	int n, next;
	pthread_mutex_t lock;
	void *(*make)(void *arg);
	void (*drop)(void *state);
	void (*item)(void *arg, void *state, int k);
	void *arg;
};

static void *worker(void *p_)
{
	struct pool *p = p_;
	void *state = p->make ? p->make(p->arg) : NULL;

	for (;;) {
		int k;

		pthread_mutex_lock(&p->lock);
		k = p->next++;
		pthread_mutex_unlock(&p->lock);
		if (k >= p->n)
			break;
		p->item(p->arg, state, k);
	}
	if (p->drop && state)
		p->drop(state);
	return NULL;
}

void gm_parallel_for(int n, int threads, void *(*make)(void *arg), void (*drop)(void *state),
		     void (*item)(void *arg, void *state, int k), void *arg)
{
	struct pool p = { n, 0, PTHREAD_MUTEX_INITIALIZER, make, drop, item, arg };
	pthread_t th[GM_PARALLEL_MAX_THREADS];
	int nt = 0;

	if (threads > GM_PARALLEL_MAX_THREADS)
		threads = GM_PARALLEL_MAX_THREADS;
	for (; nt < threads - 1 && nt < n - 1; nt++)
		if (pthread_create(&th[nt], NULL, worker, &p))
			break;
	worker(&p);
	for (int k = 0; k < nt; k++)
		pthread_join(th[k], NULL);
	pthread_mutex_destroy(&p.lock);
}

int gm_cores(void)
{
	long c = sysconf(_SC_NPROCESSORS_ONLN);

	return c > 0 ? (int)c : 1;
}
