/*
 * probe_gen.c - turn tests/gpu/patterns.tsv into CUDA probe kernels.
 *
 *   probe_gen PATTERNS.tsv OUT.cu OUT.h
 *
 * Built and run at build time (tests/gpu/CMakeLists.txt). For every pattern
 * line it writes one kernel `extern "C" __global__ probe_<id>` (id padded to
 * three digits) in which only warp `warp` of a one-block launch performs the
 * measured access, exactly once per active lane, as ONE load or store
 * instruction of elem_bytes; nothing else in the kernel touches the counters
 * that the pattern is compared on:
 *   global load   the measured LDG, then a coalesced 4 B store of the value
 *                 (global op_st, not compared for loads);
 *   global store  the measured STG only;
 *   shared load   a coalesced 4 B fill of the dynamic shared buffer (shared
 *                 op_st), a barrier, the measured LDS, a store to global;
 *   shared store  the measured STS, a barrier, one coalesced 4 B read back of
 *                 the buffer (shared op_ld) stored to global.
 * The index and active expressions are pasted as C with every variable a
 * signed 64-bit `long long`, so the arithmetic is the model's. The header
 * OUT.h declares the pattern table that OUT.cu defines; tests/gpu/probe.c
 * reads it. This is a build tool: it prints its errors and exits.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/status.h"

#define PG_MAX_PATTERNS 999
#define PG_LINE_MAX 1024
#define PG_EXPR_MAX 512
#define PG_MAX_FIELDS 10

struct pg_pattern {
	int id;
	int shared;     /* 0 global, 1 shared */
	int store;      /* 0 load, 1 store */
	int elem;
	int block[3];
	int warp;
	long long base;
	char active[PG_EXPR_MAX];  /* C text, variables renamed */
	char index[PG_EXPR_MAX];
	char active_src[PG_EXPR_MAX]; /* as written, for the model */
	char index_src[PG_EXPR_MAX];
	char note[PG_LINE_MAX];
};

/* The element type of each access width and how a value folds to a word. */
struct pg_width {
	int bytes;
	const char *type;
	const char *value; /* a value of that type made from `tid` */
};

static const struct pg_width pg_widths[] = {
	{ 1, "unsigned char", "(unsigned char)tid" },
	{ 2, "unsigned short", "(unsigned short)tid" },
	{ 4, "unsigned int", "(unsigned int)tid" },
	{ 8, "unsigned long long", "(unsigned long long)tid" },
	{ 16, "uint4", "make_uint4((unsigned int)tid, 1u, 2u, 3u)" },
};

/* Names an expression may use and the C variable each becomes. */
static const struct {
	const char *name;
	const char *c;
} pg_vars[] = {
	{ "lane", "lane" }, { "warp", "warp" }, { "tid", "tid" },
	{ "tx", "tx" }, { "ty", "ty" }, { "tz", "tz" },
	{ "bx", "bx" }, { "by", "by" }, { "bz", "bz" },
	{ "bdx", "bdx" }, { "bdy", "bdy" }, { "bdz", "bdz" },
	{ "threadIdx.x", "tx" }, { "threadIdx.y", "ty" }, { "threadIdx.z", "tz" },
	{ "blockIdx.x", "bx" }, { "blockIdx.y", "by" }, { "blockIdx.z", "bz" },
	{ "blockDim.x", "bdx" }, { "blockDim.y", "bdy" }, { "blockDim.z", "bdz" },
};

static char pg_msg[PG_LINE_MAX + 256];

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static gm_status pg_fail(gm_status s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(pg_msg, sizeof(pg_msg), fmt, ap);
	va_end(ap);
	return s;
}

static const struct pg_width *pg_width_of(int bytes)
{
	size_t i;

	for (i = 0; i < sizeof(pg_widths) / sizeof(pg_widths[0]); i++)
		if (pg_widths[i].bytes == bytes)
			return &pg_widths[i];
	return NULL;
}

static const char *pg_var_c(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(pg_vars) / sizeof(pg_vars[0]); i++)
		if (strlen(pg_vars[i].name) == len &&
		    strncmp(pg_vars[i].name, name, len) == 0)
			return pg_vars[i].c;
	return NULL;
}

