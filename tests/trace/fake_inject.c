/*
 * fake_inject.c - a stand-in for libgpumem_trace.so in the collector's unit tests (no GPU needed).
 * Loaded with GPUMEM_TRACE_LOAD=preload, its constructor copies a prepared part document to
 * GPUMEM_TRACE_OUT: GMT_FAKE_PART in the trace pass, GMT_FAKE_TIME in the time pass. Without one it
 * writes nothing, as when a program never initialises CUDA. GMT_FAKE_FIRST, when set, is the trace pass's
 * part unless GPUMEM_TRACE_PATCH=load (the collector's second trace pass). Only the first process of a pass acts.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy(const char *from, const char *to)
{
	char buf[4096];
	size_t n;
	FILE *in = fopen(from, "rb"), *out;

	if (!in)
		return;
	out = fopen(to, "wb");
	while (out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	if (out)
		fclose(out);
	fclose(in);
}

__attribute__((constructor)) static void fake_start(void)
{
	const char *out = getenv("GPUMEM_TRACE_OUT"), *mode = getenv("GPUMEM_TRACE_MODE");
	const char *patch = getenv("GPUMEM_TRACE_PATCH");
	const char *src = mode && strcmp(mode, "time") == 0 ? getenv("GMT_FAKE_TIME") : getenv("GMT_FAKE_PART");

	/* GMT_FAKE_FIRST: the trace pass patched at launch writes it (e.g. asking to be patched at load) */
	if (getenv("GMT_FAKE_FIRST") && !(mode && strcmp(mode, "time") == 0) && !(patch && strcmp(patch, "load") == 0))
		src = getenv("GMT_FAKE_FIRST");

	if (!out || getenv("GMT_FAKE_DONE"))
		return;
	setenv("GMT_FAKE_DONE", "1", 1);
	if (src && *src)
		copy(src, out);
}
