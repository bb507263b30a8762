/* test_trace_doc.c - `gpumem trace`'s documents: the synthetic trace fixtures (tests/fixtures/trace/synthetic/,
 * whole kernels built from known index expressions by trace_synth.h) read back and analysed with the built-in
 * H200 profile: every instruction's class, the check, the fixes' words (a kernel with nothing to fix says so,
 * a gather says its scatter comes from the data); the reader's refusals; the report's JSON.
 * GM_TRACE_WRITE_FIXTURES=DIR writes the fixtures into DIR instead of testing (how they were made). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpumem/profile.h"
#include "gpumem/trace.h"
#include "io/trace_io.h"
#include "trace_synth.h"

#define G GM_TS_GLOBAL
#define S GM_TS_SHARED
#define LD GM_TO_LOAD
#define ST GM_TO_STORE
#define MAXI 8

struct fixture {
	const char *file, *kernel;
	struct synth ins[MAXI];
	int line[MAXI];
	enum gm_trace_class cls[MAXI];
	const char *says;             /* the text report contains this */
	unsigned one_array;           /* instructions (bits) that read instruction 0's array: the pieces of one loop */
};

#define B1(n) { n, 1, 1 }
static const struct fixture fixtures[] = {
	{ "clean_copy.json", "copy(float const*, float*, int)",
	  { { "ld", "gid", B1(256), B1(4096), 4, G, LD, 1, 0, 0, 0 }, { "st", "gid", B1(256), B1(4096), 4, G, ST, 1, 0, 0, 0 } },
	  { 12, 12 }, { GM_TC_COALESCED, GM_TC_COALESCED }, "nothing worth changing" },
	{ "aos.json", "update(Particle const*, float*)",
	  { { "x", "gid*4", B1(256), B1(2048), 4, G, LD, 1, 0, 0, 0 }, { "y", "gid*4 + 1", B1(256), B1(2048), 4, G, LD, 1, 0, 0, 0 },
	    { "z", "gid*4 + 2", B1(256), B1(2048), 4, G, LD, 1, 0, 0, 0 }, { "out", "gid", B1(256), B1(2048), 4, G, ST, 1, 0, 0, 0 } },
	  { 21, 21, 22, 23 }, { GM_TC_STRIDED, GM_TC_STRIDED, GM_TC_STRIDED, GM_TC_COALESCED }, "structure of arrays" },
	{ "layernorm_rowloop.json", "layernorm_forward_kernel1(float*, float*, float*, float const*, float const*, "
	  "float const*, int, int, int)",
	  { { "mean", "gid*768", B1(128), B1(32), 4, G, LD, 768, 1, 0, 0 }, { "var", "gid*768", B1(128), B1(32), 4, G, LD, 768, 1, 0, 0 },
	    { "x", "gid*768", B1(128), B1(32), 4, G, LD, 768, 1, 0, 0 }, { "w", "0", B1(128), B1(32), 4, G, LD, 768, 1, 0, 0 },
	    { "b", "0", B1(128), B1(32), 4, G, LD, 768, 1, 0, 0 }, { "out", "gid*768", B1(128), B1(32), 4, G, ST, 768, 1, 0, 0 } },
	  { 30, 36, 44, 44, 44, 44 }, { GM_TC_COLUMN, GM_TC_COLUMN, GM_TC_COLUMN, GM_TC_BROADCAST, GM_TC_BROADCAST, GM_TC_COLUMN },
	  "give a row to a warp" },
	/* a thread a row of 200 doubles, its loop unrolled by 4 for 48 steps (192 elements: a remainder loop does the
	   rest), the vector read beside it by every thread: rule warp_rows all the same (set 6's mat-vec) */
	{ "matvec_row_remainder.json", "mv_row_thread(double const*, double const*, double*, int, int)",
	  { { "a0", "gid*200", B1(128), B1(64), 8, G, LD, 48, 4, 0, 0 }, { "a1", "gid*200 + 1", B1(128), B1(64), 8, G, LD, 48, 4, 0, 0 },
	    { "a2", "gid*200 + 2", B1(128), B1(64), 8, G, LD, 48, 4, 0, 0 }, { "a3", "gid*200 + 3", B1(128), B1(64), 8, G, LD, 48, 4, 0, 0 },
	    { "x0", "0", B1(128), B1(64), 8, G, LD, 48, 4, 0, 0 }, { "x1", "1", B1(128), B1(64), 8, G, LD, 48, 4, 0, 0 },
	    { "x2", "2", B1(128), B1(64), 8, G, LD, 48, 4, 0, 0 }, { "x3", "3", B1(128), B1(64), 8, G, LD, 48, 4, 0, 0 } },
	  { 18, 18, 18, 18, 18, 18, 18, 18 }, { GM_TC_COLUMN, GM_TC_COLUMN, GM_TC_COLUMN, GM_TC_COLUMN, GM_TC_BROADCAST,
	  GM_TC_BROADCAST, GM_TC_BROADCAST, GM_TC_BROADCAST }, "warp_rows", 0x0f },
	/* a thread a row of 1024 floats summed by its loop, the sum stored once after it: rule warp_rows with the lanes'
	   merge (a reduction: 5 shuffle rounds of one value, the probe's price; set 7's rowmax_thread in small) */
	{ "row_sum_store.json", "row_sum_thread(float const*, float*, int)",
	  { { "x", "gid*1024", B1(128), B1(64), 4, G, LD, 1024, 1, 0, 0 }, { "y", "gid", B1(128), B1(64), 4, G, ST, 1, 0, 0, 0 } },
	  { 14, 16 }, { GM_TC_COLUMN, GM_TC_COALESCED }, "partial value merged in 5 shuffle rounds" },
	{ "transpose_naive.json", "transposeNaive(float*, float const*, int, int)",
	  { { "in", "(by*32 + ty)*4096 + bx*32 + tx", { 32, 8, 1 }, { 128, 128, 1 }, 4, G, LD, 4, 8 * 4096, 0, 0 },
	    { "out", "(bx*32 + tx)*4096 + by*32 + ty", { 32, 8, 1 }, { 128, 128, 1 }, 4, G, ST, 4, 8, 0, 0 } },
	  { 51, 51 }, { GM_TC_COALESCED, GM_TC_TRANSPOSED }, "swap the roles of threadIdx.x and threadIdx.y" },
	/* a thread a row's element, the lanes writing down a column (rows of 1024 floats) while the blocks walk the
	   row: the store's words say write, not read (set 7's bias_relu_cn_c_fast, in small) */
	{ "column_store.json", "bias_relu_c_fast(float const*, float*)",
	  { { "in", "gid", B1(256), B1(1024), 4, G, LD, 1, 0, 0, 0 },
	    { "out", "tid*1024 + bx", B1(256), B1(1024), 4, G, ST, 1, 0, 0, 0 } },
	  { 10, 11 }, { GM_TC_COALESCED, GM_TC_COLUMN }, "write down a column" },
	{ "smem_transpose.json", "transposeNoBankConflictsMissing(float*, float const*, int, int)",
	  { { "in", "(by*32 + ty)*4096 + bx*32 + tx", { 32, 8, 1 }, { 128, 128, 1 }, 4, G, LD, 4, 8 * 4096, 0, 0 },
	    { "tile_st", "ty*32 + tx", { 32, 8, 1 }, { 128, 128, 1 }, 4, S, ST, 4, 8 * 32, 0, 0 },
	    { "tile_ld", "tx*32 + ty", { 32, 8, 1 }, { 128, 128, 1 }, 4, S, LD, 4, 8, 0, 0 },
	    { "out", "(bx*32 + ty)*4096 + by*32 + tx", { 32, 8, 1 }, { 128, 128, 1 }, 4, G, ST, 4, 8 * 4096, 0, 0 } },
	  { 70, 70, 74, 74 }, { GM_TC_COALESCED, GM_TC_SHARED_OK, GM_TC_BANKS, GM_TC_COALESCED }, "32-way bank conflicts" },
	{ "gather_encoder.json", "encoder_forward_kernel1(float*, int const*, float const*, float const*, int, int, int)",
	  { { "tok", "gid / 768", B1(256), B1(3072), 4, G, LD, 1, 0, 0, 0 },
	    { "wte", "((gid / 768 * 2654435761) % 50257) * 768 + gid % 768", B1(256), B1(3072), 4, G, LD, 1, 0, 0, 0 },
	    { "out", "gid", B1(256), B1(3072), 4, G, ST, 1, 0, 0, 0 } },
	  { 17, 18, 18 }, { GM_TC_BROADCAST, GM_TC_GATHER, GM_TC_COALESCED }, "the rows come from the data" },
	/* tab[idx[i]]: the index loaded first, so the gather's address may be its value (rule CS does not apply) */
	{ "random_gather.json", "gather(float const*, int const*, float*)",
	  { { "idx", "gid", B1(256), B1(4096), 4, G, LD, 1, 0, 0, 0 },
	    { "tab", "(gid * 2654435761 + (gid >> 7) * 40503) % 1000003", B1(256), B1(4096), 4, G, LD, 1, 0, 0, 0 },
	    { "out", "gid", B1(256), B1(4096), 4, G, ST, 1, 0, 0, 0 } },
	  { 8, 9, 9 }, { GM_TC_COALESCED, GM_TC_GATHER, GM_TC_COALESCED }, "its scatter comes from the data" },
	/* tab[hash(i)]: nothing loaded before the gather, its address arithmetic on the thread's index (rule CS, set 23's
	   price<hashed> without its probe loop) */
	{ "hash_gather.json", "gather_hashed(float const*, float*)",
	  { { "tab", "(gid * 2654435761 + (gid >> 7) * 40503) % 1000003", B1(256), B1(4096), 4, G, LD, 1, 0, 0, 0 },
	    { "out", "gid", B1(256), B1(4096), 4, G, ST, 1, 0, 0, 0 } },
	  { 9, 9 }, { GM_TC_GATHER, GM_TC_COALESCED }, "a computed gather at synthetic.cu:9" },
	/* a thread a row of a CSR matrix, the row starts from memory (rows of 8 to 64 elements, no map of the ids
	   fits them) and x gathered by the column indices: the row walks are told from the gather by their lanes
	   rising in lane order (set 7's spmv_csr_scalar, in small) */
	{ "csr_rows.json", "spmv_csr_scalar(int const*, int const*, float const*, float const*, float*, int)",
	  { { "val", "gid*36 + (gid*gid*7) % 29", B1(128), B1(64), 4, G, LD, 8, 1, 0, 0 },
	    { "col", "gid*36 + (gid*gid*7) % 29", B1(128), B1(64), 4, G, LD, 8, 1, 0, 0 },
	    { "x", "(gid * 2654435761 + (gid >> 7) * 40503) % 1000003", B1(128), B1(64), 4, G, LD, 1, 0, 0, 0 },
	    { "y", "gid", B1(128), B1(64), 4, G, ST, 1, 0, 0, 0 } },
	  { 10, 10, 10, 11 }, { GM_TC_ROWSTARTS, GM_TC_ROWSTARTS, GM_TC_GATHER, GM_TC_COALESCED },
	  "column walk with irregular row starts" },
	/* a 2D block narrower than a warp walking rows of bytes: a warp reads 4 rows of 8 B (set 5's byte blur) */
	{ "short_rows.json", "blur3_byte(unsigned char const*, unsigned char*)",
	  { { "in", "(by*32 + ty)*8192 + bx*8 + tx", { 8, 32, 1 }, { 64, 16, 1 }, 1, G, LD, 1, 0, 0, 0 } },
	  { 22 }, { GM_TC_IRREGULAR }, "short rows" },
	/* a thread a row whose rows start where no map of the ids fits (a causal softmax's row lengths): lanes one
	   row apart in every warp are a column walk, not a gather by data */
	{ "uneven_rows.json", "softmax_thread_row(float*, float const*, int)",
	  { { "row", "gid*1024 + (gid / 32 * 2654435761) % 977", B1(32), B1(512), 4, G, LD, 1, 0, 0, 0 } },
	  { 223 }, { GM_TC_COLUMN }, "column walk" },
};
#define NFIX (sizeof(fixtures) / sizeof(fixtures[0]))

