/*
 * hier_common.cuh - PTX helpers the hierarchy, latency and smem kernels
 * share: loads with an explicit cache operator (asm volatile, so repeated
 * loads of the same address are never merged or hoisted), the SM cycle
 * counter and the global nanosecond timer, and the SM id.
 */
#ifndef GPUMEM_KERNELS_HIER_COMMON_CUH
#define GPUMEM_KERNELS_HIER_COMMON_CUH

#include <stdint.h>

/* Cycles and nanoseconds at the start and end of a kernel: MHz = cycles / ns * 1000. */
struct hier_clock {
	unsigned long long c0, c1, t0, t1;
};

static __device__ __forceinline__ unsigned long long hier_globaltimer(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

static __device__ __forceinline__ unsigned long long hier_clock64(void)
{
	unsigned long long c;
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
	return c;
}

static __device__ __forceinline__ unsigned hier_smid(void)
{
	unsigned s;
	asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
	return s;
}

/* A hierarchy kernel's start: the timer thread records cycles and ns, thread 0 of each block its SM. */
static __device__ __forceinline__ void hier_start(bool timer, struct hier_clock *clk, unsigned *sms)
{
	if (timer) {
		clk->t0 = hier_globaltimer();
		clk->c0 = hier_clock64();
	}
	if (threadIdx.x == 0)
		sms[blockIdx.x] = hier_smid();
}

/* Its end: the timer thread records cycles and ns again. */
static __device__ __forceinline__ void hier_stop(bool timer, struct hier_clock *clk)
{
	if (timer) {
		clk->c1 = hier_clock64();
		clk->t1 = hier_globaltimer();
	}
}

/*
 * hier_ld_ca / hier_ld_cg / hier_ld_nc (const T *p) for T = uint4, uint2, uint32_t: one
 * ld.global.<hint> of 16, 8 or 4 bytes, the hint spelled out in PTX so the compiler cannot choose another.
 */
#define HIER_LD(hint)                                                                                       \
	static __device__ __forceinline__ uint4 hier_ld_##hint(const uint4 *p)                              \
	{                                                                                                   \
		uint4 v;                                                                                    \
		asm volatile("ld.global." #hint ".v4.u32 {%0,%1,%2,%3}, [%4];"                             \
			     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));                       \
		return v;                                                                                   \
	}                                                                                                   \
	static __device__ __forceinline__ uint2 hier_ld_##hint(const uint2 *p)                              \
	{                                                                                                   \
		uint2 v;                                                                                    \
		asm volatile("ld.global." #hint ".v2.u32 {%0,%1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p)); \
		return v;                                                                                   \
	}                                                                                                   \
	static __device__ __forceinline__ uint32_t hier_ld_##hint(const uint32_t *p)                        \
	{                                                                                                   \
		uint32_t v;                                                                                 \
		asm volatile("ld.global." #hint ".u32 %0, [%1];" : "=r"(v) : "l"(p));                      \
		return v;                                                                                   \
	}
HIER_LD(ca)
HIER_LD(cg)
HIER_LD(nc)
#undef HIER_LD

/* The words of a loaded vector folded into one sum (mod 2^32). */
static __device__ __forceinline__ uint32_t hier_fold(uint4 v)
{
	return v.x + v.y + v.z + v.w;
}

static __device__ __forceinline__ uint32_t hier_fold(uint2 v)
{
	return v.x + v.y;
}

static __device__ __forceinline__ uint32_t hier_fold(uint32_t v)
{
	return v;
}

static __device__ __forceinline__ void hier_st(uint4 *p, uint4 v)
{
	asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
		     : "memory");
}

static inline double hier_clock_mhz(const struct hier_clock *k)
{
	return k->t1 > k->t0 && k->c1 > k->c0 ? (double)(k->c1 - k->c0) / (double)(k->t1 - k->t0) * 1e3 : 0;
}

#endif
