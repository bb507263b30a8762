/* test_launch_profile.c - device profiles (JSON, built-in), the profile derived from a run, the launch
 * score, and the CLI paths of explain --n, calibrate --from and predict. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <time.h>
#include "gpumem/profile.h"
#include "launch_fixture.h"
#include "run_bin.h"

static void test_profile_json(void **state)
{
	struct gm_profile p = prof(), q;
	char buf[4096], why[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	assert_int_equal(gm_profile_write(f, &p), GM_OK);
	fclose(f);
	assert_int_equal(gm_profile_parse(buf, "mem", &q, why, sizeof(why)), GM_OK);
	assert_string_equal(q.device, "test GPU");
	assert_true(q.read_half_gbs == 2500 && q.dram_atom_bytes == 64 && q.sm_count == 100);
	assert_true(q.wave_ns == 0 && q.threads_per_sm == 0); /* optional, absent */
	p.wave_ns = 900;
	p.threads_per_sm = 2048;
	f = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(gm_profile_write(f, &p), GM_OK);
	fclose(f);
	assert_int_equal(gm_profile_parse(buf, "mem", &q, why, sizeof(why)), GM_OK);
	assert_true(q.wave_ns == 900 && q.threads_per_sm == 2048);
	assert_int_equal(gm_profile_parse("{", "x.json", &q, why, sizeof(why)), GM_ERR_PARSE);
	assert_non_null(strstr(why, "x.json"));
	assert_int_equal(gm_profile_parse("{\"schema\":\"other\"}", "x.json", &q, why, sizeof(why)), GM_ERR_PARSE);
	assert_non_null(strstr(why, "schema"));
	strcpy(strstr(buf, "\"copy_gbs\""), "\"copy_gbz\": 1}");
	assert_int_equal(gm_profile_parse(buf, "x.json", &q, why, sizeof(why)), GM_ERR_PARSE);
	assert_non_null(strstr(why, "'copy_gbs'"));
	assert_int_equal(gm_profile_read("/nonexistent/p.json", &q, why, sizeof(why)), GM_ERR_IO);
	assert_non_null(strstr(why, "/nonexistent/p.json"));
}

static void test_builtin(void **state)
{
	struct gm_profile p;
	int exact;

	(void)state;
	assert_true(gm_profile_builtin_count() >= 1);
	assert_int_equal(gm_profile_nearest("NVIDIA H100 80GB HBM3", &p, &exact), GM_OK);
	assert_true(exact);
	assert_int_equal(gm_profile_nearest("NVIDIA H100 PCIe", &p, &exact), GM_OK);
	assert_false(exact);
	assert_string_equal(p.device, "NVIDIA H100 80GB HBM3");
}

static struct gm_case_result *add_case(struct gm_run_result *r, const char *name, double gbs, double useful)
{
	struct gm_case_result *c = gm_result_add(r);

	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->family, sizeof(c->family), "%.*s", (int)(strchr(name, '.') - name), name);
	c->status = GM_CASE_OK;
	c->kind = GM_KIND_DRAM;
	c->unit = GM_UNIT_GBS;
	c->value.median = c->gbs_median = gbs;
	c->traffic.bytes_useful = useful;
	return c;
}

/* Case c timed as the model predicts it with profile p: its median time and GB/s over bytes. */
static void time_as_predicted(struct gm_case_result *c, const struct gm_profile *p, double bytes)
{
	assert_int_equal(gm_launch_predict_case(c, p), GM_OK);
	c->ms.median = c->launch_ms;
	c->value.median = c->gbs_median = bytes / (c->launch_ms * 1e-3) / 1e9;
}

