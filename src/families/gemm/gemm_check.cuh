/*
 * gemm_check.cuh - the SGEMM ladder's validation (src/families/gemm/README.md, "Validation"): Freivalds' check in
 * double, sampled elements against their exact value on the device and on the CPU, and v21's accuracy on
 * full-mantissa operands against cublasSgemm's; with gemm_verify, which runs them before any timing, and the
 * notes v21's result carries. Included once, by gemm.cu, after the launchers and gemm_prepare (one
 * translation unit).
 */
#ifndef GPUMEM_KERNELS_GEMM_CHECK_CUH
#define GPUMEM_KERNELS_GEMM_CHECK_CUH

/* v21's accuracy check: operands with 24 significant bits, uniform in [-1, 1) (exact in float); padding zero. */
__global__ void gemm_fill_full(float *p, int rows, int cols, int rows_p, int cols_p, uint32_t seed)
{
	size_t n = (size_t)rows_p * cols_p, stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
		int r = (int)(i / cols_p), c = (int)(i % cols_p);
		uint32_t h = gm_hash(seed, (uint64_t)r * cols + c) >> 8;
		p[i] = r < rows && c < cols ? (float)((int)h - (1 << 23)) * 0x1p-23f : 0.0f;
	}
}

/*
 * C[i][j]'s exact value sum_k A[i][k] B[k][j] into *x and sum_k |A[i][k] B[k][j]| into *xa, the warp's lanes
 * over k (the products exact in double, the sums within K 2^-53); every lane gets both.
 */
static __device__ __forceinline__ void gemm_exact(const float *A, const float *B, int i, int j, int K, int lda,
						  int ldb, int lane, double *x, double *xa)
{
	double s = 0, sa = 0;
	for (int k = lane; k < K; k += 32) {
		double t = (double)A[(size_t)i * lda + k] * B[(size_t)k * ldb + j];
		s += t;
		sa += fabs(t);
	}
	for (int o = 16; o > 0; o >>= 1) {
		s += __shfl_xor_sync(0xffffffffu, s, o);
		sa += __shfl_xor_sync(0xffffffffu, sa, o);
	}
	*x = s;
	*xa = sa;
}

/*
 * The largest |C[i][j] - sum_k A[i][k] B[k][j]| / sum_k |A[i][k] B[k][j]| over GEMM_SAMPLES elements (a warp
 * each, gemm_exact), into *out as the bits of a double (>= 0).
 */
__global__ void gemm_err_max(const float *A, const float *B, const float *C, int M, int N, int K, int lda, int ldb,
			     int ldc, uint32_t seed, unsigned long long *out)
{
	int s = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
	if (s >= GEMM_SAMPLES)
		return;
	int i = (int)(gm_hash(seed, 2 * s) % (uint32_t)M), j = (int)(gm_hash(seed, 2 * s + 1) % (uint32_t)N);
	double x, xa;
	gemm_exact(A, B, i, j, K, lda, ldb, lane, &x, &xa);
	if (lane == 0) {
		double e = xa > 0 ? fabs((double)C[(size_t)i * ldc + j] - x) / xa : fabs((double)C[(size_t)i * ldc + j]);
		atomicMax(out, (unsigned long long)__double_as_longlong(e == e ? e : INFINITY));
	}
}

__global__ void gemm_rand_vec(int *r, int n, uint32_t seed)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		int v = (int)(gm_hash(seed, i) % 16u) - 8;
		r[i] = v >= 0 ? v + 1 : v;   /* -8..-1, 1..8 */
	}
}

/* out[i] = sum_j M[i][j] x[j] and outa[i] = sum_j |M[i][j]| |x[j]|, a warp per row, in double. */
template <typename X>
__global__ void gemm_rowdot(const float *Mx, int rows, int cols, int ld, const X *x, const double *xa, double *out,
			    double *outa)
{
	int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
	if (row >= rows)
		return;
	double s = 0, sa = 0;
	for (int j = lane; j < cols; j += 32) {
		double m = Mx[(size_t)row * ld + j];
		s += m * (double)x[j];
		if (outa)
			sa += fabs(m) * (xa ? xa[j] : fabs((double)x[j]));
	}
	for (int o = 16; o > 0; o >>= 1) {
		s += __shfl_xor_sync(0xffffffffu, s, o);
		sa += __shfl_xor_sync(0xffffffffu, sa, o);
	}
	if (lane == 0) {
		out[row] = s;
		if (outa)
			outa[row] = sa;
	}
}

static __host__ __device__ __forceinline__ double gemm_gamma(int K)
{
	double u = ldexp(1.0, -24);
	return K * u / (1 - K * u);
}

/* Rows where |C r - A (B r)| > gamma_K |A| (|B| |r|) (NaN counts as a failure). */
__global__ void gemm_freivalds_check(const double *w, const double *v, const double *va, int M, double tol,
				     struct gm_check *res)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < M && !(fabs(w[i] - v[i]) <= tol * va[i] + 1e-9)) {
		atomicAdd(&res->bad, 1ull);
		atomicMin(&res->first, (unsigned long long)i);
	}
}

