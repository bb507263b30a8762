/*
 * fuzz_util.h - helpers shared by the libFuzzer targets: the input as a file
 * (the readers take paths), optionally gzip-compressed, and a sink FILE for
 * the writers. Each target is one process (libFuzzer -fork/-jobs start more),
 * so one scratch file per process is enough.
 */
#ifndef GPUMEM_FUZZ_UTIL_H
#define GPUMEM_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* an invariant: when it does not hold, say which and abort (a crash for libFuzzer) */
#define fz_check(ok) fz_check_at((ok), #ok, __FILE__, __LINE__)
static inline void fz_check_at(int ok, const char *what, const char *file, int line)
{
	if (!ok) {
		fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
		abort();
	}
}

/* A scratch path of this process (removed at exit), suffix e.g. ".json". */
static inline const char *fz_path(int which, const char *suffix)
{
	static char path[2][128];
	static int made[2];

	if (!made[which]) {
		const char *dir = getenv("TMPDIR");
		snprintf(path[which], sizeof(path[which]), "%s/gpumem_fuzz_%d_%d%s", dir && *dir ? dir : "/tmp",
			 (int)getpid(), which, suffix);
		made[which] = 1;
	}
	return path[which];
}

static inline void fz_cleanup(void)
{
	remove(fz_path(0, ".json"));
	remove(fz_path(1, ".json.gz"));
}

/* data as the file fz_path(0) (plain); returns the path */
static inline const char *fz_write_plain(const uint8_t *data, size_t size)
{
	const char *p = fz_path(0, ".json");
	FILE *f = fopen(p, "wb");

	fz_check(f != NULL);
	fz_check(fwrite(data, 1, size, f) == size);
	fz_check(fclose(f) == 0);
	return p;
}

/* data gzip-compressed as the file fz_path(1); returns the path */
static inline const char *fz_write_gzip(const uint8_t *data, size_t size)
{
	const char *p = fz_path(1, ".json.gz");
	gzFile gz = gzopen(p, "wb1");

	fz_check(gz != NULL);
	fz_check(size == 0 || gzwrite(gz, data, (unsigned)size) == (int)size);
	fz_check(gzclose(gz) == Z_OK);
	return p;
}

/* a NUL-terminated copy (free it) */
static inline char *fz_text(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);

	fz_check(t != NULL);
	memcpy(t, data, size);
	t[size] = 0;
	return t;
}

/* where the writers write: /dev/null, opened once */
static inline FILE *fz_sink(void)
{
	static FILE *f;

	if (!f) {
		f = fopen("/dev/null", "w");
		fz_check(f != NULL);
		atexit(fz_cleanup);
	}
	return f;
}

#endif
