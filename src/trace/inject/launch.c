/* launch.c - one traced launch: set up its header, read its counters back, write it as JSON. */
#include <stdlib.h>
#include <string.h>
#include "trace_launch.h"

static void func_attrs(struct gmt_current *c, CUfunction f)
{
	int v;

	c->registers = cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS ? v : -1;
	c->shared_static = cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) == CUDA_SUCCESS ? v : -1;
	c->local_bytes = cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f) == CUDA_SUCCESS ? v : -1;
}

/*
 * Blocks counted of B when counting 1 in 2^s: block b is counted when its low s bits equal those of b >> s
 * (patches.cu), one in each full run of 2^s blocks, and in the last run when its place is below B's remainder.
 */
static unsigned long long counted_blocks(unsigned long long B, unsigned s)
{
	unsigned long long m = (1ull << s) - 1;

	return (B >> s) + (((B >> s) & m) < (B & m));
}

void gmt_current_begin(struct gmt_current *c, const Sanitizer_LaunchData *ld, long ordinal,
                       struct gmt_module *m, struct gmt_launch *dev, int stream)
{
	unsigned long long threads, blocks;
	unsigned warps;

	memset(c, 0, sizeof(*c));
	c->active = 1;
	c->ordinal = ordinal;
	c->function = ld->function;
	c->grid_id = ld->gridId;
	c->hstream = ld->hStream;
	snprintf(c->kernel, sizeof(c->kernel), "%s", ld->functionName ? ld->functionName : "?");
	c->grid[0] = ld->gridDim_x, c->grid[1] = ld->gridDim_y, c->grid[2] = ld->gridDim_z;
	c->block[0] = ld->blockDim_x, c->block[1] = ld->blockDim_y, c->block[2] = ld->blockDim_z;
	c->stream = stream;
	c->mod = m;
	c->dev = dev;
	func_attrs(c, ld->function);
	if (sanitizerGetFunctionPcAndSize(ld->module, c->kernel, &c->func_pc, &c->func_size) != SANITIZER_SUCCESS)
		c->func_pc = c->func_size = 0;
	threads = (unsigned long long)c->block[0] * c->block[1] * c->block[2];
	blocks = (unsigned long long)c->grid[0] * c->grid[1] * c->grid[2];
	warps = (unsigned)((threads + 31) / 32);
	c->hdr.total_warps = blocks * warps;
	c->hdr.total_blocks = blocks;
	c->hdr.warps_per_block = warps;
	c->hdr.sample_iters = gmt_opt.samples >= 8 ? 2 : 1;
	c->hdr.sample_warps = (unsigned)gmt_opt.samples / c->hdr.sample_iters;
	if (c->hdr.sample_warps > GMT_MAX_SAMPLE_WARPS)
		c->hdr.sample_warps = GMT_MAX_SAMPLE_WARPS;
	c->hdr.samples_per_pc = c->hdr.sample_warps * c->hdr.sample_iters;
	c->hdr.mode = gmt_opt.devmode;
	/* counting by blocks: 1 block in each run of 2^s, the least s that counts at most count_warps warps */
	c->count_scale = 1;
	c->hdr.sample_blocks = blocks;
	if (gmt_opt.count_warps > 0 && c->hdr.total_warps > (unsigned long long)gmt_opt.count_warps && blocks > 1) {
		unsigned s = 0;
		while (s < 20 && (blocks >> (s + 1)) >= 1 &&
		       counted_blocks(blocks, s) * warps > (unsigned long long)gmt_opt.count_warps)
			s++;
		c->hdr.count_mask = (1u << s) - 1;
		c->hdr.count_shift = s;
		c->hdr.sample_blocks = counted_blocks(blocks, s);
		c->count_scale = (double)blocks / (double)c->hdr.sample_blocks;
	}
	c->hdr.s_over_b = blocks ? (double)c->hdr.sample_warps / (double)c->hdr.sample_blocks : 0.0;
}

