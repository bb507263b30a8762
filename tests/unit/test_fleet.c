/*
 * The fleet view and the multi-device document: a fixture of six GPUs of two
 * models, one slowed by a second process and one on a PCIe x8 link; the view
 * flags exactly those with their causes, keeps the models apart, survives a
 * JSON round trip, and `gpumem fleet` / `report` / `compare` read the file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli/multi/multi.h"
#include "gpumem/fleet.h"
#include "gpumem/io.h"
#include "gpumem/result.h"

static void add(struct gm_run_result *r, const char *name, const char *fam, double med)
{
	struct gm_case_result *c = gm_result_add(r);

	assert_non_null(c);
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->family, sizeof(c->family), "%s", fam);
	c->status = GM_CASE_OK;
	c->unit = c->value.unit = GM_UNIT_GBS;
	c->value.median = c->gbs_median = med;
	c->value.min = c->gbs_min = med * 0.995;
	c->value.max = c->gbs_max = med * 1.005;
}

/* GPU d of the fixture: 0-3 H100 (2 slowed by a second process, 3 on x8), 4-5 H200. */
static void fixture_device(struct gm_multi_run *m, int d)
{
	static const double copy[] = { 3010, 2995, 2100, 3002, 4300, 4310 };
	static const double h2d[] = { 55.1, 55.3, 55.0, 27.4, 55.2, 55.4 };
	struct gm_placement *p = &m->pl[d];
	struct gm_run_result *r = &m->runs[d];
	const char *model = d < 4 ? "NVIDIA H100 80GB HBM3" : "NVIDIA H200";

	p->rank = d;
	snprintf(p->host, sizeof(p->host), "node%d", d / 2);
	p->device = d % 2;
	snprintf(p->name, sizeof(p->name), "%s", model);
	snprintf(p->uuid, sizeof(p->uuid), "GPU-fixture-%d", d);
	snprintf(p->pci_bus_id, sizeof(p->pci_bus_id), "00000000:%02X:00.0", 0x19 + d);
	p->numa_node = d % 2;
	p->pcie_gen = p->pcie_gen_max = 5;
	p->pcie_width = d == 3 ? 8 : 16;
	p->pcie_width_max = 16;
	snprintf(p->status, sizeof(p->status), "ok");
	p->tel.samples = 10;
	p->tel.sm_mhz_min = p->tel.sm_mhz_median = p->tel.sm_mhz_max = 1980;
	p->tel.temp_c_min = 40;
	p->tel.temp_c_max = 55;
	p->tel.max_processes = d == 2 ? 2 : 1;
	p->tel.ecc_corrected = p->tel.ecc_uncorrected = 0;
	r->have_device = 1;
	snprintf(r->dev.name, sizeof(r->dev.name), "%s", model);
	snprintf(r->tool_version, sizeof(r->tool_version), "0.1.0");
	add(r, "copy.v5_b16_ilp4", "copy", copy[d]);
	add(r, "transfer.h2d_pinned", "transfer", h2d[d]);
}

static void fixture(struct gm_multi_run *m, int n)
{
	gm_multi_init(m);
	assert_int_equal(gm_multi_resize(m, n), GM_OK);
	snprintf(m->mode, sizeof(m->mode), "mpi");
	snprintf(m->command, sizeof(m->command), "gpumem run --mpi copy transfer (fixture)");
	for (int d = 0; d < n; d++)
		fixture_device(m, d);
}

static const struct gm_fleet_case *fcase(const struct gm_fleet *fl, const char *model, const char *name)
{
	for (int i = 0; i < fl->ncases; i++)
		if (!strcmp(fl->cases[i].name, name) && !strcmp(fl->cases[i].model, model))
			return &fl->cases[i];
	fail_msg("no case %s of %s", name, model);
	return NULL;
}

static void test_flags_slowed_gpu(void **state)
{
	struct gm_multi_run m;
	struct gm_fleet fl;
	const struct gm_fleet_case *c;

	(void)state;
	fixture(&m, 6);
	assert_int_equal(gm_fleet_compute(&m, 3.0, &fl), GM_OK);
	assert_int_equal(fl.nmodels, 2);
	c = fcase(&fl, "NVIDIA H100 80GB HBM3", "copy.v5_b16_ilp4");
	assert_int_equal(c->n, 4);
	assert_int_equal(c->noutliers, 1);
	assert_int_equal(c->out[0].device, 2);
	assert_true(c->out[0].pct < -25);
	assert_non_null(strstr(c->out[0].cause, "2 processes"));
	c = fcase(&fl, "NVIDIA H100 80GB HBM3", "transfer.h2d_pinned");
	assert_int_equal(c->noutliers, 1);
	assert_int_equal(c->out[0].device, 3);
	assert_non_null(strstr(c->out[0].cause, "PCIe link x8"));
	/* the H200s are their own group: their 4300 GB/s does not make the H100s slow */
	c = fcase(&fl, "NVIDIA H200", "copy.v5_b16_ilp4");
	assert_int_equal(c->n, 2);
	assert_int_equal(c->noutliers, 0);
	assert_int_equal(fl.noutliers, 2);
	gm_fleet_release(&fl);
	gm_multi_release(&m);
}

