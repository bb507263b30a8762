/*
 * shapes.h - the constants a family's case table (src/families/<name>/cases.c)
 * and its kernels (src/families/<name>/<name>.cu) must agree on: launch shapes the
 * declared access patterns describe, and the ids a case passes to its
 * kernels. One definition each, so the model's view of a case cannot drift
 * from what the kernel does. Plain C, included from C and CUDA.
 */
#ifndef GPUMEM_KERNELS_SHAPES_H
#define GPUMEM_KERNELS_SHAPES_H

/* copy: case param "mode" */
enum { COPY_ONE = 0, COPY_ILP = 1, COPY_READ = 2, COPY_WRITE = 3, COPY_MEMCPY = 4,
       COPY_TILE = 5, READ_TILE = 6, WRITE_TILE = 7, COPY_ONE_L2 = 8, COPY_LINES_L2 = 9,
       COPY_SCATTER = 10, COPY_SCATTER_BLOCKS = 11, COPY_ONE_SMALL = 12, COPY_ONE_BIG = 13,
       COPY_PAGES = 14, COPY_ONE_START = 15, COPY_ONE_L2_BIG = 16, COPY_LINES_L1 = 17,
       COPY_ONE_FLOOR = 18, COPY_COLSTORE = 19, COPY_SCATTER_FAR = 20, COPY_SPARSE_ST = 21 };
#define COPY_BLOCK 256
/* COPY_ONE_SMALL: COPY_ONE in blocks of this many threads (the rate the SMs start blocks, rule T4) */
#define COPY_SMALL_BLOCK 64
/* COPY_ONE_BIG: COPY_ONE in blocks of this many threads (a block lasts as long as its slowest warp, rule T5) */
#define COPY_BIG_BLOCK 1024
/* COPY_ONE_START: COPY_ONE over exactly this many waves of resident threads (sm_count x max threads an SM),
   a few microseconds a launch: what a launch costs beyond its traffic and waves (rule S) */
#define COPY_START_WAVES 8
/* COPY_ONE_FLOOR: COPY_ONE over one block of COPY_BLOCK threads, timed back to back: the least a launch so timed
   takes, the host's and the GPU's rate of launches (rule S3) */
/* COPY_ONE_L2: out[i] = in[i % COPY_TABLE_ELEMS], a 4 MiB table of 4 B elements that stays in L2;
   COPY_LINES_L2: out[i] = in[(i * 32) % COPY_TABLE_ELEMS], each lane of a warp in its own line of it */
#define COPY_TABLE_ELEMS (1 << 20)
/* COPY_ONE_L2_BIG: COPY_ONE_L2 in blocks of COPY_BIG_BLOCK threads: the SMs' start rate does not hide the round
   trip L2 serves (wave_l2_ns) as it does in blocks of 256.
   COPY_LINES_L1: out[i] = in[(i % 32) * 32 + (i / 32) % 32], a 4 KiB table of 32 rows of 128 B: each warp reads
   one column of every row, 32 lines a request, all in L1 after a block's first warp (l1_lines_gps) */
#define COPY_L1_ROWS 32
/* COPY_PAGES: a column walk, out[i] = in[(i % ROWS) * PITCH + (i / ROWS) % PITCH]: each lane of a warp reads
   its own row, rows 4 MiB + 128 B apart (every lane in a 2 MiB page of its own; rule P) */
#define COPY_PAGES_ROWS 256
#define COPY_PAGES_PITCH 1048608
/* pages_2m_b4, pages_16m_b4: the same walk with rows 2 MiB + 128 B and 16 MiB + 128 B apart (rule P4: a
   translation costs more the farther apart the request's pages are) */
#define COPY_PAGES_PITCH_2M 524320
#define COPY_PAGES_PITCH_16M 4194336
/* pages_2m_al_b4: rows exactly 2 MiB apart, the request's 32 lines on the same low address bits (rule P5) */
#define COPY_PAGES_PITCH_2M_AL 524288
/* pages_spread_b4: rows 1006632 elements (4026528 B, 3.84 MiB rounded down to 4 B, the pitch of the development
   sets' 3.84 MiB float walks) apart: each row 163.84 KiB short of two pages after the one before, so the 32 lanes of a
   request step round their 2 MiB pages' offsets about 2.5 times and leave no gap of half a page (rule P6); not near a
   power of two (P5 off), each lane still alone in its page */
