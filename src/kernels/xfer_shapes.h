/*
 * xfer_shapes.h - constants shared by the case tables (src/bench/fam_transfer.c,
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
 * ta[0..k], tb[0..k]: ms from a common origin at which each stream began
 * (t[0]) and ended its i-th copy (t[i]). Both run until the first stream
 * ends; each direction counts only its whole copies ended by then (at least
 * one), so neither figure includes a stretch where its direction ran alone.
 */
static inline void xf_both_ways(const double *ta, const double *tb, int k, double bytes, double *gbs_a,
				double *gbs_b)
{
	double w = ta[k] < tb[k] ? ta[k] : tb[k];
	int ja = 1, jb = 1;

	for (int i = 1; i <= k; i++) {
		if (ta[i] <= w)
			ja = i;
		if (tb[i] <= w)
			jb = i;
	}
	*gbs_a = ta[ja] > ta[0] ? ja * bytes / ((ta[ja] - ta[0]) * 1e6) : 0;
	*gbs_b = tb[jb] > tb[0] ? jb * bytes / ((tb[jb] - tb[0]) * 1e6) : 0;
}

/* overlap: words per element iterate OV_LCG_ITERS steps of an LCG (balances kernel vs copy) */
#define OV_BYTES (128ll << 20)
#define OV_CHUNKS 32
#define OV_LCG_ITERS 3072
enum { OV_STAGE_H2D = 0, OV_STAGE_KERNEL = 1, OV_STAGE_D2H = 2, OV_PIPE = 3 };

/* alloc: methods */
enum { AL_MALLOC = 0, AL_POOL = 1, AL_POOL_KEEP = 2, AL_TOO_BIG = 3 };

/* atomics: variants */
enum { AT_ONE = 0, AT_SPREAD = 1, AT_BLOCK = 2 };
#define AT_BINS 4096
#define AT_ELEMS (1ll << 24)   /* 2^24: float sums of 0/1 values stay exact */

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
