/* gpu_bus.c - the PCI bus id of a CUDA device (telemetry.h); none without CUDA. */
#include <stdio.h>
#include "gpumem/telemetry.h"
#ifdef GPUMEM_HAVE_CUDA
#include <cuda_runtime_api.h>

gm_status gm_gpu_bus_id(int index, char *buf, size_t n)
{
	cudaError_t e = cudaDeviceGetPCIBusId(buf, (int)n, index);

	if (e != cudaSuccess)
		return gm_fail(GM_ERR_NO_DEVICE, "cannot read the PCI bus id of device %d: %s", index,
			       cudaGetErrorString(e));
	return GM_OK;
}
#else
gm_status gm_gpu_bus_id(int index, char *buf, size_t n)
{
	if (n)
		buf[0] = '\0';
	return gm_fail(GM_ERR_NO_DEVICE, "device %d: this gpumem was built without CUDA", index);
}
#endif