static int nins(const struct fixture *f)
{
	int n = 0;

	while (n < MAXI && f->ins[n].expr)
		n++;
	return n;
}

/* ---- writing the fixtures ------------------------------------------------------------------------------- */

static json_t *sample_json(const struct gm_trace_sample *s)
{
	json_t *a = json_array();

	for (int k = 0; k < 32; k++)
		json_array_append_new(a, s->have >> k & 1 ? json_integer(s->addr[k]) : json_null());
	return json_pack("{s:[iii],s:i,s:I,s:i,s:o}", "block", s->block[0], s->block[1], s->block[2], "warp", s->warp,
			 "mask", (json_int_t)s->mask, "iter", s->iter, "addr", a);
}

static json_t *count(double v)
{
	return v < 0 ? json_null() : json_integer((json_int_t)v);
}

static json_t *instr_json(const struct gm_trace_instr *in)
{
	json_t *sm = json_array();

	for (int i = 0; i < in->nsamples; i++)
		json_array_append_new(sm, sample_json(&in->samples[i]));
	return json_pack("{s:I,s:n,s:s,s:i,s:s,s:s,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "pc", (json_int_t)in->pc, "sass",
			 "file", in->file, "line", in->line, "space", gm_trace_space_name(in->space), "op",
			 gm_trace_op_name(in->op), "size", in->size, "executions", count(in->executions),
			 "thread_accesses", count(in->thread_accesses), "sectors", count(in->sectors), "requests",
			 count(in->space == GM_TS_SHARED ? in->executions : in->requests), "wavefronts",
			 count(in->wavefronts), "ideal_sectors", count(in->ideal_sectors), "samples", sm);
}