static void test_from_run(void **state)
{
	struct gm_run_result r;
	struct gm_profile p;
	char why[256];
	double n = 1e6, t;

	(void)state;
	gm_result_init(&r);
	snprintf(r.dev.name, sizeof(r.dev.name), "test GPU");
	add_case(&r, "copy.read_b16_tile4", 3000, 1e9);
	add_case(&r, "copy.write_b16_tile4", 3000, 1e9);
	add_case(&r, "copy.v8_b4_tile4", 3000, 1e9);
	/* 16 B gathered 128 B apart: n pieces of 64 B read, n x 16 B written, in t */
	t = n * 64 / 2500e9 + n * 16 / 3000e9;
	add_case(&r, "stride.b16_s008", n * 32 / t / 1e9, n * 32);
	assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_ERR_NOT_FOUND);
	assert_non_null(strstr(why, "stride.b16_s032"));
	t = n * 64 / 2000e9 + n * 16 / 3000e9;
	add_case(&r, "stride.b16_s032", n * 32 / t / 1e9, n * 32);
	assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_ERR_NOT_FOUND);
	assert_non_null(strstr(why, "hierarchy"));
	gm_result_derive(&r, "hierarchy", "hierarchy.l1_read_bw")->value = 30000;
	gm_result_derive(&r, "hierarchy", "hierarchy.l2_read_bw")->value = 8000;
	gm_result_derive(&r, "hierarchy", "hierarchy.l2_write_bw")->value = 4000;
	assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
	assert_true(fabs(p.read_half_gbs - 2500) < 1e-6);
	assert_true(fabs(p.read_sparse_gbs - 2000) < 1e-6);
	assert_true(p.l2_read_gbs == 8000 && p.l1_gbs == 30000 && p.l2_write_gbs == 4000);
	assert_true(p.wave_ns == 0 && p.knee == 0);
	/* rule D3 at 256 B: optional, named when the run lacks stride.b16_s016, its pieces' rate when it has it */
	assert_true(p.read_quarter_gbs == 0 && gm_profile_unmeasured(&p, "read_quarter_gbs"));
	t = n * 64 / 2100e9 + n * 16 / 3000e9;
	add_case(&r, "stride.b16_s016", n * 32 / t / 1e9, n * 32);
	assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
	assert_true(fabs(p.read_quarter_gbs - 2100) < 1e-6 && !gm_profile_unmeasured(&p, "read_quarter_gbs"));
	gm_result_release(&r);
}

/*
 * read_quarter_gbs not measured: a profile of a GPU with a built-in profile takes the built-in's share of the way
 * from the half to the sparse time on its own half and sparse rates, named; of another GPU, nothing (rule D3
 * sparse from 256 B), named. The built-in profiles carry it measured.
 */
static void test_quarter_fill(void **state)
{
	struct gm_profile p = prof(), q, b;
	char buf[4096], why[256], txt[4096];
	double f;
	int exact;
	FILE *fp;

	(void)state;
	assert_int_equal(gm_profile_nearest("NVIDIA H200", &b, &exact), GM_OK);
	assert_true(exact && b.read_quarter_gbs > b.read_sparse_gbs && b.read_quarter_gbs < b.read_half_gbs);
	assert_false(gm_profile_unmeasured(&b, "read_quarter_gbs"));
	f = (1 / b.read_quarter_gbs - 1 / b.read_half_gbs) / (1 / b.read_sparse_gbs - 1 / b.read_half_gbs);
	p.read_quarter_gbs = 0;
	snprintf(p.device, sizeof(p.device), "NVIDIA H200");
	fp = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(gm_profile_write(fp, &p), GM_OK);
	fclose(fp);
	assert_null(strstr(buf, "read_quarter_gbs"));
	assert_int_equal(gm_profile_parse(buf, "mem", &q, why, sizeof(why)), GM_OK);
	assert_true(gm_profile_unmeasured(&q, "read_quarter_gbs"));
	assert_true(fabs(1 / q.read_quarter_gbs - (1.0 / 2500 + f * (1.0 / 2000 - 1.0 / 2500))) < 1e-12);
	gm_profile_describe_unmeasured(&q, txt, sizeof(txt));
	assert_non_null(strstr(txt, "read_quarter_gbs (stride.b16_s016; rule D3 at 256 B takes the built-in"));
	/* written again: still left out, still named */
	fp = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(gm_profile_write(fp, &q), GM_OK);
	fclose(fp);
	assert_null(strstr(buf, "\"read_quarter_gbs\":"));
	assert_non_null(strstr(buf, "\"read_quarter_gbs\""));
	/* another GPU: never from the H200's */
	snprintf(p.device, sizeof(p.device), "test GPU");
	fp = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(gm_profile_write(fp, &p), GM_OK);
	fclose(fp);
	assert_int_equal(gm_profile_parse(buf, "mem", &q, why, sizeof(why)), GM_OK);
	assert_true(q.read_quarter_gbs == 0 && gm_profile_unmeasured(&q, "read_quarter_gbs"));
	gm_profile_describe_unmeasured(&q, txt, sizeof(txt));
	assert_non_null(strstr(txt, "rule D3 sparse from 256 B"));
}

/*
 * The round trip and the knee from copy.v0_b4 and copy.v1_b8: times made by
 * rules T2 and T3 from a planted wave and knee come back.
 */
