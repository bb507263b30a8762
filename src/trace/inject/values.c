/*
 * values.c - a global memory instruction's value summary (struct gmt_vsum, filled by patches.cu's gmt_values over
 * the sampled warps) written as the instruction's "values" object (docs/SCHEMA.md, "Trace document"). Only
 * figures go out, never the values: lanes, zero, silent (stores), float_exact (8-byte), min / max / int_bits
 * (the value as a signed integer of the access size, sizes 1-8), small (the distinct values 0-63 seen, when every
 * value lies there), own_x / own_y (lanes whose value is the thread's own global index), own_elem (lanes whose
 * value is their element's index, address / size, less one constant of the instruction: idx[j] == j + c).
 */
#include "trace_launch.h"

/* bits a two's-complement (min < 0) or unsigned (min >= 0) integer needs for every value in [mn, mx] */
static unsigned int_bits(long long mn, long long mx)
{
	unsigned b = 0;

	if (mn >= 0) {
		for (unsigned long long u = (unsigned long long)mx; u; u >>= 1)
			b++;
		return b;
	}
	unsigned long long m = (unsigned long long)~mn, u = mx > 0 ? (unsigned long long)mx : 0;
	m = m > u ? m : u;
	for (; m; m >>= 1)
		b++;
	return b + 1;
}

void gmt_values_json(struct gmt_buf *b, const struct gmt_slot *s, const struct gmt_vsum *q)
{
	int rd = (s->flags & SANITIZER_MEMORY_DEVICE_FLAG_READ) != 0, wr = (s->flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE) != 0;

	if (!q || !q->lanes || s->space != GMT_GLOBAL || rd == wr)
		return;
	gmt_buf_printf(b, "\"values\": {\"lanes\": %llu, \"zero\": %llu, ", q->lanes, q->zero);
	if (wr)
		gmt_buf_printf(b, "\"silent\": %llu, ", q->silent);
	if (s->size == 8)
		gmt_buf_printf(b, "\"float_exact\": %llu, ", q->fexact);
	if (s->size <= 8) {
		long long mx = (long long)(q->kmax ^ 0x8000000000000000ull), mn = (long long)(~q->nkmin ^ 0x8000000000000000ull);
		gmt_buf_printf(b, "\"min\": %lld, \"max\": %lld, \"int_bits\": %u, ", mn, mx, int_bits(mn, mx));
		if (mn >= 0 && mx < 64) {
			gmt_buf_printf(b, "\"small\": [");
			for (int v = 0, k = 0; v < 64; v++)
				if ((q->small >> v) & 1ull)
					gmt_buf_printf(b, "%s%d", k++ ? ", " : "", v);
			gmt_buf_printf(b, "], ");
		}
		gmt_buf_printf(b, "\"own_x\": %llu, \"own_y\": %llu, \"own_elem\": %llu, ", q->self_x, q->self_y, q->own_elem);
	}
	gmt_buf_printf(b, "\"wide\": %s}, ", s->size > 8 ? "true" : "false");
}