static int build(const struct fixture *f, struct gm_trace_launch *l)
{
	int n = nins(f);

	if (synth_launch(&f->ins[0], 0x7f3400000000ll, l))
		return -1;
	free(l->kernel);
	free(l->name);
	l->kernel = strdup(f->kernel);
	l->name = strdup(f->kernel);
	l->ins[0].line = f->line[0];
	for (int i = 1; i < n; i++)
		if (synth_append(&f->ins[i], 0x7f3400000000ll + (f->one_array >> i & 1 ? 0 : (int64_t)i << 32), f->line[i], l))
			return -1;
	return 0;
}

static int write_fixture(const struct fixture *f, const char *dir)
{
	struct gm_trace_launch l;
	char path[4096];
	json_t *ins = json_array(), *doc;
	int rc;

	if (build(f, &l))
		return -1;
	for (int i = 0; i < l.nins; i++)
		json_array_append_new(ins, instr_json(&l.ins[i]));
	doc = json_pack("{s:s,s:{s:s,s:s,s:n},s:{s:[s],s:i,s:i,s:b,s:n,s:i},s:{s:i,s:s,s:n,s:s,s:i},"
			"s:{s:n,s:i,s:i,s:i,s:n},s:[s],s:[{s:i,s:s,s:s,s:[III],s:[iii],s:i,s:i,s:i,s:i,s:i,s:n,s:n,"
			"s:n,s:n,s:b,s:o}]}",
			"schema", GM_TRACE_DOC_SCHEMA, "tool", "name", "gpumem", "version", "0.1.0", "commit",
			"program", "argv", "./synthetic", "exit_status", 0, "signal", 0, "timed_out", 0, "wall_s", "passes", 1,
			"device", "index", 0, "name", "NVIDIA H200", "uuid", "cc", "9.0", "sm_count", 132,
			"options", "kernel_regex", "launch_skip", 0, "launch_count", 1, "sample_warps", 64, "timeout_s",
			"notes", "synthetic: written by tests/unit/test_trace_doc.c (GM_TRACE_WRITE_FIXTURES) from known index "
			"expressions; counts by the warp model's rules over every warp; no time was measured",
			"launches", "index", 0, "kernel", l.kernel, "name", l.name, "grid", (json_int_t)l.grid[0],
			(json_int_t)l.grid[1], (json_int_t)l.grid[2], "block", l.block[0], l.block[1], l.block[2],
			"shared_dynamic", 0, "shared_static", 0, "registers", 32, "stream", 0, "context", 1, "time_ms",
			"time_source", "dram_read_bytes", "dram_write_bytes", "lineinfo", 1, "instructions", ins);
	snprintf(path, sizeof(path), "%s/%s", dir, f->file);
	rc = doc ? json_dump_file(doc, path, JSON_COMPACT | JSON_PRESERVE_ORDER) : -1;
	json_decref(doc);
	synth_free(&l);
	return rc;
}

