/*
 * probe.c - gm_probe: run the pattern kernels, then hold the model against
 * the Nsight Compute counters they produced (GitHub issue 3, part 3).
 *
 *   gm_probe run [--list]
 *       Launch every probe_<id> kernel of probe_kernels.cu once (one block,
 *       blockIdx 0), each on buffers sized from the model's addresses, and
 *       print one line per pattern. --list prints the patterns and the
 *       model's prediction without touching a GPU. Exit 0 when every probe
 *       ran, 1 when one failed, 77 when there is no CUDA device (ctest SKIP).
 *
 *   gm_probe compare [--measured-only] NCU_CSV OUT_CSV
 *       Read the CSV that `ncu --csv --page raw` prints (quoted fields, one
 *       row per launch, the launch's kernel in "Kernel Name", one column per
 *       metric; "==PROF==" lines, a units row and thousands separators are
 *       tolerated), join the rows to the patterns by kernel name, and write
 *       OUT_CSV with one row per pattern:
 *         id,space,op,elem_bytes,block,warp,base,active,index,
 *         pred_requests,meas_requests,pred_sectors,meas_sectors,
 *         pred_wavefronts,meas_wavefronts,pred_conflicts,meas_conflicts,
 *         agree,note
 *       Global patterns fill requests and sectors of their op
 *       (l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_{ld,st}.sum),
 *       shared ones wavefronts and bank conflicts of their op
 *       (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum,
 *       l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum); the
 *       other pair stays empty. block is "X,Y,Z"; agree is yes, no, missing
 *       (no row for the kernel, or a metric absent) or model-error. Prints
 *       "N/M patterns agree" and every pattern that does not. A pattern
 *       without a row counts as a disagreement unless --measured-only, which
 *       compares only the patterns the CSV has (for hand-made test input).
 *       Exit 0 when all agree, 1 when one does not, 2 on a usage or input
 *       error.
 *
 * Each kernel does the measured access once, in one warp, and nothing else
 * that the compared counters see; tests/gpu/probe_gen.c says how.
 * tests/gpu/model_vs_counters.sh runs both steps under ncu.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "gpumem/model.h"
#include "gpumem/status.h"
#include "probe_kernels.h"

#define PROBE_EXIT_SKIP 77
#define PROBE_SMEM_MAX (48 * 1024)
#define PROBE_GLOBAL_ROUND (64 * 1024)
#define PROBE_SINK_BYTES (1024 * 4)

/* ---- the model side ------------------------------------------------------ */

static gm_status probe_predict(const struct gm_probe_pattern *p,
			       struct gm_prediction *pred,
			       struct gm_expr_error *err)
{
	struct gm_access a;

	memset(&a, 0, sizeof(a));
	memset(err, 0, sizeof(*err));
	a.space = p->space == 1 ? GM_SPACE_SHARED : GM_SPACE_GLOBAL;
	a.op = p->op == 1 ? GM_OP_STORE : GM_OP_LOAD;
	a.elem_bytes = p->elem_bytes;
	memcpy(a.block, p->block, sizeof(a.block));
	a.warp = p->warp;
	a.base = p->base;
	a.index = p->index;
	a.active = p->active;
	return gm_model_predict(&a, pred, err);
}

/* One past the last byte any active lane touches; 0 when no lane is active. */
static int64_t probe_span_end(const struct gm_prediction *pred, int elem)
{
	int64_t end = 0;
	int i;

	for (i = 0; i < GM_WARP_SIZE; i++)
		if (pred->lanes[i].active && pred->lanes[i].addr + elem > end)
			end = pred->lanes[i].addr + elem;
	return end;
}

static int64_t probe_round_up(int64_t v, int64_t to)
{
	return (v + to - 1) / to * to;
}

/* Dynamic shared memory a shared pattern launches with (>= 16, x16). */
static size_t probe_smem_bytes(int64_t end)
{
	return (size_t)probe_round_up(end > 16 ? end : 16, 16);
}

/* ---- the device side ----------------------------------------------------- */

#define PROBE_CUDA(expr) probe_cuda_check((expr), #expr, __FILE__, __LINE__)

static gm_status probe_cuda_check(cudaError_t e, const char *what,
				  const char *file, int line)
{
	if (e == cudaSuccess)
		return GM_OK;
	return gm_fail(GM_ERR_CUDA, "%s: %s (%s:%d)", what,
		       cudaGetErrorString(e), file, line);
}

