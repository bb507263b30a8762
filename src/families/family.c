/* family.c - building cases: names, parameters, declared patterns. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "families/family.h"

struct gm_case *gm_case_begin(struct gm_case *c, const struct gm_family *f, int version,
			      enum gm_case_kind kind, int quick, const char *desc,
			      const char *label_fmt, ...)
{
	va_list ap;

	memset(c, 0, sizeof(*c));
	va_start(ap, label_fmt);
	vsnprintf(c->label, sizeof(c->label), label_fmt, ap);
	va_end(ap);
	snprintf(c->name, sizeof(c->name), "%s.%s", f->name, c->label);
	snprintf(c->desc, sizeof(c->desc), "%s", desc);
	c->family = f;
	c->version = version;
	c->kind = kind;
	c->unit = kind == GM_KIND_SMEM ? GM_UNIT_NS_ACCESS : GM_UNIT_GBS;
	c->timing = GM_TIME_EVENTS;
	c->quick = quick;
	return c;
}

struct gm_case *gm_case_measure(struct gm_case *c, enum gm_unit unit, enum gm_timing timing)
{
	c->kind = GM_KIND_MEASURE;
	c->unit = unit;
	c->timing = timing;
	return c;
}

void gm_case_extra_add(struct gm_case *c, const char *name, enum gm_unit unit)
{
	if (c->nextras < GM_MAX_EXTRAS) {
		c->extras[c->nextras].name = name;
		c->extras[c->nextras].unit = unit;
		c->nextras++;
	}
}

void gm_case_param_add(struct gm_case *c, const char *key, int64_t value)
{
	if (c->nparams < GM_MAX_PARAMS) {
		c->params[c->nparams].key = key;
		c->params[c->nparams].value = value;
		c->nparams++;
	}
}

void gm_case_pattern_add(struct gm_case *c, const char *what, enum gm_space space,
			 enum gm_op op, int elem_bytes, int bx, int by, int64_t base,
			 const char *index_fmt, ...)
{
	struct gm_pattern *p;
	va_list ap;

	if (c->npatterns >= GM_MAX_PATTERNS)
		return;
	p = &c->patterns[c->npatterns++];
	p->what = what;
	p->space = space;
	p->op = op;
	p->elem_bytes = elem_bytes;
	p->block[0] = bx;
	p->block[1] = by;
	p->block[2] = 1;
	p->base = base;
	p->iters = 1;
	p->iter_step = 0;
	p->iters2 = 1;
	p->iter_step2 = 0;
	va_start(ap, index_fmt);
	vsnprintf(p->index, sizeof(p->index), index_fmt, ap);
	va_end(ap);
}

void gm_case_pattern_repeat(struct gm_case *c, int iters, int64_t step)
{
	gm_case_pattern_repeat2(c, iters, step, 1, 0);
}

void gm_case_pattern_repeat2(struct gm_case *c, int iters, int64_t step, int iters2, int64_t step2)
{
	if (c->npatterns > 0) {
		struct gm_pattern *p = &c->patterns[c->npatterns - 1];

		p->iters = iters;
		p->iter_step = step;
		p->iters2 = iters2;
		p->iter_step2 = step2;
	}
}

struct gm_case *gm_case_slot(struct gm_case *out, int max, int i, struct gm_case *scratch)
{
	return out && i < max ? &out[i] : scratch;
}

int64_t gm_case_param(const struct gm_case *c, const char *key, int64_t dflt)
{
	for (int i = 0; i < c->nparams; i++)
		if (!strcmp(c->params[i].key, key))
			return c->params[i].value;
	return dflt;
}
