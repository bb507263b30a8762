/*
 * trace_values.c - the waste a kernel's sampled values show (docs/TRACE.md, "Values"; issue 38). The collector
 * summarises, per global load or store, the values of its sampled lanes (the same warps as the addresses): how many
 * are zero, how many stores write the value already there, whether every 8-byte value is a float's, the integer
 * range, the thread's own index. Each rule here names one waste from those counts, with words, a CUDA sketch, and
 * the whole kernel's speedup from the launch model with the change (the instruction narrowed, left out, or its
 * silent part left out), the saving taken off the measured time (tf_kernel_speedup):
 *
 *   narrow_int    integers that need b bits in a wider type (int64 holding 0-3): the smallest of 1, 2, 4 bytes
 *   float_exact   8-byte values every one of which is exactly a float32 (and not small integers): float
 *   silent_store  stores writing what is there (a share p of the lanes), where the kernel already loads those
 *                 bytes: store only where it changes; the sectors skipped are p^(lanes a sector), lanes independent
 *   zero_load     loads whose every value is zero: drop the load (a null pointer, one uniform branch)
 *   const_load    loads whose every value is one value: pass it as a kernel argument
 *   own_index     loads whose every value is the thread's own index (idx[i] == i), or its element's own index
 *                 plus one constant (idx[j] == j + c, any loop): use the index
 *
 * A sample of fewer than GM_TRACE_VALUE_MIN_LANES lanes is refused (the finding says so, unpriced): a few warps'
 * values say little about an array. What the sample cannot say, the words say: the whole array must hold it.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

/* a silent store is named from this share of its sampled lanes on */
#define TV_SILENT_MIN 0.5

static int narrow_size(int bits)
{
	return bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
}

/* the kernel's launch-model time with instruction i narrowed to new_size bytes (0: left out); -1 if it cannot */
static double predict_with(const struct gm_trace_kernel *k, const struct gm_profile *prof, int i, int new_size)
{
	struct gm_launch_out o;
	char why[200];
	int rc;

	if (i < 0) {
		rc = tk_predict(k, prof, TK_WITH_TRIPS, NULL, 0, &o, why, sizeof(why));
	} else if (new_size == 0) {
		struct tk_swap sw = { i, NULL, 0, 0, 0, 0, 0 };
		rc = tk_predict(k, prof, TK_WITH_TRIPS, &sw, 1, &o, why, sizeof(why));
	} else {
		struct gm_trace_kernel k2;
		struct gm_trace_insn *ins2;
		struct gm_trace_instr *in2;
		if (tf_kernel_copy(k, &k2, &ins2, &in2))
			return -1;
		in2[i].size = new_size;
		rc = tk_predict(&k2, prof, TK_WITH_TRIPS, NULL, 0, &o, why, sizeof(why));
		free(ins2);
		free(in2);
	}
	if (rc || !(o.time_ms > 0))
		return -1;
	tk_start_drain(prof, &o);   /* as the kernel's own prediction (rule S2) */
	return o.time_ms;
}

/* The whole kernel's speedup when q (0 .. 1) of what the change saves is saved; 0 where it cannot be priced (no
   prediction, or the model cannot take the changed kernel) */
static double price(const struct gm_trace_kernel *k, const struct gm_profile *prof, int i, int new_size, double q)
{
	double p0, p1;

	if (!prof || !k->pred_ok || !(k->mem_ms > 0))
		return 0;
	p0 = predict_with(k, prof, -1, 0);
	p1 = predict_with(k, prof, i, new_size);
	if (!(p0 > 0) || !(p1 > 0))
		return 0;
	if (p1 >= p0)   /* the model sees no saving (a launch its start or its issue bounds) */
		return 1;
	return fmax(1, tf_kernel_speedup(k, prof, k->mem_ms * (1 - q * (p0 - p1) / p0), 1, 1));
}

/* 1 when a global load of k reads, in every sample it shares with store x (the same block, warp and iteration),
   the same addresses in the same lanes: the store's old value is in a register already */
static int loaded_before(const struct gm_trace_kernel *k, const struct gm_trace_instr *x)
{
	for (int j = 0; j < k->nins; j++) {
		const struct gm_trace_instr *y = k->ins[j].in;
		int met = 0, bad = 0;
		if (y->space != GM_TS_GLOBAL || y->op != GM_TO_LOAD || y->size != x->size || y->pc > x->pc)
			continue;
		for (int a = 0; a < x->nsamples && !bad; a++) {
			const struct gm_trace_sample *s = &x->samples[a];
			for (int b = 0; b < y->nsamples; b++) {
				const struct gm_trace_sample *t = &y->samples[b];
				if (memcmp(s->block, t->block, sizeof(s->block)) || s->warp != t->warp || s->iter != t->iter)
					continue;
				for (int l = 0; l < GM_WARP_SIZE; l++)
					if (((s->have >> l) & 1u) && (!((t->have >> l) & 1u) || t->addr[l] != s->addr[l]))
						bad = 1;
				met++;
				break;
			}
		}
		if (met && !bad)
			return 1;
	}
	return 0;
}