struct probe_buffers {
	unsigned char *gbuf;
	unsigned int *sink;
};

static gm_status probe_alloc(struct probe_buffers *b, size_t gbytes)
{
	gm_status s;

	if ((s = PROBE_CUDA(cudaMalloc((void **)&b->gbuf, gbytes))) != GM_OK ||
	    (s = PROBE_CUDA(cudaMalloc((void **)&b->sink, PROBE_SINK_BYTES))) != GM_OK ||
	    (s = PROBE_CUDA(cudaMemset(b->gbuf, 0, gbytes))) != GM_OK ||
	    (s = PROBE_CUDA(cudaMemset(b->sink, 0, PROBE_SINK_BYTES))) != GM_OK)
		return s;
	return PROBE_CUDA(cudaDeviceSynchronize());
}

static gm_status probe_free(struct probe_buffers *b)
{
	gm_status s = GM_OK, t = GM_OK;

	if (b->gbuf != NULL)
		s = PROBE_CUDA(cudaFree(b->gbuf));
	if (b->sink != NULL)
		t = PROBE_CUDA(cudaFree(b->sink));
	return s != GM_OK ? s : t;
}

static gm_status probe_launch(const struct gm_probe_pattern *p,
			      struct probe_buffers *b, size_t smem)
{
	dim3 grid = { 1, 1, 1 };
	dim3 block = { (unsigned)p->block[0], (unsigned)p->block[1],
		       (unsigned)p->block[2] };
	long long smem_arg = (long long)smem;
	void *args[] = { &b->gbuf, &b->sink, &smem_arg };
	gm_status s;

	s = PROBE_CUDA(cudaLaunchKernel(p->kernel, grid, block, args, smem, 0));
	if (s != GM_OK)
		return s;
	return PROBE_CUDA(cudaDeviceSynchronize());
}

/* ---- run ----------------------------------------------------------------- */

static const char *probe_space_name(int space)
{
	return space == 1 ? "shared" : "global";
}

static const char *probe_op_name(int op)
{
	return op == 1 ? "store" : "load";
}

static void probe_print_pattern(const struct gm_probe_pattern *p)
{
	printf("%s %s %s %dB block %d,%d,%d warp %d base %lld active [%s] index [%s]",
	       p->name, probe_space_name(p->space), probe_op_name(p->op),
	       p->elem_bytes, p->block[0], p->block[1], p->block[2], p->warp,
	       p->base, p->active, p->index);
}

static void probe_print_prediction(const struct gm_probe_pattern *p,
				   const struct gm_prediction *pred)
{
	if (p->space == 1)
		printf(" pred wavefronts %lld conflicts %lld",
		       (long long)pred->shared.wavefronts,
		       (long long)pred->shared.bank_conflicts);
	else
		printf(" pred requests %lld sectors %lld",
		       (long long)pred->global.requests,
		       (long long)pred->global.sectors);
}

/* Predict every pattern; *ok[i] = 0 where the model refused one. */
static int probe_predict_all(struct gm_prediction *preds, int *ok)
{
	struct gm_expr_error err;
	int i, bad = 0;

	for (i = 0; i < gm_probe_npatterns; i++) {
		const struct gm_probe_pattern *p = &gm_probe_patterns[i];
		gm_status s = probe_predict(p, &preds[i], &err);

		ok[i] = s == GM_OK;
		if (!ok[i]) {
			fprintf(stderr, "error: model refused %s (%s): %s: %s\n",
				p->name, p->index, gm_strerror(s), err.msg);
			bad++;
		}
	}
	return bad;
}

static int cmd_list(const struct gm_prediction *preds, const int *ok)
{
	int i;

	for (i = 0; i < gm_probe_npatterns; i++) {
		probe_print_pattern(&gm_probe_patterns[i]);
		if (ok[i])
			probe_print_prediction(&gm_probe_patterns[i], &preds[i]);
		else
			printf(" model-error");
		printf(" # %s\n", gm_probe_patterns[i].note);
	}
	return 0;
}