static void test_from_run_knee(void **state)
{
	struct gm_run_result r;
	struct gm_profile p;
	char why[256];
	const double knee = 3.0, wave_ns = 800, bytes = 2147483648.0, per_wave = 2048.0 * 100;
	struct gm_case_result *c;

	(void)state;
	gm_result_init(&r);
	snprintf(r.dev.name, sizeof(r.dev.name), "test GPU");
	r.dev.sm_count = 100;
	r.dev.max_threads_per_sm = 2048;
	r.dev.l2_bytes = 50000000;
	add_case(&r, "copy.read_b16_tile4", 3000, 1e9);
	add_case(&r, "copy.write_b16_tile4", 3000, 1e9);
	add_case(&r, "copy.v8_b4_tile4", 3000, 1e9);
	add_case(&r, "stride.b16_s008", 1000, 1e9);
	add_case(&r, "stride.b16_s032", 500, 1e9);
	gm_result_derive(&r, "hierarchy", "hierarchy.l1_read_bw")->value = 30000;
	gm_result_derive(&r, "hierarchy", "hierarchy.l2_read_bw")->value = 8000;
	gm_result_derive(&r, "hierarchy", "hierarchy.l2_write_bw")->value = 4000;
	for (int eb = 4; eb <= 8; eb += 4) {
		double n = bytes / (2.0 * eb); /* threads: one element read and written each */
		double t_dram = bytes / 3000e9 * 1e3, t_lat = ceil(n / per_wave) * wave_ns * 1e-6;
		double t = gm_launch_join(t_lat, t_dram, knee);

		c = add_case(&r, eb == 4 ? "copy.v0_b4" : "copy.v1_b8", bytes / (t * 1e-3) / 1e9, bytes);
		c->ms.median = t;
		c->traffic.bytes_useful = bytes;
	}
	assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
	assert_true(fabs(p.knee - knee) < 1e-6);
	assert_true(fabs(p.wave_ns - wave_ns) < 1e-6);
	assert_true(p.wave_l2_ns == 0); /* no copy.table_b4 in the run */
	/* copy.table_b4 timed as the model predicts it with a planted L2 round trip: it comes back */
	c = add_case(&r, "copy.table_b4", 1, bytes);
	p.wave_l2_ns = 500;
	time_as_predicted(c, &p, bytes);
	assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
	assert_true(fabs(p.wave_l2_ns - 500) < 1e-3);
	/* copy.lines_b4 timed with a planted L2 line rate (rule L3): it comes back */
	c = add_case(&r, "copy.lines_b4", 1, bytes);
	p.l2_lines_gps = 60;
	time_as_predicted(c, &p, bytes);
	assert_string_equal(c->launch_limited_by, "L2");
	assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
	assert_true(fabs(p.l2_lines_gps - 60) < 1e-6);
	assert_true(fabs(p.wave_l2_ns - 500) < 1e-3);
	assert_true(p.l2_part_sectors_gps == 0 && p.l2_merge_lines_gps == 0); /* no scatter cases in the run */
	/* copy.scatter_blocks_b4 and copy.scatter_b4 timed with planted partial-line rates (rule L4) */
	{
		struct gm_case_result *cb = add_case(&r, "copy.scatter_blocks_b4", 1, bytes);
		struct gm_case_result *cm = add_case(&r, "copy.scatter_b4", 1, bytes);

		p.l2_part_sectors_gps = 60;
		p.l2_merge_lines_gps = 50;
		time_as_predicted(cb, &p, bytes);
		time_as_predicted(cm, &p, bytes);
		assert_string_equal(cb->launch_limited_by, "L2");
		assert_string_equal(cm->launch_limited_by, "L2");
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.l2_part_sectors_gps - 60) < 1e-6);
		assert_true(fabs(p.l2_merge_lines_gps - 50) < 1e-6);
		assert_true(fabs(p.l2_lines_gps - 60) < 1e-6);
	}
	/* copy.colstore_b4 and _b16 (rule L4's far end: a column walk of the stores, 1024 rows 512 KiB + 128 B
	   apart, 2 x 1024 x 524416 B counted) timed with their lines at planted rates: each comes back alone */
	assert_true(p.l2_far_lines_gps == 0 && p.l2_far_lines16_gps == 0); /* not in the run yet */
	{
		const double cb = 2.0 * 1024 * 524416;
		struct gm_case_result *c4 = add_case(&r, "copy.colstore_b4", 1, cb);
		struct gm_case_result *c16 = add_case(&r, "copy.colstore_b16", 1, cb);
		struct gm_profile q = p;

		q.l2_part_sectors_gps = 1e6; /* every line at the merged rate: the planted one */
		q.l2_merge_lines_gps = 40;
		time_as_predicted(c4, &q, cb);
		q.l2_merge_lines_gps = 25;
		time_as_predicted(c16, &q, cb);
		assert_string_equal(c4->launch_limited_by, "L2");
		assert_string_equal(c16->launch_limited_by, "L2");
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.l2_far_lines_gps - 40) < 1e-6);
		assert_true(fabs(p.l2_far_lines16_gps - 25) < 1e-6);
		assert_true(fabs(p.l2_merge_lines_gps - 50) < 1e-6);
	}
	/* copy.scatter_far_b4 (rule L4's spaced near rate: scatter_b4's warps, lines 1 KiB + 128 B apart) timed with a
	   planted rate: it comes back, the near and far rates stay */
	assert_true(p.l2_merge_far_lines_gps == 0 && gm_profile_unmeasured(&p, "l2_merge_far_lines_gps"));
	{
		struct gm_case_result *cf = add_case(&r, "copy.scatter_far_b4", 1, bytes);

		p.l2_merge_far_lines_gps = 58;
		time_as_predicted(cf, &p, bytes);
		assert_string_equal(cf->launch_limited_by, "L2");
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.l2_merge_far_lines_gps - 58) < 1e-6);
		assert_false(gm_profile_unmeasured(&p, "l2_merge_far_lines_gps"));
		assert_true(fabs(p.l2_merge_lines_gps - 50) < 1e-6);
		assert_true(fabs(p.l2_far_lines_gps - 40) < 4e-2 && fabs(p.l2_far_lines16_gps - 25) < 2.5e-2);
	}
	/* copy.blk1024_b4 timed with a planted warp tail (rule T5): it comes back, the rest unchanged */
	assert_true(p.warp_tail == 0); /* not in the run yet */
	{
		struct gm_case_result *cg = add_case(&r, "copy.blk1024_b4", 1, bytes);

		p.warp_tail = 0.7;
		/* the case itself and those whose blocks wait for other than 8 lines (rule T5), timed with the
		   tail: copy.scatter_b4 (blocks of 1024), v1_b8 (16 lines), lines_b4 (32 lines a warp) */
		for (int i = 0; i < r.ncases; i++) {
			struct gm_case_result *ci = &r.cases[i];

			if (ci != cg && strcmp(ci->name, "copy.scatter_b4") && strcmp(ci->name, "copy.scatter_far_b4") &&
			    strcmp(ci->name, "copy.v1_b8") &&
			    strcmp(ci->name, "copy.lines_b4"))
				continue;
			time_as_predicted(ci, &p, bytes);
		}
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.warp_tail - 0.7) < 1e-6);
		assert_true(fabs(p.knee - knee) < 1e-6);
		assert_true(fabs(p.wave_ns - wave_ns) < 1e-6);
		assert_true(fabs(p.l2_merge_lines_gps - 50) < 1e-6);
		assert_true(fabs(p.l2_merge_far_lines_gps - 58) < 1e-6);
	}
	/* copy.blk64_b4 timed with a planted block rate (rule T4): it comes back, the rest unchanged */
	assert_true(p.blocks_gps == 0); /* not in the run yet */
	{
		struct gm_case_result *cs = add_case(&r, "copy.blk64_b4", 1, bytes);

		p.blocks_gps = 2; /* blk64 waits for its blocks, blocks of 256 do not */
		/* every case the model timed, timed again with the whole profile (one device's run) */
		for (int i = 0; i < r.ncases; i++) {
			struct gm_case_result *ci = &r.cases[i];

			if (strncmp(ci->name, "copy.", 5) || !strcmp(ci->name, "copy.v0_b4") ||
			    !strcmp(ci->name, "copy.v1_b8") || strstr(ci->name, "_tile4"))
				continue;
			time_as_predicted(ci, &p, bytes);
		}
		assert_string_equal(cs->launch_limited_by, "blocks");
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.blocks_gps - 2) < 1e-6);
		/* the column-walk stores timed with rule L4's far end (the rates planted above) give them back, within
		   0.1 % (16 B: 25.008, the blocks' rate nearly as slow as its lines) */
		assert_true(fabs(p.l2_far_lines_gps - 40) < 4e-3 && fabs(p.l2_far_lines16_gps - 25) < 2.5e-2);
		assert_true(fabs(p.l2_merge_far_lines_gps - 58) < 1e-6);
		assert_true(fabs(p.warp_tail - 0.7) < 1e-6);
		assert_true(fabs(p.knee - knee) < 1e-6);
		assert_true(fabs(p.wave_ns - wave_ns) < 1e-6);
		assert_true(fabs(p.l2_merge_lines_gps - 50) < 1e-6);
		assert_true(fabs(p.l2_lines_gps - 60) < 1e-6);
		assert_true(fabs(p.wave_l2_ns - 500) < 1e-3);
	}
	/* copy.pages_b4 timed with a planted translation rate (rule P): it comes back; without the case the
	   profile has the default */
	assert_true(fabs(p.pages_gps - GM_PAGES_GPS_DEFAULT) < 1e-9);
	{
		struct gm_case_result *cp = add_case(&r, "copy.pages_b4", 1, bytes);

		p.pages_gps = 20;
		time_as_predicted(cp, &p, bytes);
		assert_string_equal(cp->launch_limited_by, "pages");
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.pages_gps - 20) < 1e-6);
		assert_true(fabs(p.blocks_gps - 2) < 1e-6);
		assert_true(fabs(p.l2_lines_gps - 60) < 1e-6);
		assert_true(p.pages_2m_gps == 0 && p.pages_16m_gps == 0); /* rule P4's walks not in the run: named */
		assert_true(gm_profile_unmeasured(&p, "pages_2m_gps") && gm_profile_unmeasured(&p, "pages_16m_gps"));
	}
	/* copy.pages_2m_b4 and copy.pages_16m_b4 timed with planted rates (rule P4): both come back, pages_gps stays */
	{
		struct gm_case_result *c2 = add_case(&r, "copy.pages_2m_b4", 1, bytes);
		struct gm_case_result *c16 = add_case(&r, "copy.pages_16m_b4", 1, bytes);

		p.pages_2m_gps = 30;
		p.pages_16m_gps = 12;
		time_as_predicted(c2, &p, bytes);
		time_as_predicted(c16, &p, bytes);
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.pages_gps - 20) < 1e-6);
		assert_true(fabs(p.pages_2m_gps - 30) < 1e-6);
		assert_true(fabs(p.pages_16m_gps - 12) < 1e-6);
		assert_false(gm_profile_unmeasured(&p, "pages_2m_gps"));
		assert_true(p.pages_2m_al_gps == 0); /* rule P5's walk not in the run */
	}
	/* copy.pages_2m_al_b4 (rows exactly 2 MiB apart) timed with a planted rate (rule P5): it comes back, the rest
	   stays */
	{
		struct gm_case_result *ca = add_case(&r, "copy.pages_2m_al_b4", 1, bytes);

		p.pages_2m_al_gps = 15;
		time_as_predicted(ca, &p, bytes);
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.pages_2m_al_gps - 15) < 1e-6);
		assert_true(fabs(p.pages_2m_gps - 30) < 1e-6 && fabs(p.pages_gps - 20) < 1e-6);
		assert_true(p.pages_spread_gps == 0 && gm_profile_unmeasured(&p, "pages_spread_gps")); /* P6's: absent */
	}
	/* copy.pages_spread_b4 (rows 3.84 MiB apart, lanes spread over their pages) timed as the model predicts it with
	   a planted rate (rule P6, its factor 1 / (pages_spread_gps x P4's time a lane at 3.84 MiB)): the rate comes
	   back exactly, the rest stays */
	{
		struct gm_case_result *cw = add_case(&r, "copy.pages_spread_b4", 1, bytes);

		p.pages_spread_gps = 25;
		time_as_predicted(cw, &p, bytes);
		assert_string_equal(cw->launch_limited_by, "pages");
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.pages_spread_gps - 25) < 1e-6);
		assert_false(gm_profile_unmeasured(&p, "pages_spread_gps"));
		assert_true(fabs(p.pages_2m_al_gps - 15) < 1e-6 && fabs(p.pages_gps - 20) < 1e-6);
	}
	/* copy.start_b4 (8 waves of copy_one) timed as the model predicts it plus a planted start-up (rule S):
	   the start-up comes back, the rest unchanged; with it the model reproduces the case, and every other
	   prediction moves by exactly the start-up */
	assert_true(p.launch_us == 0); /* not in the run yet */
	{
		const double small = 8.0 * per_wave * 8.0; /* 8 waves of threads, 4 B read and 4 B written each */
		struct gm_case_result *cs = add_case(&r, "copy.start_b4", 1, small);
		/* after add_case, which may move the cases */
		struct gm_case_result *c0 = (struct gm_case_result *)gm_result_find(&r, "copy.v0_b4");
		double before = 0, t_small = 0;
		struct gm_launch_out o;

		assert_non_null(c0);
		assert_int_equal(gm_launch_case_out(cs, &p, &o), GM_OK);
		assert_true(fabs(o.waves - 8) < 1e-9 && o.t_start_ms == 0);
		assert_int_equal(gm_launch_predict_case(cs, &p), GM_OK);
		t_small = cs->launch_ms;
		cs->ms.median = t_small + 1.5e-3;
		cs->value.median = cs->gbs_median = small / (cs->ms.median * 1e-3) / 1e9;
		assert_int_equal(gm_launch_predict_case(c0, &p), GM_OK);
		before = c0->launch_ms;
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.launch_us - 1.5) < 1e-6);
		assert_true(fabs(p.pages_gps - 20) < 1e-6);
		assert_true(fabs(p.blocks_gps - 2) < 1e-6);
		assert_true(fabs(p.knee - knee) < 1e-6);
		assert_true(fabs(p.wave_ns - wave_ns) < 1e-6);
		assert_int_equal(gm_launch_predict_case(cs, &p), GM_OK);
		assert_true(fabs(cs->launch_ms - cs->ms.median) < 1e-9);
		assert_int_equal(gm_launch_predict_case(c0, &p), GM_OK);
		assert_true(fabs(c0->launch_ms - before - 1.5e-3) < 1e-9);
		/* a case no slower than the model measures no start-up */
		cs->ms.median = t_small * 0.99;
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(p.launch_us == 0);
	}
	/* copy.floor_b4 (one block of copy_one) timed as the model's time joined at the knee with a planted pace of
	   launches (rule S3): the pace comes back; a case no slower than the model measures none */
	assert_true(p.floor_us == 0 && gm_profile_unmeasured(&p, "floor_us"));
	{
		struct gm_case_result *cf = add_case(&r, "copy.floor_b4", 1, 256.0 * 8);
		double t_one;

		assert_int_equal(gm_launch_predict_case(cf, &p), GM_OK);
		t_one = cf->launch_ms;
		cf->ms.median = gm_launch_join(t_one, 3.0e-3, p.knee);
		assert_true(cf->ms.median > 3.0e-3 && cf->ms.median > t_one);
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.floor_us - 3.0) < 1e-6);
		assert_false(gm_profile_unmeasured(&p, "floor_us"));
		cf->ms.median = t_one * 0.99;
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(p.floor_us == 0 && gm_profile_unmeasured(&p, "floor_us"));
	}
	/* the trace's rule X: the one-address atomics, a warp's integer update and a lane's float update;
	   unmeasured and named until the run has the cases; the shortest launch (rule F) calibrate never measures */
	assert_true(p.launch_floor_us == 0 && p.atomic_u32_ns == 0 && p.atomic_f32_ns == 0);
	assert_true(gm_profile_unmeasured(&p, "launch_floor_us") && gm_profile_unmeasured(&p, "atomic_f32_ns"));
	{
		struct gm_case_result *cu, *cf;

		cu = add_case(&r, "atomics.u32_one", 1, 4.0 * (1 << 24));
		cu->ms.median = 0.4;        /* 2^19 warps: 0.763 ns each */
		cf = add_case(&r, "atomics.f32_one_1m", 1, 4.0 * (1 << 20));
		cf->ms.median = 1.8;        /* 2^20 lanes: 1.717 ns each */
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(p.launch_floor_us == 0 && gm_profile_unmeasured(&p, "launch_floor_us"));
		assert_true(fabs(p.atomic_u32_ns - 0.4e6 / (1 << 19)) < 1e-9);
		assert_true(fabs(p.atomic_f32_ns - 1.8e6 / (1 << 20)) < 1e-9);
		assert_false(gm_profile_unmeasured(&p, "atomic_u32_ns") || gm_profile_unmeasured(&p, "atomic_f32_ns"));
		/* rule A: atomics.u32_lanes32's time over its waiting lanes, 31 of each warp's 32 */
		assert_true(p.atomic_turn_ns == 0 && gm_profile_unmeasured(&p, "atomic_turn_ns"));
		struct gm_case_result *ct = add_case(&r, "atomics.u32_lanes32", 1, 4.0 * (1 << 24));
		ct->ms.median = 0.5;
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.atomic_turn_ns - 0.5e6 / ((1 << 24) / 32.0 * 31)) < 1e-9);
		assert_false(gm_profile_unmeasured(&p, "atomic_turn_ns"));
	}
	/* copy.lines_l1_b4 (32 lines of L1 a request) timed with a planted rate (rule T11): it comes back
	   (last: with it the column walks of rule P go slower at L1, and their rates move) */
	assert_true(p.l1_lines_gps == 0 && gm_profile_unmeasured(&p, "l1_lines_gps"));
	{
		struct gm_case_result *cl = add_case(&r, "copy.lines_l1_b4", 1, bytes);

		p.l1_lines_gps = 40;
		time_as_predicted(cl, &p, bytes);
		assert_string_equal(cl->launch_limited_by, "L1");
		assert_int_equal(gm_profile_from_run(&r, &p, why, sizeof(why)), GM_OK);
		assert_true(fabs(p.l1_lines_gps - 40) < 1e-6);
	}
	gm_result_release(&r);
}

