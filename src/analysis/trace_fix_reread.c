/*
 * trace_fix_reread.c - rule RR of the trace (docs/TRACE.md, "The fix", rule RR): the same bytes read again by
 * threads or blocks that could share them. Two signs, both read off the fitted maps:
 *  - grid: a launch of R >= 2 blocks along y (or z) whose large global loads no mode of blockIdx.y (z) moves
 *    (`x[c * HW + i]` in a kernel whose blockIdx.y is the output channel): each of the R planes of the grid reads
 *    the same bytes. Fix: one thread does the R outputs, its loads once (the grid R times shorter), each access that
 *    blockIdx.y moves looped R times at its stride. Priced by the launch model at that shape.
 *  - group: loads whose every thread-moving mode divides the thread's id by K >= RR_MIN_K (`x[(gid / K) * K + j]`,
 *    j = 0 .. m-1: each of the K threads of a row walks the whole row): the row's m elements read K times. Fix: the
 *    row's threads read one element each and share the result (a warp's shuffles). Priced by the launch model: the
 *    row loads replaced by one coalesced walk (m / K elements a thread).
 * Both only where those loads are RR_MIN_SHARE of the kernel's global sectors or more, and the price is the measured
 * time over the model's time of the fixed kernel (at least its issue floor); named where it is worth it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define RR_MIN_SHARE 0.5   /* the re-read loads' part of the kernel's global sectors */
#define RR_MIN_K 4         /* threads of a group on one address: under that a warp's broadcast pair is not a row */
#define RR_MAXSW GM_TRACE_MAX_INSNS
#define RR_FAR_MIN 1.25    /* far form: the planes' reads over the distinct planes */

struct rr {
	int form;                  /* 1: grid (dim d), 2: group (k threads), 3: far (planes of d apart) */
	int d;                     /* GM_TV_BY or GM_TV_BZ */
	int64_t r;                 /* the re-reads: the grid's extent along d, or k */
	int lead, n;               /* the re-read load with the most sectors; how many */
	int distinct;              /* group: the row's distinct offsets */
	double share;              /* their part of the global sectors */
	/* far form: the loads' planes (their starts in units of d's stride), how many distinct planes the grid
	   reads, the nearest two readers of a plane in planes of d, the traffic between them (bytes) and the
	   DRAM reads the re-reads add (bytes) */
	int64_t stride, gap;
	int64_t planes;
	double apart, again;
	int nq;                    /* distinct plane offsets among the loads */
};

static int global_rw(const struct gm_trace_insn *x)
{
	return x->in->space == GM_TS_GLOBAL && (x->in->op == GM_TO_LOAD || x->in->op == GM_TO_STORE) &&
	       x->in->executions > 0;
}

static int exact(const struct gm_trace_insn *x)
{
	return x->fit.map.known && !x->fit.approx && x->fit.map.niter_tab == 0;
}

static int uses(const struct gm_trace_map *m, int v)
{
	for (int i = 0; i < m->nmodes; i++)
		if (m->mode[i].var == v && m->mode[i].stride)
			return 1;
	return 0;
}

/* the stride of d in m where d is a plain mode (div 1, no modulo under the extent r); 0 where not */
static int64_t plain_stride(const struct gm_trace_map *m, int d, int64_t r)
{
	int64_t s = 0;
	for (int i = 0; i < m->nmodes; i++)
		if (m->mode[i].var == d && m->mode[i].stride) {
			if (s || m->mode[i].div != 1 || (m->mode[i].size && m->mode[i].size < r))
				return 0;
			s = m->mode[i].stride;
		}
	return s;
}

/* no mode but d's: every thread and block of a plane on the same element (a weight chosen by blockIdx.d) */
static int only_d(const struct gm_trace_map *m, int d)
{
	for (int i = 0; i < m->nmodes; i++)
		if (m->mode[i].stride && m->mode[i].var != d)
			return 0;
	return 1;
}

/* grid form: loads blockIdx.d does not move, d spanned by the grid, without a loop (a loop's start may be what d
   chooses: a reduction's slices, set 4's telem) */
