/*
 * units.h - byte sizes with suffixes and human formatting. Pure C.
 * Suffixes: k/K = 2^10, M = 2^20, G = 2^30 (binary, as memory sizes are
 * usually given), optional trailing "B" or "iB". Bandwidth is always decimal
 * GB/s (1e9 bytes per second); see docs/METHODOLOGY.md.
 */
#ifndef GPUMEM_UNITS_H
#define GPUMEM_UNITS_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/status.h"

/* "4G", "512M", "1024", "1.5G". Rejects negatives, junk, zero, overflow. */
gm_status gm_parse_size(const char *text, uint64_t *bytes);

/* Strict decimal integer in [lo, hi]. */
gm_status gm_parse_int(const char *text, long lo, long hi, long *out);

/* "4.00 GiB", "512 MiB", "96 B" into buf. Returns buf. */
char *gm_format_bytes(double bytes, char *buf, size_t n);

#endif