static const char *int_type(int size, int sign)
{
	static const char *const u[] = { "", "uint8_t", "uint16_t", "", "uint32_t", "", "", "", "uint64_t" };
	static const char *const s[] = { "", "int8_t", "int16_t", "", "int32_t", "", "", "", "int64_t" };

	return size >= 1 && size <= 8 ? (sign ? s[size] : u[size]) : "?";
}

/* Which rule instruction x's values show (-1: none); *new_size and *q set for the rule */
static int rule_of(const struct gm_trace_kernel *k, const struct gm_trace_instr *x, int *new_size, double *q)
{
	const struct gm_trace_values *v = &x->values;
	int load = x->op == GM_TO_LOAD;

	*new_size = 0, *q = 1;
	if (!v->have || x->space != GM_TS_GLOBAL || (x->op != GM_TO_LOAD && x->op != GM_TO_STORE))
		return -1;
	if (load && v->zero >= v->lanes)
		return GM_TVR_ZERO_LOAD;
	if (load && v->ints && v->min == v->max)
		return GM_TVR_CONST_LOAD;
	if (load && v->ints && v->max > v->min &&
	    (v->own_x >= v->lanes || v->own_y >= v->lanes || v->own_elem >= v->lanes))
		return GM_TVR_OWN_INDEX;
	if (!load && v->silent >= TV_SILENT_MIN * v->lanes) {
		double p = v->silent / v->lanes, per = x->size < GM_SECTOR_BYTES ? GM_SECTOR_BYTES / x->size : 1;
		*q = p >= 1 ? 1 : pow(p, per);
		(void)k;
		return GM_TVR_SILENT_STORE;
	}
	if (x->size == 8 && v->float_exact >= v->lanes && v->zero < v->lanes && v->ints && v->int_bits > 32) {
		*new_size = 4;
		return GM_TVR_FLOAT_EXACT;
	}
	if (v->ints && x->size >= 2 && v->zero < v->lanes && narrow_size(v->int_bits) < x->size) {
		*new_size = narrow_size(v->int_bits);
		return GM_TVR_NARROW_INT;
	}
	return -1;
}

static void describe(struct gm_trace_value_finding *f, const struct gm_trace_instr *x,
		     int already_read)
{
	const struct gm_trace_values *v = &x->values;
	char w[96], tail[160];
	int sign = v->min < 0;

	gm_trace_where(x, 60, w, sizeof(w));
	snprintf(tail, sizeof(tail), " (%.0f sampled lanes of %d sampled warp executions; the sample cannot see the whole "
		 "array: check it holds there)", v->lanes, x->nsamples);
	switch (f->rule) {
	case GM_TVR_NARROW_INT:
		snprintf(f->words, sizeof(f->words), "the %s at %.60s moves %d-byte integers whose every sampled value lies in "
			 "%" PRId64 "..%" PRId64 " (%d bits): a %s holds them, %dx fewer bytes%s", x->op == GM_TO_LOAD ?
			 "load" : "store", w, x->size, v->min, v->max, v->int_bits, int_type(f->new_size, sign),
			 x->size / f->new_size, tail);
		snprintf(f->sketch, sizeof(f->sketch), "// was: %s *out; ... out[i] = v;   (values %" PRId64 "..%" PRId64 ")\n"
			 "%s *out;   // %d bits suffice: %d B an element instead of %d\nout[i] = (%s)v;   // read it back as "
			 "(%s)out[i] where it is used", int_type(x->size, 1), v->min, v->max, int_type(f->new_size, sign),
			 v->int_bits, f->new_size, x->size, int_type(f->new_size, sign), int_type(x->size, 1));
		break;
	case GM_TVR_FLOAT_EXACT:
		snprintf(f->words, sizeof(f->words), "the %s at %.60s moves doubles whose every sampled value is exactly a "
			 "float: store the array as float (half the bytes) and widen on use where the arithmetic needs "
			 "double%s", x->op == GM_TO_LOAD ? "load" : "store", w, tail);
		snprintf(f->sketch, sizeof(f->sketch), "// was: const double *a; ... double t = a[i];\nconst float *a32;   "
			 "// every value is a float's: 4 B an element instead of 8\ndouble t = (double)a32[i];   // the "
			 "arithmetic stays double");
		break;
	case GM_TVR_SILENT_STORE:
		if (already_read)
			snprintf(f->words, sizeof(f->words), "the store at %.60s writes the value already in memory in %.0f of %.0f "
				 "sampled lanes (%.0f %%), and the kernel loads those bytes already: store only where the value "
				 "changes; a sector no lane changes is not written (%.0f %% of them if the lanes are "
				 "independent)%s", w, v->silent, v->lanes, 100 * f->fraction,
				 100 * (f->bytes > 0 && x->sectors > 0 ? f->bytes / (x->sectors * GM_SECTOR_BYTES) : 0), tail);
		else
			snprintf(f->words, sizeof(f->words), "the store at %.60s writes the value already in memory in %.0f of %.0f "
				 "sampled lanes (%.0f %%), but the kernel does not load those bytes: a check before the store "
				 "would read as many bytes as it saves (worth it only where the caller knows which outputs "
				 "change)%s", w, v->silent, v->lanes, 100 * f->fraction, tail);
		snprintf(f->sketch, sizeof(f->sketch), "// was: a[i] = v;   (v == a[i] in %.0f %% of the lanes)\n"
			 "const float old = a[i];   // loaded already by the kernel\nif (v != old)\n    a[i] = v;   // the "
			 "unchanged lanes store nothing", 100 * f->fraction);
		break;
	case GM_TVR_ZERO_LOAD:
		snprintf(f->words, sizeof(f->words), "the load at %.60s reads only zeros: where the array is all zero, pass "
			 "a null pointer and leave the load out (one branch, the same for every thread)%s", w, tail);
		snprintf(f->sketch, sizeof(f->sketch), "// was: y[i] = x[i] + b[i];   (b all zeros)\n"
			 "y[i] = b ? x[i] + b[i] : x[i];   // the host passes b = nullptr when it is all zeros");
		break;
	case GM_TVR_CONST_LOAD:
		snprintf(f->words, sizeof(f->words), "the load at %.60s reads one value, %" PRId64 " (as a %d-byte integer), in "
			 "every sampled lane: pass it as a kernel argument and leave the load out%s", w, v->min, x->size, tail);
		snprintf(f->sketch, sizeof(f->sketch), "// was: ... c[i] ...   (every c[i] the same)\n"
			 "__global__ void k(..., T c0)   // the value as an argument, in a register\n... c0 ...");
		break;
	case GM_TVR_OWN_INDEX:
		snprintf(f->words, sizeof(f->words), "the load at %.60s reads, in every sampled lane, %s: an identity "
			 "index array; use the index itself and leave the load out (keep the general kernel for a real "
			 "permutation)%s", w, v->own_x >= v->lanes ? "the thread's own x index (idx[i] == i)" :
			 v->own_y >= v->lanes ? "the thread's own y index (idx[i] == i)" :
			 "its element's own index plus one constant (idx[j] == j + c)", tail);
		snprintf(f->sketch, sizeof(f->sketch), "// was: int j = idx[i]; y[i] = x[j];   (idx[i] == i)\n"
			 "y[i] = x[i];   // no index array: one load less a thread, the gather now coalesced");
		break;
	default:
		break;
	}
}

