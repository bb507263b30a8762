/*
 * check_lines.c - the lines of `gpumem check`: what defines a healthy unit
 * of a SKU, each measured by one existing suite case (run through the normal
 * runner: validated, then timed as `run` does). Unit and direction come from
 * the case's own unit (gm_unit_higher_is_better). docs/CHECK.md lists them.
 */
#include <string.h>
#include "gpumem/check.h"

static const struct gm_check_line_def lines[] = {
	{ "hbm_read", "copy.read_b16_tile4", "HBM read bandwidth (16 B loads, 4 tiles a thread)", 1, 1 },
	{ "hbm_write", "copy.write_b16_tile4", "HBM write bandwidth (16 B stores)", 1, 1 },
	{ "hbm_copy", "copy.v9_b16_tile4", "HBM copy bandwidth (read + write counted)", 1, 1 },
	{ "l2_read", "hierarchy.l2_1536k", "L2 read bandwidth, 1.5 MiB footprint", 1, 1 },
	{ "l1_read", "hierarchy.l1_0064k", "L1 read bandwidth, 64 KiB footprint", 1, 1 },
	{ "pcie_h2d", "transfer.pinned_h2d", "PCIe host to device, pinned memory", 1, 1 },
	{ "pcie_d2h", "transfer.pinned_d2h", "PCIe device to host, pinned memory", 1, 1 },
	{ "nvlink_write", "p2p.ce_write", "peer copy to the next GPU (NVLink or PCIe); skipped without a peer", 1, 1 },
	{ "nvlink_read", "p2p.ce_read", "peer copy from the next GPU; skipped without a peer", 0, 1 },
	{ "fp32_fma", "roofline.fma_fp32", "FP32 FMA throughput", 1, 1 },
	{ "fp16_fma", "roofline.fma_fp16x2", "FP16 (half2) FMA throughput", 1, 1 },
	{ "sgemm", "gemm.v9_grouped_4096", "FP32 GEMM 4096^3, gpumem's own kernel (checked)", 1, 1 },
	{ "tensor_gemm", "gemm.tc_fp16_cublas_8192", "FP16 tensor-core GEMM 8192^3 (cuBLAS, checked)", 0, 1 },
	{ "alloc", "alloc.malloc_2m", "cudaMalloc + cudaFree of 2 MiB (host-timed)", 1, 1 },
	{ "memtest", "memtest.moving_inversions", "memory test over most of the free memory: moving inversions", 1, 0 },
	{ "memtest_addr", "memtest.address", "memory test: each word holds its own address", 1, 0 },
};

const struct gm_check_line_def *gm_check_lines(int *n)
{
	*n = (int)(sizeof(lines) / sizeof(lines[0]));
	return lines;
}

int gm_check_case_names(int quick, const char **out, int max)
{
	int n, k = 0;
	const struct gm_check_line_def *l = gm_check_lines(&n);

	for (int i = 0; i < n && k < max; i++)
		if (!quick || l[i].quick)
			out[k++] = l[i].case_name;
	return k;
}

int gm_check_judged_names(const char **out, int max)
{
	int n, k = 0;
	const struct gm_check_line_def *l = gm_check_lines(&n);

	for (int i = 0; i < n && k < max; i++)
		if (l[i].judged)
			out[k++] = l[i].case_name;
	return k;
}