/* Global bytes the patterns need; -1 if a shared pattern exceeds 48 KiB. */
static int64_t probe_global_need(const struct gm_prediction *preds, const int *ok)
{
	int64_t need = 256;
	int i;

	for (i = 0; i < gm_probe_npatterns; i++) {
		const struct gm_probe_pattern *p = &gm_probe_patterns[i];
		int64_t end;

		if (!ok[i])
			continue;
		end = probe_span_end(&preds[i], p->elem_bytes);
		if (p->space == 1 && end > PROBE_SMEM_MAX) {
			fprintf(stderr, "error: %s needs %lld B of shared memory, "
				"more than %d\n", p->name, (long long)end, PROBE_SMEM_MAX);
			return -1;
		}
		if (p->space == 0 && end > need)
			need = end;
	}
	return probe_round_up(need, PROBE_GLOBAL_ROUND);
}

static int probe_device_present(void)
{
	int n = 0;
	cudaError_t e = cudaGetDeviceCount(&n);

	if (e != cudaSuccess) {
		fprintf(stderr, "skip: no CUDA device: %s\n", cudaGetErrorString(e));
		return 0;
	}
	if (n == 0)
		fprintf(stderr, "skip: no CUDA device\n");
	return n > 0;
}

static int probe_run_all(const struct gm_prediction *preds, const int *ok,
			 struct probe_buffers *b)
{
	int i, ran = 0;

	for (i = 0; i < gm_probe_npatterns; i++) {
		const struct gm_probe_pattern *p = &gm_probe_patterns[i];
		size_t smem = 0;
		gm_status s;

		if (!ok[i])
			continue;
		if (p->space == 1)
			smem = probe_smem_bytes(probe_span_end(&preds[i], p->elem_bytes));
		s = probe_launch(p, b, smem);
		if (s != GM_OK) {
			fprintf(stderr, "error: %s failed: %s\n", p->name, gm_last_error());
			break; /* the context is likely lost: later launches would fail too */
		}
		probe_print_pattern(p);
		printf(" ok\n");
		ran++;
	}
	return ran;
}

static int cmd_run(int argc, char **argv)
{
	static struct gm_prediction preds[1024];
	static int ok[1024];
	struct probe_buffers b = { NULL, NULL };
	int64_t need;
	int bad, ran;
	gm_status s;

	if (argc > 1 && strcmp(argv[1], "--list") != 0) {
		fprintf(stderr, "usage: gm_probe run [--list]\n");
		return 2;
	}
	if (gm_probe_npatterns > 1024) {
		fprintf(stderr, "error: more than 1024 patterns\n");
		return 2;
	}
	bad = probe_predict_all(preds, ok);
	if (argc > 1)
		return cmd_list(preds, ok) || bad > 0;
	if (!probe_device_present())
		return PROBE_EXIT_SKIP;
	if ((need = probe_global_need(preds, ok)) < 0)
		return 1;
	if ((s = probe_alloc(&b, (size_t)need)) != GM_OK) {
		fprintf(stderr, "error: cannot allocate probe buffers: %s\n", gm_last_error());
		(void)probe_free(&b);
		return 1;
	}
	ran = probe_run_all(preds, ok, &b);
	if (probe_free(&b) != GM_OK)
		fprintf(stderr, "warning: cannot free probe buffers: %s\n", gm_last_error());
	printf("ran %d/%d probes\n", ran, gm_probe_npatterns);
	return ran == gm_probe_npatterns && bad == 0 ? 0 : 1;
}

/* ---- reading ncu's CSV ----------------------------------------------------- */

/* The compared metrics: index = 2 * quantity + op (op 0 load, 1 store). */
enum { PQ_REQUESTS, PQ_SECTORS, PQ_WAVEFRONTS, PQ_CONFLICTS, PQ_COUNT };
#define PROBE_NMETRICS (2 * PQ_COUNT)

static const char *const probe_metrics[PROBE_NMETRICS] = {
	"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
	"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
};

struct probe_meas {
	int rows;                     /* rows of this kernel seen */
	int have[PROBE_NMETRICS];
	int64_t v[PROBE_NMETRICS];
};

/* One CSV record: fields NUL-terminated in buf at off[0..n). */
struct csv_row {
	char *buf;
	size_t len, cap;
	size_t *off;
	int n, ncap;
};

static gm_status csv_putc(struct csv_row *r, char c)
{
	if (r->len + 1 >= r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 1024;
		char *p = realloc(r->buf, cap);

		if (p == NULL)
			return gm_fail(GM_ERR_NOMEM, "csv row of %zu bytes", cap);
		r->buf = p;
		r->cap = cap;
	}
	r->buf[r->len++] = c;
	return GM_OK;
}