static int grid_free(const struct gm_trace_insn *x, int d)
{
	return x->in->op == GM_TO_LOAD && exact(x) && x->fit.iters <= 1 && !(x->fit.map.open & (1u << d)) &&
	       !uses(&x->fit.map, d) &&
	       !uses(&x->fit.map, GM_TV_GID) && (uses(&x->fit.map, GM_TV_TX) || uses(&x->fit.map, GM_TV_BX));
}

/* group form: k, the threads on one address (every thread-moving mode a division of gid by k or more); 0: none */
static int64_t group_k(const struct gm_trace_insn *x)
{
	const struct gm_trace_map *m = &x->fit.map;
	int64_t k = 0;

	if (x->in->op != GM_TO_LOAD || !exact(x) || x->fit.iters > 1)
		return 0;
	for (int i = 0; i < m->nmodes; i++) {
		const struct gm_trace_mode *q = &m->mode[i];
		if (!q->stride || q->var == GM_TV_ITER)
			continue;
		if (q->var != GM_TV_GID || q->div < RR_MIN_K)
			return 0;   /* a thread or block id moving the address on its own */
		k = k ? (q->div < k ? q->div : k) : q->div;
	}
	return k;
}

/* the bytes x's map spans over the launch (its modes' ranges; a bound on what it reads), as [*lo, *hi) */
static void span_of(const struct gm_trace_kernel *k, const struct gm_trace_insn *x, double *lo, double *hi)
{
	const struct gm_trace_launch *l = k->l;
	const struct gm_trace_map *m = &x->fit.map;
	double a = 0, b = 0;

	for (int i = 0; i < m->nmodes; i++) {
		const struct gm_trace_mode *q = &m->mode[i];
		double r = q->var <= GM_TV_TZ ? l->block[q->var] : q->var <= GM_TV_BZ ? (double)l->grid[q->var - GM_TV_BX] :
			   q->var == GM_TV_ITER ? x->fit.iters : (double)k->threads;
		double n = ceil(r / (double)(q->div > 0 ? q->div : 1));
		if (q->size > 0 && n > (double)q->size)
			n = (double)q->size;
		double d = (double)q->stride * (n - 1);
		if (d > 0)
			b += d;
		else
			a += d;
	}
	*lo = (double)m->base + ((double)m->offset + a) * x->in->size;
	*hi = (double)m->base + ((double)m->offset + b + 1) * x->in->size;
}

/* the bytes the grid form's loads span together (their intervals merged) */
static double footprint(const struct gm_trace_kernel *k, int d)
{
	double lo[RR_MAXSW], hi[RR_MAXSW], sum = 0, end = -1;
	int n = 0;

	for (int i = 0; i < k->nins && n < RR_MAXSW; i++)
		if (global_rw(&k->ins[i]) && grid_free(&k->ins[i], d))
			span_of(k, &k->ins[i], &lo[n], &hi[n]), n++;
	for (int a = 1; a < n; a++)   /* by start */
		for (int b = a; b > 0 && lo[b - 1] > lo[b]; b--) {
			double t = lo[b]; lo[b] = lo[b - 1]; lo[b - 1] = t;
			t = hi[b]; hi[b] = hi[b - 1]; hi[b - 1] = t;
		}
	for (int a = 0; a < n; a++) {
		double s = lo[a] > end ? lo[a] : end;
		if (hi[a] > s)
			sum += hi[a] - s;
		end = hi[a] > end ? hi[a] : end;
	}
	return sum;
}

static double sectors(const struct gm_trace_insn *x)
{
	return x->in->sectors > 0 ? x->in->sectors : 0;
}

/* far form: a load blockIdx.d moves as a plain mode (stride S, no loop, no gid, d varied in the samples) */
static int far_load(const struct gm_trace_insn *x, int d, int64_t r)
{
	return x->in->op == GM_TO_LOAD && exact(x) && x->fit.iters <= 1 && !(x->fit.map.open & (1u << d)) &&
	       !uses(&x->fit.map, GM_TV_GID) && plain_stride(&x->fit.map, d, r) != 0;
}