/* ---- the tests ------------------------------------------------------------------------------------------ */

static struct gm_profile P;

static int setup(void **state)
{
	int exact;

	(void)state;
	return gm_profile_nearest("NVIDIA H200", &P, &exact) == GM_OK ? 0 : -1;
}

static void fixture_path(const char *file, char *buf, size_t n)
{
	const char *src = getenv("GPUMEM_SRC");

	snprintf(buf, n, "%s/tests/fixtures/trace/synthetic/%s", src ? src : ".", file);
}

static void test_fixtures(void **state)
{
	(void)state;
	for (size_t i = 0; i < NFIX; i++) {
		const struct fixture *f = &fixtures[i];
		struct gm_trace t;
		struct gm_trace_report r;
		char path[4096], *text = NULL;
		size_t len = 0;

		fixture_path(f->file, path, sizeof(path));
		assert_int_equal(gm_trace_read(path, &t), GM_OK);
		assert_int_equal(t.nlaunches, 1);
		assert_int_equal(t.launches[0].nins, nins(f));
		assert_int_equal(gm_trace_analyse(&t, &P, 3, &r), GM_OK);
		for (int k = 0; k < r.k[0].nins; k++) {
			const struct gm_trace_fit *fit = &r.k[0].ins[k].fit;
			print_message("%-24s line %d %-14s %s | %s\n", f->file, t.launches[0].ins[k].line,
				      gm_trace_class_name(fit->cls), fit->expr, fit->cls_text);
			assert_int_equal(fit->cls, f->cls[k]);
			if (fit->map.known)
				assert_int_equal(fit->check_ok, 1);
		}
		FILE *m = open_memstream(&text, &len);
		gm_trace_text(m, &r);
		fclose(m);
		if (!strstr(text, f->says))
			print_message("%s", text);
		assert_non_null(strstr(text, f->says));
		free(text);
		gm_trace_report_free(&r);
		gm_trace_free(&t);
	}
}

