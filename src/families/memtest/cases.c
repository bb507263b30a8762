/*
 * cases.c - the memtest family: a validated memory test over most of the
 * free device memory, as memtest-class tools do (`gpumem check` runs it; it
 * is left out of the default suite: each case writes and reads ~90 % of the
 * GPU's memory). Only with --full or when named exactly; `run --quick` has
 * memtest.address over at most 4 GiB (every family has a quick case):
 *   memtest.moving_inversions  three patterns (all zeros, 0x55.., a random
 *                              64-bit word), each written, then read and
 *                              inverted upward, read and restored downward,
 *                              read: every word checked four times a pattern.
 *   memtest.address            each 64-bit word holds its own offset, then its
 *                              complement: a word written through a wrong
 *                              address shows up as a wrong value.
 * A failing word fails the case with its offset, the expected and the read
 * value (the first 8 of them in the message). Timed: one read + invert pass
 * over an eighth of the buffer a launch, GB/s (read + write counted).
 * Kernels: src/families/memtest/memtest.cu. Page: README.md.
 */
#include "families/family.h"
#include "families/kernels.h"

static const struct {
	int mode, quick;
	const char *label, *desc;
} variants[] = {
	{ 0, 0, "moving_inversions", "memory test, moving inversions over ~90 % of free memory (3 patterns)" },
	{ 1, 1, "address", "memory test, each word holds its own address, then its complement" },
};

static int memtest_enumerate(struct gm_case *out, int max)
{
	const int n = (int)(sizeof(variants) / sizeof(variants[0]));
	struct gm_case scratch;

	for (int i = 0; i < n; i++) {
		struct gm_case *c = gm_case_slot(out, max, i, &scratch);
		gm_case_begin(c, &gm_family_memtest, -1, GM_KIND_MEASURE, variants[i].quick, variants[i].desc, "%s", variants[i].label);
		gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
		c->full = 1;
		gm_case_param_add(c, "mode", variants[i].mode);
	}
	return n;
}

const struct gm_family gm_family_memtest = {
	"memtest", "a validated memory test over most of the free memory: moving inversions, address in address",
	memtest_enumerate, gm_memtest_ops,
};
