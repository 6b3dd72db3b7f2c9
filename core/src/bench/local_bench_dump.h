#pragma once
// The KV sweep over a real model's K/V dump (`fp8dash bench kv --kv-dump FILE`): opening the file and choosing the
// contexts, apart from local_bench.cpp. Private to core (it sees gpu/ types).

#include "fp8dash/core/local_bench.h"
#include "fp8dash/gpu/kv_quant.h"

namespace fp8dash {

// With options.kvDump set: opens the dump into sweep.source and sets sweep.contexts to options.kvContexts (each at
// most the dump's token count, else an error naming the file and its count) or, when none are given, `standard`'s
// contexts below the dump's token count followed by the full count. Without a dump: nothing changes.
Status useKvDump(const LocalBenchOptions& options, const std::vector<int>& standard, gpu::KvSweepConfig& sweep);

}  // namespace fp8dash