/* the same walk whatever its start: the same element size and modes */
static int same_walk(const struct gm_trace_insn *a, const struct gm_trace_insn *b)
{
	const struct gm_trace_map *p = &a->fit.map, *q = &b->fit.map;

	if (a->in->size != b->in->size || p->nmodes != q->nmodes)
		return 0;
	for (int i = 0; i < p->nmodes; i++)
		if (p->mode[i].var != q->mode[i].var || p->mode[i].stride != q->mode[i].stride ||
		    p->mode[i].div != q->mode[i].div || p->mode[i].size != q->mode[i].size)
			return 0;
	return 1;
}

static int64_t start_byte(const struct gm_trace_insn *x)
{
	return x->fit.map.base + x->fit.map.offset * x->in->size;
}

/* x a load of the lead's walk that starts a whole number of planes from it: *q that number; 0 where not */
static int plane_of(const struct gm_trace_insn *x, const struct gm_trace_insn *a, int d, int64_t r, int64_t unit,
		    int64_t *q)
{
	int64_t dl = start_byte(x) - start_byte(a);

	if (!far_load(x, d, r) || !same_walk(x, a) || dl % unit)
		return 0;
	*q = dl / unit;
	return 1;
}

/* the distinct planes the grid's r planes read through loads at plane offsets q[0..n) (sorted), and the nearest
   two offsets' distance */
static int64_t planes_read(const int64_t *q, int n, int64_t r, int64_t *gap)
{
	int64_t u = r;

	*gap = 0;
	for (int i = 0; i + 1 < n; i++) {
		int64_t g = q[i + 1] - q[i];
		u += g < r ? g : r;
		*gap = !*gap || g < *gap ? g : *gap;
	}
	return u;
}

/*
 * The far form: loads of one walk that blockIdx.d moves by S, starting whole planes (S elements) apart (`f[(t + k)
 * * p + i]` with t = blockIdx.y): load j of plane t reads what load i reads in plane t + q_j - q_i, so each plane
 * is read by several planes of the grid. Where the two nearest readers are more of the kernel's traffic apart (in
 * launch order: blocks x, then y, then z) than the profile's L2, the plane reaches DRAM again for each. The other
 * accesses as rule RR's grid form needs them (exact, no loop; those d moves a plain mode).
 */
static int far_find(const struct gm_trace_kernel *k, const struct gm_profile *prof, int d, double all, struct rr *o)
{
	const struct gm_trace_launch *l = k->l;
	int64_t r = l->grid[d - GM_TV_BX], q[RR_MAXSW], gap, p;
	int lead = -1, nq = 0, n = 0;
	double s = 0, bytes = 0, ld = 0, st = 0;

	if (r < 2 || !prof || !(prof->l2_bytes > 0))
		return 0;
	for (int i = 0; i < k->nins; i++)
		if (global_rw(&k->ins[i]) && far_load(&k->ins[i], d, r) &&
		    (lead < 0 || sectors(&k->ins[i]) > sectors(&k->ins[lead])))
			lead = i;
	if (lead < 0)
		return 0;
	const struct gm_trace_insn *a = &k->ins[lead];
	int64_t unit = plain_stride(&a->fit.map, d, r) * a->in->size;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (!global_rw(x))
			continue;
		bytes += 32 * sectors(x);
		*(x->in->op == GM_TO_LOAD ? &ld : &st) += 32 * sectors(x);
		if (plane_of(x, a, d, r, unit, &p)) {
			int j = nq;
			while (j > 0 && q[j - 1] > p)
				j--;
			if (!(j > 0 && q[j - 1] == p) && nq < RR_MAXSW) {
				memmove(&q[j + 1], &q[j], (size_t)(nq - j) * sizeof(q[0]));
				q[j] = p, nq++;
			}
			s += sectors(x), n++;
		} else if (!exact(x) || x->fit.iters > 1 || uses(&x->fit.map, GM_TV_GID) ||
			   (uses(&x->fit.map, d) && !plain_stride(&x->fit.map, d, r)))
			return 0;   /* an access the loop over d could not be priced for */
	}
	if (nq < 2 || s < RR_MIN_SHARE * all)
		return 0;
	int64_t planes = planes_read(q, nq, r, &gap);
	double per_plane = 32 * sectors(a) / (double)r, again = ((double)nq * r - (double)planes) * per_plane;
	double blocks = (double)l->grid[0] * l->grid[1] * l->grid[2];
	double apart = (double)gap * (d == GM_TV_BY ? l->grid[0] : (double)l->grid[0] * l->grid[1]) * bytes / blocks;
	if (gap >= r || (double)nq * r < RR_FAR_MIN * (double)planes || apart <= prof->l2_bytes)
		return 0;   /* no plane read twice, too few re-reads, or the L2 keeps a plane for its next reader */
	/* the DRAM reads (measured, less the stores; else the model's) hold at least half the re-reads */
	double dr = k->dram_measured && k->dram_bytes > 0 ? k->dram_bytes - st : k->pred.dram_read_bytes;
	if (!(dr >= ld - 0.5 * again))
		return 0;
	*o = (struct rr){ 3, d, r, lead, n, 0, s / all, unit / a->in->size, gap, planes, apart, again, nq };
	return 1;
}

