/*
 * trace_names.c - the words a trace report uses for an instruction's space, operation, class and place
 * (include/gpumem/trace.h): vocabulary of the report, kept with its writers so that io never reaches into
 * analysis; analysis uses them too.
 */
#include <stdio.h>
#include <string.h>
#include "gpumem/trace.h"

const char *gm_trace_space_name(enum gm_trace_space s)
{
	return s == GM_TS_SHARED ? "shared" : s == GM_TS_LOCAL ? "local" : "global";
}

const char *gm_trace_op_name(enum gm_trace_op o)
{
	return o == GM_TO_STORE ? "store" : o == GM_TO_ATOMIC ? "atomic" : o == GM_TO_REDUCTION ? "reduction" : "load";
}

const char *gm_trace_class_name(enum gm_trace_class c)
{
	static const char *const n[GM_TC_COUNT] = {
		"coalesced", "misaligned", "strided", "column walk", "transposed", "broadcast",
		"gather by data", "bank conflicts", "conflict-free", "irregular", "not sampled",
		"column walk with irregular row starts", "computed coordinates",
		"local array indexed at run time", "whole records",
	};
	return c >= 0 && c < GM_TC_COUNT ? n[c] : "?";
}

const char *gm_trace_value_rule_name(enum gm_trace_value_rule r)
{
	static const char *const n[GM_TVR_RULES] = {
		"narrow_int", "float_exact", "silent_store", "zero_load", "const_load", "own_index",
	};
	return r >= 0 && r < GM_TVR_RULES ? n[r] : "?";
}

void gm_trace_where(const struct gm_trace_instr *in, int width, char *buf, size_t n)
{
	const char *slash = in->file ? strrchr(in->file, '/') : NULL;

	if (in->file && in->line > 0)
		snprintf(buf, n, "%.*s:%d", width, slash ? slash + 1 : in->file, in->line);
	else
		snprintf(buf, n, "pc 0x%llx", (long long)in->pc);
}
