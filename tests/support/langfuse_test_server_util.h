#pragma once
// Private to the Langfuse test server's sources: the parts of its answers they share.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "langfuse_test_server.h"

namespace fp8dash::test::langfuse_detail {

using json = nlohmann::json;
using Reply = TestHttpServer::Reply;

std::optional<double> parseIso(const std::string& s);  // the server's own reader: date 'T' time [.fff] (Z | +-HH:MM)
json zodIssue(const std::string& code, const std::string& message, const std::string& field);
Reply invalidRequest(json issues);  // 400 {"message": "Invalid request data", "error": issues}
Reply errorReply(int status, const std::string& message, const std::string& errorClass);
Reply notFoundPage();  // Next.js' HTML 404 for an unknown route
// Integer query parameters as zod's z.coerce.number().int() sees them; nullopt (and an issue) when invalid.
std::optional<long> intParam(const TestHttpServer::Request& r, const std::string& key, json& issues, long min,
                             std::optional<long> max, long fallback);
// The body with the fault the options ask for (score lists only), Cloud's "_deprecation" where `deprecated`.
Reply finishScores(json body, const LangfuseTestServer::Options& options, bool deprecated);
std::string base64UrlDecode(const std::string& in, bool& ok);
std::string base64UrlEncode(const std::string& in);
std::vector<std::string> splitComma(const std::string& s);

}  // namespace fp8dash::test::langfuse_detail
