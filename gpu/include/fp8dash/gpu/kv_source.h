#pragma once
// Where the KV error sweep gets its K and V from, one layer at a time: the synthetic cache (kv_quant.h) or a dump of
// a real model's cache (kv_dump.h). The sweep holds one layer in memory at a time, so a 4 GiB dump of a 32-layer
// model runs in a few hundred MiB.
//
// Layout of a loaded layer: [kv_head][token][head_dim], row-major, float (BF16 and F16 widen exactly), so head h's
// first T tokens are the T * headDim floats at h * tokens * headDim.
// Plain C++, no Qt, no CUDA.

#include "fp8dash/gpu/kv_quant.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace fp8dash::gpu {

// A source that cannot deliver what it promised (a truncated file, a read error): the message names the file and
// the tensor.
class KvSourceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class KvLayerSource {
public:
    virtual ~KvLayerSource() = default;

    // layers, kvHeads, headDim, and tokens = every token the source holds.
    virtual KvShape shape() const = 0;

    // "synthetic" or "dump".
    virtual std::string kind() const = 0;
    // What a reader of the results needs to find the data again: the generator and seed, or the dump's file name
    // (base name only, never a directory that may hold a user name) with its dtype.
    virtual std::string description() const = 0;

    // The first `tokens` tokens of one layer into keys and values (resized to kvHeads * tokens * headDim), laid out
    // [kv_head][token][head_dim]. Called from one thread at a time. Throws std::invalid_argument for a layer or token
    // count outside the shape, KvSourceError when the data cannot be read.
    virtual void loadLayer(int layer, int tokens, std::vector<float>& keys, std::vector<float>& values) = 0;
};

}  // namespace fp8dash::gpu
