/*
 * gemm_tf32.cuh - v21_3xtf32 (issue 25): C = A B in FP32 on the tensor cores, with FP32's accuracy. Each
 * operand x is split into big = tf32(x) (rounded: 11 significant bits) and small = x - big (tf32_split), and
 * C += small_a big_b + big_a small_b + big_a big_b: three TF32 mma.sync products for each FP32 one (the
 * small_a small_b term, under 2^-22 of the product, is dropped; the small terms first). NVIDIA's "3xTF32"
 * (CUTLASS). The tensor cores add in FP32 by truncation (Fasi et al. 2021): accumulated in the mma across
 * all of K, the error grows toward zero with every step (measured, s19: 1.9e-6 of sum |a b| at 4096^3, 31 u,
 * where cublasSgemm stays under half of it). So each k step's three products start from zero in the tensor
 * core and are added to the accumulators with FADD, rounded to nearest. Its accuracy is measured, not
 * assumed: gemm.cu's verify runs it and cublasSgemm on operands with 24 significant bits and requires its
 * largest error (against the exact sum, relative to the sum of |a b|) within 2x cuBLAS's.
 *
 * Blocks of 128 x 128 (v9's grouped order), 256 threads, 8 warps of 64 x 32: a warp's k step of 8 is 4 x 4
 * m16n8k8 tiles, 48 mma. k-tiles of 16 in four cp.async stages, two blocks an SM. A's tile is stored as
 * A is (rows, k fastest, 24 floats apart) and B's as B is (k rows, n fastest, 132 apart). The k of a step is
 * permuted, the same for A and B: the mma's k = q and q + 4 of lane (g, q) are taken at 2q and 2q + 1, so a
 * lane's two A values are one 8-byte load; with those strides every fragment load is conflict-free.
 * Included once, by gemm.cu, after gemm_warptile.cuh (wt_tile_of) and the cp.async helpers.
 */
#ifndef GPUMEM_KERNELS_GEMM_TF32_CUH
#define GPUMEM_KERNELS_GEMM_TF32_CUH

#define TX_BK 16
#define TX_LDA (TX_BK + 8)
#define TX_LDB (128 + 4)
#define TX_STAGES 4
#define TX_THREADS 256

/*
 * big: x rounded to TF32 by adding half of its last place and dropping the 13 low bits (round half away from
 * zero, two integer instructions; cvt.rna.tf32.f32 is a sequence of nine on sm_90); small: x - big, exact in
 * FP32, passed whole (the tensor core reads the 19 high bits of a TF32 operand, so small is truncated there:
 * under 2^-21 of x). The operands are finite and far from FLT_MAX, as the ladder's are.
 */
