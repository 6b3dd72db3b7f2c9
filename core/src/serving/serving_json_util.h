#pragma once
// Helpers the serving readers share (GuideLLM, AIPerf): what counts as a secret (never kept), text of JSON values,
// percentile keys, timestamps. Pure functions.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "fp8dash/core/json_text.h"

namespace fp8dash {

// A key that names a credential: api_key, apiKey, access_token, token, secret, password, authorization, bearer,
// credentials, private_key, hf_token ("max_tokens" and "prompt_tokens" are not).
bool servingLooksSecretKey(std::string_view key);
// A value that looks like a credential: "Bearer …", "sk-…", "hf_…" tokens.
bool servingLooksSecretValue(std::string_view value);
// A command line with the values of credential options (--api-key X, -H 'Authorization: Bearer X', sk-… tokens)
// replaced by "<redacted>".
std::string servingRedactCommandLine(std::string_view command);
// A URL without its user:password@ part and without its query string (which may carry a key).
std::string servingUrlWithoutSecrets(std::string_view url);
// A scalar as text (strings as they are, numbers as JSON writes them, booleans, "null"); an object or array as compact
// JSON with secret-looking keys left out; cut to maxChars (with "…").
std::string servingValueText(const Json& value, std::size_t maxChars = 240);
// "p99" -> 99, "p99.9" -> 99.9 (AIPerf, GenAI-Perf); with guideLlmDigits, GuideLLM's fixed-width keys: "p001" -> 0.1,
// "p01" -> 1, "p05" -> 5, "p50" -> 50, "p999" -> 99.9. nullopt for anything else.
std::optional<double> servingPercentileKey(std::string_view key, bool guideLlmDigits);
// A JSON value read as a number: a finite number as it is; nullopt for a non-finite one or one of the strings Python's
// json.dump writes for them ("NaN", "Infinity", "-Infinity"); nullopt with wrongType set for anything else.
std::optional<double> servingJsonNumber(const Json& v, bool& wrongType);
// Seconds since the epoch as "2025-06-05T21:39:28Z"; "" when out of range.
std::string servingIsoTimeFromEpoch(double seconds);

}  // namespace fp8dash
