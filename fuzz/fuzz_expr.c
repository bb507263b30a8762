/*
 * fuzz_expr.c - libFuzzer target for the expression language and the model.
 *
 * Input: 7 parameter bytes, then text. The text up to the first newline is
 * the index expression, the rest (if any) the --active expression.
 *   byte 0: bit 0 shared, bit 1 store, bits 2-4 element size
 *           (1 2 4 8 16, and the invalid 3 0 32)
 *   byte 1: blockDim.x = 1 + 4 * b      byte 2: blockDim.y, .z (small)
 *   byte 3: warp                        bytes 4-5: base (int16)
 *   byte 6: blockIdx
 * Besides memory and UB errors (ASan/UBSan), the model's invariants are
 * checked and a violation aborts, so libFuzzer reports it as a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/model.h"

#define NPARAM 7

static void check(int ok)
{
	if (!ok)
		abort();
}

static void fuzz_eval(const char *text, const uint8_t *prm)
{
	struct gm_thread_vars v = { 0 };
	struct gm_expr_error err;
	struct gm_expr *e;
	int64_t a, b;
	gm_status s1, s2;

	if (gm_expr_parse(text, &e, &err) != GM_OK) {
		check(e == NULL && err.msg[0] != '\0' && err.pos <= strlen(text));
		return;
	}
	v.lane = prm[3] & 31;
	v.tid = (int64_t)(int8_t)prm[4] * 1000003;
	v.tx = (int8_t)prm[5];
	v.bdx = prm[1];
	v.bx = (int64_t)((uint64_t)prm[6] << 56); /* large values reach overflow paths */
	s1 = gm_expr_eval(e, &v, &a, &err);
	check(s1 == GM_OK || s1 == GM_ERR_EVAL);
	check(s1 == GM_OK || err.msg[0] != '\0');
	s2 = gm_expr_eval(e, &v, &b, &err); /* evaluation is pure */
	check(s1 == s2 && (s1 != GM_OK || a == b));
	gm_expr_free(e);
}

static void check_prediction(const struct gm_access *a, const struct gm_prediction *p)
{
	const struct gm_global_counts *g = &p->global;
	const struct gm_shared_counts *s = &p->shared;

	check(p->nactive >= 0 && p->nactive <= p->nlanes && p->nlanes <= GM_WARP_SIZE);
	check(memchr(p->verdict, '\0', sizeof(p->verdict)) && p->verdict[0]);
	if (a->space == GM_SPACE_GLOBAL) {
		check(g->requests == (p->nactive > 0));
		check(g->lines <= g->sectors && g->sectors <= 2 * p->nactive);
		check(g->min_sectors <= g->sectors);
		check(g->efficiency_pct >= 0.0 && g->efficiency_pct <= 100.0);
	} else {
		check(s->wavefronts >= s->ideal_wavefronts);
		check(s->bank_conflicts == s->wavefronts - s->ideal_wavefronts);
		check(s->max_ways <= 32 && s->wavefronts <= 32);
	}
}

static void fuzz_predict(char *text, const uint8_t *prm)
{
	static const int sizes[8] = { 1, 2, 4, 8, 16, 3, 0, 32 };
	struct gm_access a = { 0 };
	struct gm_prediction p;
	struct gm_expr_error err;
	char *nl = strchr(text, '\n');

	a.space = (prm[0] & 1) ? GM_SPACE_SHARED : GM_SPACE_GLOBAL;
	a.op = (prm[0] & 2) ? GM_OP_STORE : GM_OP_LOAD;
	a.elem_bytes = sizes[(prm[0] >> 2) & 7];
	a.block[0] = 1 + 4 * prm[1];
	a.block[1] = 1 + (prm[2] & 7);
	a.block[2] = 1 + ((prm[2] >> 3) & 3);
	a.warp = prm[3] % 40;
	a.base = (int16_t)(prm[4] | prm[5] << 8);
	a.block_idx[0] = prm[6];
	a.block_idx[1] = prm[6] >> 4;
	a.index = text;
	if (nl) {
		*nl = '\0';
		a.active = nl + 1;
	}
	if (gm_model_predict(&a, &p, &err) == GM_OK)
		check_prediction(&a, &p);
	else
		check(err.msg[0] != '\0' && memchr(err.msg, '\0', sizeof(err.msg)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < NPARAM)
		return 0;
	text = malloc(size - NPARAM + 1);
	if (!text)
		return 0;
	memcpy(text, data + NPARAM, size - NPARAM);
	text[size - NPARAM] = '\0';
	fuzz_eval(text, data);
	fuzz_predict(text, data);
	free(text);
	return 0;
}
