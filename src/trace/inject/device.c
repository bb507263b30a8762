/* device.c - the trace document's "device" object, from the driver API. */
#include <cuda.h>
#include "inject.h"

static int attr(CUdevice d, CUdevice_attribute a)
{
	int v = 0;

	return cuDeviceGetAttribute(&v, a, d) == CUDA_SUCCESS ? v : -1;
}

void gmt_device_json(struct gmt_buf *b, int ordinal)
{
	CUdevice d;
	CUuuid u;
	char name[256] = "";
	int drv = 0;

	if (cuDeviceGet(&d, ordinal) != CUDA_SUCCESS) {
		gmt_buf_printf(b, "null");
		return;
	}
	cuDeviceGetName(name, sizeof(name), d);
	cuDriverGetVersion(&drv);
	gmt_buf_printf(b, "{\"index\": %d, \"name\": ", ordinal);
	gmt_buf_str(b, name);
	if (cuDeviceGetUuid(&u, d) == CUDA_SUCCESS) {
		const unsigned char *x = (const unsigned char *)u.bytes;
		gmt_buf_printf(b, ", \"uuid\": \"GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\"",
		               x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12],
		               x[13], x[14], x[15]);
	} else {
		gmt_buf_printf(b, ", \"uuid\": null");
	}
	/* an SM's resources, for the launches' occupancy (docs/TRACE.md, "Occupancy") */
	gmt_buf_printf(b, ", \"smem_per_sm\": %d, \"smem_reserved_per_block\": %d, \"regs_per_sm\": %d, "
	               "\"blocks_per_sm\": %d, \"threads_per_sm\": %d",
	               attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
	               attr(d, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK),
	               attr(d, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR),
	               attr(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR),
	               attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR));
	gmt_buf_printf(b, ", \"cc\": \"%d.%d\", \"sm_count\": %d, \"l2_bytes\": %d, \"clock_khz\": %d, "
	               "\"mem_clock_khz\": %d, \"bus_width_bits\": %d, \"driver\": %d, \"runtime\": null}",
	               attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
	               attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
	               attr(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT), attr(d, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE),
	               attr(d, CU_DEVICE_ATTRIBUTE_CLOCK_RATE), attr(d, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE),
	               attr(d, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH), drv);
}
