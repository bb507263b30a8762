/*
 * trace_fold.c - rule M, the same bytes walked twice (docs/TRACE.md, "The kernel's prediction"): instructions
 * that walk the same bytes folded into one pattern's inner repeat before the launch model sees them; and rule H,
 * a walk whose sectors the other walks of its warps read, left out of the patterns.
 */
#include <math.h>
#include <string.h>
#include "analysis/trace_internal.h"

const struct tk_swap *tk_swap_of(const struct tk_swap *sw, int nsw, int i)
{
	for (int j = 0; j < nsw; j++)
		if (sw[j].ins == i)
			return &sw[j];
	return NULL;
}

/* replaced by another walk (not one that moves every instruction of the original's walk alike: swap's walk) */
static int moved(const struct tk_swap *sw, int nsw, int i)
{
	const struct tk_swap *w = tk_swap_of(sw, nsw, i);

	return w && !w->walk;
}

/* The same per-thread walk of the same array: the modes of the ids equal, offsets aside. */
static int same_walk(const struct gm_trace_insn *a, const struct gm_trace_insn *b)
{
	const struct gm_trace_map *x = &a->fit.map, *y = &b->fit.map;
	int64_t alo, ahi, blo, bhi;

	if (a->in->space != GM_TS_GLOBAL || b->in->space != GM_TS_GLOBAL || a->in->op != b->in->op ||
	    a->in->size != b->in->size || !x->known || !y->known || a->fit.approx || b->fit.approx ||
	    a->fit.iters != b->fit.iters || x->iter_step != y->iter_step || x->niter_tab || y->niter_tab ||
	    x->nmodes != y->nmodes)
		return 0;
	for (int q = 0; q < x->nmodes; q++)
		if (memcmp(&x->mode[q], &y->mode[q], sizeof(x->mode[q])))
			return 0;
	return tk_range_of(a->in, &alo, &ahi) && tk_range_of(b->in, &blo, &bhi) && alo <= bhi && blo <= ahi;
}

/*
 * One cluster of a group's pieces (rule M): the instructions g[0..m) at addresses A[], whose distinct addresses
 * D[0..nd) (sorted). Pieces at a spacing d (the gcd of their gaps), each read equally often, with none missing,
 * or, for loads at a spacing under a sector, at most half the span missing (a record whose other pieces were not
 * loaded or not sampled: the holes lie in the sectors the pieces read; a store's hole is a sector written partly,
 * rule L4's): folded as iters2 = the span's pieces, step2 = d, or, one address, as its readings.
 */
static void fold_cluster(const int *g, const int64_t *A, int m, const int64_t *D, int nd, int load, int once,
			 int *it2, int64_t *step2)
{
	int mult = -1, ok = 1;
	int64_t d = 0;

	for (int r = 1; r < nd; r++)
		d = tk_gcd64(d, D[r] - D[r - 1]);
	int64_t sp = nd > 1 && d > 0 ? (D[nd - 1] - D[0]) / d + 1 : nd;
	ok = sp == nd || (load && d < 32 && sp <= 2 * nd);
	for (int r = 0; r < nd && ok; r++) {   /* every piece read equally often */
		int c = 0;
		for (int q = 0; q < m; q++)
			c += A[q] == D[r];
		ok = mult < 0 || c == mult;
		mult = c;
	}
	if (!ok || m < 2)
		return;
	if (!load && mult > 1) {   /* rule RS (k68): the same bytes stored again by the same thread */
		if (nd == 1 && once)   /* L2 keeps the line (write-back): DRAM takes it once; tk_l2_write_ms times the
					  rest. Not a loop's walk: a row stored twice may leave L2 in between */
			for (int q = 1; q < m; q++)
				it2[g[q]] = -1;
		return;   /* else pieces stored twice: not folded */
	}
	if (nd == 1) {
		it2[g[0]] = m, step2[g[0]] = 0;
		for (int q = 1; q < m; q++)
			it2[g[q]] = -1;
		return;
	}
	for (int q = 0, lead = 0; q < m; q++)   /* one pattern per reading, from its first piece */
		if (A[q] == D[0] && lead < mult) {
			it2[g[q]] = (int)sp, step2[g[q]] = d;
			lead++;
		} else
			it2[g[q]] = -1;
}