/* The transposes whose threads load a margin around their tile (v8-v27) declare their kernel's grid (grid_x,
   grid_y): the model walks every tile, so DRAM reads and writes cover the whole matrix (before the grid was
   declared, v15_lean5_down_ragged walked 83 % of it: reads 0.89e9 of 1.07e9 B) */
static void test_kernel_grid(void **state)
{
	static const char *const names[] = { "transpose.v9_rows_ragged", "transpose.v15_lean5_down_ragged",
					     "transpose.v15_lean5_down_a8", "transpose.v17_group4_ragged",
					     "transpose.v8_shear_ragged", "transpose.v25_big128_ragged",
					     "transpose.v26_tall128_a8", "transpose.v27_wide128_ragged" };
	static const int drows[] = { 17, 17, 24, 17, 17, 17, 24, 17 }, dcols[] = { 33, 33, 40, 33, 33, 33, 40, 33 };
	struct gm_run_result r;
	struct gm_profile p;
	int exact;

	(void)state;
	assert_int_equal(gm_profile_nearest("NVIDIA H100 80GB HBM3", &p, &exact), GM_OK);
	gm_result_init(&r);
	for (int k = 0; k < 8; k++) {
		const double matrix = 4.0 * (16384 - drows[k]) * (16384 - dcols[k]);
		struct gm_case_result *c = add_case(&r, names[k], 2500, 2 * matrix);
		struct gm_launch_out o;

		assert_int_equal(gm_launch_case_out(c, &p, &o), GM_OK);
		assert_true(o.dram_write_bytes >= 0.999 * matrix && o.dram_write_bytes <= 1.02 * matrix);
		assert_true(o.dram_read_bytes >= 0.999 * matrix && o.dram_read_bytes <= 1.10 * matrix);
	}
	gm_result_release(&r);
}