static __device__ __forceinline__ void tf32_split(float x, uint32_t &big, uint32_t &small)
{
	big = (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
	small = __float_as_uint(x - __uint_as_float(big));
}

/* d += a b, one m16n8k8 TF32 product (FP32 accumulate) */
static __device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
	asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
	    "{%0,%1,%2,%3};"
	    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <int GROUP>
__global__ void __launch_bounds__(TX_THREADS, 2) gemm_tf32x3(const float *A, const float *B, float *C, int Kp,
							       int lda, int ldb, int ldc)
{
	extern __shared__ __align__(16) float smem[];
	float (*As)[128][TX_LDA] = (float (*)[128][TX_LDA])smem;
	float (*Bs)[TX_BK][TX_LDB] = (float (*)[TX_BK][TX_LDB])(smem + TX_STAGES * 128 * TX_LDA);
	const int2 tt = wt_tile_of<GROUP>(blockIdx.y * gridDim.x + blockIdx.x, gridDim.x, gridDim.y);
	const int t = threadIdx.x, warp = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
	const int wm = (warp / 4) * 64, wn = (warp % 4) * 32, nk = Kp / TX_BK;
	const float *a = A + (size_t)tt.x * 128 * lda, *b = B + tt.y * 128;
	float acc[4][4][4] = {};
	/* a stage: A 128 rows x 16 k and B 16 rows x 128, 512 float4 each, two of each a thread */
	auto load = [&](int st, int k0) {
#pragma unroll
		for (int i = 0; i < 2; i++) {
			const int e = t + TX_THREADS * i;
			cp_async16(&As[st][e / 4][(e % 4) * 4], a + (size_t)(e / 4) * lda + k0 + (e % 4) * 4);
			cp_async16(&Bs[st][e / 32][(e % 32) * 4], b + (size_t)(k0 + e / 32) * ldb + (e % 32) * 4);
		}
	};

#pragma unroll
	for (int st = 0; st < TX_STAGES - 1; st++) {
		if (st < nk)
			load(st, st * TX_BK);
		cp_async_commit();
	}
	for (int kt = 0; kt < nk; kt++) {
		const int st = kt % TX_STAGES, nx = kt + TX_STAGES - 1;
		cp_async_wait<TX_STAGES - 2>();
		__syncthreads(); /* tile kt landed for all; everyone is done with the stage nx overwrites */
		if (nx < nk)
			load(nx % TX_STAGES, nx * TX_BK);
		cp_async_commit();
#pragma unroll
		for (int ks = 0; ks < TX_BK; ks += 8) {
			uint32_t bb[4][2], bs[4][2];
#pragma unroll
			for (int j = 0; j < 4; j++) {
				tf32_split(Bs[st][ks + 2 * q][wn + j * 8 + g], bb[j][0], bs[j][0]);
				tf32_split(Bs[st][ks + 2 * q + 1][wn + j * 8 + g], bb[j][1], bs[j][1]);
			}
#pragma unroll
			for (int i = 0; i < 4; i++) {
				const float2 lo = *(const float2 *)&As[st][wm + i * 16 + g][ks + 2 * q];
				const float2 hi = *(const float2 *)&As[st][wm + i * 16 + g + 8][ks + 2 * q];
				uint32_t ab[4], as[4];
				tf32_split(lo.x, ab[0], as[0]);
				tf32_split(hi.x, ab[1], as[1]);
				tf32_split(lo.y, ab[2], as[2]);
				tf32_split(hi.y, ab[3], as[3]);
#pragma unroll
				for (int j = 0; j < 4; j++) {
					float d[4] = { 0.f, 0.f, 0.f, 0.f };
					mma_tf32(d, as, bb[j]);
					mma_tf32(d, ab, bs[j]);
					mma_tf32(d, ab, bb[j]);
#pragma unroll
					for (int r = 0; r < 4; r++)
						acc[i][j][r] += d[r];
				}
			}
		}
	}
	/* lane (g, q) holds rows g and g + 8, columns 2q and 2q + 1 of each 16 x 8 tile */
#pragma unroll
	for (int i = 0; i < 4; i++) {
		const size_t row = (size_t)tt.x * 128 + wm + i * 16 + g;
#pragma unroll
		for (int j = 0; j < 4; j++) {
			float *c = C + row * ldc + tt.y * 128 + wn + j * 8 + 2 * q;
			*(float2 *)c = make_float2(acc[i][j][0], acc[i][j][1]);
			*(float2 *)(c + 8 * (size_t)ldc) = make_float2(acc[i][j][2], acc[i][j][3]);
		}
	}
}

static size_t tx_smem(void)
{
	return (size_t)TX_STAGES * (128 * TX_LDA + TX_BK * TX_LDB) * sizeof(float);
}

static gm_status tx_launch(const struct gemm_state *s)
{
	static int opted;
	auto k = gemm_tf32x3<8>;
	const size_t smem = tx_smem();

	if (!opted) {
		GM_CU(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		opted = 1;
	}
	k<<<dim3(s->Np / 128, s->Mp / 128), TX_THREADS, smem, gm_stream()>>>(s->A, s->B, s->C, s->Kp, s->Kp, s->Np,
									       s->Np);
	return GM_OK;
}

#endif
