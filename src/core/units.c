/* units.c - parse sizes with k/M/G suffixes, format byte counts. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/units.h"

static int suffix_shift(const char *s, int *shift)
{
	*shift = 0;
	switch (*s) {
	case 'k': case 'K': *shift = 10; s++; break;
	case 'm': case 'M': *shift = 20; s++; break;
	case 'g': case 'G': *shift = 30; s++; break;
	case 't': case 'T': *shift = 40; s++; break;
	}
	if (*shift && *s == 'i')
		s++;
	if (*s == 'B' || *s == 'b')
		s++;
	return *s == '\0';
}

gm_status gm_parse_size(const char *text, uint64_t *bytes)
{
	char *end;
	double v;
	int shift;

	if (!text || !*text || strchr(text, '-'))
		return gm_fail(GM_ERR_INVALID_ARG, "invalid size '%s'", text ? text : "");
	errno = 0;
	v = strtod(text, &end);
	if (end == text || errno || !isfinite(v) || !suffix_shift(end, &shift))
		return gm_fail(GM_ERR_INVALID_ARG, "invalid size '%s' (use e.g. 512M, 4G)", text);
	v = ldexp(v, shift);
	if (v < 1 || v > 1e18)
		return gm_fail(GM_ERR_INVALID_ARG, "size '%s' out of range", text);
	*bytes = (uint64_t)v;
	return GM_OK;
}

gm_status gm_parse_int(const char *text, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (!text || !*text)
		return gm_fail(GM_ERR_INVALID_ARG, "missing number");
	errno = 0;
	v = strtol(text, &end, 10);
	if (*end || errno)
		return gm_fail(GM_ERR_INVALID_ARG, "invalid number '%s'", text);
	if (v < lo || v > hi)
		return gm_fail(GM_ERR_INVALID_ARG, "'%s' out of range [%ld, %ld]", text, lo, hi);
	*out = v;
	return GM_OK;
}

char *gm_format_bytes(double bytes, char *buf, size_t n)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (bytes >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%.0f B", bytes);
	else
		snprintf(buf, n, "%.2f %s", bytes, unit[u]);
	return buf;
}

static const struct {
	const char *name;
	int higher_better;
} unit_table[GM_UNIT_COUNT] = {
	[GM_UNIT_GBS] = { "GB/s", 1 },
	[GM_UNIT_NS_ACCESS] = { "ns/access", 0 },
	[GM_UNIT_CYCLES] = { "cycles", 0 },
	[GM_UNIT_NS] = { "ns", 0 },
	[GM_UNIT_US] = { "us", 0 },
	[GM_UNIT_RATIO] = { "x", 1 },
	[GM_UNIT_TFLOPS] = { "TFLOP/s", 1 },
	[GM_UNIT_BYTES] = { "B", 1 },
	[GM_UNIT_PCT] = { "%", 1 },
	[GM_UNIT_FLOP_BYTE] = { "flop/B", 1 },
	[GM_UNIT_FRACTION] = { "fraction", 0 },
};

const char *gm_unit_name(enum gm_unit u)
{
	return (unsigned)u < GM_UNIT_COUNT ? unit_table[u].name : "?";
}

gm_status gm_unit_parse(const char *name, enum gm_unit *u)
{
	for (int i = 0; name && i < GM_UNIT_COUNT; i++) {
		if (!strcmp(name, unit_table[i].name)) {
			*u = (enum gm_unit)i;
			return GM_OK;
		}
	}
	return gm_fail(GM_ERR_NOT_FOUND, "unknown unit '%s'", name ? name : "");
}

int gm_unit_higher_is_better(enum gm_unit u)
{
	return (unsigned)u < GM_UNIT_COUNT ? unit_table[u].higher_better : 1;
}