/* Two GPUs (the two-H200 machine): a 30 % slower one is flagged, 0.5 % noise is not. */
static void test_two_gpus(void **state)
{
	struct gm_multi_run m;
	struct gm_fleet fl;

	(void)state;
	fixture(&m, 2);
	m.runs[1].cases[0].value.median = 0.7 * m.runs[0].cases[0].value.median;
	assert_int_equal(gm_fleet_compute(&m, 3.0, &fl), GM_OK);
	assert_int_equal(fcase(&fl, "NVIDIA H100 80GB HBM3", "copy.v5_b16_ilp4")->noutliers, 1);
	assert_int_equal(fcase(&fl, "NVIDIA H100 80GB HBM3", "transfer.h2d_pinned")->noutliers, 0);
	gm_fleet_release(&fl);
	gm_multi_release(&m);
}

/* A second process time-slicing a GPU: its median holds, its samples scatter; flagged as erratic. */
static void test_erratic_samples(void **state)
{
	struct gm_multi_run m;
	struct gm_fleet fl;
	const struct gm_fleet_case *c;

	(void)state;
	fixture(&m, 2);
	m.runs[0].cases[0].ms.cov_pct = 0.05;
	m.runs[1].cases[0].ms.cov_pct = 72.9;
	m.runs[1].cases[0].value.median = 0.999 * m.runs[0].cases[0].value.median;
	m.pl[1].tel.max_processes = 2;
	m.runs[0].cases[1].ms.cov_pct = 0.4;  /* 4 % is noisy, not erratic (below 5 %) */
	m.runs[1].cases[1].ms.cov_pct = 4.0;
	assert_int_equal(gm_fleet_compute(&m, 3.0, &fl), GM_OK);
	c = fcase(&fl, "NVIDIA H100 80GB HBM3", "copy.v5_b16_ilp4");
	assert_int_equal(c->noutliers, 1);
	assert_int_equal(c->out[0].device, 1);
	assert_true(c->out[0].jitter);
	assert_true(fabs(c->out[0].fleet_cov_pct - 0.05) < 1e-9);
	assert_non_null(strstr(c->out[0].cause, "2 processes"));
	assert_int_equal(fcase(&fl, "NVIDIA H100 80GB HBM3", "transfer.h2d_pinned")->noutliers, 0);
	gm_fleet_release(&fl);
	gm_multi_release(&m);
}

/*
 * Processes gpumem put there itself are not another load: with the blocks running at once, a
 * neighbour that measured peer-to-peer cases, or a rank sharing the GPU, counts as gpumem's.
 */
static void test_own_processes(void **state)
{
	struct gm_multi_run m;
	struct gm_fleet fl;
	const struct gm_fleet_case *c;

	(void)state;
	fixture(&m, 2); /* both on node0, MPI mode */
	m.runs[1].cases[0].ms.cov_pct = 72.9;
	m.pl[1].tel.max_processes = 2;
	assert_int_equal(gm_fleet_compute(&m, 3.0, &fl), GM_OK);
	c = fcase(&fl, "NVIDIA H100 80GB HBM3", "copy.v5_b16_ilp4");
	assert_non_null(strstr(c->out[0].cause, "2 processes were on this GPU during the run, 1 of them gpumem's"));
	gm_fleet_release(&fl);
	add(&m.runs[0], "p2p.ce_write", "p2p", 50); /* rank 0 opened GPU 1 for its peer copies */
	assert_int_equal(gm_fleet_compute(&m, 3.0, &fl), GM_OK);
	c = fcase(&fl, "NVIDIA H100 80GB HBM3", "copy.v5_b16_ilp4");
	assert_int_equal(c->noutliers, 1); /* still erratic, no longer blamed on another load */
	assert_null(strstr(c->out[0].cause, "processes"));
	gm_fleet_release(&fl);
	m.pl[1].tel.max_processes = 3; /* one more than gpumem's two: another load */
	assert_int_equal(gm_fleet_compute(&m, 3.0, &fl), GM_OK);
	c = fcase(&fl, "NVIDIA H100 80GB HBM3", "copy.v5_b16_ilp4");
	assert_non_null(strstr(c->out[0].cause, "3 processes were on this GPU during the run, 2 of them gpumem's"));
	gm_fleet_release(&fl);
	m.runs[0].ncases = 2; /* no peer case; the two ranks share one GPU */
	snprintf(m.pl[1].pci_bus_id, sizeof(m.pl[1].pci_bus_id), "%s", m.pl[0].pci_bus_id);
	m.pl[1].tel.max_processes = 2;
	assert_int_equal(gm_fleet_compute(&m, 3.0, &fl), GM_OK);
	c = fcase(&fl, "NVIDIA H100 80GB HBM3", "copy.v5_b16_ilp4");
	assert_null(strstr(c->out[0].cause, "processes"));
	gm_fleet_release(&fl);
	snprintf(m.mode, sizeof(m.mode), "sequential"); /* one block at a time: any second process is a load */
	assert_int_equal(gm_fleet_compute(&m, 3.0, &fl), GM_OK);
	c = fcase(&fl, "NVIDIA H100 80GB HBM3", "copy.v5_b16_ilp4");
	assert_non_null(strstr(c->out[0].cause, "2 processes"));
	gm_fleet_release(&fl);
	gm_multi_release(&m);
}