static int find(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct rr *o)
{
	const struct gm_trace_launch *l = k->l;
	double all = 0;

	memset(o, 0, sizeof(*o));
	o->lead = -1;
	for (int i = 0; i < k->nins; i++)
		if (global_rw(&k->ins[i]))
			all += sectors(&k->ins[i]);
	if (!(all > 0))
		return 0;
	for (int d = GM_TV_BY; d <= GM_TV_BZ; d++) {   /* the grid form */
		int64_t r = l->grid[d - GM_TV_BX];
		double s = 0;
		int n = 0, lead = -1, ok = 1;
		if (r < 2)
			continue;
		for (int i = 0; i < k->nins && ok; i++) {
			const struct gm_trace_insn *x = &k->ins[i];
			if (!global_rw(x))
				continue;
			if (grid_free(x, d)) {
				s += sectors(x), n++;
				if (lead < 0 || sectors(x) > sectors(&k->ins[lead]))
					lead = i;
			} else if (!exact(x) || x->fit.iters > 1 || uses(&x->fit.map, GM_TV_GID) ||
				   (uses(&x->fit.map, d) && !plain_stride(&x->fit.map, d, r)))
				ok = 0;   /* an access the loop over d could not be priced for */
		}
		/* the planes re-read from DRAM: their input larger than L2 (a row vector every row reads stays in L1 or
		   L2, rule A's kind: not this rule's) */
		if (ok && n && s >= RR_MIN_SHARE * all && prof && prof->l2_bytes > 0 && footprint(k, d) > prof->l2_bytes) {
			*o = (struct rr){ 1, d, r, lead, n, 0, s / all };
			return 1;
		}
	}
	for (int d = GM_TV_BY; d <= GM_TV_BZ; d++)   /* the far form */
		if (far_find(k, prof, d, all, o))
			return 1;
	int64_t kk = 0;   /* the group form: one k for all the row's loads */
	double s = 0;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		int64_t g = global_rw(x) ? group_k(x) : 0;
		if (!g)
			continue;
		if (kk && g != kk)
			return 0;
		kk = g;
		s += sectors(x), o->n++;
		if (o->lead < 0 || sectors(x) > sectors(&k->ins[o->lead]) ||
		    (sectors(x) == sectors(&k->ins[o->lead]) && x->in->pc < k->ins[o->lead].in->pc))
			o->lead = i;
	}
	if (!kk || s < RR_MIN_SHARE * all)
		return o->lead = -1, o->n = 0, 0;
	int distinct = 0;   /* the row's offsets, each counted once (a second pass over the row reads them again) */
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		int seen = 0;
		if (!global_rw(x) || group_k(x) != kk)
			continue;
		for (int j = 0; j < i && !seen; j++)
			seen = global_rw(&k->ins[j]) && group_k(&k->ins[j]) == kk &&
			       k->ins[j].fit.map.offset == x->fit.map.offset && k->ins[j].fit.map.base == x->fit.map.base;
		distinct += !seen;
	}
	o->form = 2, o->r = kk, o->distinct = distinct, o->share = s / all;
	return 1;
}

