/*
 * trace_occupancy.c - rule OC of the trace (docs/TRACE.md, "Occupancy"): the blocks an SM holds at once, by the
 * hardware's rule: the least of what its threads, its block slots, its registers and its shared memory allow.
 *   threads:  the SM's resident threads / the block's threads;
 *   slots:    the SM's resident blocks at most (32 on cc 7.0, 8.0, 9.0);
 *   registers: a warp takes its threads' registers rounded up to 256 (8 a thread), the SM's 64 Ki registers
 *             hold that many warps, rounded down to whole blocks;
 *   shared:   a block takes its static and dynamic shared memory and the system's reserve (1 KiB a block from
 *             cc 8.0), rounded up to 128 B; the SM's shared memory (228 KiB on cc 9.0) holds that many.
 * The sizes are the document's device attributes where it gives them, else the compute capability's row of the
 * CUDA C++ Programming Guide's table of technical specifications (below); the launch's static shared memory
 * and registers are its function's attributes, its dynamic shared memory the time pass's CUPTI record (older
 * documents: not recorded, taken as none). The launch model's waves and window (rules T2, L4) take the shared
 * memory's limit through gm_launch_in.blocks_per_sm_cap; a register limit is only reported (below). Also what the kernel's shared accesses span (their sampled
 * addresses past the reserve), for the fix (trace_fix_occ.c).
 */
#include <string.h>
#include "analysis/trace_internal.h"

#define SMEM_UNIT 128   /* shared memory is reserved in 128 B units (cc 8.0 and later; the occupancy calculator) */
#define REG_UNIT 256    /* registers are given a warp in 256s */

/* The programming guide's technical specifications per compute capability (x 10). */
static const struct gm_trace_sm table[] = {
	{ 70, 96 * 1024, 0, 65536, 32, 2048 },
	{ 75, 64 * 1024, 0, 65536, 16, 1024 },
	{ 80, 164 * 1024, 1024, 65536, 32, 2048 },
	{ 86, 100 * 1024, 1024, 65536, 16, 1536 },
	{ 89, 100 * 1024, 1024, 65536, 24, 1536 },
	{ 90, 228 * 1024, 1024, 65536, 32, 2048 },
	{ 100, 228 * 1024, 1024, 65536, 32, 2048 },
};

/* The launch's device sizes: the document's, each missing one from the table; 0 when neither knows. */
static struct gm_trace_sm sizes_of(const struct gm_trace_launch *l, const struct gm_profile *prof)
{
	struct gm_trace_sm s = l->sm, t = { 0 };

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].cc == s.cc)
			t = table[i];
	s.smem = s.smem > 0 ? s.smem : t.smem;
	s.smem_reserved = s.smem_reserved >= 0 && (l->sm.smem > 0 || !t.cc) ? s.smem_reserved : t.smem_reserved;
	s.regs = s.regs > 0 ? s.regs : t.regs;
	s.blocks = s.blocks > 0 ? s.blocks : t.blocks ? t.blocks : 32;
	s.threads = prof && prof->threads_per_sm > 0 ? prof->threads_per_sm : s.threads > 0 ? s.threads :
		    t.threads > 0 ? t.threads : 2048;
	return s;
}

static int64_t round_up(int64_t x, int64_t u)
{
	return (x + u - 1) / u * u;
}

/* Blocks an SM whose blocks each take `smem` bytes of shared memory (the reserve included), 0 = no limit. */
static int by_smem(const struct gm_trace_sm *s, int64_t smem)
{
	return s->smem > 0 && smem > 0 ? (int)(s->smem / smem) : 0;
}

/* The bytes past the reserve that the sampled shared accesses reach (0: none sampled). */
static int64_t shared_span(const struct gm_trace_launch *l, int64_t reserve)
{
	int64_t hi = 0;

	for (int i = 0; i < l->nins; i++) {
		const struct gm_trace_instr *in = &l->ins[i];
		if (in->space != GM_TS_SHARED)
			continue;
		for (int q = 0; q < in->nsamples; q++)
			for (int j = 0; j < GM_WARP_SIZE; j++)
				if (in->samples[q].have >> j & 1 && in->samples[q].addr[j] + in->size > hi)
					hi = in->samples[q].addr[j] + in->size;
	}
	return hi > reserve ? hi - reserve : hi;
}

void tk_occupancy(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	const struct gm_trace_launch *l = k->l;
	struct gm_trace_occ *o = &k->occ;
	struct gm_trace_sm s = sizes_of(l, prof);
	int64_t tpb = (int64_t)l->block[0] * l->block[1] * l->block[2];
	int64_t warps = (tpb + GM_WARP_SIZE - 1) / GM_WARP_SIZE;
	int64_t dyn = l->shared_dynamic > 0 ? l->shared_dynamic : 0;
	int64_t reserve = s.smem_reserved > 0 ? s.smem_reserved : 0;

	memset(o, 0, sizeof(*o));
	k->occ_cap = 0;
	if (tpb <= 0)
		return;
	o->dynamic_known = l->shared_dynamic >= 0;
	o->of = (int)(s.threads / tpb < s.blocks ? s.threads / tpb : s.blocks);
	o->of = o->of < 1 ? 1 : o->of;
	o->blocks = o->of;
	if (l->registers > 0 && s.regs > 0) {
		int64_t per_warp = round_up((int64_t)l->registers * GM_WARP_SIZE, REG_UNIT);
		o->by_regs = (int)(s.regs / per_warp / warps);
	}
	o->reserve = reserve;
	o->smem_block = round_up((l->shared_static > 0 ? l->shared_static : 0) + dyn + reserve, SMEM_UNIT);
	if (o->smem_block > reserve)   /* the reserve alone never limits before the slots do */
		o->by_smem = by_smem(&s, o->smem_block);
	o->smem_used = shared_span(l, reserve);
	if (o->by_regs > 0 && o->by_regs < o->blocks)
		o->blocks = o->by_regs, o->limit = "registers";
	if (o->by_smem > 0 && o->by_smem < o->blocks)
		o->blocks = o->by_smem, o->limit = "shared memory";
	o->blocks = o->blocks < 1 ? 1 : o->blocks;   /* a block the SM cannot hold does not launch: not traced */
	int need = by_smem(&s, round_up(o->smem_used + reserve, SMEM_UNIT));
	o->need_blocks = need > 0 && need < o->of ? need : o->of;
	/* the launch model takes the shared-memory cap only: a register cap is named in the report (limit) but not
	   applied (docs/TRACE.md, rule OC: rule T2's round trip is a loaded one at full occupancy, so more waves of
	   fewer threads come out too slow; set 3's FiniteDifferencesKernel, 1 block an SM by its 80 registers,
	   went -18 -> +66 %) */
	k->occ_cap = o->by_smem > 0 && o->by_smem < o->of ? o->by_smem : 0;
}
