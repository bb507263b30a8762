/*
 * planted.h - what the derive tests share: a case result planted with a
 * value, and a derived result found by name. Each test is its own program,
 * so these are static (include after cmocka.h).
 */
#ifndef GPUMEM_TESTS_PLANTED_H
#define GPUMEM_TESTS_PLANTED_H

#include <stdio.h>
#include <string.h>
#include "gpumem/result.h"

/* A finished case "<family>.<label>" whose headline is v (GB/s unless the test changes it). */
static inline struct gm_case_result *plant(struct gm_run_result *r, const char *family, const char *label, double v)
{
	struct gm_case_result *cr = gm_result_add(r);
	assert_non_null(cr);
	snprintf(cr->name, sizeof(cr->name), "%s.%s", family, label);
	snprintf(cr->family, sizeof(cr->family), "%s", family);
	snprintf(cr->label, sizeof(cr->label), "%s", label);
	cr->status = GM_CASE_OK;
	cr->unit = GM_UNIT_GBS;
	cr->value.median = v;
	return cr;
}

static inline const struct gm_derived *find(const struct gm_run_result *r, const char *name)
{
	for (int i = 0; i < r->nderived; i++)
		if (!strcmp(r->derived[i].name, name))
			return &r->derived[i];
	return NULL;
}

#endif
