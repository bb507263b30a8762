/*
 * launch_keys.c - the key arrays the launch model counts with: the 64 B
 * DRAM pieces and 32 B sectors a window touches, sorted, made distinct and
 * grown (model_internal.h). No rule lives here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/model_internal.h"

int gm_keys_cmp(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * Sort non-negative keys (pieces, sectors): insertion sort for a few, else an
 * LSD radix sort by bytes that skips the bytes every key shares (the windows'
 * keys differ in their low bytes only); qsort if the buffer cannot be had.
 */
void gm_keys_sort(int64_t *v, int64_t n)
{
	size_t cnt[256];
	uint64_t all_or = 0, all_and = ~(uint64_t)0;
	int64_t *tmp, *src = v, *dst, *swap, k = 1;

	while (k < n && v[k - 1] <= v[k])
		k++;
	if (k >= n)
		return; /* sorted already: a window's keys often come in address order */
	if (n < 48) {
		for (int64_t i = 1; i < n; i++) {
			int64_t x = v[i], j = i;

			for (; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	tmp = malloc((size_t)n * sizeof(*tmp));
	if (!tmp) {
		qsort(v, (size_t)n, sizeof(*v), gm_keys_cmp);
		return;
	}
	for (int64_t i = 0; i < n; i++) {
		all_or |= (uint64_t)v[i];
		all_and &= (uint64_t)v[i];
	}
	dst = tmp;
	for (int b = 0; b < 8; b++) {
		size_t sum = 0;

		if ((((all_or ^ all_and) >> (8 * b)) & 255) == 0)
			continue; /* every key has this byte: the pass would not move anything */
		memset(cnt, 0, sizeof(cnt));
		for (int64_t i = 0; i < n; i++)
			cnt[((uint64_t)src[i] >> (8 * b)) & 255]++;
		for (int d = 0; d < 256; d++) {
			size_t c = cnt[d];

			cnt[d] = sum;
			sum += c;
		}
		for (int64_t i = 0; i < n; i++)
			dst[cnt[((uint64_t)src[i] >> (8 * b)) & 255]++] = src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != v)
		memcpy(v, src, (size_t)n * sizeof(*v));
	free(tmp);
}

int64_t gm_keys_sort_unique(int64_t *v, int64_t n)
{
	int64_t k, m = 0;

	gm_keys_sort(v, n);
	for (k = 0; k < n; k++)
		if (m == 0 || v[m - 1] != v[k])
			v[m++] = v[k];
	return m;
}

/* Room for `need` keys in *v (doubling). */
gm_status gm_keys_reserve(int64_t **v, int64_t *cap, int64_t need)
{
	int64_t c = *cap ? *cap : 1024;
	int64_t *w;

	if (need <= *cap)
		return GM_OK;
	while (c < need)
		c *= 2;
	w = realloc(*v, (size_t)c * sizeof(int64_t));
	if (!w)
		return GM_ERR_NOMEM;
	*v = w;
	*cap = c;
	return GM_OK;
}

/* log2 of the DRAM atom (32, 64 or 128 B: gm_profile_check) */
int gm_atom_shift(int atom)
{
	return atom == 32 ? 5 : atom == 128 ? 7 : 6;
}

/* 256 B groups the sorted distinct pieces fall in. */
int64_t gm_keys_groups(const int64_t *pieces, int64_t n, int atom)
{
	return gm_keys_groups_of(pieces, n, atom, GROUP_BYTES);
}

int64_t gm_keys_groups_of(const int64_t *pieces, int64_t n, int atom, int group_bytes)
{
	int64_t k, g = 0, per = group_bytes / atom > 0 ? group_bytes / atom : 1;

	for (k = 0; k < n; k++)
		if (k == 0 || pieces[k] / per != pieces[k - 1] / per)
			g++;
	return g;
}