#define COPY_PAGES_PITCH_SPREAD 1006632
/* COPY_COLSTORE: a column walk of the stores, out[(i % ROWS) * PITCH + i / ROWS] = in[i], PITCH = the pitch in
   bytes over the element's: each lane of a warp writes its own row, alone in a line the request writes partly, the
   request's lines 512 KiB + 128 B apart (rule L4's far lines; colstore_b4 and colstore_b16). n = ROWS x PITCH
   elements, whatever the array size: every row written whole, a permutation. */
#define COPY_COLSTORE_ROWS 1024
#define COPY_COLSTORE_PITCH_BYTES 524416
/* The scatters store 4 B elements in pieces: out[(i/KS)*KS + (i%S)*K + (i/S)%K] = in[i], KS = K x S.
   COPY_SCATTER (S = K = 32, blocks of 1024): the 32 warps of a block each write one element into each of
   the same 32 lines (lanes 128 B apart), a naive transpose's stores in one block;
   COPY_SCATTER_BLOCKS (S = 256, K = 8, blocks of 256): the 8 pieces of a sector from 8 consecutive blocks,
   lanes 32 B apart (8 lines a request). */
#define COPY_SCATTER_S 32
#define COPY_SCATTER_K 32
#define COPY_SCATTER_BLOCK 1024
#define COPY_SCATTER_BLOCKS_S 256
#define COPY_SCATTER_BLOCKS_K 8
/* COPY_SCATTER_FAR (s75, blocks of 1024): copy.scatter_b4's warps with the block's 32 lines G lines apart, the G
   consecutive blocks of a group of G x 1024 elements interleaved: out[g*G*1024 + ((t%32)*G + b)*32 + t/32] = in[i],
   g = i / (G*1024), b = (i / 1024) % G, t = i % 1024. Each lane alone in its line, the request's lines 9 x 128 =
   1152 B (1 KiB + 128 B) apart, every line completed by its own block (rule L4's spaced near rate). */
#define COPY_SCATTER_FAR_G 9
/* COPY_SPARSE_ST (m78, 16 B elements): out[(i / RUN) * STEP + i % RUN] = in[i], RUN = 2, STEP = 16: whole 32 B
   sectors 256 B apart, each alone in its 64 B DRAM piece and its 256 B group, nothing written between them (rule
   D12's write_sparse_gbs; probe-77's f4x2_s256). n = COPY_SPARSE_N elements whatever the array size: 32 MiB read,
   256 MiB of output spanned, past any L2. */
#define COPY_SPARSE_RUN 2
#define COPY_SPARSE_STEP 16
#define COPY_SPARSE_N 2097152

/* stride: blockDim.x, and each block's tiles of STRIDE_ILP * blockDim.x elements */
#define STRIDE_BLOCK 256
#define STRIDE_ILP 4

/* offset: as stride; offsets 0..OFFSET_MAX elements; case param "side" */
#define OFFSET_BLOCK 256
#define OFFSET_ILP 4
#define OFFSET_MAX 32
enum { SIDE_READ = 0, SIDE_WRITE = 1 };

/* rowcol: block RC_BX x RC_BY over 32x32 tiles; case param "by" */
#define RC_BX 32
#define RC_BY 8
#define RC_PITCH_ALIGN 512   /* what cudaMallocPitch is expected to round rows to */
enum { BY_ROWS = 0, BY_COLS = 1 };

/* banks: blockDim.x; case param "pattern" */
#define BK_BLOCK 256
enum { PAT_STRIDE, PAT_BCAST, PAT_MC_DIV4, PAT_MC_MOD4, PAT_MC_DIV4_S32,
       PAT_TILE_ROW, PAT_TILE_COL, PAT_TILE_PAD, PAT_TILE_XOR };

/* transpose: the side the case parameters rows/cols are stated at */
#define TR_NOMINAL_SIDE 16384
/* transpose v7 and copy_b16: pieces start at sector boundaries (8 floats); a row of pitch p starting at
   float r*p is shifted by (r*p) mod 8, at most 8 - gcd(p, 8) (0 when p is a multiple of 8) */
#define TR_SECTOR_FLOATS 8
#ifdef __CUDACC__
#define TR_HOST_DEVICE __host__ __device__
#else
#define TR_HOST_DEVICE
#endif
static inline TR_HOST_DEVICE int tr_shift_max(long long pitch)
{
	long long low = pitch & -pitch; /* lowest set bit */

	return low >= TR_SECTOR_FLOATS || low == 0 ? 0 : TR_SECTOR_FLOATS - (int)low;
}

#endif
