// p30_bsr.cu - held-out set 30 (issue 38), a CUDA C++ program (nvcc -O3 -lineinfo -arch=sm_90; mangled C++ kernel
// names, a namespace): y = A x for the stiffness matrix of an elasticity mesh with 4 unknowns a node: A is made of
// dense 4 x 4 blocks, 131,072 block rows (524,288 rows) of 16 blocks each (64 floats a row, 33.5 M nonzeros), the
// blocks' columns chosen at random, x 2 MB:
//   fem::spmv_csr_warp: A stored as scalar CSR (rowptr, a 4-byte column index for every value, the values), a warp
//     a row: lane l takes nonzeros l and l + 32 of the row (coalesced index and value loads), x[col] gathered,
//     shuffle sum, lane 0 stores y (512 bytes of index and value a row);
//   fem::spmv_bsr_warp: the same matrix in BSR (a 4-byte block column a 4 x 4 block, the blocks' values row-major,
//     64 contiguous bytes a block), a warp a block row: lane l takes the values l, l + 32, .., l + 224 of the block
//     row's 256 (row (l / 4) % 4, column l % 4 of blocks l / 16, l / 16 + 2, ..), the four rows' sums by shuffles,
//     lanes 0-3 store the four y (272 bytes of index and value a row).
// Both give y (checked within 1e-5 of the largest |y| of each other, and against the host's double product on every
// 16th block row within 1e-4). Launches: 0 CSR, 1 BSR; PLAIN=1: the checks, then each launch's median of 20 (events).
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include "p30bench.h"

namespace fem {
__global__ void spmv_csr_warp(const int *rowptr, const int *col, const float *val, const float *x, float *y,
			      int rows)
{
	int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
	if (row >= rows)
		return;
	float s = 0.0f;
	for (int k = rowptr[row] + lane; k < rowptr[row + 1]; k += 32)
		s = fmaf(val[k], x[col[k]], s);
	for (int o = 16; o > 0; o >>= 1)
		s += __shfl_xor_sync(0xffffffffu, s, o);
	if (lane == 0)
		y[row] = s;
}

// 16 blocks a block row (bptr[b + 1] - bptr[b] == 16 for every b)
__global__ void spmv_bsr_warp(const int *bptr, const int *bcol, const float *bval, const float *x, float *y,
			      int brows)
{
	int br = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
	if (br >= brows)
		return;
	int b0 = bptr[br], r = (lane >> 2) & 3, c = lane & 3;
	float s = 0.0f;
	for (int b = b0 + (lane >> 4); b < bptr[br + 1]; b += 2)
		s = fmaf(bval[(size_t)b * 16 + r * 4 + c], x[bcol[b] * 4 + c], s);
	s += __shfl_xor_sync(0xffffffffu, s, 1);   // the four columns of the row
	s += __shfl_xor_sync(0xffffffffu, s, 2);
	s += __shfl_xor_sync(0xffffffffu, s, 16);  // the two halves of the blocks
	if (lane < 16 && c == 0)
		y[(size_t)br * 4 + r] = s;
}
} // namespace fem

int main()
{
	const int brows = 1 << 17, rows = 4 * brows, bpr = 16, nblk = brows * bpr;
	const size_t nnz = (size_t)nblk * 16;
	std::vector<double> rc(nblk);
	std::vector<float> bval(nnz), hx(rows), poison(rows, NAN);
	lcg_fill(rc, 0x30300003ull);
	lcg_fill(bval, 0x30300004ull);
	lcg_fill(hx, 0x30300005ull);
	for (auto &v : bval)
		v = v * 2.0f - 1.0f;
	std::vector<int> bptr(brows + 1), bcol(nblk), rowptr(rows + 1), col(nnz);
	std::vector<float> val(nnz);
	for (int b = 0; b < nblk; b++)
		bcol[b] = (int)(rc[b] * brows);
	for (int br = 0; br <= brows; br++)
		bptr[br] = br * bpr;
	for (int row = 0; row <= rows; row++)
		rowptr[row] = row * 4 * bpr;
	for (int row = 0; row < rows; row++) {   // CSR: row's values block by block, in block order
		int br = row / 4, r = row % 4;
		for (int j = 0; j < bpr; j++)
			for (int c = 0; c < 4; c++) {
				size_t k = (size_t)row * 64 + j * 4 + c, b = (size_t)br * bpr + j;
				col[k] = bcol[b] * 4 + c;
				val[k] = bval[b * 16 + r * 4 + c];
			}
	}
	int *drp = to_device(rowptr), *dcol = to_device(col), *dbp = to_device(bptr), *dbc = to_device(bcol);
	float *dval = to_device(val), *dbv = to_device(bval), *dx = to_device(hx);
	float *y0 = to_device(poison), *y1 = to_device(poison);
	std::function<void()> steps[2] = {
		[&] { fem::spmv_csr_warp<<<rows / 8, 256>>>(drp, dcol, dval, dx, y0, rows); },
		[&] { fem::spmv_bsr_warp<<<brows / 8, 256>>>(dbp, dbc, dbv, dx, y1, brows); },
	};
	const char *const names[2] = {"spmv_csr_warp", "spmv_bsr_warp"};
	if (!launch_steps(steps, 2))
		return 0;
	std::vector<float> r0(rows), r1(rows);
	CK(cudaMemcpy(r0.data(), y0, rows * sizeof(float), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(r1.data(), y1, rows * sizeof(float), cudaMemcpyDeviceToHost));
	double big = 0, e01 = 0, eref = 0;
	for (int i = 0; i < rows; i++) {   // a NaN (an output left unwritten) makes the difference infinite
		double d = fabs((double)r0[i] - r1[i]);
		big = fmax(big, fabs((double)r1[i]));
		e01 = d == d ? fmax(e01, d) : INFINITY;
	}
	for (int br = 0; br < brows; br += 16)   // the host's product, every 16th block row, in double
		for (int r = 0; r < 4; r++) {
			double s = 0;
			for (int j = 0; j < bpr; j++)
				for (int c = 0; c < 4; c++) {
					size_t b = (size_t)br * bpr + j;
					s += (double)bval[b * 16 + r * 4 + c] * hx[bcol[b] * 4 + c];
				}
			double d = fabs(s - r1[br * 4 + r]);
			eref = fmax(eref, d == d ? d : INFINITY);
		}
	bool ok1 = e01 <= 1e-5 * big && big > 0.5, ok2 = eref <= 1e-4 * big;
	printf("check %-28s %s max |diff| %.3g (largest |y| %.3g)\n", "csr = bsr", ok1 ? "ok" : "WRONG", e01, big);
	printf("check %-28s %s max |diff| %.3g\n", "bsr = host (block rows 16k)", ok2 ? "ok" : "WRONG", eref);
	time_steps(steps, names, 2);
	return ok1 && ok2 ? 0 : 1;
}
