/*
 * cases.c - the cachehints family's case table: cache hints on a stream: default loads vs __ldg,
 * ld.global.cg / .cs / .lu, streaming and write-through stores, beside a
 * 16 MiB or 40 MiB table gathered at random (a hint could protect the table
 * in L2) and alone (nothing to protect). Unit: GB/s of useful bytes (in + out + table
 * word). derive(): the best hint's speed-up over default loads, with a table.
 * Kernels: src/families/cachehints/cachehints.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/common/special_shapes.h"

static const struct {
	int hint, table, quick;
	const char *label, *desc;
} variants[] = {
	{ CH_LD_DEFAULT, 1, 1, "table_ld_default", "out = in + table[rand], 256 MiB stream, 16 MiB table; default load" },
	{ CH_LD_LDG, 1, 0, "table_ld_ldg", "same, stream read with __ldg (ld.global.nc)" },
	{ CH_LD_CG, 1, 0, "table_ld_cg", "same, stream read with __ldcg (ld.global.cg, L2 only)" },
	{ CH_LD_CS, 1, 1, "table_ld_cs", "same, stream read with __ldcs (ld.global.cs, evict-first)" },
	{ CH_LD_LU, 1, 0, "table_ld_lu", "same, stream read with __ldlu (ld.global.lu, last use)" },
	{ CH_ST_CS, 1, 0, "table_st_cs", "same, default load, stream written with __stcs (st.global.cs)" },
	{ CH_ST_WT, 1, 0, "table_st_wt", "same, default load, stream written with __stwt (st.global.wt)" },
	{ CH_LD_DEFAULT, 2, 0, "big_ld_default", "out = in + table[rand], 256 MiB stream, 40 MiB table; default load" },
	{ CH_LD_CS, 2, 0, "big_ld_cs", "same with the 40 MiB table, stream read with __ldcs" },
	{ CH_LD_LU, 2, 0, "big_ld_lu", "same with the 40 MiB table, stream read with __ldlu" },
	{ CH_ST_CS, 2, 0, "big_st_cs", "same with the 40 MiB table, stream written with __stcs" },
	{ CH_LD_DEFAULT, 0, 0, "plain_ld_default", "out = in + 1, 256 MiB stream, no table; default load" },
	{ CH_LD_CS, 0, 0, "plain_ld_cs", "out = in + 1, no table; __ldcs" },
	{ CH_ST_CS, 0, 0, "plain_st_cs", "out = in + 1, no table; __stcs" },
};

#define NVAR ((int)(sizeof(variants) / sizeof(variants[0])))

static int cachehints_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;

	for (int k = 0; k < NVAR; k++) {
		struct gm_case *c = gm_case_slot(out, max, k, &scratch);
		gm_case_begin(c, &gm_family_cachehints, k, GM_KIND_MEASURE, variants[k].quick, variants[k].desc, "%s",
			      variants[k].label);
		gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
		gm_case_param_add(c, "hint", variants[k].hint);
		gm_case_param_add(c, "stream_words", CH_STREAM_WORDS);
		gm_case_param_add(c, "table_words", variants[k].table == 2 ? CH_BIG_TABLE_WORDS :
						     variants[k].table ? CH_TABLE_WORDS : 0);
	}
	return NVAR;
}

static double ok_value(const struct gm_run_result *r, const char *name)
{
	const struct gm_case_result *cr = gm_result_find(r, name);

	return cr && cr->status == GM_CASE_OK ? cr->value.median : 0;
}

static void cachehints_derive(struct gm_run_result *r)
{
	static const char *bases[] = { "cachehints.plain_ld_default", "cachehints.table_ld_default",
				       "cachehints.big_ld_default" };
	static const char *dnames[] = { "cachehints.best_vs_default_plain", "cachehints.best_vs_default_table",
					"cachehints.best_vs_default_big" };

	for (int table = 0; table < 3; table++) {
		const char *base = bases[table];
		double b = ok_value(r, base), best = 0;
		const char *best_label = NULL;
		for (int k = 0; k < NVAR; k++) {
			char name[64];
			snprintf(name, sizeof(name), "cachehints.%s", variants[k].label);
			double v = ok_value(r, name);
			if (variants[k].table == table && variants[k].hint != CH_LD_DEFAULT && v > best) {
				best = v;
				best_label = variants[k].label;
			}
		}
		if (b <= 0 || best <= 0)
			continue;
		struct gm_derived *x = gm_result_derive(r, "cachehints", dnames[table]);
		if (!x)
			return;
		snprintf(x->quantity, sizeof(x->quantity), "speed-up");
		x->unit = GM_UNIT_RATIO;
		x->value = best / b;
		snprintf(x->how, sizeof(x->how), "GB/s of cachehints.%s (best hint) / %s", best_label, base);
	}
}

const struct gm_family gm_family_cachehints = {
	"cachehints", "load/store cache hints (ldg, cg, cs, lu, stcs, stwt) on a stream beside a reused table",
	cachehints_enumerate, gm_cachehints_ops, cachehints_derive,
};
