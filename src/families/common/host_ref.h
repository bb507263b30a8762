/*
 * host_ref.h - the CPU side of validation over large buffers, on every core (src/families/common/host_ref.cu):
 * sums, fills and checks of the gm_hash words (common.cuh's data convention). The results do not depend on the
 * number of cores: sums wrap mod 2^32 and are added in a fixed order of parts.
 */
#ifndef GPUMEM_FAMILIES_HOST_REF_H
#define GPUMEM_FAMILIES_HOST_REF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out[k] = the sum (mod 2^32) of gm_hash(seed, w) over the `len` words from first + k * stride, for every
 * k < count. out must hold count words.
 */
void gm_hash_sums(uint32_t seed, uint64_t first, uint64_t stride, uint64_t len, size_t count, uint32_t *out);

/* p[w] = gm_hash(seed, w) for w < nwords (the threads inherit the caller's CPU set and memory policy). */
void gm_host_fill(uint32_t *p, size_t nwords, uint32_t seed);

/* The first w < nwords with p[w] != gm_hash(seed, w); nwords when every word matches. */
size_t gm_host_first_bad(const uint32_t *p, size_t nwords, uint32_t seed);

/*
 * k = 0 .. n-1 split into contiguous ranges, each handed to fn(arg, from, to) on one of the machine's cores;
 * the ranges of one call never overlap. For a family's own CPU reference (atomics' bins).
 */
void gm_host_ranges(size_t n, void (*fn)(void *arg, size_t from, size_t to), void *arg);

#ifdef __cplusplus
}
#endif
#endif