/* The report as JSON: its schema, one kernel, the instructions with their classes. */
static void test_report_json(void **state)
{
	struct gm_trace t;
	struct gm_trace_report r;
	char path[4096], *text = NULL;
	size_t len = 0;
	json_error_t e;

	(void)state;
	fixture_path("aos.json", path, sizeof(path));
	assert_int_equal(gm_trace_read(path, &t), GM_OK);
	assert_int_equal(gm_trace_analyse(&t, &P, 3, &r), GM_OK);
	FILE *m = open_memstream(&text, &len);
	assert_int_equal(gm_trace_json(m, &r), GM_OK);
	fclose(m);
	json_t *doc = json_loads(text, 0, &e);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), GM_TRACE_REPORT_SCHEMA);
	json_t *ins = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0), "instructions");
	assert_int_equal(json_array_size(ins), 4);
	assert_string_equal(json_string_value(json_object_get(json_array_get(ins, 0), "class")), "strided");
	assert_non_null(json_object_get(json_array_get(ins, 0), "fix"));
	json_decref(doc);
	free(text);
	gm_trace_report_free(&r);
	gm_trace_free(&t);
}

/* The collector's real H200 traces (tests/fixtures/trace/h200_*.json, when present): the planted problem is the
   primary bottleneck, named with its line, and the top fix is the expected rewrite, worth making or not. Each file
   is analysed once for all its rows (consecutive). */