static void test_score(void **state)
{
	struct gm_run_result r;
	struct gm_launch_score s;
	static const double ratio[] = { 1.0, 1.05, 0.8, 1.2, 0.97 };

	(void)state;
	gm_result_init(&r);
	for (int k = 0; k < 5; k++) {
		struct gm_case_result *c = add_case(&r, k < 3 ? "copy.x" : "stride.y", 1000 * ratio[k], 1);
		c->launch_gbs = 1000;
	}
	gm_launch_score_of(&r, NULL, &s);
	assert_int_equal(s.n, 5);
	assert_int_equal(s.within10, 3);
	assert_true(fabs(s.median_err_pct - 5) < 1e-9);
	gm_launch_score_of(&r, "stride", &s);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.calibration, 0);
	/* a case the profile is measured by is counted apart */
	add_case(&r, "copy.v0_b4", 1000, 1)->launch_gbs = 1000;
	add_case(&r, "stride.b16_s032", 1000, 1)->launch_gbs = 1300;
	gm_launch_score_of(&r, NULL, &s);
	assert_int_equal(s.n, 7);
	assert_int_equal(s.calibration, 2);
	assert_int_equal(s.calibration_within10, 1);
	assert_true(gm_is_calibration_case("copy.v1_b8") && !gm_is_calibration_case("hierarchy"));
	gm_result_release(&r);
}

