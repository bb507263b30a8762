/*
 * sass.c - SASS opcodes, where CUPTI gave none file:line, and the call sites of lines inlined from another
 * function (a header's atomicMax wrapper), from nvdisasm -c -gi run on the cubin the injection library saved. nvdisasm ships with the CUDA toolkit; without it the
 * opcodes stay null and the document says so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "trace/trace_internal.h"

/* The function a ".section .text.NAME," line opens, into name; 0 when the line is not one. */
static int section_name(const char *line, char *name, size_t n)
{
	const char *p = strstr(line, ".section");
	size_t k = 0;

	if (!p)
		return 0;
	p = strstr(p, ".text.");
	if (!p)
		return 0;
	p += 6;
	while (p[k] && p[k] != ',' && p[k] != ' ' && p[k] != '\t' && p[k] != '\n' && k + 1 < n)
		k++;
	memcpy(name, p, k);
	name[k] = 0;
	return 1;
}

/* "X", line N  ->  file, line; the text after it, or NULL when p does not start so */
static const char *quoted_line(const char *p, char *file, size_t n, unsigned *ln)
{
	const char *q;

	if (*p != '"' || !(q = strchr(p + 1, '"')))
		return NULL;
	snprintf(file, n, "%.*s", (int)(q - p - 1), p + 1);
	p = strstr(q, "line ");
	*ln = p ? (unsigned)strtoul(p + 5, (char **)&q, 10) : 0;
	return p ? q : q + 1;
}

/* One location of a -gi run: file:line, and where it was inlined (at_line 0: not inlined). */
struct loc {
	char file[512], at_file[512];
	unsigned line, at_line;
};

/* //## File "X", line N [inlined at "Y", line M]  ->  a loc */
static int file_line(const char *line, struct loc *l)
{
	const char *p = strstr(line, "//## File "), *q;

	if (!p)
		return 0;
	memset(l, 0, sizeof(*l));
	if (!(q = quoted_line(p + 10, l->file, sizeof(l->file), &l->line)))
		return 0;
	p = strstr(q, "inlined at ");
	if (p && !quoted_line(p + 11, l->at_file, sizeof(l->at_file), &l->at_line))
		l->at_line = 0;
	return 1;
}

/* A run of locations into the row's file:line and call sites: the innermost is the one no other names as its
   call site; then each call site in turn (nvdisasm prints the innermost first). */
static void resolve(const struct loc *g, int ng, struct gmt_sass_row *r)
{
	int in = 0, seen = 0;

	r->file[0] = 0, r->line = 0, r->nat = 0;
	if (ng <= 0)
		return;
	for (int i = 0; i < ng; i++) {
		int named = 0;
		for (int j = 0; j < ng && !named; j++)
			named = j != i && g[j].at_line == g[i].line && !strcmp(g[j].at_file, g[i].file);
		if (!named) {
			in = i;
			break;
		}
	}
	snprintf(r->file, sizeof(r->file), "%s", g[in].file);
	r->line = g[in].line;
	for (const struct loc *c = &g[in]; c && c->at_line && r->nat < GMT_INLINE_MAX && seen++ < ng;) {
		const struct loc *next = NULL;
		snprintf(r->at_file[r->nat], sizeof(r->at_file[0]), "%s", c->at_file);
		r->at_line[r->nat++] = c->at_line;
		for (int j = 0; j < ng && !next; j++)
			next = g[j].line == c->at_line && !strcmp(g[j].file, c->at_file) ? &g[j] : NULL;
		c = next;
	}
}

/* An instruction line (the pc in a C comment, an optional predicate, the opcode): "<slash-star>0070<star-slash>
 * @!P0 LDG.E.128 R4, ..." -> pc 0x70, op "LDG.E.128"; 0 when not an instruction. */
