#include "cli_device.h"

#include <ostream>
#include <string>

#include "cli.h"
#include "cli_common.h"
#include "fp8dash/core/local_device.h"
#include "fp8dash/core/report_document.h"
#include "fp8dash/core/report_format.h"
#include "fp8dash/core/result.h"

namespace fp8dash::cli {

int cmdDevice(Args& a, std::ostream& out) {
    Format format = Format::Text;
    std::string value;
    while (!a.done()) {
        if (a.option("--format", value))
            format = parseFormat(value);
        else
            throw UsageError{"device: unknown argument " + a.peek()};
    }
    const LocalDeviceStatus s = queryLocalDevices();
    if (format == Format::Json) {
        Json gpus = Json::array();
        for (const auto& g : s.gpus)
            gpus.push_back(
                {{"name", g.name},
                 {"compute_capability", std::to_string(g.computeMajor) + "." + std::to_string(g.computeMinor)},
                 {"multiprocessors", g.multiprocessors},
                 {"memory_total_bytes", g.memoryTotalBytes},
                 {"memory_free_bytes", g.memoryFreeBytes},
                 {"fp8_supported", g.fp8Supported}});
        out << Json{{"backend", s.backend}, {"available", s.available},          {"unavailable", s.unavailableCode},
                    {"reason", s.reason},   {"driver_version", s.driverVersion}, {"runtime_version", s.runtimeVersion},
                    {"gpus", gpus}}
                   .dump(2)
            << "\n";
    } else {
        out << "GPU backend: " << s.backend << "\n" << s.summary() << "\n";
    }
    return kExitOk;
}

}  // namespace fp8dash::cli