static gm_status csv_start_field(struct csv_row *r)
{
	if (r->n == r->ncap) {
		int cap = r->ncap ? 2 * r->ncap : 64;
		size_t *p = realloc(r->off, (size_t)cap * sizeof(*p));

		if (p == NULL)
			return gm_fail(GM_ERR_NOMEM, "csv row of %d fields", cap);
		r->off = p;
		r->ncap = cap;
	}
	r->off[r->n++] = r->len;
	return GM_OK;
}

/*
 * Read one record (RFC 4180: "" inside quotes is a quote; quoted fields may
 * hold commas and newlines). *eof is set when nothing was left to read.
 */
static gm_status csv_read_row(FILE *f, struct csv_row *r, int *eof)
{
	int c, quoted = 0, any = 0;
	gm_status s = GM_OK;

	r->len = 0;
	r->n = 0;
	if ((s = csv_start_field(r)) != GM_OK)
		return s;
	while ((c = getc(f)) != EOF) {
		any = 1;
		if (quoted && c == '"') {
			c = getc(f);
			if (c != '"') {
				quoted = 0;
				if (c == EOF)
					break;
				ungetc(c, f);
				continue;
			}
		} else if (!quoted && c == '"') {
			quoted = 1;
			continue;
		} else if (!quoted && (c == '\n' || c == '\r')) {
			if (c == '\r' && (c = getc(f)) != '\n' && c != EOF)
				ungetc(c, f);
			break;
		} else if (!quoted && c == ',') {
			if ((s = csv_putc(r, '\0')) != GM_OK ||
			    (s = csv_start_field(r)) != GM_OK)
				return s;
			continue;
		}
		if ((s = csv_putc(r, (char)c)) != GM_OK)
			return s;
	}
	*eof = !any;
	if (ferror(f))
		return gm_fail(GM_ERR_IO, "read error: %s", strerror(errno));
	return csv_putc(r, '\0');
}

static const char *csv_field(const struct csv_row *r, int i)
{
	return i >= 0 && i < r->n ? r->buf + r->off[i] : "";
}

static void csv_row_free(struct csv_row *r)
{
	free(r->buf);
	free(r->off);
}

/* A counter value: "1,024", " 4 ", "4.00"; 0 when it is not a number. */
static int probe_parse_count(const char *text, int64_t *out)
{
	char clean[64], *end;
	size_t n = 0;
	double v;

	for (; *text != '\0'; text++) {
		if (*text == ',' || *text == ' ' || *text == '\t')
			continue;
		if (n + 1 >= sizeof(clean))
			return 0;
		clean[n++] = *text;
	}
	clean[n] = '\0';
	if (n == 0)
		return 0;
	errno = 0;
	v = strtod(clean, &end);
	if (*end != '\0' || errno != 0 || !isfinite(v) || v < 0 || v > 9e15)
		return 0;
	*out = (int64_t)llround(v);
	return 1;
}

/* The pattern of a kernel name holding "probe_<digits>"; -1 if none. */
static int probe_find(const char *kernel)
{
	const char *p = strstr(kernel, "probe_");
	long id;
	char *end;
	int i;

	if (p == NULL || p[6] < '0' || p[6] > '9')
		return -1;
	id = strtol(p + 6, &end, 10);
	for (i = 0; i < gm_probe_npatterns; i++)
		if (gm_probe_patterns[i].id == id)
			return i;
	return -1;
}

struct probe_columns {
	int kernel;
	int metric[PROBE_NMETRICS];
};

static int probe_header(const struct csv_row *r, struct probe_columns *c)
{
	int i, m;

	c->kernel = -1;
	for (m = 0; m < PROBE_NMETRICS; m++)
		c->metric[m] = -1;
	for (i = 0; i < r->n; i++) {
		if (strcmp(csv_field(r, i), "Kernel Name") == 0)
			c->kernel = i;
		for (m = 0; m < PROBE_NMETRICS; m++)
			if (strcmp(csv_field(r, i), probe_metrics[m]) == 0)
				c->metric[m] = i;
	}
	return c->kernel >= 0;
}

/* Record one launch row; the first row of a kernel wins, later ones are checked. */
static void probe_take_row(const struct csv_row *r, const struct probe_columns *c,
			   struct probe_meas *meas)
{
	int k = probe_find(csv_field(r, c->kernel)), m;
	struct probe_meas *pm;
	int64_t v;

