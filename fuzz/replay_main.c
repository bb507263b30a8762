/*
 * replay_main.c - a fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput
 * once over every file named (or every file of every directory named). The
 * unit suite (tests/CMakeLists.txt, fuzz_replay_*) replays each target's seed
 * corpus and its regression inputs (fuzz/regress/<target>/: crashes the
 * fuzzers found) in every build, under ASan/UBSan in build-asan; a broken
 * invariant aborts, as it does under the fuzzer.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int one(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	fprintf(stderr, "replay: %s (%ld bytes)\n", path, n);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	int bad = 0, n = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;
		char *names[4096];
		int k = 0;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= one(argv[i]);
			n++;
			continue;
		}
		d = opendir(argv[i]);
		while (d && (e = readdir(d)) != NULL && k < 4096) {
			char path[4096];
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			names[k++] = strdup(path);
		}
		if (d)
			closedir(d);
		qsort(names, (size_t)k, sizeof(names[0]), cmp);
		for (int j = 0; j < k; j++) {
			bad |= one(names[j]);
			free(names[j]);
			n++;
		}
	}
	fprintf(stderr, "replay: %d inputs%s\n", n, bad ? ", some unreadable" : "");
	return bad;
}