static int in_rr(const struct gm_trace_kernel *k, const struct rr *o, int i)
{
	const struct gm_trace_insn *x = &k->ins[i], *a = &k->ins[o->lead];
	int64_t p;

	if (o->form == 3)
		return global_rw(x) && plane_of(x, a, o->d, o->r, o->stride * a->in->size, &p);
	return global_rw(x) && (o->form == 1 ? grid_free(x, o->d) : group_k(x) == o->r);
}

static int row_fix(const struct gm_trace_kernel *k, const struct rr *o, struct tk_swap *sw, int *nsw,
		   struct gm_trace_instr *in2, struct gm_trace_kernel *k2);

/* the model's time of the fixed kernel (0: not priced); the issue floor with the re-read loads' executions a
   r-th (grid) or the row's loads as one walk (group) */
static double fixed_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct rr *o)
{
	static struct tk_swap sw[RR_MAXSW];
	struct gm_trace_insn *ins2;
	struct gm_trace_instr *in2;
	struct gm_trace_launch l2 = *k->l;
	struct gm_trace_kernel k2;
	struct gm_launch_out out;
	char why[200];
	int nsw = 0;
	double t = 0;

	if (tf_kernel_copy(k, &k2, &ins2, &in2))
		goto done;
	if (o->form == 1) {
		l2.grid[o->d - GM_TV_BX] = 1;
		k2.l = &l2;
		k2.threads = k->threads / o->r;
		for (int i = 0; i < k->nins && nsw < RR_MAXSW; i++) {
			const struct gm_trace_insn *x = &k->ins[i];
			if (!global_rw(x) && x->in->space != GM_TS_SHARED)
				continue;
			if (in_rr(k, o, i))
				in2[i].executions /= (double)o->r;   /* once a thread of the shorter grid */
			else if (global_rw(x) && uses(&x->fit.map, o->d)) {   /* looped over d at its stride */
				int64_t st = plain_stride(&x->fit.map, o->d, o->r);
				if (x->in->op == GM_TO_LOAD && only_d(&x->fit.map, o->d) &&
				    (double)o->r * (double)llabs(st) * x->in->size <= prof->l1_bytes) {
					sw[nsw++] = (struct tk_swap){ i, NULL, 0, 0, 0, 0, 0 };   /* rule A: from L1 */
				} else
					sw[nsw++] = (struct tk_swap){ i, x->fit.expr1d, (int)o->r, st, 0, 0, 0 };
			}
		}
	} else if (o->form == 3) {   /* a thread does the r planes: each plane it needs loaded once */
		l2.grid[o->d - GM_TV_BX] = 1;
		k2.l = &l2;
		k2.threads = k->threads / o->r;
		for (int i = 0; i < k->nins && nsw < RR_MAXSW; i++) {
			const struct gm_trace_insn *x = &k->ins[i];
			if (in_rr(k, o, i)) {
				sw[nsw++] = i == o->lead ? (struct tk_swap){ i, x->fit.expr1d, (int)o->planes, o->stride, 0, 0, 0 } :
							   (struct tk_swap){ i, NULL, 0, 0, 0, 0, 0 };
				in2[i].executions = i == o->lead ? x->in->executions / (double)o->r * (double)o->planes : 0;
			} else if (global_rw(x) && uses(&x->fit.map, o->d))   /* looped over d at its stride */
				sw[nsw++] = (struct tk_swap){ i, x->fit.expr1d, (int)o->r, plain_stride(&x->fit.map, o->d, o->r),
							      0, 0, 0 };
			else if (global_rw(x))
				in2[i].executions /= (double)o->r;   /* once a thread of the shorter grid */
		}
	} else if (!row_fix(k, o, sw, &nsw, in2, &k2))
		goto done;
	if (tk_predict(&k2, prof, -1, sw, nsw, &out, why, sizeof(why)) || !(out.time_ms > 0))
		goto done;
	tk_start_drain(prof, &out);   /* as in the kernel's own prediction (rule S2) */
	/* the issue floor: the kernel's own SASS (grid: each thread's instructions the same in all, the loads' a
	   r-th: the whole kernel's as an upper bound); group: the row's work shared by its r threads */
	double fl = tk_floor_free_ms(k, prof, o->form != 2 ? 1 : (double)o->r);
	t = fmax(out.time_ms, fl);
done:
	free(ins2);
	free(in2);
	return t;
}