static void write_fixture(const char *path)
{
	struct gm_multi_run m;
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fixture(&m, 6);
	assert_int_equal(gm_multi_write(f, &m), GM_OK);
	fclose(f);
	gm_multi_release(&m);
}

static void test_round_trip(void **state)
{
	char path[] = "/tmp/gm_fleet_XXXXXX";
	int fd = mkstemp(path);
	struct gm_multi_run m;
	struct gm_run_result one;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_fixture(path);
	assert_true(gm_multi_is(path));
	assert_int_equal(gm_multi_read(path, &m), GM_OK);
	assert_int_equal(m.n, 6);
	assert_string_equal(m.mode, "mpi");
	assert_string_equal(m.pl[3].host, "node1");
	assert_int_equal(m.pl[3].pcie_width, 8);
	assert_int_equal(m.pl[2].tel.max_processes, 2);
	assert_string_equal(m.pl[5].uuid, "GPU-fixture-5");
	assert_int_equal(m.runs[2].ncases, 2);
	assert_true(m.runs[2].cases[0].value.median == 2100);
	gm_multi_release(&m);
	/* a plain reader sees device 0's run */
	assert_int_equal(gm_json_read(path, &one), GM_OK);
	assert_int_equal(one.ncases, 2);
	assert_true(one.cases[0].value.median == 3010);
	gm_result_release(&one);
	unlink(path);
}

/* The commands on the fixture: fleet flags (exit 1), report and compare read it. */
static void test_cli(void **state)
{
	const char *bin = getenv("GPUMEM_BIN");
	char path[] = "/tmp/gm_fleet_XXXXXX", cmd[1024];
	int fd = mkstemp(path);

	(void)state;
	if (!bin)
		skip();
	assert_true(fd >= 0);
	close(fd);
	write_fixture(path);
	snprintf(cmd, sizeof(cmd), "%s fleet %s | grep -q 'likely: 2 processes were on this GPU'", bin, path);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s fleet %s >/dev/null", bin, path);
	assert_int_equal(WEXITSTATUS(system(cmd)), 1);
	snprintf(cmd, sizeof(cmd), "%s fleet %s --threshold 1000 >/dev/null", bin, path);
	assert_int_equal(WEXITSTATUS(system(cmd)), 0);
	snprintf(cmd, sizeof(cmd), "%s fleet %s --threshold x 2>/dev/null", bin, path);
	assert_int_equal(WEXITSTATUS(system(cmd)), 2);
	snprintf(cmd, sizeof(cmd), "%s report %s | grep -q 'GPU 1 (00000000:1A:00.0)'", bin, path);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s report %s -o %s.html >/dev/null && grep -q 'id=\"fleet\"' %s.html", bin,
		 path, path, path);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s compare %s %s >/dev/null", bin, path, path);
	assert_int_equal(WEXITSTATUS(system(cmd)), 0);
	snprintf(cmd, sizeof(cmd), "%s.html", path);
	unlink(cmd);
	if (getenv("GPUMEM_FLEET_FIXTURE"))   /* keep the fixture: GPUMEM_FLEET_FIXTURE=out.json */
		rename(path, getenv("GPUMEM_FLEET_FIXTURE"));
	unlink(path);
}