gm_status gm_trace_values(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct gm_trace_value_finding fs[GM_TRACE_VALUE_MAX];
	int n = 0;

	k->vf = NULL, k->nvf = 0;
	for (int i = 0; i < k->nins && n < GM_TRACE_VALUE_MAX; i++) {
		const struct gm_trace_instr *x = k->ins[i].in;
		struct gm_trace_value_finding *f = &fs[n];
		double q;
		int ns, r = rule_of(k, x, &ns, &q), read = 0;
		if (r < 0)
			continue;
		memset(f, 0, sizeof(*f));
		f->rule = (enum gm_trace_value_rule)r;
		f->ins = i;
		f->new_size = ns;
		f->fraction = r == GM_TVR_SILENT_STORE ? x->values.silent / x->values.lanes : 1;
		f->kernel_speedup = 1;
		double traffic = x->sectors > 0 ? x->sectors * GM_SECTOR_BYTES : 0;
		f->bytes = ns ? traffic * (1 - (double)ns / x->size) : traffic * q;
		if (r == GM_TVR_SILENT_STORE)
			read = loaded_before(k, x);
		describe(f, x, read);
		if (x->values.lanes < GM_TRACE_VALUE_MIN_LANES) {
			f->refused = 1;
			f->bytes = 0;
			snprintf(f->words, sizeof(f->words), "the %s at pc 0x%" PRIx64 " may show %s, but only %.0f lanes' values "
				 "were sampled (fewer than %d): too few to say", x->op == GM_TO_LOAD ? "load" : "store", x->pc,
				 gm_trace_value_rule_name(f->rule), x->values.lanes, GM_TRACE_VALUE_MIN_LANES);
			f->sketch[0] = '\0';
		} else if (r == GM_TVR_SILENT_STORE && !read) {
			f->refused = 1;
			f->bytes = 0;
		} else {
			double sp = price(k, prof, i, ns, q);
			f->priced = sp > 0;
			f->kernel_speedup = sp > 0 ? sp : 1;
			f->worth = f->kernel_speedup >= GM_TRACE_WORTH;
		}
		n++;
	}
	if (!n)
		return GM_OK;
	k->vf = malloc(sizeof(*k->vf) * (size_t)n);
	if (!k->vf)
		return gm_fail(GM_ERR_NOMEM, "out of memory naming the trace's value findings");
	memcpy(k->vf, fs, sizeof(*k->vf) * (size_t)n);
	k->nvf = n;
	return GM_OK;
}
