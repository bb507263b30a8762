/*
 * trace_names.c - the words a trace report uses for an instruction's space, operation and class
 * (include/gpumem/trace.h): vocabulary of the report, kept with its writers so that io never reaches into
 * analysis; analysis uses them too.
 */
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
	};
	return c >= 0 && c < GM_TC_COUNT ? n[c] : "?";
}
