/*
 * types.c - element sizes of the C and CUDA type names `explain --type` takes.
 *
 * Sizes are those of a 64-bit Linux (LP64) CUDA build: long is 8 bytes.
 * Vector types of 1, 2 and 4 components only; a name missing here can
 * always be given as --bytes N.
 */
#include <ctype.h>
#include <string.h>
#include "gpumem/model.h"

static const struct {
	const char *name;
	int bytes;
} types[] = {
	{ "char", 1 }, { "signed char", 1 }, { "unsigned char", 1 },
	{ "uchar", 1 }, { "int8_t", 1 }, { "uint8_t", 1 }, { "bool", 1 },
	{ "char1", 1 }, { "uchar1", 1 },
	{ "short", 2 }, { "unsigned short", 2 }, { "ushort", 2 },
	{ "int16_t", 2 }, { "uint16_t", 2 }, { "half", 2 }, { "__half", 2 },
	{ "bfloat16", 2 }, { "__nv_bfloat16", 2 }, { "char2", 2 },
	{ "uchar2", 2 }, { "short1", 2 }, { "ushort1", 2 },
	{ "int", 4 }, { "unsigned", 4 }, { "unsigned int", 4 }, { "uint", 4 },
	{ "int32_t", 4 }, { "uint32_t", 4 }, { "float", 4 }, { "half2", 4 },
	{ "__half2", 4 }, { "bfloat162", 4 }, { "__nv_bfloat162", 4 },
	{ "char4", 4 }, { "uchar4", 4 }, { "short2", 4 }, { "ushort2", 4 },
	{ "int1", 4 }, { "uint1", 4 }, { "float1", 4 },
	{ "double", 8 }, { "long", 8 }, { "unsigned long", 8 }, { "ulong", 8 },
	{ "long long", 8 }, { "unsigned long long", 8 }, { "longlong", 8 },
	{ "ulonglong", 8 }, { "int64_t", 8 }, { "uint64_t", 8 },
	{ "float2", 8 }, { "int2", 8 }, { "uint2", 8 }, { "short4", 8 },
	{ "ushort4", 8 }, { "double1", 8 }, { "longlong1", 8 },
	{ "ulonglong1", 8 },
	{ "double2", 16 }, { "float4", 16 }, { "int4", 16 }, { "uint4", 16 },
	{ "longlong2", 16 }, { "ulonglong2", 16 },
};

/* Copy name with runs of blanks squeezed to one space and the ends trimmed. */
static int normalize(const char *name, char *out, size_t cap)
{
	size_t n = 0;
	int gap = 0;

	for (; *name; name++) {
		if (isspace((unsigned char)*name)) {
			gap = n > 0;
			continue;
		}
		if (n + 2 >= cap)
			return -1;
		if (gap)
			out[n++] = ' ';
		gap = 0;
		out[n++] = *name;
	}
	out[n] = '\0';
	return 0;
}

int gm_type_bytes(const char *name)
{
	char norm[32];
	size_t k;

	if (!name || normalize(name, norm, sizeof(norm)) < 0)
		return 0;
	for (k = 0; k < sizeof(types) / sizeof(types[0]); k++)
		if (strcmp(types[k].name, norm) == 0)
			return types[k].bytes;
	return 0;
}
