/* The CUDA side of the energy meter (power.c): which physical GPU this process runs on. */
#include <cuda_runtime.h>

#include "core/error.h"
#include "gpu/power.h"

/* NVML numbers devices its own way: the PCI bus id names the same GPU for CUDA and NVML. */
extern "C" int gpu_pci_bus_id(char *bus_id, size_t len) {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetPCIBusId(bus_id, (int)len, dev) != cudaSuccess)
    return HX_ERR_DEVICE;
  return HX_OK;
}
