/*
 * lines.c - pc offset -> file:line through CUPTI's cuptiGetSassToSourceCorrelation (cupti_pcsampling.h)
 * on the module's cubin. libcupti is opened with dlopen from the usual toolkit places; without it the
 * collector falls back on nvdisasm -gi (finish.c; which also gives an inlined line its call sites).
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <cupti_pcsampling.h>
#include "inject.h"

typedef CUptiResult (*correlate_fn)(CUpti_GetSassToSourceCorrelationParams *);

static correlate_fn correlate(void)
{
	static int tried;
	static correlate_fn fn;
	static const char *const libs[] = {
		"libcupti.so.13", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13",
		"/usr/local/cuda/lib64/libcupti.so.13", "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so.13",
		"libcupti.so",
	};

	if (tried)
		return fn;
	tried = 1;
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]) && !fn; i++) {
		void *h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
		if (h)
			fn = (correlate_fn)dlsym(h, "cuptiGetSassToSourceCorrelation");
	}
	if (!fn)
		gmt_note("libcupti not found: file and line come from nvdisasm where the collector finds it");
	return fn;
}

int gmt_line_of(const void *cubin, size_t size, const char *func, uint64_t pc, char *file, size_t n,
                unsigned *line)
{
	CUpti_GetSassToSourceCorrelationParams p;
	correlate_fn fn = correlate();

	if (!fn || !cubin || !size)
		return -1;
	memset(&p, 0, sizeof(p));
	p.size = CUpti_GetSassToSourceCorrelationParamsSize;
	p.cubin = cubin;
	p.cubinSize = size;
	p.functionName = func;
	p.pcOffset = pc;
	if (fn(&p) != CUPTI_SUCCESS)
		return -1;
	if (p.fileName && p.dirName && *p.dirName && p.fileName[0] != '/')
		snprintf(file, n, "%s/%s", p.dirName, p.fileName);
	else
		snprintf(file, n, "%s", p.fileName ? p.fileName : "");
	*line = p.lineNumber;
	free(p.fileName);
	free(p.dirName);
	return *file && *line ? 0 : -1;
}
