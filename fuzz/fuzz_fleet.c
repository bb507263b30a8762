/*
 * fuzz_fleet.c - libFuzzer target for the fleet reader (src/io/multi_json.c,
 * src/analysis/fleet.c and src/io/fleet_out.c: `gpumem fleet`, `report` and `compare` of multi-device
 * documents): gm_multi_read over the input as a file (plain, or gzip when it
 * starts with gzip's magic), the fleet view over what was read (text and
 * HTML), and gm_multi_block_load over it as one device block (MPI's gather).
 *
 * Invariants (abort = a crash for libFuzzer):
 *   - a failed read leaves no devices and an error message;
 *   - what gm_multi_write writes reads back with as many devices;
 *   - every outlier names a device of the fleet.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/fleet.h"
#include "gpumem/result.h"
#include "gpumem/status.h"
#include "gpumem/writer.h"
#include "fuzz_util.h"

static void view(const struct gm_multi_run *m)
{
	struct gm_fleet fl;

	if (gm_fleet_compute(m, GM_FLEET_DEFAULT_K, &fl) != GM_OK)
		return;
	for (int c = 0; c < fl.ncases; c++)
		for (int k = 0; k < fl.cases[c].noutliers; k++)
			fz_check(fl.cases[c].out[k].device >= 0 && fl.cases[c].out[k].device < m->n);
	gm_write(fz_sink(), GM_DOC_FLEET, "text", &(struct gm_fleet_doc){ m, &fl });
	gm_write(fz_sink(), GM_DOC_FLEET, "html", &(struct gm_fleet_doc){ m, &fl }); /* the fleet section, no run */
	gm_fleet_release(&fl);
}

static void round_trip(const struct gm_multi_run *m)
{
	struct gm_multi_run back;
	const char *p = fz_path(1, ".json.gz");
	FILE *f = fopen(p, "w");

	fz_check(f != NULL);
	fz_check(gm_multi_write(f, m) == GM_OK);
	fz_check(fclose(f) == 0);
	if (gm_multi_read(p, &back) != GM_OK) {
		fprintf(stderr, "round trip failed: %s\n", gm_last_error());
		abort();
	}
	fz_check(back.n == m->n);
	gm_multi_release(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gm_multi_run m;
	struct gm_placement pl;
	struct gm_run_result r;
	const char *path;
	char *text;

	if (size > (1u << 20))
		return 0;
	fz_sink();
	path = fz_write_plain(data, size);
	(void)gm_multi_is(path);
	if (gm_multi_read(path, &m) == GM_OK) {
		fz_check(m.n >= 0 && (m.n == 0 || (m.pl && m.runs)));
		view(&m);
		round_trip(&m);
		gm_multi_release(&m);
	} else {
		fz_check(m.n == 0 && gm_last_error()[0] != '\0');
	}
	text = fz_text(data, size);
	memset(&pl, 0, sizeof(pl));
	gm_result_init(&r);
	(void)gm_multi_block_load(text, &pl, &r);
	gm_result_release(&r);
	free(text);
	return 0;
}