/* ---- the binary ---- */

static void test_cli_explain_n(void **state)
{
	static char out[1 << 16];

	(void)state;
	assert_int_equal(run_bin("explain --n 1073741824 'gid*2'", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "launch: 1073741824 threads"));
	assert_non_null(strstr(out, "limited by DRAM"));
	assert_non_null(strstr(out, "built-in data/profiles/nvidia-h100-80gb-hbm3.json"));
	assert_int_equal(run_bin("explain --json --n 4096 gid", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "\"dram_bytes_read\""));
	assert_non_null(strstr(out, "\"predicted_gbs\""));
	assert_non_null(strstr(out, "\"limited_by\""));
	assert_int_equal(run_bin("explain --n 0 gid", out, sizeof(out)), 2);
	assert_int_equal(run_bin("explain --n -3 gid", out, sizeof(out)), 2);
	assert_int_equal(run_bin("explain --n 1099511627777 gid", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "2^40"));
	assert_int_equal(run_bin("explain --n 100 --profile /nonexistent.json gid", out, sizeof(out)), 5);
	assert_non_null(strstr(out, "cannot open profile '/nonexistent.json'"));
	assert_null(strstr(out, "lane")); /* nothing printed before the error */
	assert_int_equal(run_bin("explain --profile x.json gid", out, sizeof(out)), 2);
	assert_int_equal(run_bin("run copy.v0_b4 --profile /nonexistent.json", out, sizeof(out)), 5);
	assert_non_null(strstr(out, "cannot open profile '/nonexistent.json'"));
	assert_int_equal(run_bin("explain --n 100 --space shared gid", out, sizeof(out)), 2);
}

