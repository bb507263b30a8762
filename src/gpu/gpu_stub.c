/* gpu_stub.c - the device layer of a build without CUDA: no device, ever. */
#include <stddef.h>
#include "gpumem/gpu.h"

static gm_status no_cuda(void)
{
	return gm_fail(GM_ERR_NO_DEVICE, "this gpumem was built without CUDA (GPUMEM_CUDA=OFF)");
}

gm_status gm_gpu_count(int *n) { *n = 0; return no_cuda(); }
gm_status gm_gpu_open(int index, struct gm_device_info *info) { (void)index; (void)info; return no_cuda(); }
gm_status gm_gpu_mem_info(int64_t *f, int64_t *t) { *f = *t = 0; return no_cuda(); }
double gm_peak_gbs(int clk, int bits) { return 2.0 * clk * 1e3 * bits / 8.0 / 1e9; }
gm_status gm_gpu_alloc(void **p, size_t bytes) { (void)bytes; *p = NULL; return no_cuda(); }
void gm_gpu_free(void *p) { (void)p; }
void gm_gpu_free_host(void *p, size_t bytes) { (void)p; (void)bytes; }
gm_status gm_gpu_free_async(void *p, size_t bytes, void *stream)
{
	(void)p; (void)bytes; (void)stream; return no_cuda();
}
void gm_gpu_set_scrub(int on) { (void)on; }
int gm_gpu_scrub_on(void) { return 0; }
gm_status gm_gpu_zero_alloc(void *p) { (void)p; return no_cuda(); }
gm_status gm_gpu_sync(void) { return no_cuda(); }
void *gm_gpu_stream(void) { return NULL; }
gm_status gm_timer_create(struct gm_timer **t, int marks) { (void)marks; *t = NULL; return no_cuda(); }
gm_status gm_timer_mark(struct gm_timer *t, int i) { (void)t; (void)i; return no_cuda(); }
gm_status gm_timer_between_ms(struct gm_timer *t, int i, int j, double *ms)
{
	(void)t; (void)i; (void)j; *ms = 0; return no_cuda();
}
void gm_timer_destroy(struct gm_timer *t) { (void)t; }
gm_status gm_gpu_state_read(struct gm_device_state *st) { (void)st; return no_cuda(); }
void gm_gpu_close(void) {}
void gm_gpu_clear_error(void) {}
void gm_gpu_range_push(const char *name) { (void)name; }
void gm_gpu_range_pop(void) {}
