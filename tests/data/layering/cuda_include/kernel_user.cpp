// Violates no-gpu: a CUDA header.
#include <cuda_runtime_api.h>