	if (k < 0)
		return;
	pm = &meas[k];
	for (m = 0; m < PROBE_NMETRICS; m++) {
		if (c->metric[m] < 0 || !probe_parse_count(csv_field(r, c->metric[m]), &v))
			continue;
		if (pm->rows == 0) {
			pm->have[m] = 1;
			pm->v[m] = v;
		} else if (pm->have[m] && pm->v[m] != v) {
			fprintf(stderr, "warning: %s launched more than once with "
				"different %s (%lld, then %lld); the first is compared\n",
				gm_probe_patterns[k].name, probe_metrics[m],
				(long long)pm->v[m], (long long)v);
		}
	}
	pm->rows++;
}

static void probe_warn_columns(const struct probe_columns *c)
{
	int m;

	for (m = 0; m < PROBE_NMETRICS; m++)
		if (c->metric[m] < 0)
			fprintf(stderr, "warning: the CSV has no column '%s'\n",
				probe_metrics[m]);
}

/* Fill meas[] from the CSV; GM_ERR_PARSE when no header row is found. */
static gm_status probe_read_ncu(const char *path, struct probe_meas *meas)
{
	struct csv_row r = { 0 };
	struct probe_columns c = { -1 };
	int eof = 0, header = 0;
	gm_status s = GM_OK;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return gm_fail(GM_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
	while (s == GM_OK && (s = csv_read_row(f, &r, &eof)) == GM_OK && !eof) {
		if (!header) {
			header = probe_header(&r, &c);
			if (header)
				probe_warn_columns(&c);
		} else {
			probe_take_row(&r, &c, meas);
		}
	}
	fclose(f);
	csv_row_free(&r);
	if (s == GM_OK && !header)
		s = gm_fail(GM_ERR_PARSE, "'%s' has no header row with a 'Kernel Name' "
			    "column (was it written by ncu --csv --page raw?)", path);
	return s;
}

/* ---- comparing and writing ----------------------------------------------- */

struct probe_verdict {
	int64_t pred[2], meas[2]; /* requests+sectors or wavefronts+conflicts */
	int have_pred, have_meas;
	const char *agree;        /* yes, no, missing, model-error */
};

static void probe_judge(const struct gm_probe_pattern *p, const struct probe_meas *m,
			const struct gm_prediction *pred, int pred_ok,
			struct probe_verdict *v)
{
	int q0 = p->space == 1 ? PQ_WAVEFRONTS : PQ_REQUESTS;
	int i0 = 2 * q0 + p->op, i1 = 2 * (q0 + 1) + p->op;

	memset(v, 0, sizeof(*v));
	v->have_pred = pred_ok;
	if (pred_ok) {
		v->pred[0] = p->space == 1 ? pred->shared.wavefronts : pred->global.requests;
		v->pred[1] = p->space == 1 ? pred->shared.bank_conflicts : pred->global.sectors;
	}
	v->have_meas = m->rows > 0 && m->have[i0] && m->have[i1];
	if (v->have_meas) {
		v->meas[0] = m->v[i0];
		v->meas[1] = m->v[i1];
	}
	if (!v->have_meas)
		v->agree = "missing";
	else if (!pred_ok)
		v->agree = "model-error";
	else if (v->pred[0] == v->meas[0] && v->pred[1] == v->meas[1])
		v->agree = "yes";
	else
		v->agree = "no";
}

/* A CSV field, quoted when it holds a comma, quote or line break. */
static void csv_write_field(FILE *o, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, o);
		return;
	}
	fputc('"', o);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', o);
		fputc(*s, o);
	}
	fputc('"', o);
}

static void csv_write_count(FILE *o, int have, int64_t v)
{
	fputc(',', o);
	if (have)
		fprintf(o, "%lld", (long long)v);
}

static const char probe_out_header[] =
	"id,space,op,elem_bytes,block,warp,base,active,index,"
	"pred_requests,meas_requests,pred_sectors,meas_sectors,"
	"pred_wavefronts,meas_wavefronts,pred_conflicts,meas_conflicts,agree,note\n";

static void probe_write_row(FILE *o, const struct gm_probe_pattern *p,
			    const struct probe_verdict *v)
{
	int shared = p->space == 1, q;

	fprintf(o, "%d,%s,%s,%d,\"%d,%d,%d\",%d,%lld,", p->id,
		probe_space_name(p->space), probe_op_name(p->op), p->elem_bytes,
		p->block[0], p->block[1], p->block[2], p->warp, p->base);
	csv_write_field(o, p->active);
	fputc(',', o);
	csv_write_field(o, p->index);
	for (q = 0; q < PQ_COUNT; q++) {
		int mine = (q >= PQ_WAVEFRONTS) == shared;
		int k = q % 2;

		csv_write_count(o, mine && v->have_pred, v->pred[k]);
		csv_write_count(o, mine && v->have_meas, v->meas[k]);
	}
	fprintf(o, ",%s,", v->agree);
	csv_write_field(o, p->note);
	fputc('\n', o);
}

