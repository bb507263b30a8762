/*
 * fault.c - the counting and choosing half of fault injection (fault.h), and
 * the file-system wrappers (fsync: the write of a whole output file; rename:
 * its commit). Compiled to nothing unless -DGPUMEM_FAULT=ON.
 */
#ifdef GPUMEM_FAULT
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/fault.h"

#define MAX_SITES 1024
#define MAX_CASES 256
#define MAX_CASE_SITES 128

static const char *const class_names[GM_FC_COUNT] = {
	"alloc", "pinned", "launch", "copy", "event", "stream", "peer",
	"compile", "blas", "cupti", "nvml", "write", "rename",
};

enum mode { M_COUNT, M_N, M_SITE, M_CASE_SITE, M_CASE_N };

struct case_count {
	char name[64];
	long calls[GM_FC_COUNT];
	int nsites[GM_FC_COUNT];
	uintptr_t sites[GM_FC_COUNT][MAX_CASE_SITES];
	int injected;
};

static struct {
	pthread_mutex_t mu;
	int on, target_cls, mode, injected;
	long target_n;
	long calls[GM_FC_COUNT];
	int nsites[GM_FC_COUNT];
	uintptr_t sites[GM_FC_COUNT][MAX_SITES];
	int ncases;    /* cases[0] is the setup before the first case */
	struct case_count cases[MAX_CASES];
} F = { .mu = PTHREAD_MUTEX_INITIALIZER, .target_cls = -1, .ncases = 1, .cases = { { .name = "-" } } };
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The site as an offset in its object (stable between runs of one binary: addr2line -e gpumem). */
static unsigned long site_offset(const void *site)
{
	Dl_info di;

	if (site && dladdr(site, &di) && di.dli_fbase)
		return (unsigned long)((uintptr_t)site - (uintptr_t)di.dli_fbase);
	return (unsigned long)(uintptr_t)site;
}

/* The return address and the two frames above it. */
static uintptr_t site_key(const void *site)
{
	void *bt[10];
	int n = backtrace(bt, 10), i = 0;
	uintptr_t k = (uintptr_t)site;

	while (i < n && bt[i] != site)
		i++;
	for (int j = i + 1; i < n && j < n && j <= i + 2; j++)
		k = k * 0x100000001b3ull ^ (uintptr_t)bt[j];
	return k;
}

static void print_counts(const char *what, const long *calls, const int *nsites)
{
	fprintf(stderr, "gpumem-fault: %s", what);
	for (int c = 0; c < GM_FC_COUNT; c++)
		if (calls[c])
			fprintf(stderr, " %s=%ld/%d", class_names[c], calls[c], nsites[c]);
	fprintf(stderr, "\n");
}

static void report(void)
{
	char what[96];

	pthread_mutex_lock(&F.mu);
	for (int i = 0; i < F.ncases; i++) {
		snprintf(what, sizeof(what), "case %s", F.cases[i].name);
		print_counts(what, F.cases[i].calls, F.cases[i].nsites);
	}
	print_counts("calls (calls/sites)", F.calls, F.nsites);
	if (F.mode != M_COUNT && !F.injected)
		fprintf(stderr, "gpumem-fault: nothing injected\n");
	pthread_mutex_unlock(&F.mu);
}

static void parse(void)
{
	const char *e = getenv("GPUMEM_FAULT");
	const char *colon, *v;

	if (!e || !*e)
		return;
	F.on = 1;
	atexit(report);
	if (!strcmp(e, "count"))
		return;
	colon = strchr(e, ':');
	for (int c = 0; colon && c < GM_FC_COUNT; c++)
		if (strlen(class_names[c]) == (size_t)(colon - e) && !strncmp(e, class_names[c], (size_t)(colon - e)))
			F.target_cls = c;
	if (F.target_cls < 0) {
		fprintf(stderr, "gpumem-fault: GPUMEM_FAULT='%s' not understood (count, CLASS:N, CLASS:@K, "
			"CLASS:case@R or CLASS:case#N)\n", e);
		exit(2);
	}
	v = colon + 1;
	if (!strncmp(v, "case@", 5))
		F.mode = M_CASE_SITE, v += 5;
	else if (!strncmp(v, "case#", 5))
		F.mode = M_CASE_N, v += 5;
	else if (*v == '@')
		F.mode = M_SITE, v++;
	else
		F.mode = M_N;
	F.target_n = strtol(v, NULL, 10);
}