/* the group form's fixed kernel: a row of k threads read once. Rows of 32 threads or more: a warp a row (the
   rows' threads / k * 32 threads, lane l on the row's elements l, l + 32, ...), each access of the thread's own
   element (`gid`) moved alike (the loads of the row's own array left out: the walk holds them); shorter rows: the
   row's threads read one element each (`gid`, distinct / k a thread). 0 where an access is neither. */
static int row_fix(const struct gm_trace_kernel *k, const struct rr *o, struct tk_swap *sw, int *nsw,
		   struct gm_trace_instr *in2, struct gm_trace_kernel *k2)
{
	static char walk[2][96];
	const struct gm_trace_insn *ld = &k->ins[o->lead];
	int64_t stride = 0, rows = k->threads / o->r;
	int warp = o->r >= GM_WARP_SIZE, first = 1;

	for (int q = 0; q < ld->fit.map.nmodes; q++)
		if (ld->fit.map.mode[q].var == GM_TV_GID && ld->fit.map.mode[q].div == o->r)
			stride = ld->fit.map.mode[q].stride;
	if (!stride || rows < 1)
		return 0;
	int it = warp ? (int)ceil((double)o->distinct / GM_WARP_SIZE) :
			(int)fmax(1, floor((double)o->distinct / (double)o->r + 0.5));
	int it_own = warp ? (int)ceil((double)o->r / GM_WARP_SIZE) : 1;
	int64_t threads = warp ? rows * GM_WARP_SIZE : k->threads;
	snprintf(walk[0], sizeof(walk[0]), "(gid %% %d) + (gid / %d)*%lld", GM_WARP_SIZE, GM_WARP_SIZE, (long long)stride);
	snprintf(walk[1], sizeof(walk[1]), "(gid %% %d) + (gid / %d)*%lld", GM_WARP_SIZE, GM_WARP_SIZE, (long long)o->r);
	for (int i = 0; i < k->nins && *nsw < RR_MAXSW; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (in_rr(k, o, i)) {
			sw[(*nsw)++] = first ? (struct tk_swap){ i, warp ? walk[0] : "gid", it, warp ? GM_WARP_SIZE : k->threads,
								 threads, 0, 0 } :
					       (struct tk_swap){ i, NULL, 0, 0, 0, 0, 0 };
			in2[i].executions = first ? (double)threads / GM_WARP_SIZE * it : 0;
			first = 0;
			continue;
		}
		if (!global_rw(x) && x->in->space != GM_TS_SHARED)
			continue;
		if (!global_rw(x) || !exact(x) || x->fit.iters > 1 || strcmp(x->fit.expr1d, "gid"))
			return 0;   /* an access the row's new shape is not priced for */
		if (x->in->op == GM_TO_LOAD && x->fit.map.base == ld->fit.map.base) {
			sw[(*nsw)++] = (struct tk_swap){ i, NULL, 0, 0, 0, 0, 0 };   /* its own element: in the walk */
			in2[i].executions = 0;
		} else if (warp) {
			sw[(*nsw)++] = (struct tk_swap){ i, walk[1], it_own, GM_WARP_SIZE, threads, 0, 0 };
			in2[i].executions = (double)threads / GM_WARP_SIZE * it_own;
		}
	}
	k2->threads = threads;
	return 1;
}