static void probe_print_disagreement(const struct gm_probe_pattern *p,
				     const struct probe_verdict *v)
{
	const char *n0 = p->space == 1 ? "wavefronts" : "requests";
	const char *n1 = p->space == 1 ? "conflicts" : "sectors";

	printf("  %s %s %s %dB block %d,%d,%d warp %d base %lld active [%s] "
	       "index [%s]: %s", p->name, probe_space_name(p->space),
	       probe_op_name(p->op), p->elem_bytes, p->block[0], p->block[1],
	       p->block[2], p->warp, p->base, p->active, p->index, v->agree);
	if (v->have_pred && v->have_meas)
		printf(": %s model %lld hw %lld, %s model %lld hw %lld", n0,
		       (long long)v->pred[0], (long long)v->meas[0], n1,
		       (long long)v->pred[1], (long long)v->meas[1]);
	printf("\n");
}

/* Write OUT_CSV and print the summary; returns the exit status. */
static int probe_report(const char *out_path, const struct probe_meas *meas,
			int measured_only)
{
	static struct probe_verdict verdicts[1024];
	struct gm_prediction pred;
	struct gm_expr_error err;
	int i, total = 0, agree = 0, bad;
	FILE *o = fopen(out_path, "w");

	if (o == NULL) {
		fprintf(stderr, "error: cannot open '%s': %s\n", out_path, strerror(errno));
		return 2;
	}
	fputs(probe_out_header, o);
	for (i = 0; i < gm_probe_npatterns; i++) {
		const struct gm_probe_pattern *p = &gm_probe_patterns[i];
		int ok = probe_predict(p, &pred, &err) == GM_OK;

		probe_judge(p, &meas[i], &pred, ok, &verdicts[i]);
		if (measured_only && meas[i].rows == 0)
			continue;
		probe_write_row(o, p, &verdicts[i]);
		total++;
		agree += strcmp(verdicts[i].agree, "yes") == 0;
	}
	bad = ferror(o);
	if (fclose(o) != 0 || bad) {
		fprintf(stderr, "error: cannot write '%s'\n", out_path);
		return 2;
	}
	printf("%d/%d patterns agree\n", agree, total);
	for (i = 0; i < gm_probe_npatterns; i++)
		if ((!measured_only || meas[i].rows > 0) &&
		    strcmp(verdicts[i].agree, "yes") != 0)
			probe_print_disagreement(&gm_probe_patterns[i], &verdicts[i]);
	return agree == total && total > 0 ? 0 : 1;
}

static int cmd_compare(int argc, char **argv)
{
	static struct probe_meas meas[1024];
	int measured_only = 0, a = 1;
	gm_status s;

	if (argc > 1 && strcmp(argv[1], "--measured-only") == 0) {
		measured_only = 1;
		a = 2;
	}
	if (argc - a != 2 || gm_probe_npatterns > 1024) {
		fprintf(stderr, "usage: gm_probe compare [--measured-only] NCU_CSV OUT_CSV\n");
		return 2;
	}
	if ((s = probe_read_ncu(argv[a], meas)) != GM_OK) {
		fprintf(stderr, "error: %s\n", gm_last_error());
		return 2;
	}
	return probe_report(argv[a + 1], meas, measured_only);
}

/* ---- main ---------------------------------------------------------------- */

static int probe_usage(void)
{
	fprintf(stderr, "usage: gm_probe run [--list]\n"
		"       gm_probe compare [--measured-only] NCU_CSV OUT_CSV\n");
	return 2;
}

int main(int argc, char **argv)
{
	int rc;

	if (argc < 2)
		return probe_usage();
	if (strcmp(argv[1], "run") == 0)
		rc = cmd_run(argc - 1, argv + 1);
	else if (strcmp(argv[1], "compare") == 0)
		rc = cmd_compare(argc - 1, argv + 1);
	else
		return probe_usage();
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "error: cannot write to standard output\n");
		return 2;
	}
	return rc;
}