/*
 * Instructions that walk the same bytes (rule M, the trace's; docs/TRACE.md): the launch model keeps each
 * pattern's bytes apart, so a loop unrolled into pieces at offsets 0, d, 2d ... of one row, or a row read again
 * by a later loop, would each be read from DRAM again. They are folded into one pattern's inner repeat
 * (gm_repeat's iters2, evaluated together: a piece they share is read once): pieces as iters2 = their number,
 * step2 = d; loads read again as iters2 = the readings, step2 = 0; m readings of the same pieces as m patterns.
 * A group of loads that does not fold whole is split where two neighbouring pieces lie more than a sector apart
 * (a stencil's rows above and below its own) and each cluster folded alone; stores fold whole or not at all.
 * it2[i] > 0: instruction i carries it2[i] of them (step2[i]); it2[i] < 0: folded into another.
 */
void tk_fold(const struct gm_trace_kernel *k, const struct tk_swap *sw, int nsw, int *it2, int64_t *step2)
{
	int n = k->nins;

	for (int i = 0; i < n; i++)
		it2[i] = 0, step2[i] = 0;
	for (int i = 0; i < n; i++) {
		int g[64], m = 0, nd = 0, load = k->ins[i].in->op == GM_TO_LOAD;
		int64_t A[64], D[64];
		if (it2[i] || moved(sw, nsw, i))
			continue;
		for (int j = i; j < n && m < 64; j++)
			if (!it2[j] && !moved(sw, nsw, j) && same_walk(&k->ins[i], &k->ins[j]) &&
			    !tk_swap_of(sw, nsw, i) == !tk_swap_of(sw, nsw, j))
				g[m++] = j;
		if (m < 2)
			continue;
		for (int q = 0; q < m; q++) {
			const struct gm_trace_insn *y = &k->ins[g[q]];
			int r = 0;
			A[q] = y->fit.map.base + y->fit.map.offset * y->in->size;
			while (r < nd && D[r] != A[q])
				r++;
			if (r == nd)
				D[nd++] = A[q];
		}
		for (int a = 1; a < nd; a++)   /* sorted */
			for (int b = a; b > 0 && D[b] < D[b - 1]; b--) {
				int64_t t = D[b]; D[b] = D[b - 1]; D[b - 1] = t;
			}
		fold_cluster(g, A, m, D, nd, load, k->ins[i].fit.iters <= 1, it2, step2);
		if (it2[g[0]] || !load)
			continue;
		for (int c0 = 0, c1; c0 < nd; c0 = c1) {   /* else clusters of loads: neighbours within a sector */
			int cg[64], cm = 0;
			int64_t cA[64];
			for (c1 = c0 + 1; c1 < nd && D[c1] - D[c1 - 1] <= 32; c1++)
				;
			for (int q = 0; q < m; q++)
				if (A[q] >= D[c0] && A[q] <= D[c1 - 1])
					cg[cm] = g[q], cA[cm++] = A[q];
			fold_cluster(cg, cA, cm, D + c0, c1 - c0, load, 0, it2, step2);
		}
	}
}

/* The same modes of the ids, the loop's aside. */
static int same_ids(const struct gm_trace_map *x, const struct gm_trace_map *y)
{
	int i = 0, j = 0;

	for (;;) {
		while (i < x->nmodes && x->mode[i].var == GM_TV_ITER)
			i++;
		while (j < y->nmodes && y->mode[j].var == GM_TV_ITER)
			j++;
		if (i == x->nmodes || j == y->nmodes)
			return i == x->nmodes && j == y->nmodes;
		if (memcmp(&x->mode[i++], &y->mode[j++], sizeof(x->mode[0])))
			return 0;
	}
}

