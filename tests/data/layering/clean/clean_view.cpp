// Clean for both rules. Near misses the patterns must not take for violations: this comment naming
// QtWidgets/QWidget and fp8dash/gpu/device_query.h, lower-case standard headers, and a core header.
#include <queue>

#include "fp8dash/core/local_device.h"
#include "quality_alert.h"