static void test_real_traces(void **state)
{
	static const struct {
		const char *file, *kernel, *primary, *rewrite;
		int worth;
	} rows[] = {
		{ "h200_planted_aos.json", "aos_x", "planted_aos.cu:15, strided by 8", "layout", 1 },
		{ "h200_planted_aos.json", "soa_x", "DRAM bandwidth", "", 0 },
		{ "h200_planted_colwalk.json", "row_sum_thread", "planted_colwalk.cu:19 and 15 more, column walk", "warp_rows", 1 },
		{ "h200_planted_colwalk.json", "transpose<0>", "bank conflicts at planted_colwalk.cu:49", "smem_pad", 1 },
		{ "h200_planted_colwalk.json", "transpose<1>", "", "", 0 },
		{ "h200_control_1gib.json", "saxpy", "DRAM bandwidth", "", 0 },
		{ "h200_cupy_transpose.json", "transpose_naive", ":6, transposed", "thread_order|tile_padded|tile_xor|tile_wide", 1 },
		/* bins the data chooses, an atomic an element, every warp on the same lines: their L2 slice's passes
		   (rule C) named at the line; the block's own bins in shared memory (set 6) */
		{ "h200_hist4096.json", "hist_global", "atomics on one address or line at", "block_reduce", 1 },
		/* an integer count a point into its voxel, a warp's lanes on one or two voxels: their turns (set 12) */
		{ "h200_vox.json", "vox_atomic", "atomics on 1.2 addresses a warp (from the data) at", "block_reduce", 1 },
		/* the embedding backward with lanes on tokens: the scattered atomics named, not "time outside" (set 6) */
		{ "h200_embbwd.json", "embbwd_token_x", "scattered atomics at", "swap_xy|thread_order|tile_padded|tile_xor|tile_wide", 1 },
	};
	const char *src = getenv("GPUMEM_SRC");
	struct gm_trace t;
	struct gm_trace_report r;
	const char *open_file = NULL;   /* the file t and r hold: rows of one file share its one analysis */

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char path[4096];
		int found = 0;

		if (!open_file || strcmp(open_file, rows[i].file)) {
			if (open_file) {
				gm_trace_report_free(&r);
				gm_trace_free(&t);
				open_file = NULL;
			}
			snprintf(path, sizeof(path), "%s/tests/fixtures/trace/%s", src ? src : ".", rows[i].file);
			if (access(path, R_OK))
				continue;   /* the collector's fixture is not in this tree */
			assert_int_equal(gm_trace_read(path, &t), GM_OK);
			assert_int_equal(gm_trace_analyse(&t, &P, 3, &r), GM_OK);
			open_file = rows[i].file;
		}
		for (int k = 0; k < r.nk; k++) {
			const struct gm_trace_kernel *K = &r.k[k];
			if (!K->l->name || !strstr(K->l->name, rows[i].kernel))
				continue;
			found = 1;
			print_message("%-22s %-16s primary: %.90s\n", rows[i].file, rows[i].kernel, K->primary);
			assert_non_null(strstr(K->primary, rows[i].primary));
			const struct gm_trace_fix *fx = &K->ins[0].fix;
			for (int j = 0; j < K->nins; j++)
				if (K->ins[j].fix.have && (K->ins[j].fix.worth || !fx->have))
					fx = &K->ins[j].fix;
			assert_int_equal(fx->worth, rows[i].worth);
			if (rows[i].worth) {   /* one of the rewrites named ('|' between them): suggest's ranking may move */
				char want[128];
				snprintf(want, sizeof(want), "|%s|", rows[i].rewrite);
				char got[40];
				snprintf(got, sizeof(got), "|%s|", fx->rewrite);
				if (!strstr(want, got))
					print_message("rewrite '%s' not in '%s'\n", fx->rewrite, rows[i].rewrite);
				assert_non_null(strstr(want, got));
			}
			break;
		}
		assert_true(found);
	}
	if (open_file) {
		gm_trace_report_free(&r);
		gm_trace_free(&t);
	}
}

