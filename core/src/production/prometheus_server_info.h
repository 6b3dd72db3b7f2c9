#pragma once
// The process-wide record of which server answers at a base URL (prometheus_server_info.cpp), shared with
// PrometheusClient::buildInfo, whose answer refreshes it.
#include <optional>
#include <string>

#include "fp8dash/core/prometheus_client.h"

namespace fp8dash::detail {

void rememberServerInfo(const std::string& baseUrl, const ServerInfo& info);
std::optional<ServerInfo> rememberedServerInfo(const std::string& baseUrl);

}  // namespace fp8dash::detail