static int pg_append(char *out, size_t cap, size_t *n, const char *s, size_t len)
{
	if (*n + len + 1 > cap)
		return -1;
	memcpy(out + *n, s, len);
	*n += len;
	out[*n] = '\0';
	return 0;
}

/*
 * Copy an expression as C: rename variables, refuse unknown names and any
 * character that could end the expression (';', '{', quotes, ...).
 */
static gm_status pg_expr_to_c(const char *src, char *out, size_t cap)
{
	static const char ok_punct[] = "+-*/%^&|<>=!~?:() \t";
	size_t i = 0, n = 0;

	out[0] = '\0';
	if (src[0] == '\0')
		return pg_fail(GM_ERR_PARSE, "empty expression");
	while (src[i] != '\0') {
		unsigned char c = (unsigned char)src[i];
		size_t len = 1;
		const char *piece = src + i;

		if (isalpha(c) || c == '_') {
			while (isalnum((unsigned char)src[i + len]) ||
			       src[i + len] == '_' || src[i + len] == '.')
				len++;
			piece = pg_var_c(src + i, len);
			if (piece == NULL)
				return pg_fail(GM_ERR_PARSE,
					       "unknown variable in '%s'", src);
		} else if (isdigit(c)) {
			while (isalnum((unsigned char)src[i + len]))
				len++;
		} else if (strchr(ok_punct, c) == NULL) {
			return pg_fail(GM_ERR_PARSE,
				       "character not allowed in '%s'", src);
		}
		if (pg_append(out, cap, &n, piece,
			      piece == src + i ? len : strlen(piece)) != 0)
			return pg_fail(GM_ERR_PARSE, "expression too long: '%s'", src);
		i += len;
	}
	return GM_OK;
}

/* Strict decimal integer in [lo, hi]. */
static gm_status pg_int(const char *text, long long lo, long long hi,
			long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(text, &end, 10);
	if (text[0] == '\0' || *end != '\0' || errno != 0 || *out < lo || *out > hi)
		return pg_fail(GM_ERR_PARSE, "bad number '%s'", text);
	return GM_OK;
}

static gm_status pg_block(const char *text, int block[3])
{
	long long v[3];
	char buf[64], *parts[3], *save = NULL;
	int i;

	if (strlen(text) >= sizeof(buf))
		return pg_fail(GM_ERR_PARSE, "bad block '%s'", text);
	strcpy(buf, text);
	for (i = 0; i < 3; i++) {
		parts[i] = strtok_r(i == 0 ? buf : NULL, ",", &save);
		if (parts[i] == NULL || pg_int(parts[i], 1, 1024, &v[i]) != GM_OK)
			return pg_fail(GM_ERR_PARSE,
				       "bad block '%s' (want X,Y,Z)", text);
		block[i] = (int)v[i];
	}
	if (strtok_r(NULL, ",", &save) != NULL || v[0] * v[1] * v[2] > 1024 ||
	    v[2] > 64)
		return pg_fail(GM_ERR_PARSE, "bad block '%s'", text);
	return GM_OK;
}

/* Split a line at tabs in place; returns the number of fields. */
static int pg_split(char *line, char *fields[PG_MAX_FIELDS])
{
	int n = 0;
	char *p = line;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < PG_MAX_FIELDS) {
		fields[n++] = p;
		p = strchr(p, '\t');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	return p == NULL ? n : PG_MAX_FIELDS + 1;
}

static gm_status pg_space_op(struct pg_pattern *p, const char *space,
			     const char *op)
{
	if (strcmp(space, "global") != 0 && strcmp(space, "shared") != 0)
		return pg_fail(GM_ERR_PARSE, "bad space '%s' (global|shared)", space);
	if (strcmp(op, "load") != 0 && strcmp(op, "store") != 0)
		return pg_fail(GM_ERR_PARSE, "bad op '%s' (load|store)", op);
	p->shared = strcmp(space, "shared") == 0;
	p->store = strcmp(op, "store") == 0;
	return GM_OK;
}

static gm_status pg_copy(char *dst, size_t cap, const char *src)
{
	if (strlen(src) >= cap)
		return pg_fail(GM_ERR_PARSE, "field too long: '%.60s'", src);
	strcpy(dst, src);
	return GM_OK;
}

