/*
 * profile_fields.c - the table of the device profile's numbers, from
 * include/gpumem/profile_fields.def (one row a field: the struct member, its
 * unit, valid range, need and the calibration case that measures it).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/launch.h"

#define GM_PF_INT_I 1
#define GM_PF_INT_D 0
#define GM_PROFILE_FIELD(name, T, unit, lo, hi, need, source, meaning)                                   \
	{ #name, offsetof(struct gm_profile, name), GM_PF_INT_##T, unit, lo, hi, GM_PF_##need, source, meaning },
const struct gm_profile_field gm_profile_fields[] = {
#include "gpumem/profile_fields.def"
};
#undef GM_PROFILE_FIELD
const int gm_profile_nfields = (int)(sizeof(gm_profile_fields) / sizeof(gm_profile_fields[0]));

double gm_profile_get(const struct gm_profile *p, const struct gm_profile_field *f)
{
	const char *q = (const char *)p + f->off;

	return f->is_int ? (double)*(const int *)q : *(const double *)q;
}

int gm_profile_unmeasured(const struct gm_profile *p, const char *name)
{
	size_t n = strlen(name);

	for (const char *s = p->unmeasured; (s = strstr(s, name)) != NULL; s += n)
		if ((s == p->unmeasured || s[-1] == ',') && (s[n] == ',' || s[n] == '\0'))
			return 1;
	return 0;
}

void gm_profile_note_unmeasured(struct gm_profile *p, const char *name)
{
	size_t len = strlen(p->unmeasured);

	if (gm_profile_unmeasured(p, name))
		return;
	snprintf(p->unmeasured + len, sizeof(p->unmeasured) - len, "%s%s", len ? "," : "", name);
}
