/*
 * cases.c - the rowcol family's case table: the rowcol family's cases: a 2D matrix of 4 B elements
 * copied by rows (a warp's lanes along a row, into a matrix of the same
 * layout) or by columns (lanes down a column: stride = row pitch, into a
 * dense output in read order), at an even width (4096, the reference) and an
 * odd one (4097: packed rows start 4 B further off alignment each row) stored
 * packed or with cudaMallocPitch's padded pitch. The height follows from the
 * run's array size. Kernels: src/families/rowcol/rowcol.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "families/kernels.h"
#include "families/common/shapes.h"

static const struct {
	int version, width, pitched, by, quick;
	const char *label, *desc;
} variants[] = {
	{ -1, 4096, 0, BY_ROWS, 1, "w4096_rows", "even width, read by rows (coalesced): the reference" },
	{ 0, 4096, 0, BY_COLS, 1, "w4096_cols", "even width, read by columns: lanes stride one row apart" },
	{ 0, 4097, 0, BY_COLS, 0, "w4097_packed_cols", "odd width packed, read by columns" },
	{ 0, 4097, 1, BY_COLS, 0, "w4097_pitch_cols", "odd width, cudaMallocPitch rows, read by columns" },
	{ 1, 4097, 0, BY_ROWS, 1, "w4097_packed_rows",
	  "odd width packed, read by rows: 7 rows in 8 start off a sector boundary" },
	{ 2, 4097, 1, BY_ROWS, 1, "w4097_pitch_rows", "odd width, cudaMallocPitch rows (512 B aligned), read by rows" },
};

static int64_t rc_pitch(int width, int pitched)
{
	int64_t bytes = (int64_t)width * 4;

	if (pitched)
		bytes = (bytes + RC_PITCH_ALIGN - 1) / RC_PITCH_ALIGN * RC_PITCH_ALIGN;
	return bytes / 4;
}

/* Rows: warp w of block 0 copies row w in both matrices; declare row 1 too, where odd widths misalign. */
static void rc_rows_patterns(struct gm_case *c, int w, int64_t p)
{
	int rows = w % 32 ? 2 : 1;

	c->grid_x = (w + 31) / 32; /* rowcol.cu: one block per 32 columns and 32 rows */

	for (int r = 0; r < rows; r++) {
		gm_case_pattern_add(c, r ? "load in row 1" : "load in row 0", GM_SPACE_GLOBAL, GM_OP_LOAD, 4,
				    RC_BX, RC_BY, 0, "(by*32 + ty)*%lld + bx*32 + tx", (long long)p);
		c->patterns[c->npatterns - 1].warp = r;
		gm_case_pattern_repeat(c, RC_BX / RC_BY, (int64_t)RC_BY * p);
		gm_case_pattern_add(c, r ? "store out row 1" : "store out row 0", GM_SPACE_GLOBAL, GM_OP_STORE,
				    4, RC_BX, RC_BY, 0, "(by*32 + ty)*%lld + bx*32 + tx", (long long)p);
		c->patterns[c->npatterns - 1].warp = r;
		gm_case_pattern_repeat(c, RC_BX / RC_BY, (int64_t)RC_BY * p);
	}
}

/* Columns: lane -> row, warp -> column; the output is written in read order (band-major). */
static void rc_cols_patterns(struct gm_case *c, int w, int64_t p)
{
	gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 4, RC_BX, RC_BY, 0,
			    "(by*32 + tx)*%lld + bx*32 + ty", (long long)p);
	c->grid_x = (w + 31) / 32; /* rowcol.cu: one block per 32 columns and 32 rows */
	gm_case_pattern_repeat(c, RC_BX / RC_BY, RC_BY);
	gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 4, RC_BX, RC_BY, 0,
			    "(by*%d + bx*32 + ty)*32 + tx", w);
	gm_case_pattern_repeat(c, RC_BX / RC_BY, RC_BY * 32);
}

static int rowcol_enumerate(struct gm_case *out, int max)
{
	const int n = (int)(sizeof(variants) / sizeof(variants[0]));
	struct gm_case scratch;

	for (int i = 0; i < n; i++) {
		struct gm_case *c = gm_case_slot(out, max, i, &scratch);
		int w = variants[i].width;
		int64_t p = rc_pitch(w, variants[i].pitched);

		gm_case_begin(c, &gm_family_rowcol, variants[i].version, GM_KIND_DRAM, variants[i].quick,
			      variants[i].desc, "%s", variants[i].label);
		gm_case_param_add(c, "width", w);
		gm_case_param_add(c, "pitch_elems", p);
		gm_case_param_add(c, "pitched", variants[i].pitched);
		gm_case_param_add(c, "by", variants[i].by);
		if (variants[i].by == BY_ROWS)
			rc_rows_patterns(c, w, p);
		else
			rc_cols_patterns(c, w, p);
	}
	return n;
}

const struct gm_family gm_family_rowcol = {
	"rowcol", "2D matrix read by rows vs by columns; odd width packed vs cudaMallocPitch",
	rowcol_enumerate, gm_rowcol_ops,
};
