/*
 * registry.c - the one table of benchmark families, the flat case list built
 * from it, and selection by family, name or prefix.
 */
#include <stdlib.h>
#include <string.h>
#include "families/family.h"

const struct gm_family *const gm_families[] = {
#define GM_FAMILY(name) &gm_family_##name,
#include "families/families.def"
#undef GM_FAMILY
	NULL,
};

static struct gm_case *all_cases;
static int all_count = -1;

static void build_cases(void)
{
	int total = 0, k = 0;

	for (int f = 0; gm_families[f]; f++)
		total += gm_families[f]->enumerate(NULL, 0);
	all_cases = calloc((size_t)total + 1, sizeof(*all_cases));
	if (!all_cases) {
		all_count = 0;
		return;
	}
	for (int f = 0; gm_families[f]; f++)
		k += gm_families[f]->enumerate(all_cases + k, total - k);
	all_count = k;
}

const struct gm_case *gm_registry_cases(int *n)
{
	if (all_count < 0)
		build_cases();
	*n = all_count;
	return all_cases;
}

static int matches(const struct gm_case *c, const char *sel)
{
	size_t len = strlen(sel);

	if (!strcmp(sel, c->family->name) || !strcmp(sel, c->name))
		return 1;
	return len > 0 && !strncmp(c->name, sel, len);
}

/* In the tier's suite when no selector names it. */
static int in_tier(const struct gm_case *c, enum gm_tier tier)
{
	if (tier == GM_TIER_QUICK)
		return c->quick;
	return tier == GM_TIER_FULL || !c->full;
}

gm_status gm_registry_select(const char *const *sels, int nsels, enum gm_tier tier,
			     unsigned char *sel, int *bad)
{
	int n, quick = tier == GM_TIER_QUICK;
	const struct gm_case *cases = gm_registry_cases(&n);

	*bad = -1;
	memset(sel, 0, (size_t)n);
	for (int i = 0; i < n && nsels == 0; i++)
		sel[i] = in_tier(&cases[i], tier);
	for (int s = 0; s < nsels; s++) {
		int hit = 0, quick_hit = 0;
		for (int i = 0; i < n; i++) {
			hit += matches(&cases[i], sels[s]);
			quick_hit += matches(&cases[i], sels[s]) && cases[i].quick;
		}
		if (!hit) {
			*bad = s;
			return gm_fail(GM_ERR_NOT_FOUND, "no benchmark matches '%s'", sels[s]);
		}
		/*
		 * with --quick a selector keeps its quick cases, or all if it has
		 * none; below --full, full-only cases need their exact name
		 */
		for (int i = 0; i < n; i++) {
			const struct gm_case *c = &cases[i];
			int exact = !strcmp(c->name, sels[s]);
			if (matches(c, sels[s]) && (!quick || !quick_hit || c->quick) &&
			    (tier == GM_TIER_FULL || !c->full || exact))
				sel[i] = 1;
		}
	}
	return GM_OK;
}

static int edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	int row[65], prev;

	if (la > 64 || lb > 64)
		return 99;
	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int cur = row[j];
			int sub = prev + (a[i - 1] != b[j - 1]);
			int best = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
			row[j] = sub < best ? sub : best;
			prev = cur;
		}
	}
	return row[lb];
}

/* Candidates: family names and case names; keep those within distance 3. */
int gm_registry_suggest(const char *word, const char **out, int max)
{
	int n, k = 0;
	const struct gm_case *cases = gm_registry_cases(&n);

	for (int d = 0; d <= 3 && k < max; d++) {
		for (int f = 0; gm_families[f] && k < max; f++)
			if (edit_distance(word, gm_families[f]->name) == d)
				out[k++] = gm_families[f]->name;
		for (int i = 0; i < n && k < max; i++)
			if (edit_distance(word, cases[i].name) == d)
				out[k++] = cases[i].name;
	}
	return k;
}
