/* json.c - the injection library's JSON writer (a growing buffer) and atomic file writes. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "inject.h"

static void grow(struct gmt_buf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *p;

	while (cap < b->len + need + 1)
		cap *= 2;
	if (cap == b->cap)
		return;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return;
	}
	b->p = p;
	b->cap = cap;
}

void gmt_buf_printf(struct gmt_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || b->oom)
		return;
	grow(b, (size_t)n);
	if (b->oom)
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void gmt_buf_str(struct gmt_buf *b, const char *s)
{
	if (!s) {
		gmt_buf_printf(b, "null");
		return;
	}
	gmt_buf_printf(b, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			gmt_buf_printf(b, "\\%c", c);
		else if (c < 0x20)
			gmt_buf_printf(b, "\\u%04x", c);
		else
			gmt_buf_printf(b, "%c", c);
	}
	gmt_buf_printf(b, "\"");
}

void gmt_buf_free(struct gmt_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int gmt_write_atomic(const char *path, const char *text, size_t len)
{
	char tmp[4200];
	FILE *f;
	int bad;

	if (snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof(tmp))
		return -1;
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	bad = fwrite(text, 1, len, f) != len;
	bad |= fflush(f) != 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* ---- notes ---- */
#define MAX_NOTES 64
static char *notes[MAX_NOTES];
static int nnotes, notes_dropped;

void gmt_note(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (int i = 0; i < nnotes; i++)
		if (strcmp(notes[i], line) == 0)
			return;
	if (nnotes == MAX_NOTES) {
		notes_dropped++;
		return;
	}
	notes[nnotes] = strdup(line);
	if (notes[nnotes])
		nnotes++;
}

void gmt_notes_json(struct gmt_buf *b)
{
	gmt_buf_printf(b, "[");
	for (int i = 0; i < nnotes; i++) {
		gmt_buf_printf(b, "%s", i ? ", " : "");
		gmt_buf_str(b, notes[i]);
	}
	if (notes_dropped)
		gmt_buf_printf(b, "%s\"%d more notes not kept\"", nnotes ? ", " : "", notes_dropped);
	gmt_buf_printf(b, "]");
}