/* GEMM_SAMPLES elements, each against its exact value; a warp per element. */
__global__ void gemm_sample_check(const float *A, const float *B, const float *C, int M, int N, int K, int lda,
				  int ldb, int ldc, uint32_t seed, double tol, struct gm_check *res)
{
	int s = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
	if (s >= GEMM_SAMPLES)
		return;
	int i = s == 0 ? M - 1 : (int)(gm_hash(seed, 2 * s) % (uint32_t)M);
	int j = s == 0 ? N - 1 : (int)(gm_hash(seed, 2 * s + 1) % (uint32_t)N);
	double x, xa;
	gemm_exact(A, B, i, j, K, lda, ldb, lane, &x, &xa);
	if (lane == 0 && !(fabs((double)C[(size_t)i * ldc + j] - x) <= tol * xa)) {
		atomicAdd(&res->bad, 1ull);
		atomicMin(&res->first, (unsigned long long)((size_t)i * ldc + j));
	}
}

/*
 * The error bound relative to the terms' magnitudes: gamma_K for IEEE float
 * sums; four times that for the tensor cores, whose FP32 accumulation
 * truncates and aligns the products of a group to the largest before adding
 * (Fasi et al., "Numerical behavior of NVIDIA tensor cores", 2021).
 */
static double gemm_tol(const struct gemm_state *s)
{
	return (s->mode == GEMM_TC_FP16 || s->mode == GEMM_TC_BF16 || s->mode == GEMM_TF32X3 ? 4 : 1) *
	       gemm_gamma(s->K);
}

