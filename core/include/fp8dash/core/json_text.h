#pragma once
// Reading JSON text and files with errors a user can act on: the strict parser every reader of outside JSON uses
// (lm-eval results, comparison and recovery files, Prometheus and Langfuse answers, config.json, judge scores) and
// the bounded file reader. Implemented in json_text.cpp (simdjson, with nlohmann's messages).

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fp8dash/core/result.h"

namespace fp8dash {

using Json = nlohmann::ordered_json;  // key order matters: "the first metric in the file"

// Parses JSON text strictly, with two allowances for what Python's json.dump writes: the bare tokens NaN, Infinity
// and -Infinity become the strings "NaN", "Infinity", "-Infinity". Nesting deeper than 256 levels is refused, and so
// is a key repeated in one object (the error names the key and its object's path, e.g. `results.gsm8k`). Errors name
// sourceName and the byte offset.
Result<Json> parseJsonText(std::string_view text, const std::string& sourceName);

// For readers that keep nlohmann's lenient parse (the Langfuse and judge clients' answers, the judge's own files):
// json::parse(text, nullptr, false), except that a key repeated in one object is refused as parseJsonText refuses it
// (the Error names sourceName, the key and its object). Text that is no JSON at all gives a discarded value, so that
// the caller's own message about what it expected stays.
Result<nlohmann::json> parseAnswerJson(std::string_view text, const std::string& sourceName);
Result<Json> parseAnswerOrderedJson(std::string_view text, const std::string& sourceName);

// Reads a whole file (refuses directories, unreadable files and files over maxBytes) with errors naming the path.
Result<std::string> readTextFile(const std::filesystem::path& path, std::size_t maxBytes = 512u << 20);

}  // namespace fp8dash
