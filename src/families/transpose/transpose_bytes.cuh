/*
 * transpose_bytes.cuh - the transpose family's hardware bytes (gm_traffic.bytes_hw): the 32 B sectors the
 * warp requests of each kernel touch, counted on the host from the shape (host code only; included once by
 * transpose.cu after its kernel ids K_*, as transpose_rows.cuh and transpose_lean.cuh are).
 */
#ifndef GPUMEM_KERNELS_TRANSPOSE_BYTES_CUH
#define GPUMEM_KERNELS_TRANSPOSE_BYTES_CUH

/*
 * Sectors of the warp requests that each cover one contiguous piece of a
 * row of an nrows x ncols matrix with row pitch `pitch` floats: 32-column
 * pieces (one per scalar warp instruction), or 64-column pieces where the
 * float4 path runs (vec: inside the full 64x64 tiles). A piece of bytes
 * [a, b) spans (b-1)/32 - a/32 + 1 sectors; pieces of different requests are
 * counted separately, as the model counts sectors per request.
 */
static double row_piece_sectors(int64_t pitch, int nrows, int ncols, int vec)
{
	int64_t frows = vec ? nrows / BIG * BIG : 0, fcols = vec ? ncols / BIG * BIG : 0;
	double total = 0;

	for (int64_t r = 0; r < nrows; r++) {
		int64_t w;
		for (int64_t c = 0; c < ncols; c += w) {
			w = r < frows && c < fcols ? BIG : TILE;
			int64_t a = (r * pitch + c) * 4;
			int64_t b = (r * pitch + (c + w < ncols ? c + w : ncols)) * 4;
			total += (double)((b - 1) / 32 - a / 32 + 1);
		}
	}
	return total;
}

/* Sectors of the floats [lo, hi) of a row that starts at float `base`. */
static int64_t span_sectors(int64_t base, int64_t lo, int64_t hi)
{
	return (base + hi - 1) * 4 / 32 - (base + lo) * 4 / 32 + 1;
}

/* Floats from float `start` to the next boundary of `align` floats (row_lead / row_lead_a on the host). */
static int64_t lead_of(int64_t start, int64_t align)
{
	return -start & (align - 1);
}

/*
 * copy_b16's requests on one side (loads and stores alike): per row and tile
 * column, the window [64j + h_r, 64j + 64 + h_r) cut at the row's end, its
 * whole float4 in one request (a warp instruction covers two rows' windows,
 * each a piece of its own), the last 1-3 floats (an edge tile's partial
 * float4, one sector) in another, and in tile column 0 the head [0, h_r)
 * (copy_vec16). align: the floats the windows start at a multiple of (8;
 * copy_b16_line 32).
 */
static double copy16_row_sectors(int64_t r, int R, int C, int64_t align)
{
	int ncol = (int)ceil_div(C, BIG);
	int64_t base = r * C, h = lead_of(base, align);
	double total = 0;

	(void)R;
	if (h)
		total += (double)span_sectors(base, 0, h < C ? h : C);
	for (int j = 0; j < ncol; j++) {
		int64_t lo = (int64_t)j * BIG + h, hi = j == ncol - 1 ? C : lo + BIG;
		if (hi > C)
			hi = C;
		if (hi <= lo)
			continue;
		int64_t mid = lo + (hi - lo) / 4 * 4;
		if (mid > lo)
			total += (double)span_sectors(base, lo, mid);
		if (hi > mid)
			total += 1;
	}
	return total;
}

static double copy16_sectors(int R, int C, int64_t align)
{
	double total = 0;

	for (int64_t r = 0; r < R; r++)
		total += copy16_row_sectors(r, R, C, align);
	return total;
}

/*
 * v8's requests: the loads are copy_b16's windows, the rows within
 * tr_shift_max(R) of a tile row's end once more (the next tile row loads
 * them too); the stores are output row c's windows [64i - g_c, 64i + 64 -
 * g_c) cut at 0 and R, counted twice where the output row is shared by two
 * tile columns (c mod 64 < tr_shift_max(C), c >= 64: both blocks touch its
 * sectors). A cut float4 stored float by float is counted as its span.
 */
