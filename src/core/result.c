/* result.c - lifecycle of the run result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/result.h"

extern const char gm_tool_version_text[]; /* generated: cmake/commit.cmake */

const char *gm_tool_version(void)
{
	return gm_tool_version_text;
}

void gm_result_init(struct gm_run_result *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->tool_version, sizeof(r->tool_version), "%s", gm_tool_version());
	snprintf(r->byte_convention, sizeof(r->byte_convention),
		 "GB = 1e9 bytes; reads + writes counted; useful = bytes the algorithm needs, "
		 "hw = 32-byte sectors the access pattern touches");
}

struct gm_case_result *gm_result_add(struct gm_run_result *r)
{
	if (r->ncases == r->cap) {
		int cap = r->cap ? 2 * r->cap : 64;
		struct gm_case_result *c = realloc(r->cases, sizeof(*c) * (size_t)cap);
		if (!c)
			return NULL;
		r->cases = c;
		r->cap = cap;
	}
	memset(&r->cases[r->ncases], 0, sizeof(r->cases[0]));
	return &r->cases[r->ncases++];
}

void gm_result_release(struct gm_run_result *r)
{
	for (int i = 0; i < r->ncases; i++)
		free(r->cases[i].samples_ms);
	free(r->cases);
	r->cases = NULL;
	r->ncases = r->cap = 0;
}

struct gm_derived *gm_result_derive(struct gm_run_result *r, const char *family, const char *name)
{
	struct gm_derived *d;

	if (r->nderived >= GM_MAX_DERIVED)
		return NULL;
	d = &r->derived[r->nderived++];
	memset(d, 0, sizeof(*d));
	snprintf(d->family, sizeof(d->family), "%s", family);
	snprintf(d->name, sizeof(d->name), "%s", name);
	return d;
}

void gm_result_note(struct gm_case_result *cr, const char *name, enum gm_unit unit, double value)
{
	struct gm_value *v;

	if (cr->nnotes >= GM_MAX_NOTES)
		return;
	v = &cr->notes[cr->nnotes++];
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->unit = unit;
	v->median = v->min = v->max = value;
}

const struct gm_case_result *gm_result_find(const struct gm_run_result *r, const char *name)
{
	for (int i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].name, name))
			return &r->cases[i];
	return NULL;
}