static gm_status gemm_freivalds(struct gemm_state *s, uint32_t seed, char *why, size_t n)
{
	unsigned rows_k = gm_blocks_for((size_t)s->K * 32, 256), rows_m = gm_blocks_for((size_t)s->M * 32, 256);
	struct gm_check *res;
	int ok = 1;
	gm_status st;

	gemm_rand_vec<<<gm_blocks_for(s->N, 256), 256, 0, gm_stream()>>>(s->r, s->N, seed);
	/* u = B r, ua = |B| |r|; v = A u, va = |A| ua; w = C r */
	gemm_rowdot<int><<<rows_k, 256, 0, gm_stream()>>>(s->B, s->K, s->N, s->Np, s->r, NULL, s->u, s->ua);
	gemm_rowdot<double><<<rows_m, 256, 0, gm_stream()>>>(s->A, s->M, s->K, s->Kp, s->u, s->ua, s->v, s->va);
	gemm_rowdot<int><<<rows_m, 256, 0, gm_stream()>>>(s->C, s->M, s->N, s->Np, s->r, NULL, s->w, NULL);
	GM_CU_LAUNCH();
	st = gm_check_alloc(&res);
	if (st)
		return st;
	gemm_freivalds_check<<<gm_blocks_for(s->M, 256), 256, 0, gm_stream()>>>(s->w, s->v, s->va, s->M, gemm_tol(s), res);
	st = gm_check_finish(res, (const uint32_t *)s->C, why, n, &ok);
	if (!st && !ok) {
		snprintf(why, n, "C r differs from A (B r) beyond gamma_K in some rows (Freivalds)");
		st = gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	return st;
}

/* The CPU recomputes GEMM_CPU_SAMPLES elements from the generator. */
static gm_status gemm_cpu_check(struct gemm_state *s, char *why, size_t n)
{
	for (int q = 0; q < GEMM_CPU_SAMPLES; q++) {
		int i = q == 0 ? 0 : (int)(gm_hash(s->seed ^ 0x77u, 2 * q) % (uint32_t)s->M);
		int j = q == 0 ? s->N - 1 : (int)(gm_hash(s->seed ^ 0x77u, 2 * q + 1) % (uint32_t)s->N);
		double x = 0, xa = 0;
		float got;
		for (int k = 0; k < s->K; k++) {
			double t = (double)gemm_val(s->seed, (uint64_t)i * s->K + k) *
				   gemm_val(seed_b(s->seed), (uint64_t)k * s->N + j);
			x += t;
			xa += fabs(t);
		}
		GM_CU(cudaMemcpy(&got, s->C + (size_t)i * s->Np + j, sizeof(got), cudaMemcpyDeviceToHost));
		if (!(fabs((double)got - x) <= gemm_tol(s) * xa)) {
			snprintf(why, n, "cpu check: C[%d][%d] is %.9g, expected %.17g", i, j, got, x);
			return gm_fail(GM_ERR_VALIDATION, "%s", why);
		}
	}
	return GM_OK;
}

/*
 * v21 (3xTF32) passes the checks above on exact operands (k/128: its small parts are zero). Its accuracy is
 * judged here on operands with 24 significant bits: its largest error over GEMM_SAMPLES elements (relative to
 * the sum of |a b|) must be within 2x cublasSgemm's on the same operands (without cuBLAS, within 8 u). The
 * operands stay full-mantissa afterwards: the timed launches then run on them (big and small both non-zero).
 */
static gm_status gemm_accuracy(struct gemm_state *s, char *why, size_t n)
{
	const struct gm_cublas *cb = s->blas ? gm_cublas_load(NULL, 0) : NULL;
	unsigned g = gm_resident_blocks(s->dev, 256), blocks = GEMM_SAMPLES * 32 / 256;
	unsigned long long *e = NULL, host[2] = { 0, 0 };
	const float one = 1, zero = 0;
	uint32_t seed = s->seed ^ 0xacc0u;
	gm_status st = gm_gpu_alloc((void **)&e, sizeof(host));
	cudaError_t ce;

	if (st)
		return st;
	ce = cudaMemsetAsync(e, 0, sizeof(host), gm_stream());
	if (!ce) {
		gemm_fill_full<<<g, 256, 0, gm_stream()>>>(s->A, s->M, s->K, s->Mp, s->Kp, seed);
		gemm_fill_full<<<g, 256, 0, gm_stream()>>>(s->B, s->K, s->N, s->Kp, s->Np, seed_b(seed));
		ce = cudaGetLastError();
	}
	if (!ce && !(st = gemm_launch(s))) {
		gemm_err_max<<<blocks, 256, 0, gm_stream()>>>(s->A, s->B, s->C, s->M, s->N, s->K, s->Kp, s->Np, s->Np, seed,
							      e);
		ce = cudaGetLastError();
	}
	if (!ce && !st && cb) {
		if (cb->sgemm((cublasHandle_t)s->blas, CUBLAS_OP_N, CUBLAS_OP_N, s->N, s->M, s->K, &one, s->B, s->Np, s->A,
			      s->Kp, &zero, s->C, s->Np) != CUBLAS_STATUS_SUCCESS)
			st = gm_fail(GM_ERR_CUDA, "cuBLAS cublasSgemm failed (the accuracy reference)");
		else {
			gemm_err_max<<<blocks, 256, 0, gm_stream()>>>(s->A, s->B, s->C, s->M, s->N, s->K, s->Kp, s->Np,
								      s->Np, seed, e + 1);
			ce = cudaGetLastError();
		}
	}
	if (!ce && !st) /* the harness stream does not block with the legacy one: copy on it, then wait */
		ce = cudaMemcpyAsync(host, e, sizeof(host), cudaMemcpyDeviceToHost, gm_stream());
	if (!ce && !st)
		ce = cudaStreamSynchronize(gm_stream());
	gm_gpu_free(e);
	if (st)
		return st;
	GM_CU(ce);
	memcpy(&s->err, &host[0], sizeof(double));
	if (cb)
		memcpy(&s->err_cublas, &host[1], sizeof(double));
	double bound = cb ? 2 * s->err_cublas : 8 * ldexp(1.0, -24);
	if (!(s->err <= bound)) {
		snprintf(why, n, "largest error %.3g of sum |a b| on full-mantissa operands, above %.3g (%s)", s->err, bound,
			 cb ? "2x cublasSgemm's" : "8 u");
		return gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	return GM_OK;
}

static gm_status gemm_verify(void *state, char *why, size_t n)
{
	struct gemm_state *s = (struct gemm_state *)state;
	struct gm_check *res;
	int ok = 1;
	gm_status st;

	GM_CU(cudaMemsetAsync(s->C, 0xFF, (size_t)s->Mp * s->Np * 4, gm_stream())); /* NaN */
	st = gemm_launch(s);
	for (uint32_t k = 0; k < 2 && !st; k++)
		st = gemm_freivalds(s, s->seed ^ (0x5eed0000u + k), why, n);
	if (!st)
		st = gm_check_alloc(&res);
	if (st)
		return st;
	gemm_sample_check<<<GEMM_SAMPLES * 32 / 256, 256, 0, gm_stream()>>>(s->A, s->B, s->C, s->M, s->N, s->K, s->Kp,
									     s->Np, s->Np, s->seed, gemm_tol(s), res);
	st = gm_check_finish(res, (const uint32_t *)s->C, why, n, &ok);
	if (!st && !ok)
		return gm_fail(GM_ERR_VALIDATION, "%s (outside gamma_K of the exact value)", why);
	if (!st)
		st = gemm_cpu_check(s, why, n);
	return st || s->mode != GEMM_TF32X3 ? st : gemm_accuracy(s, why, n);
}

/* v21: its accuracy and cuBLAS's on the full-mantissa operands (gemm_accuracy), in units of u = 2^-24 */
static void gemm_annotate(void *state, struct gm_case_result *cr)
{
	const struct gemm_state *s = (const struct gemm_state *)state;

	if (!s || s->mode != GEMM_TF32X3 || s->err < 0)
		return;
	gm_result_note(cr, "err_max_u", GM_UNIT_RATIO, s->err / ldexp(1.0, -24));
	if (s->err_cublas >= 0)
		gm_result_note(cr, "err_max_cublas_u", GM_UNIT_RATIO, s->err_cublas / ldexp(1.0, -24));
}

#endif