/* The view built one run at a time, each run's cases released after it, is the view of the whole. */
static void test_streamed_view(void **state)
{
	struct gm_multi_run m, bare;
	struct gm_fleet all, one;

	(void)state;
	fixture(&m, 6);
	fixture(&bare, 6);
	assert_int_equal(gm_fleet_compute(&m, 3.0, &all), GM_OK);
	memset(&one, 0, sizeof(one));
	for (int d = 0; d < bare.n; d++) {
		assert_int_equal(gm_fleet_add_run(&one, &bare.runs[d]), GM_OK);
		gm_result_release(&bare.runs[d]);
	}
	assert_int_equal(gm_fleet_finish(&bare, 3.0, &one), GM_OK);
	assert_int_equal(one.ncases, all.ncases);
	assert_int_equal(one.noutliers, all.noutliers);
	for (int i = 0; i < all.ncases; i++) {
		assert_string_equal(one.cases[i].name, all.cases[i].name);
		assert_true(one.cases[i].median == all.cases[i].median);
		assert_int_equal(one.cases[i].noutliers, all.cases[i].noutliers);
		for (int j = 0; j < all.cases[i].noutliers; j++)
			assert_string_equal(one.cases[i].out[j].cause, all.cases[i].out[j].cause);
	}
	gm_fleet_release(&one);
	/* a fleet whose runs do not match the document's devices is refused, and left released */
	memset(&one, 0, sizeof(one));
	assert_int_equal(gm_fleet_add_run(&one, &m.runs[0]), GM_OK);
	assert_int_not_equal(gm_fleet_finish(&m, 3.0, &one), GM_OK);
	assert_null(one.items);
	gm_fleet_release(&all);
	gm_multi_release(&m);
	gm_multi_release(&bare);
}

struct taken {
	int n;
	char uuid[40][48];
};

static gm_status take_uuid(void *arg, struct gm_multi_run *m)
{
	struct taken *t = arg;

	assert_int_equal(m->n, 6);
	snprintf(t->uuid[t->n++], sizeof(t->uuid[0]), "%s", m->pl[0].uuid);
	return GM_OK;
}

/* Documents read on several threads reach take in the order named; the first unreadable one stops them. */
static void test_read_each(void **state)
{
	char paths[40][32];
	const char *pp[40];
	struct taken t = { 0 };
	struct gm_multi_run m;

	(void)state;
	for (int i = 0; i < 40; i++) {
		FILE *f;
		snprintf(paths[i], sizeof(paths[i]), "/tmp/gm_each_%d_XXXXXX", i);
		int fd = mkstemp(paths[i]);
		assert_true(fd >= 0);
		close(fd);
		pp[i] = paths[i];
		fixture(&m, 6);
		snprintf(m.pl[0].uuid, sizeof(m.pl[0].uuid), "GPU-doc-%d", i);
		f = fopen(paths[i], "w");
		assert_non_null(f);
		assert_int_equal(gm_multi_write(f, &m), GM_OK);
		fclose(f);
		gm_multi_release(&m);
	}
	assert_int_equal(gm_multi_read_each(pp, 40, 4, take_uuid, &t), GM_OK);
	assert_int_equal(t.n, 40);
	for (int i = 0; i < 40; i++) {
		char want[48];
		snprintf(want, sizeof(want), "GPU-doc-%d", i);
		assert_string_equal(t.uuid[i], want);
	}
	FILE *f = fopen(paths[33], "w");   /* truncated */
	assert_non_null(f);
	fputs("{\"schema\":", f);
	fclose(f);
	t.n = 0;
	assert_int_not_equal(gm_multi_read_each(pp, 40, 4, take_uuid, &t), GM_OK);
	assert_int_equal(t.n, 33);
	assert_non_null(strstr(gm_last_error(), paths[33]));
	for (int i = 0; i < 40; i++)
		unlink(paths[i]);
}

/* The child's arguments: the run's own minus the multi-device options, --device, --json, --csv. */
static void test_filter_args(void **state)
{
	char *argv[] = { "run", "copy", "--all-devices", "--json", "x.json", "--reps=5", "--device", "1",
			 "--concurrent", "--timeout", "9", "--quick", "--json=y.json", "--mpi", "--barrier", NULL };
	const char *out[16];
	int n = gm_multi_filter_args(15, argv, out);

	(void)state;
	assert_int_equal(n, 3);
	assert_string_equal(out[0], "copy");
	assert_string_equal(out[1], "--reps=5");
	assert_string_equal(out[2], "--quick");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_slowed_gpu),
		cmocka_unit_test(test_two_gpus),
		cmocka_unit_test(test_erratic_samples),
		cmocka_unit_test(test_own_processes),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_streamed_view),
		cmocka_unit_test(test_read_each),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_filter_args),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