static gm_status pg_parse_line(char *line, struct pg_pattern *p)
{
	char *f[PG_MAX_FIELDS];
	long long id, elem, warp, base;
	int n = pg_split(line, f);
	gm_status s;

	if (n < 9 || n > PG_MAX_FIELDS)
		return pg_fail(GM_ERR_PARSE, "want 9 or 10 tab-separated fields");
	if ((s = pg_int(f[0], 1, PG_MAX_PATTERNS, &id)) != GM_OK ||
	    (s = pg_space_op(p, f[1], f[2])) != GM_OK ||
	    (s = pg_int(f[3], 1, 16, &elem)) != GM_OK ||
	    (s = pg_block(f[4], p->block)) != GM_OK ||
	    (s = pg_int(f[5], 0, 31, &warp)) != GM_OK ||
	    (s = pg_int(f[6], 0, 1LL << 40, &base)) != GM_OK)
		return s;
	if (pg_width_of((int)elem) == NULL || base % elem != 0)
		return pg_fail(GM_ERR_PARSE,
			       "elem_bytes must be 1, 2, 4, 8 or 16 and divide base");
	if (warp * 32 >= (long long)p->block[0] * p->block[1] * p->block[2])
		return pg_fail(GM_ERR_PARSE, "warp %s is outside the block", f[5]);
	p->id = (int)id;
	p->elem = (int)elem;
	p->warp = (int)warp;
	p->base = base;
	if ((s = pg_copy(p->active_src, sizeof(p->active_src), f[7])) != GM_OK ||
	    (s = pg_copy(p->index_src, sizeof(p->index_src), f[8])) != GM_OK ||
	    (s = pg_copy(p->note, sizeof(p->note), n == 10 ? f[9] : "")) != GM_OK ||
	    (s = pg_expr_to_c(f[7], p->active, sizeof(p->active))) != GM_OK)
		return s;
	return pg_expr_to_c(f[8], p->index, sizeof(p->index));
}

static int pg_is_blank(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return *line == '#' || *line == '\0' || *line == '\n' || *line == '\r';
}

/* Read every pattern; *lineno is the failing line on error. */
static gm_status pg_read(FILE *f, struct pg_pattern *pats, int *npats, int *lineno)
{
	char line[PG_LINE_MAX];
	gm_status s;
	int i;

	*npats = 0;
	*lineno = 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		++*lineno;
		if (strchr(line, '\n') == NULL && !feof(f))
			return pg_fail(GM_ERR_PARSE, "line too long");
		if (pg_is_blank(line))
			continue;
		if (*npats == PG_MAX_PATTERNS)
			return pg_fail(GM_ERR_PARSE, "too many patterns");
		if ((s = pg_parse_line(line, &pats[*npats])) != GM_OK)
			return s;
		for (i = 0; i < *npats; i++)
			if (pats[i].id == pats[*npats].id)
				return pg_fail(GM_ERR_PARSE, "duplicate id");
		++*npats;
	}
	if (ferror(f))
		return pg_fail(GM_ERR_IO, "read error");
	return *npats > 0 ? GM_OK : pg_fail(GM_ERR_PARSE, "no patterns");
}

/* ---- output ------------------------------------------------------------ */

