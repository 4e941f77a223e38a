/* Host+device qualifier for pointwise physics shared by the CPU and CUDA backends. */
#ifndef HEXDG_HD_H
#define HEXDG_HD_H
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

#define HX_PI 3.14159265358979323846
#endif
