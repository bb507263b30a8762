/*
 * fuzz_profile.c - libFuzzer target for the device-profile reader
 * (src/io/profile.c: `--profile FILE` of explain, run and predict):
 * gm_profile_read over the input as a file and gm_profile_parse over it as a
 * string; a profile that was read is written, read back, and drives the
 * launch model on a copy (gid -> gid, and gid*2) in blocks of 64, 256 and
 * 1024 threads, as `explain --n` does.
 *
 * Invariants (abort = a crash for libFuzzer):
 *   - the file and the string read alike (same status) when the input holds no NUL;
 *   - a failure names the origin in its message;
 *   - what gm_profile_write writes reads back;
 *   - the launch model's time and GB/s are finite and not negative.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/launch.h"
#include "gpumem/model.h"
#include "gpumem/profile.h"
#include "fuzz_util.h"

static void predict(const struct gm_profile *p, int block, const char *index)
{
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out out;
	struct gm_expr_error err;

	memset(pats, 0, sizeof(pats));
	memset(&in, 0, sizeof(in));
	pats[0].space = GM_SPACE_GLOBAL;
	pats[0].op = GM_OP_LOAD;
	pats[0].elem_bytes = 4;
	pats[0].block[0] = block;
	pats[0].block[1] = pats[0].block[2] = 1;
	pats[0].index = index;
	pats[1] = pats[0];
	pats[1].op = GM_OP_STORE;
	pats[1].index = "gid";
	in.pats = pats;
	in.npats = 2;
	memcpy(in.block, pats[0].block, sizeof(in.block));
	in.n_threads = 1 << 16;
	in.useful_bytes = 2.0 * (double)in.n_threads * 4;
	in.windows = 2;
	in.window_warps = 64;
	in.one_element_per_thread = 1;
	if (gm_launch_predict(&in, p, &out, &err) == GM_OK) {
		fz_check(!isnan(out.time_ms) && out.time_ms >= 0);
		fz_check(!isnan(out.gbs) && out.gbs >= 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gm_profile p, q;
	char why[512], why2[512];
	char *text, *buf = NULL;
	size_t len = 0;
	gm_status s, st;
	FILE *m;

	if (size > (1u << 16))
		return 0;
	fz_sink();
	why[0] = 0;
	s = gm_profile_read(fz_write_plain(data, size), &p, why, sizeof(why));
	fz_check(s == GM_OK || strstr(why, "gpumem_fuzz_") != NULL);
	text = fz_text(data, size);
	why2[0] = 0;
	st = gm_profile_parse(text, "fuzz-input", &q, why2, sizeof(why2));
	fz_check(st == GM_OK || strstr(why2, "fuzz-input") != NULL);
	if (!memchr(data, 0, size))
		fz_check((s == GM_OK) == (st == GM_OK));
	free(text);
	if (s != GM_OK)
		return 0;
	m = open_memstream(&buf, &len);
	fz_check(m != NULL);
	fz_check(gm_profile_write(m, &p) == GM_OK);
	fz_check(fclose(m) == 0);
	st = gm_profile_parse(buf, "round trip", &q, why2, sizeof(why2));
	if (st != GM_OK) {
		fprintf(stderr, "round trip failed: %s\n%s\n", why2, buf);
		abort();
	}
	free(buf);
	predict(&p, 64, "gid");
	predict(&p, 256, "gid*2");
	predict(&p, 1024, "gid");
	return 0;
}
