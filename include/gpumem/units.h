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

/*
 * The unit a benchmark case reports its headline number in. Every table,
 * JSON document, CSV file and comparison reads this instead of assuming
 * GB/s; gm_unit_higher_is_better says which direction is an improvement.
 * Names are stable: they appear in JSON ("unit") and CSV.
 */
enum gm_unit {
	GM_UNIT_GBS = 0,      /* "GB/s": bandwidth, 1e9 bytes per second */
	GM_UNIT_NS_ACCESS,    /* "ns/access": device time per warp-level access (shared memory) */
	GM_UNIT_CYCLES,       /* "cycles": SM clock cycles (latency) */
	GM_UNIT_NS,           /* "ns": nanoseconds (latency, time per operation) */
	GM_UNIT_US,           /* "us": microseconds per operation (API calls, transfers) */
	GM_UNIT_RATIO,        /* "x": a dimensionless ratio (speed-up, slowdown) */
	GM_UNIT_TFLOPS,       /* "TFLOP/s" */
	GM_UNIT_BYTES,        /* "B": a size (derived capacities, reach) */
	GM_UNIT_PCT,          /* "%" */
	GM_UNIT_FLOP_BYTE,    /* "flop/B": arithmetic intensity (roofline) */
	GM_UNIT_FRACTION,     /* "fraction": a share of a whole, 0 to 1 (remnants: marker words seen) */
	GM_UNIT_COUNT         /* number of units; not a unit */
};

/* "GB/s", "cycles", ...; "?" for a value out of range. */
const char *gm_unit_name(enum gm_unit u);
/* Inverse of gm_unit_name; GM_ERR_NOT_FOUND for an unknown name. */
gm_status gm_unit_parse(const char *name, enum gm_unit *u);
/* 1 when a larger value is better (bandwidth, rates), 0 for times and latencies. */
int gm_unit_higher_is_better(enum gm_unit u);

/* "4G", "512M", "1024", "1.5G". Rejects negatives, junk, zero, overflow. */
gm_status gm_parse_size(const char *text, uint64_t *bytes);

/* Strict decimal integer in [lo, hi]. */
gm_status gm_parse_int(const char *text, long lo, long hi, long *out);

/* "4.00 GiB", "512 MiB", "96 B" into buf. Returns buf. */
char *gm_format_bytes(double bytes, char *buf, size_t n);

#endif