static int by_pc(const void *a, const void *b)
{
	const struct gmt_slot *x = *(const struct gmt_slot *const *)a, *y = *(const struct gmt_slot *const *)b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static const char *space_name(unsigned s)
{
	return s == GMT_SHARED ? "shared" : s == GMT_LOCAL ? "local" : "global";
}

static const char *op_name(unsigned flags)
{
	int rd = (flags & SANITIZER_MEMORY_DEVICE_FLAG_READ) != 0, wr = (flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE) != 0;

	if ((rd && wr) || (flags & SANITIZER_MEMORY_DEVICE_FLAG_ATOMSYS) || (!rd && !wr))
		return "atomic";
	return wr ? "store" : "load";
}

static void write_samples(struct gmt_buf *b, const struct gmt_launch_hdr *h, const struct gmt_slot *s,
                          const struct gmt_sample *pool, unsigned pool_n)
{
	unsigned base = s->sample_base, n = 0;

	gmt_buf_printf(b, "[");
	if (base == 0 || base == 0xffffffffu)
		goto out;
	base--;
	for (unsigned i = 0; i < h->samples_per_pc && base + i < pool_n; i++) {
		const struct gmt_sample *r = &pool[base + i];
		if (!r->valid)
			continue;
		gmt_buf_printf(b, "%s\n{\"block\": [%u, %u, %u], \"warp\": %u, \"mask\": %u, \"iter\": %u, \"addr\": [",
		               n++ ? "," : "", r->block_x, r->block_y, r->block_z, r->warp, r->mask, r->iter);
		for (int l = 0; l < 32; l++) {
			if ((r->mask >> l) & 1u)
				gmt_buf_printf(b, "%s%llu", l ? ", " : "", r->addr[l]);
			else
				gmt_buf_printf(b, "%snull", l ? ", " : "");
		}
		gmt_buf_printf(b, "]}");
	}
out:
	gmt_buf_printf(b, "]");
}

/* 1 when the instruction's first sampled address lies in pinned host memory (hostmem.c): mapped, zero-copy */
static int host_sampled(const struct gmt_launch_hdr *h, const struct gmt_slot *s, const struct gmt_sample *pool,
                        unsigned pool_n)
{
	unsigned base = s->sample_base;

	if (base == 0 || base == 0xffffffffu)
		return 0;
	for (unsigned i = 0; i < h->samples_per_pc && base - 1 + i < pool_n; i++) {
		const struct gmt_sample *r = &pool[base - 1 + i];
		for (int l = 0; r->valid && l < 32; l++)
			if ((r->mask >> l) & 1u)
				return gmt_hostmem_has(r->addr[l]);
	}
	return 0;
}

/* The stripes summed, scaled to every block when the launch was counted by blocks. */
static void sum_counters(const struct gmt_slot *s, double scale, unsigned long long out[GMT_NCOUNTERS])
{
	memset(out, 0, sizeof(unsigned long long) * GMT_NCOUNTERS);
	for (int st = 0; st < GMT_STRIPES; st++)
		for (int i = 0; i < GMT_NCOUNTERS; i++)
			out[i] += s->counters[st][i];
	if (scale != 1)
		for (int i = 0; i < GMT_NCOUNTERS; i++)
			out[i] = (unsigned long long)((double)out[i] * scale + 0.5);
}

static int write_instruction(struct gmt_buf *b, const struct gmt_current *c, const struct gmt_launch_hdr *h,
                             const struct gmt_slot *s, const struct gmt_vsum *q, const struct gmt_sample *pool,
                             unsigned pool_n)
{
	unsigned long long v[GMT_NCOUNTERS], pc = s->pc, threads, ideal;
	char file[2048] = "";
	unsigned line = 0;
	int inside = c->func_size && pc >= c->func_pc && pc < c->func_pc + c->func_size, have_line;

	sum_counters(s, c->count_scale, v);
	threads = 32 * v[GMT_EXEC] - v[GMT_MISSING];
	ideal = v[GMT_UNITS] - v[GMT_EXCESS];
	if (inside)
		pc -= c->func_pc;
	have_line = inside && c->mod->cubin &&
	            gmt_line_of(c->mod->cubin, c->mod->cubin_size, c->kernel, pc, file, sizeof(file), &line) == 0;
	gmt_buf_printf(b, "{\"pc\": %llu, %s\"sass\": null, \"file\": ", pc, inside ? "" : "\"pc_absolute\": true, ");
	gmt_buf_str(b, have_line ? file : NULL);
	if (have_line)
		gmt_buf_printf(b, ", \"line\": %u", line);
	else
		gmt_buf_printf(b, ", \"line\": null");
	gmt_buf_printf(b, ", \"space\": \"%s\", \"op\": \"%s\", \"size\": %u, \"executions\": %llu, "
	               "\"thread_accesses\": %llu, ", space_name(s->space), op_name(s->flags), s->size,
	               v[GMT_EXEC], threads);
	if (s->space == GMT_SHARED)
		gmt_buf_printf(b, "\"sectors\": null, \"requests\": %llu, \"wavefronts\": %llu, \"ideal_sectors\": null, "
		               "\"ideal_wavefronts\": %llu, ", v[GMT_EXEC], v[GMT_UNITS], ideal);
	else
		gmt_buf_printf(b, "\"sectors\": %llu, \"requests\": %llu, \"wavefronts\": null, \"ideal_sectors\": %llu, ",
		               v[GMT_UNITS], v[GMT_EXEC], ideal);
	if (s->space == GMT_GLOBAL && host_sampled(h, s, pool, pool_n))
		gmt_buf_printf(b, "\"memory\": \"host\", ");
	gmt_values_json(b, s, q);
	gmt_buf_printf(b, "\"samples\": ");
	write_samples(b, h, s, pool, pool_n);
	gmt_buf_printf(b, "}");
	return have_line;
}

/* Save the module's cubin beside the document once (the collector disassembles it). */
static const char *cubin_path(struct gmt_module *m, char *buf, size_t n)
{
	if (!m->cubin)
		return NULL;
	snprintf(buf, n, "%s.m%d.cubin", gmt_opt.out, m->id);
	if (!m->cubin_written)
		m->cubin_written = gmt_write_atomic(buf, (const char *)m->cubin, m->cubin_size) == 0 ? 1 : -1;
	return m->cubin_written == 1 ? buf : NULL;
}

static void write_launch(struct gmt_buf *b, struct gmt_current *c, const struct gmt_launch_hdr *h,
                         const struct gmt_slot **used, unsigned nused, const struct gmt_slot *slots,
                         const struct gmt_vsum *vsum, const struct gmt_sample *pool, unsigned pool_n)
{
	char dem[2048], path[4200];
	int lines = 0;

	gmt_buf_printf(b, "{\"index\": %ld, \"kernel\": ", c->ordinal);
	gmt_buf_str(b, c->kernel);
	gmt_buf_printf(b, ", \"name\": ");
	gmt_buf_str(b, gmt_demangle(c->kernel, dem, sizeof(dem)));
	gmt_buf_printf(b, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"shared_dynamic\": null, "
	               "\"shared_static\": %d, \"registers\": %d, \"local_bytes\": %d, \"stream\": %d, \"context\": 1, "
	               "\"time_ms\": null, \"time_source\": null, \"dram_read_bytes\": null, \"dram_write_bytes\": null, "
	               "\"module\": %d, \"cubin\": ", c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1],
	               c->block[2], c->shared_static, c->registers, c->local_bytes, c->stream, c->mod->id);
	gmt_buf_str(b, cubin_path(c->mod, path, sizeof(path)));
	gmt_buf_printf(b, ", \"function_bytes\": %llu, \"sampled_warps\": %u, \"sample_iters\": %u, "
	               "\"dropped_executions\": %u, \"traced_ms\": %.3f, \"count_every\": %u, \"count_scale\": %.6f, "
	               "\"instructions\": [",
	               (unsigned long long)c->func_size, h->sample_warps, h->sample_iters, h->dropped, c->traced_ms,
	               h->count_mask + 1, c->count_scale);
	for (unsigned i = 0; i < nused; i++) {
		gmt_buf_printf(b, "%s\n", i ? "," : "");
		lines += write_instruction(b, c, h, used[i], vsum ? &vsum[used[i] - slots] : NULL, pool, pool_n);
	}
	if (h->mode)
		gmt_buf_printf(b, "], \"device_mode\": %u, \"lineinfo\": %s", h->mode,
		               lines ? "true" : nused && c->mod->cubin ? "false" : "null");
	else
		gmt_buf_printf(b, "], \"lineinfo\": %s", lines ? "true" : nused && c->mod->cubin ? "false" : "null");
	gmt_buf_printf(b, "}");
}