static const char pg_prologue[] =
	"/* Generated by tests/gpu/probe_gen.c from patterns.tsv: do not edit. */\n"
	"#include <cuda_runtime.h>\n"
	"#include \"probe_kernels.h\"\n"
	"\n"
	"/* Fold a loaded value to one word so that the load stays live. */\n"
	"static __device__ __forceinline__ unsigned int gm_fold(unsigned char v) { return v; }\n"
	"static __device__ __forceinline__ unsigned int gm_fold(unsigned short v) { return v; }\n"
	"static __device__ __forceinline__ unsigned int gm_fold(unsigned int v) { return v; }\n"
	"static __device__ __forceinline__ unsigned int gm_fold(unsigned long long v)\n"
	"{ return (unsigned int)v ^ (unsigned int)(v >> 32); }\n"
	"static __device__ __forceinline__ unsigned int gm_fold(uint4 v)\n"
	"{ return v.x ^ v.y ^ v.z ^ v.w; }\n"
	"\n"
	"/*\n"
	" * The variables of the model, each a signed 64-bit integer; tid is the\n"
	" * thread's linear index in its block, lane = tid % 32, warp = tid / 32.\n"
	" */\n"
	"#define GM_PROBE_VARS \\\n"
	"\textern __shared__ uint4 gm_smem4[]; \\\n"
	"\tunsigned char *const smem = (unsigned char *)gm_smem4; \\\n"
	"\tconst long long tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z; \\\n"
	"\tconst long long bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z; \\\n"
	"\tconst long long bdx = blockDim.x, bdy = blockDim.y, bdz = blockDim.z; \\\n"
	"\tconst long long tid = tx + bdx * (ty + bdy * tz); \\\n"
	"\tconst long long lane = tid % 32, warp = tid / 32; \\\n"
	"\t(void)smem; (void)tx; (void)ty; (void)tz; (void)bx; (void)by; (void)bz; \\\n"
	"\t(void)bdx; (void)bdy; (void)bdz; (void)lane; (void)warp; \\\n"
	"\t(void)gbuf; (void)sink; (void)smem_bytes\n"
	"\n"
	"/* Shared load patterns: fill the buffer (4 B stores, shared op_st). */\n"
	"#define GM_PROBE_FILL \\\n"
	"\tfor (long long i = tid; i < smem_bytes / 4; i += bdx * bdy * bdz) \\\n"
	"\t\t((unsigned int *)smem)[i] = (unsigned int)i * 2654435761u; \\\n"
	"\t__syncthreads()\n"
	"\n"
	"/* Shared store patterns: read the buffer back (4 B loads, shared op_ld). */\n"
	"#define GM_PROBE_READBACK \\\n"
	"\t__syncthreads(); \\\n"
	"\tsink[tid] = ((const unsigned int *)smem)[tid % (smem_bytes / 4)]\n"
	"\n"
	"#define GM_PROBE_PARAMS unsigned char *gbuf, unsigned int *sink, long long smem_bytes\n"
	"\n";

static void pg_write_kernel(FILE *o, const struct pg_pattern *p)
{
	const struct pg_width *w = pg_width_of(p->elem);
	const char *mem = p->shared ? "smem" : "gbuf";

	fprintf(o, "/* %d: %s %s %d B, block %d,%d,%d, warp %d, base %lld: "
		"active [%s] index [%s] */\n",
		p->id, p->shared ? "shared" : "global", p->store ? "store" : "load",
		p->elem, p->block[0], p->block[1], p->block[2], p->warp, p->base,
		p->active_src, p->index_src);
	fprintf(o, "extern \"C\" __global__ void probe_%03d(GM_PROBE_PARAMS)\n{\n"
		"\tGM_PROBE_VARS;\n", p->id);
	if (!p->store)
		fprintf(o, "\tunsigned int word = 0;\n");
	if (p->shared && !p->store)
		fprintf(o, "\tGM_PROBE_FILL;\n");
	fprintf(o, "\tif (warp == %d && (%s)) {\n\t\tconst long long idx = (%s);\n",
		p->warp, p->active, p->index);
	if (p->store)
		fprintf(o, "\t\t*(%s *)(%s + %lldLL + idx * %d) = %s;\n",
			w->type, mem, p->base, p->elem, w->value);
	else
		fprintf(o, "\t\tword = gm_fold(*(const %s *)(%s + %lldLL + idx * %d));\n",
			w->type, mem, p->base, p->elem);
	fprintf(o, "\t}\n");
	if (p->shared && p->store)
		fprintf(o, "\tGM_PROBE_READBACK;\n");
	else if (!p->store)
		fprintf(o, "\tsink[tid] = word;\n");
	fprintf(o, "}\n\n");
}

/* A C string literal of s. */
static void pg_write_str(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', o);
		fputc(*s, o);
	}
	fputc('"', o);
}