static double speedup(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct rr *o)
{
	if (!prof || !k->pred_ok || !(k->time_ms > 0) || !find(k, prof, o))
		return 0;
	double t = fixed_ms(k, prof, o);
	return t > 0 ? k->time_ms / t : 0;
}

static const char *dim_name(int d)
{
	return d == GM_TV_BY ? "y" : "z";
}

double tk_reread_words(const struct gm_trace_kernel *k, const struct gm_profile *prof, char *buf, size_t n, int *ins)
{
	struct rr o;
	double s = speedup(k, prof, &o);
	char w[96];

	*ins = -1;
	if (s < GM_TRACE_WORTH)
		return 0;
	*ins = o.lead;
	gm_trace_where(k->ins[o.lead].in, 60, w, sizeof(w));
	if (o.form == 3)
		snprintf(buf, n, "re-read across blocks at %.60s and %d more (rule RR): loads whole blockIdx.%s planes "
			 "apart read %lld planes %.1fx over, a plane's readers %.0f MB of traffic apart (L2 %.0f MB): %.0f MB "
			 "again from DRAM; loop over the %lld planes in a thread, each plane loaded once", w, o.n - 1,
			 dim_name(o.d), (long long)o.planes, (double)o.nq * o.r / o.planes, o.apart / 1e6,
			 prof->l2_bytes / 1e6, o.again / 1e6, (long long)o.r);
	else if (o.form == 1)
		snprintf(buf, n, "the same input read again by each of the grid's %lld %s planes at %.60s and %d more "
			 "(rule RR): no load there uses blockIdx.%s, so %.0f %% of the kernel's sectors are %lld reads of "
			 "the same bytes: loop over the %lld in each thread, load once", (long long)o.r, dim_name(o.d), w,
			 o.n - 1, dim_name(o.d), 100 * o.share, (long long)o.r, (long long)o.r);
	else
		snprintf(buf, n, "each of %lld threads of a row reads the whole row at %.60s and %d more (rule RR): the "
			 "row's %d elements read %lld times (%.0f %% of the kernel's sectors): read each once across the "
			 "row's threads and share the sums (warp shuffles)", (long long)o.r, w, o.n - 1, o.distinct,
			 (long long)o.r, 100 * o.share);
	return 1 - 1 / s;
}

/* the far form's fix: a thread does the r planes, each plane it needs loaded once */
static void far_fix(struct gm_trace_fix *fx, const struct rr *o, const char *w)
{
	const char *d = dim_name(o->d);
	double f = (double)o->nq * o->r / o->planes;

	snprintf(fx->rewrite, sizeof(fx->rewrite), "load_once");
	snprintf(fx->change, sizeof(fx->change), "a thread does the %lld blockIdx.%s planes: the grid's %s 1, the %lld "
		 "planes the %d loads at %.50s read loaded once each (%.1fx fewer loads)", (long long)o->r, d, d,
		 (long long)o->planes, o->n, w, f);
	snprintf(fx->words, sizeof(fx->words), "the %d loads at %.60s start whole blockIdx.%s planes apart, so each "
		 "input plane is read by up to %d planes of the grid, %.0f MB of traffic apart (more than L2 keeps): "
		 "%.0f MB read again from DRAM. Let a thread walk the %lld planes, loading each of the %lld input "
		 "planes once (registers, a sliding window, or shared memory)", o->n, w, d, o->nq, o->apart / 1e6,
		 o->again / 1e6, (long long)o->r, (long long)o->planes);
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: t = blockIdx.%s; for (k = 0; k < K; k++) v[k] = in[(t + k) * S "
		 "+ i];\nfloat v[%lld];   // every input plane once\nfor (int q = 0; q < %lld; q++) v[q] = in[q * S + i];\n"
		 "for (int t = 0; t < %lld; t++) out[t * S + i] = f(v + t);   // grid.%s = 1", d, (long long)o->planes,
		 (long long)o->planes, (long long)o->r, d);
}

