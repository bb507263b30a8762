/* select.c - which kernels are traced: the name regex (mangled or demangled) and the demangler. */
#include <dlfcn.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "inject.h"

static regex_t re;
static int have_re;

int gmt_select_init(const char *regex)
{
	if (!regex || !*regex)
		return 0;
	if (regcomp(&re, regex, REG_EXTENDED | REG_NOSUB) != 0)
		return -1;
	have_re = 1;
	return 0;
}

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

/* The C++ runtime's demangler, found at run time (the program may not be C++). */
static demangle_fn demangler(void)
{
	static int tried;
	static demangle_fn fn;

	if (!tried) {
		tried = 1;
		fn = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
		if (!fn) {
			void *h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
			if (h)
				fn = (demangle_fn)dlsym(h, "__cxa_demangle");
		}
	}
	return fn;
}

const char *gmt_demangle(const char *mangled, char *buf, size_t n)
{
	demangle_fn fn = demangler();
	int st = -1;
	char *d;

	snprintf(buf, n, "%s", mangled ? mangled : "");
	if (!fn || !mangled || strncmp(mangled, "_Z", 2) != 0)
		return buf;
	d = fn(mangled, NULL, NULL, &st);
	if (d && st == 0)
		snprintf(buf, n, "%s", d);
	free(d);
	return buf;
}

int gmt_name_matches(const char *mangled)
{
	char dem[2048];

	if (!have_re)
		return 1;
	if (mangled && regexec(&re, mangled, 0, NULL, 0) == 0)
		return 1;
	return regexec(&re, gmt_demangle(mangled, dem, sizeof(dem)), 0, NULL, 0) == 0;
}
