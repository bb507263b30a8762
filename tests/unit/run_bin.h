/* run_bin.h - the CLI tests' way to run the gpumem binary ($GPUMEM_BIN, set by ctest): stdout and
 * stderr captured into out, the exit code returned (-1 when it did not exit). Include after cmocka.h. */
#ifndef GPUMEM_TEST_RUN_BIN_H
#define GPUMEM_TEST_RUN_BIN_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static inline int run_bin(const char *args, char *out, size_t n)
{
	char cmd[2048];
	FILE *p;
	size_t len;
	int st;

	snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", getenv("GPUMEM_BIN"), args);
	p = popen(cmd, "r");
	assert_non_null(p);
	len = fread(out, 1, n - 1, p);
	out[len] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#endif
