/*
 * gemm_tma.cuh - the SGEMM ladder's v10: tiles loaded by Hopper's tensor memory accelerator, with its
 * tensor maps and launcher. Included once, by gemm.cu, after gemm_warptile.cuh.
 */
#ifndef GPUMEM_KERNELS_GEMM_TMA_CUH
#define GPUMEM_KERNELS_GEMM_TMA_CUH
/*
 * ---- v10: Hopper's tensor memory accelerator ----
 * v9's blocks, warps and grouped order, but one thread hands each stage's A
 * (128 x 16) and B (16 x 128) tiles to the TMA (cp.async.bulk.tensor), which
 * writes them into shared memory and signals an mbarrier with the bytes
 * landed: no per-thread address arithmetic or cp.async instructions. A is
 * kept as it lies in memory (rows of 16 floats, 64 B) under the TMA's 64-byte
 * swizzle, which moves 16-byte chunk c of row r to c ^ ((r >> 1) & 3); a
 * lane reads KV consecutive k of one row at once, and the eight lanes that
 * read eight consecutive rows hit eight different bank groups. Each thread
 * owns rows wm + f*32 + i*8 + lm (f < 2, i < 4) and v9's columns. On the
 * H100, KV = 1, 2 and 4 ran at 40.6, 40.5 and 39.8 TFLOP/s (4096^3): KV = 2.
 */
#define TMA_BK 16
#define TMA_STAGES 4
#define TMA_STAGE_BYTES (128 * TMA_BK * 4 * 2)

static __device__ __forceinline__ unsigned smem_u32(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

static __device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity)
{
	asm volatile("{\n"
		     ".reg .pred p;\n"
		     "W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
		     "@!p bra W;\n"
		     "}\n" ::"r"(bar),
		     "r"(parity));
}

static __device__ __forceinline__ void tma_load_2d(unsigned dst, const CUtensorMap *map, int c0, int c1,
						   unsigned bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
		     " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
		     "l"((unsigned long long)map), "r"(c0), "r"(c1), "r"(bar)
		     : "memory");
}

template <int KV>
__global__ void __launch_bounds__(128, 2) gemm_tma(const __grid_constant__ CUtensorMap tmA,
						    const __grid_constant__ CUtensorMap tmB, float *C, int Kp, int ldc)
{
	extern __shared__ __align__(1024) unsigned char tsmem[];
	__shared__ __align__(8) unsigned long long full[TMA_STAGES];
	/* each stage: A 128 rows x 64 B (swizzled), then B 16 rows x 512 B; stages 1024-byte aligned */
	unsigned char *base = (unsigned char *)(((size_t)tsmem + 1023) & ~(size_t)1023);
	const int t = threadIdx.x, warp = t / 32, lane = t % 32, nk = Kp / TMA_BK;
	const int wm = (warp / 2) * 64, wn = (warp % 2) * 64, lm = lane / 4, ln = lane % 4;
	const int bid = blockIdx.y * gridDim.x + blockIdx.x, per = 8 * gridDim.x;
	const int first = bid / per * 8, rows = min(8, (int)gridDim.y - first);
	const int tm = first + (bid % per) % rows, tn = (bid % per) / rows;
	const int sw = (lm >> 1) & 3; /* the 64-byte swizzle of this lane's rows */
	float acc[8][16] = { { 0 } }, ra[8][KV], rb[16];

	if (t == 0) {
		for (int st = 0; st < TMA_STAGES; st++)
			asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(smem_u32(&full[st])));
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads();
	auto issue = [&](int kt) {
		const int st = kt % TMA_STAGES;
		const unsigned bar = smem_u32(&full[st]), dst = smem_u32(base + st * TMA_STAGE_BYTES);
		asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar),
			     "r"(TMA_STAGE_BYTES)
			     : "memory");
		tma_load_2d(dst, &tmA, kt * TMA_BK, tm * 128, bar);
		tma_load_2d(dst + TMA_STAGE_BYTES / 2, &tmB, tn * 128, kt * TMA_BK, bar);
	};
	if (t == 0)
		for (int kt = 0; kt < TMA_STAGES - 1 && kt < nk; kt++)
			issue(kt);
	for (int kt = 0; kt < nk; kt++) {
		const int st = kt % TMA_STAGES;
		mbar_wait(smem_u32(&full[st]), (kt / TMA_STAGES) & 1);
		__syncthreads(); /* everyone is done with stage (kt - 1) % TMA_STAGES, which the next issue refills */
		if (t == 0 && kt + TMA_STAGES - 1 < nk) {
			asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
			issue(kt + TMA_STAGES - 1);
		}
		const unsigned char *As = base + st * TMA_STAGE_BYTES;
		const float(*Bs)[128] = (const float(*)[128])(As + TMA_STAGE_BYTES / 2);
#pragma unroll
		for (int kc = 0; kc < TMA_BK / KV; kc++) {
			/* rows wm + lm + 8j all have (r >> 1) & 3 == (lm >> 1) & 3: one swizzled offset per kc */
			const unsigned char *pa = As + (wm + lm) * 64 + (((kc * KV / 4) ^ sw) << 4) + (kc * KV % 4) * 4;
#pragma unroll
			for (int fi = 0; fi < 8; fi++) {
				const unsigned char *p = pa + ((fi / 4) * 32 + (fi % 4) * 8) * 64;
				if (KV == 4)
					*(float4 *)ra[fi] = *(const float4 *)p;
				else if (KV == 2)
					*(float2 *)ra[fi] = *(const float2 *)p;
				else
					ra[fi][0] = *(const float *)p;
			}
#pragma unroll
			for (int kk = 0; kk < KV; kk++) {
#pragma unroll
				for (int g = 0; g < 4; g++)
					*(float4 *)&rb[4 * g] = *(const float4 *)&Bs[kc * KV + kk][wn + g * 16 + ln * 4];
#pragma unroll
				for (int i = 0; i < 8; i++)
#pragma unroll
					for (int j = 0; j < 16; j++)
						acc[i][j] += ra[i][kk] * rb[j];
			}
		}
	}
