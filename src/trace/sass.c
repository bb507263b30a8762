/*
 * sass.c - SASS opcodes (and, where CUPTI gave none, file:line) of a traced kernel, from nvdisasm -c -g
 * run on the cubin the injection library saved. nvdisasm ships with the CUDA toolkit; without it the
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

/* //## File "X", line N  ->  file, line */
static int file_line(const char *line, char *file, size_t n, unsigned *ln)
{
	const char *p = strstr(line, "//## File \""), *q;

	if (!p)
		return 0;
	p += 11;
	q = strchr(p, '"');
	if (!q)
		return 0;
	snprintf(file, n, "%.*s", (int)(q - p), p);
	p = strstr(q, "line ");
	*ln = p ? (unsigned)strtoul(p + 5, NULL, 10) : 0;
	return 1;
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

struct gmt_sass_row *gmt_sass_parse(const char *text, const char *kernel, size_t *n)
{
	struct gmt_sass_row *rows = NULL, row;
	char func[1024] = "", file[512] = "", op[32];
	unsigned ln = 0;
	size_t cap = 0, nfuncs = 0;
	const char *line = text;

	*n = 0;
	while (line && *line) {
		const char *next = strchr(line, '\n');
		char buf[2048];
		unsigned long long pc;

		snprintf(buf, sizeof(buf), "%.*s", (int)(next ? next - line : (long)strlen(line)), line);
		line = next ? next + 1 : NULL;
		if (section_name(buf, func, sizeof(func))) {
			nfuncs++;
			file[0] = 0, ln = 0;
			continue;
		}
		if (file_line(buf, file, sizeof(file), &ln))
			continue;
		if (!instruction(buf, &pc, op, sizeof(op)) || (kernel && strcmp(func, kernel) != 0))
			continue;
		if (!kernel && nfuncs > 1)
			break;   /* "the only function" was not the only one */
		if (*n == cap) {
			struct gmt_sass_row *p = realloc(rows, (cap = cap ? cap * 2 : 256) * sizeof(*p));
			if (!p) {
				free(rows);
				*n = 0;
				return NULL;
			}
			rows = p;
		}
		memset(&row, 0, sizeof(row));
		row.pc = pc;
		snprintf(row.op, sizeof(row.op), "%s", op);
		snprintf(row.file, sizeof(row.file), "%s", file);
		row.line = ln;
		rows[(*n)++] = row;
	}
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

char *gmt_nvdisasm_run(const char *nvdisasm, const char *cubin)
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
		execl(nvdisasm, nvdisasm, "-c", "-g", cubin, (char *)NULL);
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
