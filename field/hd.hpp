// Markers that let one definition compile for the host and for CUDA devices.
#pragma once

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__ __forceinline__
#define CUZK_HD_NOINLINE __host__ __device__
#else
#define CUZK_HD inline
#define CUZK_HD_NOINLINE
#endif

#if defined(__CUDA_ARCH__)
#define CUZK_DEVICE_CODE 1
#else
#define CUZK_DEVICE_CODE 0
#endif