/* Documents the reader refuses, each with one line naming the file. */
static void test_reader_refuses(void **state)
{
	static const struct { const char *text, *says; } bad[] = {
		{ "{\"schema\":\"gpumem-run\",\"launches\":[]}", "has schema 'gpumem-run', not 'gpumem-trace/1'" },
		{ "{\"launches\":[]}", "is not a gpumem trace document" },
		{ "{\"schema\":\"gpumem-trace/1\"}", "no 'launches' array" },
		{ "{\"schema\":\"gpumem-trace/1\",\"launches\":[{\"kernel\":\"k\",\"grid\":[1],\"block\":[2048],"
		  "\"instructions\":[]}]}", "'grid' or 'block'" },
		{ "{\"schema\":\"gpumem-trace/1\",\"launches\":[{\"kernel\":\"k\",\"grid\":[1],\"block\":[32],"
		  "\"instructions\":[{\"space\":\"texture\",\"op\":\"load\",\"size\":4}]}]}", "'space' or 'op'" },
		{ "{\"schema\":\"gpumem-trace/1\",\"launches\":[{\"kernel\":\"k\",\"grid\":[1],\"block\":[32],"
		  "\"instructions\":[{\"space\":\"global\",\"op\":\"load\",\"size\":4,\"samples\":[{\"block\":[0,0,0],"
		  "\"warp\":0,\"addr\":[\"x\"]}]}]}]}", "a sample is malformed" },
		{ "{\"schema\":\"gpumem-trace/1\",\"launches\":[{\"kernel\":", "cannot read" },
	};
	char path[] = "/tmp/gm_trace_badXXXXXX";

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct gm_trace t;
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "w");
		fputs(bad[i].text, f);
		fclose(f);
		assert_int_not_equal(gm_trace_read(path, &t), GM_OK);
		print_message("%s\n", gm_last_error());
		assert_non_null(strstr(gm_last_error(), bad[i].says));
		assert_non_null(strstr(gm_last_error(), path));
		gm_trace_free(&t);
		unlink(path);
		strcpy(path, "/tmp/gm_trace_badXXXXXX");
	}
}

/* A line in a toolkit header is named at the user's innermost call site, the header's kept as file_inner; a user
   file's line, or one without a call site of the user's, stays. */
