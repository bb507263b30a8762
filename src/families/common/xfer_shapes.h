/*
 * xfer_shapes.h - constants shared by the case tables (src/families/transfer/cases.c,
 * fam_overlap.c, fam_alloc.c, fam_atomics.c, fam_managed.c, fam_p2p.c) and
 * their kernels. Pure C.
 */
#ifndef GPUMEM_KERNELS_XFER_SHAPES_H
#define GPUMEM_KERNELS_XFER_SHAPES_H

/* transfer: host memory kinds */
enum { XF_PAGEABLE = 0, XF_PINNED = 1, XF_WC = 2, XF_REGISTERED = 3, XF_MAPPED = 4 };
/* transfer: directions */
enum { XF_H2D = 0, XF_D2H = 1, XF_BIDIR = 2 };
/* transfer: engine */
enum { XF_CE = 0, XF_KERNEL = 1 };

/*
 * transfer, both ways at once: each direction's GB/s over the time both ran.
 * k copies each way start together (t[0], ms from a common origin); each
 * stream records an event only after its m-th copy (t[1]) and its last, k-th
 * (t[2]), so no event sits between two measured copies (an event after every
 * copy cost H2D ~1 % under load: results/nvidia-h200/transfer/bidir-0a7bf8d/).
 * Each direction's rate is its m = k/2 copies over t[1] - t[0], valid when
 * that window ends while the other stream still runs (t_a[1] <= t_b[2] and
 * t_b[1] <= t_a[2]: the two rates within 2x of each other); returns 0 when it
 * does not (the caller takes the sample again), 1 when it does.
 */
static inline int xf_both_ways_m(int k)
{
	return k / 2 > 1 ? k / 2 : 1;
}

static inline int xf_both_ways(const double ta[3], const double tb[3], int m, double bytes, double *gbs_a,
			       double *gbs_b)
{
	*gbs_a = ta[1] > ta[0] ? m * bytes / ((ta[1] - ta[0]) * 1e6) : 0;
	*gbs_b = tb[1] > tb[0] ? m * bytes / ((tb[1] - tb[0]) * 1e6) : 0;
	return ta[1] <= tb[2] && tb[1] <= ta[2];
}

/* overlap: words per element iterate OV_LCG_ITERS steps of an LCG (balances kernel vs copy) */
#define OV_BYTES (128ll << 20)
#define OV_CHUNKS 32
#define OV_LCG_ITERS 3072
enum { OV_STAGE_H2D = 0, OV_STAGE_KERNEL = 1, OV_STAGE_D2H = 2, OV_PIPE = 3 };

/* alloc: methods */
enum { AL_MALLOC = 0, AL_POOL = 1, AL_POOL_KEEP = 2, AL_TOO_BIG = 3 };

/* atomics: variants */
enum { AT_ONE = 0, AT_SPREAD = 1, AT_BLOCK = 2, AT_LANES = 3 };
#define AT_BINS 4096
#define AT_ELEMS (1ll << 24)   /* 2^24: float sums of 0/1 values stay exact */
#define AT_ELEMS_CAL (1ll << 20)   /* atomics.f32_one_1m: the one-address float rate in 1.8 ms a launch */
#define AT_LANES_BINS (1 << 20)   /* atomics.*_lanes*: 4 MiB of bins, every warp of a launch on its own */

/* managed: variants */
enum { MG_FAULT = 0, MG_PREFETCH = 1, MG_READMOSTLY = 2, MG_PREFERRED = 3, MG_ACCESSED_BY = 4,
       MG_PINGPONG = 5, MG_EXPLICIT = 6 };

/* p2p: variants */
enum {
	P2P_CE_WRITE = 0, P2P_CE_BIDIR = 1, P2P_KERNEL_READ = 2, P2P_KERNEL_WRITE = 3, P2P_LATENCY = 4,
	P2P_CE_READ = 5,      /* cudaMemcpyPeerAsync peer -> this GPU (a pull) */
	P2P_KERNEL_BIDIR = 6, /* a kernel reading the peer and one writing it, at once on two streams */
};

#endif