/*
 * The second half of rule M: a walk whose pieces tile each step (the loop's step = pieces x their spacing) is
 * the same walk as a loop over the pieces' spacing; walks of the same bytes from the same start, however they
 * were unrolled, are readings of one walk: one pattern, its loop flattened (it1, step1 in bytes) and
 * iters2 = the readings, step2 = 0. Loads only.
 */
void tk_fold_readings(const struct gm_trace_kernel *k, const struct tk_swap *sw, int nsw, int *it2,
		      int64_t *step2, int *it1, int64_t *step1)
{
	int n = k->nins;
	int64_t fi[GM_TRACE_MAX_INSNS], fs[GM_TRACE_MAX_INSNS];
	int rd[GM_TRACE_MAX_INSNS];

	for (int i = 0; i < n; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		int64_t sB = x->fit.map.iter_step * x->in->size;
		it1[i] = 0, step1[i] = 0, fi[i] = 0, fs[i] = 0, rd[i] = 0;
		if (it2[i] < 0 || tk_swap_of(sw, nsw, i) || x->in->space != GM_TS_GLOBAL || x->in->op != GM_TO_LOAD ||
		    !x->fit.map.known || x->fit.approx || x->fit.map.niter_tab)
			continue;
		if (it2[i] > 1 && step2[i] > 0 && sB == it2[i] * step2[i])   /* pieces tiling the step */
			fi[i] = (int64_t)x->fit.iters * it2[i], fs[i] = step2[i], rd[i] = 1;
		else if (it2[i] <= 1 || step2[i] == 0)
			fi[i] = x->fit.iters, fs[i] = sB, rd[i] = it2[i] > 1 ? it2[i] : 1;
	}
	for (int i = 0; i < n; i++) {
		int reads = rd[i], any = 0;
		int64_t lo, hi, lo2, hi2;
		const struct gm_trace_insn *x = &k->ins[i];
		if (!rd[i] || !tk_range_of(x->in, &lo, &hi))
			continue;
		int64_t A = x->fit.map.base + x->fit.map.offset * x->in->size;
		for (int j = i + 1; j < n; j++) {
			const struct gm_trace_insn *y = &k->ins[j];
			if (!rd[j] || fi[j] != fi[i] || fs[j] != fs[i] || y->in->size != x->in->size ||
			    y->fit.map.base + y->fit.map.offset * y->in->size != A || !same_ids(&x->fit.map, &y->fit.map) ||
			    !tk_range_of(y->in, &lo2, &hi2) || lo2 > hi || lo > hi2)
				continue;
			reads += rd[j];
			rd[j] = 0;
			it2[j] = -1;
			any = 1;
		}
		if (!any)
			continue;
		it1[i] = (int)fi[i], step1[i] = fs[i];
		it2[i] = reads, step2[i] = 0;
		rd[i] = 0;
	}
}

/*
 * Clears from *left each lane of s whose sector y's samples of s's warp (any iteration) read, or with halo, the
 * sector next to one they read (rule H's halo); 1 when none is left.
 */
static int warp_reads(const struct gm_trace_instr *y, const struct gm_trace_sample *s, uint32_t *left, int halo)
{
	for (int q = 0; q < y->nsamples && *left; q++) {
		const struct gm_trace_sample *t = &y->samples[q];
		if (s->block[0] != t->block[0] || s->block[1] != t->block[1] || s->block[2] != t->block[2] ||
		    s->warp != t->warp)
			continue;
		for (int l = 0; l < GM_WARP_SIZE; l++) {
			if (!(*left >> l & 1))
				continue;
			for (int u = 0; u < GM_WARP_SIZE; u++)
				if ((t->have >> u & 1) && (t->addr[u] >> 5 == s->addr[l] >> 5 ||
							   (halo && (t->addr[u] >> 5) + 1 >= s->addr[l] >> 5 &&
							    (s->addr[l] >> 5) + 1 >= t->addr[u] >> 5))) {
					*left &= ~(1u << l);
					break;
				}
		}
	}
	return !*left;
}