static int instruction(const char *line, unsigned long long *pc, char *op, size_t n)
{
	const char *p = line;
	char *end;
	size_t k = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (p[0] != '/' || p[1] != '*')
		return 0;
	*pc = strtoull(p + 2, &end, 16);
	if (end == p + 2 || end[0] != '*' || end[1] != '/')
		return 0;
	p = end + 2;
	while (*p == ' ' || *p == '\t' || *p == '{')
		p++;
	if (*p == '@') {
		while (*p && *p != ' ' && *p != '\t')
			p++;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	while (p[k] && p[k] != ' ' && p[k] != '\t' && p[k] != ';' && k + 1 < n)
		k++;
	memcpy(op, p, k);
	op[k] = 0;
	return k > 0;
}

/* An LDC whose bank offset is a per-lane register: "LDC R5, c[0x3][R2+0x10]" (not "c[0x3][UR4]", "c[0x0][0x160]"
   or ULDC, uniform across the warp) */
static int lane_const(const char *line, const char *op)
{
	const char *p = strchr(line, ']');

	if (strncmp(op, "LDC", 3) != 0 || !p || !strstr(line, "c[0x"))
		return 0;
	return p[1] == '[' && p[2] == 'R' && p[3] >= '0' && p[3] <= '9';
}

#define RUN_MAX 8   /* locations of one -gi run read */

struct gmt_sass_row *gmt_sass_parse(const char *text, const char *kernel, size_t *n)
{
	struct gmt_sass_row *rows = NULL, *row = calloc(1, sizeof(*row));
	struct loc *run = calloc(RUN_MAX, sizeof(*run));
	char func[1024] = "", op[32];
	size_t cap = 0, nfuncs = 0;
	int nrun = 0, closed = 1;   /* closed: an instruction came after the run, the next location starts one */
	const char *line = text;

	*n = 0;
	while (row && run && line && *line) {
		const char *next = strchr(line, '\n');
		char buf[2048];
		unsigned long long pc;

		snprintf(buf, sizeof(buf), "%.*s", (int)(next ? next - line : (long)strlen(line)), line);
		line = next ? next + 1 : NULL;
		if (section_name(buf, func, sizeof(func))) {
			nfuncs++;
			nrun = 0, closed = 1;
			resolve(run, 0, row);
			continue;
		}
		if (strstr(buf, "//## File ")) {
			nrun = closed ? 0 : nrun, closed = 0;
			if (nrun < RUN_MAX && file_line(buf, &run[nrun]))
				nrun++;
			continue;
		}
		if (!instruction(buf, &pc, op, sizeof(op)))
			continue;
		if (!closed)
			resolve(run, nrun, row);
		closed = 1;
		if (kernel && strcmp(func, kernel) != 0)
			continue;
		if (!kernel && nfuncs > 1)
			break;   /* "the only function" was not the only one */
		if (*n == cap) {
			struct gmt_sass_row *p = realloc(rows, (cap = cap ? cap * 2 : 256) * sizeof(*p));
			if (!p) {
				free(rows);
				rows = NULL;
				*n = 0;
				break;
			}
			rows = p;
		}
		row->pc = pc;
		row->lane_const = lane_const(strstr(buf, op), op);
		row->local = !strncmp(op, "STL", 3) ? 1 : !strncmp(op, "LDL", 3) ? 2 : 0;
		snprintf(row->op, sizeof(row->op), "%s", op);
		rows[(*n)++] = *row;
	}
	free(row);
	free(run);
	return rows;
}

static int executable(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

const char *gmt_nvdisasm_path(char *buf, size_t n)
{
	const char *env = getenv("GPUMEM_NVDISASM"), *home = getenv("CUDA_HOME");

	if (env && *env)
		return executable(env) ? snprintf(buf, n, "%s", env), buf : NULL;
	if (home && *home && (snprintf(buf, n, "%s/bin/nvdisasm", home), executable(buf)))
		return buf;
	if (snprintf(buf, n, "/usr/local/cuda/bin/nvdisasm"), executable(buf))
		return buf;
	return gmt_resolve_program("nvdisasm", buf, n) == GM_OK ? buf : (gm_clear_error(), NULL);
}

static char *nvdisasm_with(const char *nvdisasm, const char *cubin, const char *line_flag)
{
	int fds[2], st = 0;
	size_t len = 0, cap = 1 << 16;
	char *text = malloc(cap);
	pid_t pid;
	ssize_t got;

	if (!text || pipe(fds) != 0) {
		free(text);
		return NULL;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 1);
		if (!freopen("/dev/null", "w", stderr))
			_exit(126);
		execl(nvdisasm, nvdisasm, "-c", line_flag, cubin, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && (got = read(fds[0], text + len, cap - len - 1)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += (size_t)got;
		if (cap - len < 4096) {
			char *p = realloc(text, cap *= 2);
			if (!p)
				break;
			text = p;
		}
	}
	close(fds[0]);
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	text[len] = 0;
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

char *gmt_nvdisasm_run(const char *nvdisasm, const char *cubin)
{
	char *text = nvdisasm_with(nvdisasm, cubin, "-gi");   /* the lines with their inlined-at call sites */

	return text ? text : nvdisasm_with(nvdisasm, cubin, "-g");
}