static void pg_write_table(FILE *o, const struct pg_pattern *pats, int n)
{
	int i;

	fprintf(o, "const struct gm_probe_pattern gm_probe_patterns[] = {\n");
	for (i = 0; i < n; i++) {
		const struct pg_pattern *p = &pats[i];

		fprintf(o, "\t{ %d, \"probe_%03d\", (const void *)probe_%03d, %d, %d, %d, "
			"{ %d, %d, %d }, %d, %lldLL, ", p->id, p->id, p->id, p->shared,
			p->store, p->elem, p->block[0], p->block[1], p->block[2],
			p->warp, p->base);
		pg_write_str(o, p->active_src);
		fputs(", ", o);
		pg_write_str(o, p->index_src);
		fputs(", ", o);
		pg_write_str(o, p->note);
		fputs(" },\n", o);
	}
	fprintf(o, "};\nconst int gm_probe_npatterns = %d;\n", n);
}

static const char pg_header[] =
	"/* Generated by tests/gpu/probe_gen.c from patterns.tsv: do not edit. */\n"
	"#ifndef GM_PROBE_KERNELS_H\n"
	"#define GM_PROBE_KERNELS_H\n"
	"#ifdef __cplusplus\n"
	"extern \"C\" {\n"
	"#endif\n"
	"\n"
	"/* One probe: the pattern line and its kernel (one block, blockIdx 0). */\n"
	"struct gm_probe_pattern {\n"
	"\tint id;\n"
	"\tconst char *name;     /* kernel name, \"probe_007\" */\n"
	"\tconst void *kernel;   /* for cudaLaunchKernel */\n"
	"\tint space;            /* enum gm_space: 0 global, 1 shared */\n"
	"\tint op;               /* enum gm_op: 0 load, 1 store */\n"
	"\tint elem_bytes;\n"
	"\tint block[3];\n"
	"\tint warp;\n"
	"\tlong long base;       /* bytes from the 256 B aligned buffer start */\n"
	"\tconst char *active;   /* expressions as written in patterns.tsv */\n"
	"\tconst char *index;\n"
	"\tconst char *note;\n"
	"};\n"
	"\n"
	"/*\n"
	" * Every kernel takes (unsigned char *gbuf, unsigned int *sink,\n"
	" * long long smem_bytes): gbuf the global buffer of global patterns, sink\n"
	" * one word per thread of the block, smem_bytes the dynamic shared memory\n"
	" * of the launch (a multiple of 16, at least 16, for shared patterns).\n"
	" */\n"
	"extern const struct gm_probe_pattern gm_probe_patterns[];\n"
	"extern const int gm_probe_npatterns;\n"
	"\n"
	"#ifdef __cplusplus\n"
	"}\n"
	"#endif\n"
	"#endif\n";

static gm_status pg_write(const char *cu, const char *h,
			  const struct pg_pattern *pats, int n)
{
	FILE *o = fopen(cu, "w");
	int i, bad;

	if (o == NULL)
		return pg_fail(GM_ERR_IO, "cannot open '%s'", cu);
	fputs(pg_prologue, o);
	for (i = 0; i < n; i++)
		pg_write_kernel(o, &pats[i]);
	pg_write_table(o, pats, n);
	bad = ferror(o);
	if (fclose(o) != 0 || bad)
		return pg_fail(GM_ERR_IO, "cannot write '%s'", cu);
	o = fopen(h, "w");
	if (o == NULL)
		return pg_fail(GM_ERR_IO, "cannot open '%s'", h);
	fputs(pg_header, o);
	bad = ferror(o);
	if (fclose(o) != 0 || bad)
		return pg_fail(GM_ERR_IO, "cannot write '%s'", h);
	return GM_OK;
}

int main(int argc, char **argv)
{
	static struct pg_pattern pats[PG_MAX_PATTERNS];
	FILE *in;
	int n, lineno;
	gm_status s;

	if (argc != 4) {
		fprintf(stderr, "usage: probe_gen PATTERNS.tsv OUT.cu OUT.h\n");
		return 2;
	}
	in = fopen(argv[1], "r");
	if (in == NULL) {
		fprintf(stderr, "error: cannot open '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	s = pg_read(in, pats, &n, &lineno);
	fclose(in);
	if (s != GM_OK) {
		fprintf(stderr, "error: %s:%d: %s\n", argv[1], lineno, pg_msg);
		return 1;
	}
	if ((s = pg_write(argv[2], argv[3], pats, n)) != GM_OK) {
		fprintf(stderr, "error: %s\n", pg_msg);
		return 1;
	}
	return 0;
}