static int fitted_load(const struct gm_trace_insn *x)
{
	return x->in->space == GM_TS_GLOBAL && x->in->op == GM_TO_LOAD && x->fit.map.known && !x->fit.approx &&
	       !x->fit.map.niter_tab && x->in->nsamples > 0;
}

/*
 * Rule H, a walk whose sectors another walk of its warps reads (docs/TRACE.md, "The kernel's prediction"): the
 * launch model reads each pattern's bytes apart, and rule M folds only loads of the same map of the ids (its
 * loop aside). A warp's remainder lanes, peeled into code of their own (`for (x = lane; x < 509; x += 32)`: lanes
 * 29-31 run one trip less, under another map), read again the sectors the other lanes' pieces read, from DRAM in
 * the model. The fitted global loads are taken by walk (the same map of the ids, loop aside: rule M's groups), the
 * walks by their measured sectors, most first: a walk whose every load, in every warp it was sampled in, has every
 * lane on a sector that the loads of earlier walks (not themselves hits, any load of theirs) read in the same warp
 * is a hit (its sectors are in L1 or L2) and leaves the model's patterns. A lane on no such sector is still one
 * where its sector is next to one of them (the halo: the neighbouring warp's, read in the same wave; k65). A loop's
 * load needs samples at two iterations at least (its later iterations reach other sectors). Unfitted loads (rule
 * G's) are never hits.
 */
void tk_sector_hits(struct gm_trace_kernel *k)
{
	int n = k->nins < GM_TRACE_MAX_INSNS ? k->nins : GM_TRACE_MAX_INSNS, walk[GM_TRACE_MAX_INSNS];
	int lead[GM_TRACE_MAX_INSNS], nw = 0, hit[GM_TRACE_MAX_INSNS];
	double sec[GM_TRACE_MAX_INSNS];

	for (int i = 0; i < n; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		k->ins[i].sector_hit = 0;
		walk[i] = -1;
		if (x->in->space != GM_TS_GLOBAL || x->in->op != GM_TO_LOAD || x->in->nsamples <= 0)
			continue;
		int w = 0;
		while (w < nw && !(fitted_load(x) && fitted_load(&k->ins[lead[w]]) &&
				   x->in->size == k->ins[lead[w]].in->size && same_ids(&x->fit.map, &k->ins[lead[w]].fit.map)))
			w++;
		if (w == nw)
			lead[nw] = i, sec[nw] = 0, hit[nw++] = 0;
		walk[i] = w;
		sec[w] += x->in->sectors;
	}
	for (int done = 0; done < nw; done++) {
		int w = -1;
		for (int c = 0; c < nw; c++)   /* the next walk by its sectors, most first */
			if (!hit[c] && (w < 0 || sec[c] > sec[w]))
				w = c;
		int ok = done > 0 && fitted_load(&k->ins[lead[w]]), lanes = 0;
		for (int i = 0; i < n && ok; i++) {
			const struct gm_trace_instr *x = k->ins[i].in;
			int iter2 = 0;
			if (walk[i] != w)
				continue;
			for (int p = 0; p < x->nsamples && ok; p++) {
				const struct gm_trace_sample *s = &x->samples[p];
				uint32_t left = s->have;
				lanes += left != 0;
				iter2 |= s->iter != x->samples[0].iter;
				for (int h = 0; h < 2 && left; h++)   /* its own sectors first, then the halo */
					for (int j = 0; j < n && left; j++)
						if (walk[j] >= 0 && walk[j] != w && hit[walk[j]] < 0)
							warp_reads(k->ins[j].in, s, &left, h);
				ok = !left;
			}
			ok = ok && (k->ins[i].fit.iters <= 1 || iter2);
		}
		hit[w] = ok && lanes ? 2 : -1;   /* -1: taken and read; 2: taken, a hit */
	}
	for (int i = 0; i < n; i++)
		k->ins[i].sector_hit = walk[i] >= 0 && hit[walk[i]] == 2;
}