static double shear_sectors(int R, int C)
{
	int gmax = tr_shift_max(R), cmax = tr_shift_max(C);
	int64_t tiles = ceil_div(R + gmax, BIG);
	double total = 0;

	for (int64_t r = 0; r < R; r++) {
		double rs = copy16_row_sectors(r, R, C, TR_SECTOR_FLOATS);
		total += rs;
		if (r % BIG >= BIG - gmax && r / BIG + 1 < tiles)
			total += rs;
	}
	for (int64_t c = 0; c < C; c++) {
		int64_t g = (c * R) & (TR_SECTOR_FLOATS - 1);
		double cs = 0;
		for (int64_t i = 0; i < tiles; i++) {
			int64_t a = i * BIG - g, b = a + BIG;
			if (a < 0)
				a = 0;
			if (b > R)
				b = R;
			if (a < b)
				cs += (double)span_sectors(c * R, a, b);
		}
		total += c % BIG < cmax && c >= BIG ? 2 * cs : cs;
	}
	return total;
}

/*
 * v7's loads: a 32-column piece of input row r is one request, except in the
 * rows where the lanes' windows (tile row floor((r + g_c) / 128), g_c =
 * (c*R) mod 8) differ: there each tile row's lanes are a request of their own.
 */
static double shift_load_sectors(int R, int C)
{
	double total = 0;

	for (int64_t r = 0; r < R; r++)
		for (int64_t c0 = 0; c0 < C; c0 += TILE) {
			int64_t n = c0 + TILE < C ? TILE : C - c0;
			if (r % TALL + TR_SECTOR_FLOATS <= TALL) {
				total += (double)span_sectors(r * C, c0, c0 + n);
				continue;
			}
			for (int64_t tile = r / TALL; tile <= r / TALL + 1; tile++) {
				int64_t prev = -1;
				for (int64_t c = c0; c < c0 + n; c++) {
					int64_t sec = (r * C + c) * 4 / 32;
					if ((r + ((c * R) & (TR_SECTOR_FLOATS - 1))) / TALL == tile && sec != prev) {
						total += 1;
						prev = sec;
					}
				}
			}
		}
	return total;
}

/* v7's stores: output row c in pieces of 32 from 128i - g_c, cut at 0 and R. */
static double shift_store_sectors(int R, int C)
{
	int64_t tiles = ceil_div(R + tr_shift_max(R), TALL);
	double total = 0;

	for (int64_t c = 0; c < C; c++) {
		int64_t g = (c * R) & (TR_SECTOR_FLOATS - 1);
		for (int64_t lo = -g; lo < tiles * TALL - g; lo += TILE) {
			int64_t a = lo < 0 ? 0 : lo, b = lo + TILE < R ? lo + TILE : R;
			if (a < b)
				total += (double)span_sectors(c * R, a, b);
		}
	}
	return total;
}

/*
 * bytes_hw = 32 B x the sectors of every warp request, loads plus stores,
 * i.e. the model's sectors per request summed over all requests of one
 * launch (src/families/transpose/README.md):
 *   - a warp instruction that loads or stores 32 consecutive floats of one
 *     row, or (float4) 64 consecutive floats of each of two rows: the
 *     sectors of those pieces (row_piece_sectors);
 *   - v0's store, 32 lanes in 32 output rows: one sector per element.
 * The store side is the same count on the C x R output (the full 64x64
 * tiles of the output are the transposes of the input's). v7 and
 * copy_b16 shift their pieces to sector boundaries row by row: counted
 * piece by piece (shift_load_sectors, shift_store_sectors, copy16_sectors).
 */
static double tr_bytes_hw(int kernel, int R, int C)
{
	int vec = kernel == K_V5 && R % 4 == 0 && C % 4 == 0;
	double ld, st;

	if (kernel == K_COPY16 || kernel == K_COPY16L)
		return 32.0 * 2 * copy16_sectors(R, C, kernel == K_COPY16L ? TR_LINE_FLOATS : TR_SECTOR_FLOATS);
	if (kernel == K_V7)
		return 32.0 * (shift_load_sectors(R, C) + shift_store_sectors(R, C));
	if (kernel == K_V8)
		return 32.0 * shear_sectors(R, C);
	ld = row_piece_sectors(C, R, C, vec);
	if (kernel == K_V0)
		st = (double)R * C;
	else if (kernel == K_COPY4)
		st = ld;
	else
		st = row_piece_sectors(R, C, R, vec);
	return 32.0 * (ld + st);
}

#endif
