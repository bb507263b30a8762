/*
 * trace_fix_spill.c - rule spill (docs/TRACE.md, "Named patterns"): ptxas' register spills, local stores and loads
 * the sanitizer does not report. A launch with a stack frame (the document's local_bytes) and no traced local
 * access: the SASS's STL / LDL the trace did not record (the document's local_instructions, nvdisasm), each at its
 * width times the executions a thread of the traced instruction nearest it (at least once); a document without the
 * list gives the frame stored once and loaded once (a lower bound). The stacks of the threads an SM holds
 * (local_bytes x resident threads) beyond its L1 go to L2: the stores at the profile's l2_write_gbs, the loads at
 * l2_read_gbs; within L1 both at l1_gbs. Named with that time's share of the measured time; the fix (registers: fewer
 * live values a thread, or a register cap the values fit) takes that time off the measured time, no faster than the
 * issue floor. Shaped on set 21's gauss5<16> (development).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

struct spills {
	double st, ld;    /* bytes a thread */
	int nst, nld;     /* instructions; 0, 0 where estimated from the frame */
	const struct gm_trace_spill *first;   /* the first with a line, NULL: none */
};

/* the executions a thread of the traced instruction nearest pc (1: none) */
static double per_thread(const struct gm_trace_kernel *k, int64_t pc)
{
	double warps = ceil((double)k->threads / GM_WARP_SIZE), e = 1;
	int64_t best = -1;

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_instr *in = k->ins[i].in;
		int64_t d = llabs(in->pc - pc);
		if (in->executions > 0 && warps > 0 && (best < 0 || d < best))
			best = d, e = fmax(1, in->executions / warps);
	}
	return e;
}

static int spills_of(const struct gm_trace_kernel *k, struct spills *s)
{
	const struct gm_trace_launch *l = k->l;

	memset(s, 0, sizeof(*s));
	if (l->local_bytes <= 0 || l->nspill == 0)
		return 0;
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].in->space == GM_TS_LOCAL && k->ins[i].in->executions > 0)
			return 0;   /* the stack is a traced array's (rule registers, trace_fix_local.c) */
	if (l->nspill < 0) {
		s->st = s->ld = (double)l->local_bytes;
		return 1;
	}
	for (int q = 0; q < l->nspill; q++) {
		const struct gm_trace_spill *p = &l->spill[q];
		double b = p->bytes * per_thread(k, p->pc);
		*(p->store ? &s->st : &s->ld) += b;
		*(p->store ? &s->nst : &s->nld) += 1;
		s->first = !s->first && p->file && p->line > 0 ? p : s->first;
	}
	return s->st + s->ld > 0;
}

/* the spills' ms over the launch; *l2 1 where the resident stacks overflow L1 */
static double spill_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct spills *s, int *l2)
{
	const struct gm_trace_launch *l = k->l;
	int tpb = l->block[0] * l->block[1] * l->block[2];
	double res = k->occ.blocks > 0 ? (double)k->occ.blocks * tpb : l->sm.threads, t = (double)k->threads;

	*l2 = 0;
	if (!prof || !(prof->l2_read_gbs > 0) || !(prof->l2_write_gbs > 0) || !(prof->l1_gbs > 0) || !(res > 0))
		return 0;
	*l2 = (double)l->local_bytes * res > prof->l1_bytes;
	if (*l2)
		return (s->st * t / prof->l2_write_gbs + s->ld * t / prof->l2_read_gbs) * 1e-6;
	return (s->st + s->ld) * t / prof->l1_gbs * 1e-6;
}

static void where(const struct spills *s, char *w, size_t n)
{
	const char *f = s->first ? strrchr(s->first->file, '/') : NULL;

	if (!s->first)
		snprintf(w, n, "%s", s->nst ? "no line" : "the SASS not listed");
	else
		snprintf(w, n, "%.60s:%d", f ? f + 1 : s->first->file, s->first->line);
}

int tk_spill_named(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct tk_named *c)
{
	struct spills s;
	int l2;
	char w[96];

	if (!spills_of(k, &s))
		return 0;
	double t = spill_ms(k, prof, &s, &l2), mb = (s.st + s.ld) * (double)k->threads / 1e6;
	where(&s, w, sizeof(w));
	c->score = k->time_ms > 0 && t > 0 ? fmin(1, t / k->time_ms) : 0.5;
	c->ins = -1;
	c->time = 1;
	if (s.nst + s.nld)
		snprintf(c->text, sizeof(c->text), "register spill (%d registers, a %lld-byte stack; %d STL, %d LDL from %s): "
			 "%.0f MB of local traffic through %s, %.4f ms: fewer live values a thread, or a register cap they fit",
			 k->l->registers, (long long)k->l->local_bytes, s.nst, s.nld, w, mb, l2 ? "L2" : "L1", t);
	else
		snprintf(c->text, sizeof(c->text), "register spill (%d registers, a %lld-byte stack, no local access traced): "
			 "at least %.0f MB of local traffic through %s, %.4f ms: fewer live values a thread, or a register "
			 "cap they fit", k->l->registers, (long long)k->l->local_bytes, mb, l2 ? "L2" : "L1", t);
	return 1;
}

int tf_spill(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct spills s;
	int l2, at = -1;

	if (!k->norder || !(k->time_ms > 0) || !spills_of(k, &s))
		return -1;
	double t = spill_ms(k, prof, &s, &l2);
	double sp = k->time_ms / fmax(k->time_ms - t, tk_floor_free_ms(k, prof, 1));
	for (int q = 0; q < k->norder && at < 0; q++)   /* an instruction without a fix of its own */
		at = k->ins[k->order[q]].fix.worth ? -1 : k->order[q];
	if (sp < GM_TRACE_WORTH || at < 0)
		return -1;
	struct gm_trace_fix *fx = tf_whole_fix(k, at, 1, sp);
	fx->share = fmin(1, t / k->time_ms);
	snprintf(fx->rewrite, sizeof(fx->rewrite), "registers");
	snprintf(fx->change, sizeof(fx->change), "the spilled values kept in registers: %.0f B a thread of local stores "
		 "and %.0f B of loads leave", s.st, s.ld);
	snprintf(fx->words, sizeof(fx->words), "ptxas spills to local memory when a thread's live values exceed its "
		 "%d registers (a __launch_bounds__ minimum of blocks or -maxrregcount caps them): hold fewer values a thread "
		 "(a smaller tile or template parameter), lower the minimum of blocks so that the values fit (fewer "
		 "resident warps: the trade-off), and index register arrays only at compile time", k->l->registers);
	snprintf(fx->sketch, sizeof(fx->sketch), "// nvcc -Xptxas -v: \"N bytes spill stores, N bytes spill loads\"\n"
		 "__global__ void __launch_bounds__(128, 4)   // was (128, 16): 32 registers a thread\n"
		 "kernel(...) { float win[8][8];   // or a smaller window a thread\n"
		 "#pragma unroll\n  for (int r = 0; r < 8; r++) ...   // compile-time indices only }");
	return at;
}