#define FIXTURE "tests/fixtures/runs/h100-calibrate-stride.json"

static void test_cli_profile_files(void **state)
{
	static char out[1 << 16];
	char args[1024];
	const char *src = getenv("GPUMEM_SRC");
	char dir[] = "/tmp/gpumem_test_launch_XXXXXX", cwd[4096];
	FILE *f;

	(void)state;
	/* the files this test writes go to a directory of its own, never the source tree */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chdir(dir), 0);
	f = fopen("bad_profile.json", "w");
	assert_non_null(f);
	fputs("{\"schema\": \"gpumem-profile\", \"device\": \"x\", \"sm_count\": 1}", f);
	fclose(f);
	assert_int_equal(run_bin("explain --n 100 --profile bad_profile.json gid", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "bad_profile.json"));
	assert_non_null(strstr(out, "'sm_clock_mhz'"));
	remove("bad_profile.json");
	/* a committed H100 suite cut to the calibration cases and a few stride cases (tests/fixtures/runs/make.py) */
	snprintf(args, sizeof(args), "calibrate --from '%s/" FIXTURE "' -o cal.json", src);
	assert_int_equal(run_bin(args, out, sizeof(out)), 0);
	assert_int_equal(run_bin("explain --n 100000 --profile cal.json gid", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "(cal.json)"));
	snprintf(args, sizeof(args), "predict '%s/" FIXTURE "' --profile cal.json", src);
	assert_int_equal(run_bin(args, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "model within 10%: "));
	assert_non_null(strstr(out, "stride       within 10%"));
	assert_null(strstr(out, "note: arrays of"));
	/* the same run as if its arrays were 64 MiB: the score line warns that it says little */
	{
		char path[512], *text, *at;
		FILE *in;
		long len;

		snprintf(path, sizeof(path), "%s/" FIXTURE, src);
		in = fopen(path, "rb");
		assert_non_null(in);
		fseek(in, 0, SEEK_END);
		len = ftell(in);
		rewind(in);
		text = malloc((size_t)len + 1);
		assert_non_null(text);
		assert_int_equal(fread(text, 1, (size_t)len, in), (size_t)len);
		text[len] = 0;
		fclose(in);
		at = strstr(text, "\"array_bytes\": 4294967296");
		assert_non_null(at);
		f = fopen("small.json", "wb");
		assert_non_null(f);
		fwrite(text, 1, (size_t)(at - text), f);
		fputs("\"array_bytes\": 67108864", f);
		fputs(at + strlen("\"array_bytes\": 4294967296"), f);
		fclose(f);
		free(text);
		assert_int_equal(run_bin("predict small.json --profile cal.json", out, sizeof(out)), 0);
		assert_non_null(strstr(out, "note: arrays of 64 MiB"));
		remove("small.json");
	}
	remove("cal.json");
	snprintf(args, sizeof(args), "calibrate --from '%s/tests/fixtures/runs/h100/quick.json'", src);
	assert_int_equal(run_bin(args, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "has no measured case"));
	assert_int_equal(chdir(cwd), 0);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_json),
		cmocka_unit_test(test_builtin),
		cmocka_unit_test(test_from_run),
		cmocka_unit_test(test_quarter_fill),
		cmocka_unit_test(test_from_run_knee),
		cmocka_unit_test(test_kernel_grid),
		cmocka_unit_test(test_score),
		cmocka_unit_test(test_cli_explain_n),
		cmocka_unit_test(test_cli_profile_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