int tf_reread(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct rr o;
	double s = speedup(k, prof, &o);
	char w[96], was[160];

	if (s < GM_TRACE_WORTH)
		return -1;
	struct gm_trace_fix *fx = tf_whole_fix(k, o.lead, o.n, s);
	gm_trace_where(k->ins[o.lead].in, 60, w, sizeof(w));
	if (o.form == 3)
		far_fix(fx, &o, w);
	else if (o.form == 1) {
		const char *d = dim_name(o.d);
		snprintf(fx->rewrite, sizeof(fx->rewrite), "load_once");
		snprintf(fx->change, sizeof(fx->change), "a thread does the %lld blockIdx.%s planes: the grid's %s 1, the "
			 "%d loads at %.50s once a thread, the accesses blockIdx.%s moves looped %lld times",
			 (long long)o.r, d, d, o.n, w, d, (long long)o.r);
		snprintf(fx->words, sizeof(fx->words), "the grid's %lld %s planes each read the same input (at %.60s: "
			 "blockIdx.%s does not move the address), %lld reads of every byte, from DRAM where it is larger "
			 "than L2: let each thread load its inputs once into registers and compute the %lld outputs "
			 "(a loop over what blockIdx.%s chose), with a grid %lld times shorter", (long long)o.r, d, w, d,
			 (long long)o.r, (long long)o.r, d, (long long)o.r);
		snprintf(fx->sketch, sizeof(fx->sketch), "// was: c = blockIdx.%s; out[c][i] = f(c, in[.][i]);\n"
			 "float v[K]; for (int j = 0; j < K; j++) v[j] = in[j][i];   // once\n"
			 "for (int c = 0; c < %lld; c++) out[c][i] = f(c, v);   // grid.%s = 1", d, (long long)o.r, d);
	} else {
		snprintf(fx->rewrite, sizeof(fx->rewrite), "share_row");
		snprintf(fx->change, sizeof(fx->change), "the row's %d elements read once by its %lld threads (%d loads "
			 "at %.50s, each thread's whole row, become one coalesced walk), the sums shared", o.distinct,
			 (long long)o.r, o.n, w);
		snprintf(fx->words, sizeof(fx->words), "each of the %lld threads of a row walks the whole row (at %.60s: "
			 "the address is the row's, the thread's own column does not move it) and computes the same sums: "
			 "let each thread read its own elements and add the partial sums across the row's threads (a "
			 "warp a row, __shfl_xor_sync), each element read once", (long long)o.r, w);
		snprintf(fx->sketch, sizeof(fx->sketch), "// was: for (j = 0; j < N; j++) s += x[row * N + j];  // every "
			 "thread\nfor (j = lane; j < N; j += 32) s += x[row * N + j];   // a warp a row\n"
			 "for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(~0u, s, o);");
	}
	for (int i = 0; i < k->nins; i++)
		if (i != o.lead && in_rr(k, &o, i))
			k->ins[i].fix.same_as = o.lead + 1;
	snprintf(was, sizeof(was), "%s", k->ins[o.lead].fit.cls_text);
	if (o.form == 3)
		snprintf(k->ins[o.lead].fit.cls_text, sizeof(k->ins[o.lead].fit.cls_text), "re-read across blocks (%.1fx: "
			 "a plane's readers %lld blockIdx.%s plane%s apart; its lanes: %.60s)", (double)o.nq * o.r / o.planes,
			 (long long)o.gap, dim_name(o.d), o.gap == 1 ? "" : "s", was);
	else if (o.form == 1)
		snprintf(k->ins[o.lead].fit.cls_text, sizeof(k->ins[o.lead].fit.cls_text), "re-read by the grid's %lld "
			 "%s planes (its lanes: %.80s)", (long long)o.r, dim_name(o.d), was);
	else
		snprintf(k->ins[o.lead].fit.cls_text, sizeof(k->ins[o.lead].fit.cls_text), "the row re-read by each of "
			 "its %lld threads (its lanes: %.80s)", (long long)o.r, was);
	return o.lead;
}
