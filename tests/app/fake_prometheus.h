#pragma once
// A stand-in Prometheus for the CLI tests (a TestHttpServer): range queries only, throughput 1000 tok/s before the
// change and 1500 after, quality 4.2 -> 4.15, vllm:cache_config_info switching auto -> fp8 at the change. Requests
// are recorded (server()), so a test can see what arrived. Header-only.

#include <cmath>
#include <string>

#include "test_http_server.h"

namespace fp8dash::test {

// A stand-in Prometheus answering the timeline's queries: throughput 1000 tok/s before the change and 1500 after,
// quality 4.2 -> 4.15, the alert expression never true, and vllm:cache_config_info switching auto -> fp8.
class FakePrometheus {
public:
    static constexpr double kFrom = 1795000000, kChange = kFrom + 3600, kTo = kFrom + 7200;

    FakePrometheus() : m_server([this](const TestHttpServer::Request& r) { return answer(r); }) {}
    std::string url() const { return m_server.baseUrl(); }
    const TestHttpServer& server() const { return m_server; }

private:
    static std::string matrix(const std::string& labels, double before, double after, double from, double to,
                              double step) {
        std::string values;
        for (double t = from; t <= to; t += step) {
            if (!values.empty()) values += ",";
            values += "[" + std::to_string(static_cast<long long>(t)) + ",\"" +
                      std::to_string(t < kChange ? before : after) + "\"]";
        }
        return R"({"metric":)" + labels + R"(,"values":[)" + values + "]}";
    }
    TestHttpServer::Reply answer(const TestHttpServer::Request& r) {
        if (r.path != "/api/v1/query_range") return TestHttpServer::Reply::json(404, "{}");
        const std::string q = r.queryValue("query").value_or("");
        const double from = std::stod(r.queryValue("start").value_or("0"));
        const double to = std::stod(r.queryValue("end").value_or("0"));
        const double step = std::stod(r.queryValue("step").value_or("60"));
        std::string result;
        if (q == "sum(rate(vllm:generation_tokens_total[5m]))")
            result = matrix("{}", 1000, 1500, from, to, step);
        else if (q == R"(langfuse_score_value{name="llm_judge_domain"})")
            result = matrix(R"({"name":"llm_judge_domain"})", 4.2, 4.15, from, to, step);
        else if (q == "vllm:cache_config_info")
            result = matrix(R"({"cache_dtype":"auto"})", 1, NAN, from, kChange - step, step) + "," +
                     matrix(R"({"cache_dtype":"fp8"})", NAN, 1, kChange, to, step);
        return TestHttpServer::Reply::json(
            200, R"({"status":"success","data":{"resultType":"matrix","result":[)" + result + "]}}");
    }
    TestHttpServer m_server;
};

}  // namespace fp8dash::test