int gm_fault_on(void)
{
	pthread_once(&once, parse);
	return F.on;
}

void gm_fault_case(const char *name)
{
	if (!gm_fault_on())
		return;
	pthread_mutex_lock(&F.mu);
	if (F.ncases < MAX_CASES) {
		snprintf(F.cases[F.ncases].name, sizeof(F.cases[F.ncases].name), "%s", name);
		F.ncases++;
	}
	pthread_mutex_unlock(&F.mu);
}

const char *gm_fault_case_now(void)
{
	return F.cases[F.ncases - 1].name;
}

/* Index of key in sites[0..*n), added when new; -1 when the table is full. */
static int site_index(uintptr_t *sites, int *n, int max, uintptr_t key, int *is_new)
{
	int s = 0;

	while (s < *n && sites[s] != key)
		s++;
	*is_new = s == *n;
	if (*is_new) {
		if (s == max)
			return -1;
		sites[(*n)++] = key;
	}
	return s;
}

int gm_fault_hit(int cls, const char *call, const void *site)
{
	int fail = 0, s, cs, new_site, new_case_site, in_case;
	long n, cn;
	uintptr_t key;
	struct case_count *cc;

	if (!gm_fault_on() || cls < 0 || cls >= GM_FC_COUNT)
		return 0;
	key = site_key(site);
	pthread_mutex_lock(&F.mu);
	cc = &F.cases[F.ncases - 1];
	n = ++F.calls[cls];
	cn = ++cc->calls[cls];
	s = site_index(F.sites[cls], &F.nsites[cls], MAX_SITES, key, &new_site);
	cs = site_index(cc->sites[cls], &cc->nsites[cls], MAX_CASE_SITES, key, &new_case_site);
	in_case = F.ncases > 1 && strcmp(cc->name, "+") != 0;   /* not the setup, not the teardown */
	if (cls == F.target_cls) {
		switch (F.mode) {
		case M_N: fail = !F.injected && n == F.target_n; break;
		case M_SITE: fail = !F.injected && new_site && s + 1 == F.target_n; break;
		case M_CASE_SITE: fail = in_case && !cc->injected && new_case_site && cs + 1 == F.target_n; break;
		case M_CASE_N: fail = in_case && !cc->injected && cn == F.target_n; break;
		default: break;
		}
	}
	F.injected |= fail;
	cc->injected |= fail;
	pthread_mutex_unlock(&F.mu);
	if (fail)
		fprintf(stderr, "gpumem-fault: injected %s (%s call %ld, site %d; case %s call %ld, site %d; at +0x%lx)\n",
			call, class_names[cls], n, s + 1, cc->name, cn, cs + 1, site_offset(site));
	return fail;
}

/* ---- file system ---- */
int __real_fsync(int fd);
int __real_rename(const char *from, const char *to);

int __wrap_fsync(int fd)
{
	if (gm_fault_hit(GM_FC_WRITE, "fsync", __builtin_return_address(0))) {
		errno = ENOSPC;
		return -1;
	}
	return __real_fsync(fd);
}

int __wrap_rename(const char *from, const char *to)
{
	if (gm_fault_hit(GM_FC_RENAME, "rename", __builtin_return_address(0))) {
		errno = EIO;
		return -1;
	}
	return __real_rename(from, to);
}
#else
typedef int gm_fault_off; /* not a fault-injection build */
#endif