#pragma unroll
	for (int fi = 0; fi < 8; fi++) {
		int row = tm * 128 + wm + (fi / 4) * 32 + (fi % 4) * 8 + lm;
		float *c = C + (size_t)row * ldc + tn * 128 + wn + ln * 4;
#pragma unroll
		for (int g = 0; g < 4; g++)
			*(float4 *)(c + g * 16) = make_float4(acc[fi][4 * g], acc[fi][4 * g + 1], acc[fi][4 * g + 2],
							      acc[fi][4 * g + 3]);
	}
}

typedef CUresult (*encode_tiled_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
				    const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
				    CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

/* A 2D float tensor map: rows x cols (cols contiguous), boxes of box_rows x box_cols. */
static gm_status tma_map(CUtensorMap *map, encode_tiled_fn enc, float *p, int rows, int cols, int box_rows,
			 int box_cols, CUtensorMapSwizzle swz)
{
	const cuuint64_t dim[2] = { (cuuint64_t)cols, (cuuint64_t)rows };
	const cuuint64_t stride[1] = { (cuuint64_t)cols * sizeof(float) };
	const cuuint32_t box[2] = { (cuuint32_t)box_cols, (cuuint32_t)box_rows }, estr[2] = { 1, 1 };
	CUresult r = enc(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, p, dim, stride, box, estr,
			 CU_TENSOR_MAP_INTERLEAVE_NONE, swz, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
			 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS)
		return gm_fail(GM_ERR_CUDA, "cuTensorMapEncodeTiled failed (CUresult %d)", (int)r);
	return GM_OK;
}

/* The descriptors of A (128 x 16 boxes, 64-byte swizzle) and B (16 x 128 boxes). */
static gm_status tma_prepare(struct gemm_state *s)
{
	void *fn = NULL;
	cudaDriverEntryPointQueryResult q;

	GM_CU(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
	if (!fn || q != cudaDriverEntryPointSuccess)
		return gm_fail(GM_ERR_CUDA, "the driver has no cuTensorMapEncodeTiled");
	encode_tiled_fn enc = (encode_tiled_fn)fn;
	gm_status st = tma_map(&s->tmA, enc, s->A, s->Mp, s->Kp, 128, TMA_BK, CU_TENSOR_MAP_SWIZZLE_64B);
	if (!st)
		st = tma_map(&s->tmB, enc, s->B, s->Kp, s->Np, TMA_BK, 128, CU_TENSOR_MAP_SWIZZLE_NONE);
	return st;
}

template <int KV>
static gm_status tma_launch_kv(const struct gemm_state *s)
{
	static int opted;
	const size_t smem = TMA_STAGES * TMA_STAGE_BYTES + 1024;

	if (!opted) {
		GM_CU(cudaFuncSetAttribute(gemm_tma<KV>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		opted = 1;
	}
	gemm_tma<KV><<<dim3(s->Np / 128, s->Mp / 128), 128, smem, gm_stream()>>>(s->tmA, s->tmB, s->C, s->Kp,
										 s->Np);
	GM_CU_LAUNCH();
	return GM_OK;
}

#endif