int gmt_current_collect(struct gmt_current *c, Sanitizer_StreamHandle hs, struct gmt_buf *b)
{
	static struct gmt_slot *slots;
	static struct gmt_sample *pool;
	static const struct gmt_slot **used;
	static struct gmt_vsum *vsum;
	struct gmt_launch_hdr h;
	unsigned nused = 0, pool_n;

	if (!slots)
		slots = malloc(sizeof(struct gmt_slot) * GMT_SLOTS);
	if (!pool)
		pool = malloc(sizeof(struct gmt_sample) * GMT_SAMPLE_POOL);
	if (!used)
		used = malloc(sizeof(*used) * GMT_SLOTS);
	if (!vsum)
		vsum = malloc(sizeof(struct gmt_vsum) * GMT_SLOTS);
	if (!slots || !pool || !used || !vsum)
		return -1;
	if (sanitizerMemcpyDeviceToHost(&h, &c->dev->h, sizeof(h), hs) != SANITIZER_SUCCESS ||
	    sanitizerMemcpyDeviceToHost(slots, c->dev->slots, sizeof(struct gmt_slot) * GMT_SLOTS, hs) != SANITIZER_SUCCESS) {
		gmt_note("launch %ld: cannot read the trace buffer back", c->ordinal);
		return -1;
	}
	/* the value summaries (none where they cannot be read back: the document goes on without them) */
	int have_vsum = h.mode != GMT_MODE_NOVALUES &&
	                sanitizerMemcpyDeviceToHost(vsum, c->dev->vsum, sizeof(struct gmt_vsum) * GMT_SLOTS, hs) ==
	                    SANITIZER_SUCCESS;
	pool_n = h.pool_used < GMT_SAMPLE_POOL ? h.pool_used : GMT_SAMPLE_POOL;
	if (pool_n && sanitizerMemcpyDeviceToHost(pool, c->dev->pool, sizeof(struct gmt_sample) * pool_n, hs) !=
	              SANITIZER_SUCCESS)
		pool_n = 0;
	if (h.pool_used > GMT_SAMPLE_POOL)
		gmt_note("launch %ld: more than %u instructions with samples: later ones have none", c->ordinal,
		         GMT_SAMPLE_POOL / (h.samples_per_pc ? h.samples_per_pc : 1));
	if (h.count_mask)
		gmt_note("launch %ld: counted on 1 block in %u (%llu warps; more than GPUMEM_TRACE_COUNT_WARPS = %ld), "
		         "the counts scaled by %.4f; --count-warps 0 counts every warp", c->ordinal, h.count_mask + 1,
		         h.total_warps, gmt_opt.count_warps, c->count_scale);
	if (h.dropped)
		gmt_note("launch %ld: more than %d memory instructions: %u executions not counted", c->ordinal,
		         GMT_SLOTS, h.dropped);
	for (unsigned i = 0; i < GMT_SLOTS; i++)
		if (slots[i].pc)
			used[nused++] = &slots[i];
	qsort(used, nused, sizeof(*used), by_pc);
	write_launch(b, c, &h, used, nused, slots, have_vsum ? vsum : NULL, pool, pool_n);
	return b->oom ? -1 : 0;
}
