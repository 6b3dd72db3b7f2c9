// Violates no-gpu: ui must see GPU results only as core types.
#include "fp8dash/gpu/device_query.h"