static void test_reader_user_line(void **state)
{
	static const struct { const char *file, *at, *want; int line, want_line, inner; } rows[] = {
		{ "/usr/local/cuda/targets/x86_64-linux/include/device_atomic_functions.hpp",
		  "[{\"file\":\"/w/util.cuh\",\"line\":20},{\"file\":\"/w/k.cu\",\"line\":34}]", "/w/util.cuh", 152, 20, 152 },
		{ "/opt/conda/targets/x86_64-linux/include/sm_60_atomic_functions.hpp",
		  "[{\"file\":\"/usr/local/cuda/include/x.hpp\",\"line\":9},{\"file\":\"/w/k.cu\",\"line\":34}]", "/w/k.cu", 7, 34,
		  7 },
		{ "/usr/local/cuda/include/cuda_fp16.hpp", "[{\"file\":\"/usr/local/cuda/include/x.hpp\",\"line\":9}]",
		  "/usr/local/cuda/include/cuda_fp16.hpp", 5, 5, 0 },
		{ "/w/k.cu", "[{\"file\":\"/w/main.cu\",\"line\":3}]", "/w/k.cu", 12, 12, 0 },
		{ "/usr/local/cuda/include/device_atomic_functions.hpp", "null", "/usr/local/cuda/include/device_atomic_functions.hpp",
		  152, 152, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char text[1024];
		json_error_t e;
		struct gm_trace t;
		snprintf(text, sizeof(text), "{\"schema\":\"gpumem-trace/1\",\"launches\":[{\"kernel\":\"k\",\"grid\":[1],"
			 "\"block\":[32],\"instructions\":[{\"space\":\"global\",\"op\":\"reduction\",\"size\":4,"
			 "\"file\":\"%s\",\"line\":%d,\"inlined_at\":%s}]}]}", rows[i].file, rows[i].line, rows[i].at);
		json_t *doc = json_loads(text, 0, &e);
		assert_non_null(doc);
		assert_int_equal(gm_trace_read_json(doc, "row", &t), GM_OK);
		const struct gm_trace_instr *in = &t.launches[0].ins[0];
		assert_string_equal(in->file, rows[i].want);
		assert_int_equal(in->line, rows[i].want_line);
		assert_int_equal(in->line_inner, rows[i].inner);
		if (rows[i].inner)
			assert_string_equal(in->file_inner, rows[i].file);
		else
			assert_null(in->file_inner);
		gm_trace_free(&t);
		json_decref(doc);
	}
}

/* The collector's keys of trace_named.c: an instruction's "memory": "host" (mapped host memory) and a launch's
   "constant_lane_loads" (the LDC with a per-lane index); a document without them reads as device memory, none. */
static void test_reader_named_keys(void **state)
{
	const char *text = "{\"schema\":\"gpumem-trace/1\",\"launches\":[{\"kernel\":\"k\",\"grid\":[1],\"block\":[32],"
		"\"constant_lane_loads\":[{\"pc\":48,\"sass\":\"LDC\",\"file\":\"/w/c.cu\",\"line\":33},{\"pc\":64,"
		"\"sass\":\"LDC\",\"file\":null,\"line\":null}],\"instructions\":[{\"space\":\"global\",\"op\":\"load\","
		"\"size\":2,\"memory\":\"host\"},{\"space\":\"global\",\"op\":\"store\",\"size\":4}]},{\"kernel\":\"j\","
		"\"grid\":[1],\"block\":[32],\"instructions\":[]}]}";
	json_error_t e;
	struct gm_trace t;
	json_t *doc = json_loads(text, 0, &e);

	(void)state;
	assert_non_null(doc);
	assert_int_equal(gm_trace_read_json(doc, "named", &t), GM_OK);
	assert_int_equal(t.launches[0].ins[0].host, 1);
	assert_int_equal(t.launches[0].ins[1].host, 0);
	assert_int_equal(t.launches[0].const_lane, 2);
	assert_int_equal(t.launches[0].const_lane_pc, 48);
	assert_int_equal(t.launches[0].const_lane_line, 33);
	assert_string_equal(t.launches[0].const_lane_file, "/w/c.cu");
	assert_int_equal(t.launches[1].const_lane, 0);
	assert_null(t.launches[1].const_lane_file);
	gm_trace_free(&t);
	json_decref(doc);
}

/* A launch's "local_bytes" and "local_instructions" (rule spill): the STL / LDL the trace did not record, with their
   widths; a traced one left out; a document without the list reads as not listed (nspill -1). */
static void test_reader_spills(void **state)
{
	const char *text = "{\"schema\":\"gpumem-trace/1\",\"launches\":[{\"kernel\":\"k\",\"grid\":[1],\"block\":[32],"
		"\"local_bytes\":208,\"local_instructions\":[{\"pc\":48,\"sass\":\"STL.64\",\"traced\":false,"
		"\"file\":\"/w/s.cu\",\"line\":40},{\"pc\":64,\"sass\":\"LDL.LU.128\",\"traced\":false,\"file\":null,"
		"\"line\":null},{\"pc\":80,\"sass\":\"LDL\",\"traced\":true,\"file\":null,\"line\":null}],"
		"\"instructions\":[]},{\"kernel\":\"j\",\"grid\":[1],\"block\":[32],\"instructions\":[]}]}";
	json_error_t e;
	struct gm_trace t;
	json_t *doc = json_loads(text, 0, &e);

	(void)state;
	assert_non_null(doc);
	assert_int_equal(gm_trace_read_json(doc, "spills", &t), GM_OK);
	assert_int_equal(t.launches[0].local_bytes, 208);
	assert_int_equal(t.launches[0].nspill, 2);
	assert_int_equal(t.launches[0].spill[0].store, 1);
	assert_int_equal(t.launches[0].spill[0].bytes, 8);
	assert_int_equal(t.launches[0].spill[0].line, 40);
	assert_string_equal(t.launches[0].spill[0].file, "/w/s.cu");
	assert_int_equal(t.launches[0].spill[1].store, 0);
	assert_int_equal(t.launches[0].spill[1].bytes, 16);
	assert_null(t.launches[0].spill[1].file);
	assert_int_equal(t.launches[1].local_bytes, -1);
	assert_int_equal(t.launches[1].nspill, -1);
	gm_trace_free(&t);
	json_decref(doc);
}

int main(void)
{
	const char *dir = getenv("GM_TRACE_WRITE_FIXTURES");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_reader_named_keys),
		cmocka_unit_test(test_reader_spills),
		cmocka_unit_test(test_report_json),
		cmocka_unit_test(test_reader_refuses),
		cmocka_unit_test(test_reader_user_line),
		cmocka_unit_test(test_real_traces),
	};

	if (dir) {
		for (size_t i = 0; i < NFIX; i++)
			if (write_fixture(&fixtures[i], dir)) {
				fprintf(stderr, "cannot write %s/%s\n", dir, fixtures[i].file);
				return 1;
			}
		return 0;
	}
	return cmocka_run_group_tests(tests, setup, NULL);
}
