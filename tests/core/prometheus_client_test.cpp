// PrometheusClient without a Prometheus: real 2.42 responses (shared/fixtures/prometheus) parsed in place, requests
// checked on a loopback test server that records them, and transport faults each ending in a clear error in time.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <sstream>
#include <thread>

#include "fp8dash/core/lm_eval_results.h"  // readTextFile
#include "fp8dash/core/prometheus_client.h"
#include "test_http_server.h"
#include "test_paths.h"

namespace fp8dash {
namespace {

using test::TestHttpServer;
constexpr const char* kWhere = "http://127.0.0.1:9090/api/v1/query_range";

std::string promFixture(const std::string& name) {
    const auto path = test::sharedFixtures() / "prometheus" / name;
    auto text = readTextFile(path);
    return text ? *text : std::string();
}

#define FP8DASH_PROM_FIXTURE(var, name)        \
    const std::string var = promFixture(name); \
    if (var.empty())                           \
    GTEST_SKIP() << "shared fixture prometheus/" << name << " not found under " << test::sharedFixtures()

const std::string kMatrixBody =
    R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"job":"a"},"values":[[100,"1"],[115,"2"]]}]}})";

// --- Parsing real responses --------------------------------------------------------------------------------------

TEST(PrometheusResponse, MatrixFixture) {
    FP8DASH_PROM_FIXTURE(body, "query_range-matrix.json");
    auto r = parsePrometheusResponse(body, 200, kWhere);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->resultType, "matrix");
    ASSERT_EQ(r->series.size(), 1u);
    EXPECT_EQ(r->series[0].labels,
              (Labels{{"__name__", "vllm:num_requests_running"}, {"engine", "0"}, {"model_name", "m-bf16"}}));
    std::vector<Sample> expected;
    for (int i = 0; i < 6; ++i) expected.push_back({1795852800.0 + 60 * i, static_cast<double>(i)});
    EXPECT_EQ(r->series[0].samples, expected);
    EXPECT_TRUE(r->warnings.empty());
}

TEST(PrometheusResponse, FractionalTimestampsFixture) {
    FP8DASH_PROM_FIXTURE(body, "query_range-fractional-ts.json");
    auto r = parsePrometheusResponse(body, 200, kWhere);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->series.size(), 1u);
    const auto& s = r->series[0].samples;
    ASSERT_EQ(s.size(), 20u);  // step 15.5 s from 1795852800
    for (std::size_t i = 0; i < s.size(); ++i) EXPECT_EQ(s[i].t, 1795852800.0 + 15.5 * static_cast<double>(i)) << i;
    EXPECT_EQ(s[1].v, 0.0);
    EXPECT_EQ(s[19].v, 4.0);
}

TEST(PrometheusResponse, VectorWithNaNAndInfinitiesFixture) {
    FP8DASH_PROM_FIXTURE(body, "query-vector-nan-inf.json");
    auto r = parsePrometheusResponse(body, 200, kWhere);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->resultType, "vector");
    ASSERT_EQ(r->series.size(), 3u);
    EXPECT_EQ(r->series[0].labels.at("k"), "inf");
    EXPECT_EQ(r->series[0].samples[0].v, std::numeric_limits<double>::infinity());
    EXPECT_EQ(r->series[1].labels.at("k"), "nan");
    EXPECT_TRUE(std::isnan(r->series[1].samples[0].v));
    EXPECT_EQ(r->series[2].labels.at("k"), "ninf");
    EXPECT_EQ(r->series[2].samples[0].v, -std::numeric_limits<double>::infinity());
    for (const auto& s : r->series) EXPECT_EQ(s.samples[0].t, 1795852810.0);
}

TEST(PrometheusResponse, ScalarAndEmptyFixtures) {
    FP8DASH_PROM_FIXTURE(scalar, "query-scalar.json");
    auto r = parsePrometheusResponse(scalar, 200, kWhere);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->resultType, "scalar");
    ASSERT_EQ(r->series.size(), 1u);
    EXPECT_TRUE(r->series[0].labels.empty());
    EXPECT_EQ(r->series[0].samples, (std::vector<Sample>{{1795852860, 1}}));

    FP8DASH_PROM_FIXTURE(empty, "query_range-empty.json");
    auto e = parsePrometheusResponse(empty, 200, kWhere);
    ASSERT_TRUE(e.ok()) << e.error().message;
    EXPECT_EQ(e->resultType, "matrix");
    EXPECT_TRUE(e->series.empty());
}

TEST(PrometheusResponse, ErrorsVerbatimWithTheUrl) {
    FP8DASH_PROM_FIXTURE(parse, "error-parse.json");
    auto r = parsePrometheusResponse(parse, 400, kWhere);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message,
              "Prometheus at http://127.0.0.1:9090/api/v1/query_range: bad_data: invalid parameter "
              "\"query\": 1:5: parse error: unclosed left parenthesis");
    FP8DASH_PROM_FIXTURE(limit, "error-11000-points.json");
    auto l = parsePrometheusResponse(limit, 400, kWhere);
    ASSERT_FALSE(l.ok());
    EXPECT_EQ(l.error().message,
              "Prometheus at http://127.0.0.1:9090/api/v1/query_range: bad_data: exceeded maximum "
              "resolution of 11,000 points per timeseries. Try decreasing the query resolution "
              "(?step=XX)");
}

TEST(PrometheusResponse, WarningsAndStringResultKept) {
    auto r = parsePrometheusResponse(
        R"({"status":"success","data":{"resultType":"string","result":[1795852800.5,"fp8"]},"warnings":["PromQL info: metric might not be a counter","partial response"]})",
        200, kWhere);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->resultType, "string");
    EXPECT_EQ(r->text, "fp8");
    EXPECT_TRUE(r->series.empty());
    EXPECT_EQ(r->warnings,
              (std::vector<std::string>{"PromQL info: metric might not be a counter", "partial response"}));
}

TEST(PrometheusResponse, NonJsonBodiesNameTheStatusAndTheStart) {
    const std::string html =
        "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1>"
        "</center><hr><center>nginx</center></body></html>";
    auto proxy = parsePrometheusResponse(html, 502, kWhere);
    ASSERT_FALSE(proxy.ok());
    EXPECT_EQ(proxy.error().message,
              "Prometheus at http://127.0.0.1:9090/api/v1/query_range: HTTP 502 (the server or a "
              "proxy in front of it is unavailable); it answered: \"" +
                  html + "\"");

    const std::string login(500, 'x');
    auto ok200 = parsePrometheusResponse("<!DOCTYPE html>" + login, 200, kWhere);
    ASSERT_FALSE(ok200.ok());
    const std::string& m = ok200.error().message;
    EXPECT_EQ(m.rfind("Prometheus at http://127.0.0.1:9090/api/v1/query_range: HTTP 200: not Prometheus API JSON (", 0),
              0u)
        << m;
    EXPECT_NE(m.find("it begins: \"<!DOCTYPE html>" + std::string(185, 'x') + "...\""), std::string::npos) << m;

    // 199 ASCII characters, then "é" (2 bytes) across the 200-character limit: the excerpt stops before it.
    auto split = parsePrometheusResponse(std::string(199, 'a') + "\xC3\xA9 and more", 500, kWhere);
    ASSERT_FALSE(split.ok());
    EXPECT_NE(split.error().message.find("it answered: \"" + std::string(199, 'a') + "...\""), std::string::npos)
        << split.error().message;

    auto empty = parsePrometheusResponse("", 200, kWhere);
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(empty.error().message,
              "Prometheus at http://127.0.0.1:9090/api/v1/query_range: HTTP 200: empty response body (expected "
              "Prometheus API JSON)");

    auto truncated = parsePrometheusResponse(kMatrixBody.substr(0, 60), 200, kWhere);
    ASSERT_FALSE(truncated.ok());
    EXPECT_NE(truncated.error().message.find("HTTP 200: not Prometheus API JSON"), std::string::npos)
        << truncated.error().message;

    auto other = parsePrometheusResponse(R"({"data":[1,2]})", 200, kWhere);
    ASSERT_FALSE(other.ok());
    EXPECT_NE(other.error().message.find("without a \"status\" field"), std::string::npos) << other.error().message;
}

TEST(PrometheusResponse, MalformedShapesAreErrors) {
    for (const char* body : {
             R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"x"]]}]}})",
             R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":1},"values":[]}]}})",
             R"({"status":"success","data":{"resultType":"vector","result":{}}})",
             R"({"status":"success","data":{"resultType":"scalar","result":[1]}})",
             R"({"status":"success","data":{"resultType":"histogram","result":[]}})",
             R"({"status":"success"})",
         }) {
        auto r = parsePrometheusResponse(body, 200, kWhere);
        ASSERT_FALSE(r.ok()) << body;
        EXPECT_EQ(r.error().message.rfind("Prometheus at http://127.0.0.1:9090/api/v1/query_range: ", 0), 0u)
            << r.error().message;
    }
}

// A successful matrix as nlohmann reads it, values decoded as Prometheus writes them.
std::vector<Series> matrixAsTheTreeReadsIt(const std::string& body) {
    const auto doc = nlohmann::ordered_json::parse(body);
    const auto number = [](const nlohmann::ordered_json& j) {
        if (j.is_number()) return j.get<double>();
        const std::string s = j.get<std::string>();
        if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
        if (s == "+Inf") return std::numeric_limits<double>::infinity();
        if (s == "-Inf") return -std::numeric_limits<double>::infinity();
        std::istringstream in(s);
        in.imbue(std::locale::classic());
        double v = 0;
        in >> v;
        return v;
    };
    std::vector<Series> out;
    for (const auto& item : doc["data"]["result"]) {
        Series s;
        if (item.contains("metric") && !item["metric"].is_null())
            for (const auto& [k, v] : item["metric"].items()) s.labels[k] = v.get<std::string>();
        if (item.contains("values"))
            for (const auto& pair : item["values"]) s.samples.push_back({number(pair[0]), number(pair[1])});
        out.push_back(std::move(s));
    }
    return out;
}

// Range-query answers are read by a fast path of their own (for speed); it reads what the JSON tree reads.
TEST(PrometheusResponse, MatricesReadAsTheJsonTreeReadsThem) {
    const std::string head = R"({"status":"success","data":{"resultType":"matrix","result":)";
    const std::vector<std::string> bodies = {
        kMatrixBody,
        head + R"([]}})",
        head + R"([{"metric":{"__name__":"up","job":"caf\u00e9","x":"a\nb"},"values":[[1795852800.125,"0.1"],)" +
            R"([1795852815,"1e+06"],[1795852830,"-0"],[1795852845,"NaN"],[1795852860,"+Inf"],[1795852875,"-Inf"]]}]}})",
        head +
            R"([{"metric":{"a":"1","a":"2"},"values":[[1,"1"]]},{"metric":null,"values":[]},{"values":[[2,"3"]]}]}})",
        head + R"([{"metric":{"a":"1"},"histograms":[[1,{"count":"2"}]]}]},"warnings":["w1","w2"]})",
        head + R"([{"metric":{},"values":[["1795852800","2"],[-0,"-0.0"],[1e3,"17"]]}],"stats":{"x":[1,2]}}})",
        head + R"([{"metric":{},"values":[[1,"1"]],"values":[[2,"2"],[3,"3"]]}]}})",
        R"({"status":"error","status":"success","data":{"resultType":"matrix","result":[{"values":[[1,"1"]]}]}})",
        "\xEF\xBB\xBF" + kMatrixBody,
        head + R"([{"metric":{},"values":[[18446744073709551616,"1"]]}]}})",
        head + R"([{"metric":{"k":"\ud83d\ude00"},"values":[[1,"1"]]}]},"extra":)" + std::string(300, '[') +
            std::string(300, ']') + "}",
    };
    // The bodies above that repeat a key in one object: a label, "values", "status" (issue 26: refused, named).
    const std::vector<std::pair<std::size_t, std::string>> repeated = {
        {3, R"(data.result[0].metric: key "a" appears twice)"},
        {6, R"(data.result[0]: key "values" appears twice)"},
        {7, R"(key "status" appears twice at the top level)"}};
    for (const auto& body : bodies) {
        SCOPED_TRACE(body.substr(0, 200));
        auto r = parsePrometheusResponse(body, 200, kWhere);
        const auto k = static_cast<std::size_t>(&body - bodies.data());
        if (auto it = std::find_if(repeated.begin(), repeated.end(), [&](const auto& p) { return p.first == k; });
            it != repeated.end()) {
            ASSERT_FALSE(r.ok());
            EXPECT_NE(r.error().message.find(it->second), std::string::npos) << r.error().message;
            continue;
        }
        if (body.find(std::string(300, '[')) != std::string::npos) {
            ASSERT_FALSE(r.ok());  // parseJsonText's nesting limit, as for every response
            EXPECT_NE(r.error().message.find("nesting deeper than 256 levels"), std::string::npos) << r.error().message;
            continue;
        }
        ASSERT_TRUE(r.ok()) << r.error().message;
        EXPECT_EQ(r->resultType, "matrix");
        const auto expected = matrixAsTheTreeReadsIt(body);
        ASSERT_EQ(r->series.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            EXPECT_EQ(r->series[i].labels, expected[i].labels);
            ASSERT_EQ(r->series[i].samples.size(), expected[i].samples.size());
            if (!expected[i].samples.empty()) {  // memcmp of no bytes may still not be given a null pointer
                EXPECT_EQ(std::memcmp(r->series[i].samples.data(), expected[i].samples.data(),
                                      expected[i].samples.size() * sizeof(Sample)),
                          0);
            }
        }
    }
    auto warned = parsePrometheusResponse(bodies[4], 200, kWhere);
    EXPECT_EQ(warned->warnings, (std::vector<std::string>{"w1", "w2"}));
}

// --- detectCacheDtypeChange --------------------------------------------------------------------------------------

Series promInfo(const std::string& dtype, double from, double to, double step = 60) {
    Series s;
    s.labels = {{"__name__", "vllm:cache_config_info"}, {"block_size", "16"}, {"cache_dtype", dtype}};
    for (double t = from; t <= to; t += step) s.samples.push_back({t, 1});
    return s;
}

TEST(CacheDtypeChange, AutoThenFp8) {
    auto c = detectCacheDtypeChange({promInfo("fp8", 1300, 2000), promInfo("auto", 0, 1240)});
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->at, 1300);
    EXPECT_EQ(c->from, "auto");
    EXPECT_EQ(c->to, "fp8");
    auto e4m3 = detectCacheDtypeChange({promInfo("auto", 0, 600), promInfo("fp8_e4m3", 660, 900)});
    ASSERT_TRUE(e4m3.has_value());
    EXPECT_EQ(e4m3->at, 660);
    EXPECT_EQ(e4m3->to, "fp8_e4m3");
}

TEST(CacheDtypeChange, NothingToDetect) {
    EXPECT_FALSE(detectCacheDtypeChange({}).has_value());
    EXPECT_FALSE(detectCacheDtypeChange({promInfo("auto", 0, 600)}).has_value());
    EXPECT_FALSE(detectCacheDtypeChange({promInfo("fp8", 0, 600)}).has_value());
    EXPECT_FALSE(
        detectCacheDtypeChange({promInfo("fp8", 0, 600), promInfo("auto", 660, 900)}).has_value());  // a roll-back
    Series unlabeled = promInfo("auto", 0, 600);
    unlabeled.labels.erase("cache_dtype");
    EXPECT_FALSE(detectCacheDtypeChange({unlabeled, promInfo("fp8", 660, 900)}).has_value());
}

TEST(CacheDtypeChange, FirstFp8SampleAfterTheFirstNonFp8) {
    // FP8 first, rolled back to auto at 300, FP8 again from 600 (the same series resumes after a gap).
    Series fp8 = promInfo("fp8", 0, 240);
    for (double t = 600; t <= 900; t += 60) fp8.samples.push_back({t, 1});
    auto c = detectCacheDtypeChange({fp8, promInfo("auto", 300, 540)});
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->at, 600);
    EXPECT_EQ(c->from, "auto");
    // A rolling update: two replicas overlap; the switch is the first fp8 sample after the first auto one.
    auto rolling =
        detectCacheDtypeChange({promInfo("auto", 0, 1200), promInfo("fp8", 900, 2000), promInfo("bfloat16", 100, 500)});
    ASSERT_TRUE(rolling.has_value());
    EXPECT_EQ(rolling->at, 900);
    EXPECT_EQ(rolling->from, "auto");  // the non-fp8 dtype seen last before 900
}

// --- Requests as sent --------------------------------------------------------------------------------------------

PrometheusSettings promSettingsFor(const TestHttpServer& server) {
    PrometheusSettings s;
    s.baseUrl = server.baseUrl();
    s.http.maxRetries = 2;
    s.http.retryBaseDelayS = 0.01;
    s.http.connectTimeoutS = 2;
    s.http.totalTimeoutS = 5;
    return s;
}

TEST(PrometheusRequests, ParametersEncodedAndFormatted) {
    TestHttpServer server([](const TestHttpServer::Request&) { return TestHttpServer::Reply::json(200, kMatrixBody); });
    auto settings = promSettingsFor(server);
    settings.baseUrl += "/api/v1/";  // a pasted API root is accepted
    const PrometheusClient client(settings);
    const std::string promql =
        R"(sum by (model_name) (rate(vllm:generation_tokens_total{model_name=~"llama.+", job!="a b"}[5m])) + 1)";
    ASSERT_TRUE(client.query(promql, 1795852815.5004).ok());
    ASSERT_TRUE(client.queryRange(promql, 1795852800.1, 1795856400, 15.5).ok());
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[0].path, "/api/v1/query");
    EXPECT_EQ(requests[0].queryValue("query"), promql);
    EXPECT_EQ(requests[0].queryValue("time"), "1795852815.5");  // milliseconds, as Prometheus keeps them
    EXPECT_EQ(requests[1].path, "/api/v1/query_range");
    EXPECT_EQ(requests[1].queryValue("query"), promql);
    EXPECT_EQ(requests[1].queryValue("start"), "1795852800.1");
    EXPECT_EQ(requests[1].queryValue("end"), "1795856400");
    EXPECT_EQ(requests[1].queryValue("step"), "15.5");
    EXPECT_EQ(requests[1].target.find(' '), std::string::npos);  // everything percent-encoded
    EXPECT_EQ(requests[1].target.find('+'), std::string::npos);
}

TEST(PrometheusRequests, ChunksOnTheSameStepGridJoinedByLabels) {
    // Answers each chunk with the grid points it asked for: series a on every point, b only from t >= 1150, so the
    // join must match by label set across chunks.
    TestHttpServer server([](const TestHttpServer::Request& r) {
        const long start = std::stol(*r.queryValue("start")), end = std::stol(*r.queryValue("end"));
        const long step = std::stol(*r.queryValue("step"));
        std::string a, b;
        for (long t = start; t <= end; t += step) {
            a += (a.empty() ? "" : ",") + ("[" + std::to_string(t) + ",\"" + std::to_string(t * 2) + "\"]");
            if (t >= 1150) b += (b.empty() ? "" : ",") + ("[" + std::to_string(t) + ",\"1\"]");
        }
        std::string result = R"({"metric":{"s":"a"},"values":[)" + a + "]}";
        if (!b.empty()) result = R"({"metric":{"s":"b"},"values":[)" + b + "]}," + result;  // order varies
        return TestHttpServer::Reply::json(
            200, R"({"status":"success","data":{"resultType":"matrix","result":[)" + result + "]}}");
    });
    auto settings = promSettingsFor(server);
    settings.maxPointsPerQuery = 10;
    const PrometheusClient client(settings);
    std::vector<double> fractions;
    Progress progress;
    progress.report = [&](double f, const std::string&) { fractions.push_back(f); };
    auto r = client.queryRange("x", 1000, 1290, 10, progress, 2);
    ASSERT_TRUE(r.ok()) << r.error().message;
    std::set<std::pair<std::string, std::string>> asked;
    for (const auto& req : server.requests()) asked.insert({*req.queryValue("start"), *req.queryValue("end")});
    EXPECT_EQ(asked,
              (std::set<std::pair<std::string, std::string>>{{"1000", "1090"}, {"1100", "1190"}, {"1200", "1290"}}));
    EXPECT_EQ(fractions, (std::vector<double>{0, 1.0 / 3, 2.0 / 3, 1}));
    ASSERT_EQ(r->series.size(), 2u);
    EXPECT_EQ(r->series[0].labels, (Labels{{"s", "a"}}));
    ASSERT_EQ(r->series[0].samples.size(), 30u);
    for (std::size_t i = 0; i < 30; ++i)
        EXPECT_EQ(r->series[0].samples[i], (Sample{1000.0 + 10 * i, 2 * (1000.0 + 10 * i)}));
    EXPECT_EQ(r->series[1].labels, (Labels{{"s", "b"}}));
    ASSERT_EQ(r->series[1].samples.size(), 15u);
    EXPECT_EQ(r->series[1].samples.front().t, 1150);
    EXPECT_EQ(r->series[1].samples.back().t, 1290);
}

TEST(PrometheusRequests, BearerAndExtraHeadersSentSecretsNeverShown) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        return TestHttpServer::Reply{401, {{"Content-Type", "text/plain"}}, "Unauthorized\n"};
    });
    auto settings = promSettingsFor(server);
    settings.http.auth = {HttpAuth::Kind::Bearer, {}, {}, "tok-SECRET-123"};
    settings.http.headers = {{"X-Scope-OrgID", "tenant-a"}};
    auto r = PrometheusClient(settings).buildInfo();
    ASSERT_FALSE(r.ok());
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);  // a 401 is not retried
    EXPECT_EQ(requests[0].path, "/api/v1/status/buildinfo");
    EXPECT_EQ(requests[0].header("authorization"), "Bearer tok-SECRET-123");
    EXPECT_EQ(requests[0].header("x-scope-orgid"), "tenant-a");
    EXPECT_EQ(r.error().message,
              "Prometheus at " + server.url("/api/v1/status/buildinfo") +
                  ": HTTP 401 (unauthorized: the server wants credentials or refused the ones given; "
                  "check the user name and password, or the token); it answered: \"Unauthorized \"");
    EXPECT_EQ(r.error().message.find("SECRET"), std::string::npos);

    settings.http.auth = {HttpAuth::Kind::Basic, "grafana", "pw-SECRET", {}};
    settings.baseUrl = "http://user:url-SECRET@127.0.0.1:" + std::to_string(server.port());
    auto basic = PrometheusClient(settings).query("up", 1);
    ASSERT_FALSE(basic.ok());
    EXPECT_EQ(server.requests().back().header("authorization"), "Basic Z3JhZmFuYTpwdy1TRUNSRVQ=");  // grafana:pw-SECRET
    EXPECT_EQ(basic.error().message.find("SECRET"), std::string::npos) << basic.error().message;
    EXPECT_EQ(basic.error().message.rfind("Prometheus at " + server.url("/api/v1/query") + ": HTTP 401", 0), 0u)
        << basic.error().message;
}

TEST(PrometheusRequests, BuildInfoOfPrometheusAndOfAServerWithout) {
    FP8DASH_PROM_FIXTURE(debian, "buildinfo-2.42-debian.json");
    TestHttpServer server([&](const TestHttpServer::Request& r) {
        if (r.path == "/api/v1/status/buildinfo") return TestHttpServer::Reply::json(200, debian);
        return TestHttpServer::Reply{
            400, {{"Content-Type", "text/plain"}}, "unsupported path requested: " + r.path + "\n"};
    });
    auto info = PrometheusClient(promSettingsFor(server)).buildInfo();
    ASSERT_TRUE(info.ok()) << info.error().message;
    EXPECT_EQ(*info, "Prometheus 2.42.0+ds (revision 2.42.0+ds-5+deb12u1, go1.19.8)");

    // VictoriaMetrics-style: the path is unknown there; queries would still work.
    auto settings = promSettingsFor(server);
    settings.baseUrl += "/select/0/prometheus";
    auto missing = PrometheusClient(settings).buildInfo();
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(
        missing.error().message,
        "Prometheus at " + server.url("/select/0/prometheus/api/v1/status/buildinfo") +
            ": HTTP 400; it answered: \"unsupported path requested: /select/0/prometheus/api/v1/status/buildinfo \". "
            "The server may be Prometheus-compatible without /api/v1/status/buildinfo (e.g. VictoriaMetrics or a "
            "gateway); queries may still work");
}

TEST(PrometheusRequests, RangeArgumentsCheckedBeforeAnyRequest) {
    TestHttpServer server([](const TestHttpServer::Request&) { return TestHttpServer::Reply::json(200, kMatrixBody); });
    const PrometheusClient client(promSettingsFor(server));
    EXPECT_FALSE(client.queryRange("x", 100, 50, 15).ok());
    EXPECT_FALSE(client.queryRange("x", 0, 100, 0).ok());
    EXPECT_FALSE(client.queryRange("x", 0, 100, 0.0004).ok());
    EXPECT_FALSE(client.queryRange("x", std::nan(""), 100, 15).ok());
    auto huge = client.queryRange("x", 0, 365 * 86400.0, 1);
    ASSERT_FALSE(huge.ok());
    EXPECT_NE(huge.error().message.find("31536001 points per series"), std::string::npos) << huge.error().message;
    EXPECT_EQ(server.requestCount(), 0u);
}

// --- Faults ------------------------------------------------------------------------------------------------------

double promSecondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

TEST(PrometheusFaults, ConnectionRefused) {
    PrometheusSettings settings;
    settings.baseUrl = "http://127.0.0.1:" + std::to_string(test::closedPort());
    settings.http.maxRetries = 2;
    settings.http.retryBaseDelayS = 0.01;
    const auto began = std::chrono::steady_clock::now();
    auto r = PrometheusClient(settings).query("up", 1);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message.rfind("Prometheus at " + settings.baseUrl + "/api/v1/query: connection refused", 0), 0u)
        << r.error().message;
    EXPECT_NE(r.error().message.find("after 3 attempts"), std::string::npos) << r.error().message;
    EXPECT_LT(promSecondsSince(began), 5);
}

TEST(PrometheusFaults, TimeoutAfterTheRequestWasSentIsNotRetried) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        TestHttpServer::Reply r;
        r.neverAnswer = true;
        return r;
    });
    auto settings = promSettingsFor(server);
    settings.http.totalTimeoutS = 0.4;
    settings.http.maxRetries = 1;
    const auto began = std::chrono::steady_clock::now();
    auto r = PrometheusClient(settings).queryRange("up", 0, 600, 15);
    const double took = promSecondsSince(began);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("/api/v1/query_range: timed out"), std::string::npos) << r.error().message;
    // The server got the query and never answered: a second attempt would only load it again.
    EXPECT_EQ(server.requestCount(), 1u);
    EXPECT_GE(took, 0.35);
    EXPECT_LT(took, 5);
}

TEST(PrometheusFaults, ServerErrorThenSuccessIsRetried) {
    std::atomic<int> calls{0};
    TestHttpServer server([&](const TestHttpServer::Request&) {
        if (calls++ == 0)
            return TestHttpServer::Reply::json(500, R"({"status":"error","errorType":"internal","error":"boom"})");
        return TestHttpServer::Reply::json(200, kMatrixBody);
    });
    auto r = PrometheusClient(promSettingsFor(server)).queryRange("up", 100, 115, 15);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(server.requestCount(), 2u);
    ASSERT_EQ(r->series.size(), 1u);
    EXPECT_EQ(r->series[0].samples, (std::vector<Sample>{{100, 1}, {115, 2}}));
}

TEST(PrometheusFaults, PersistentServerErrorEndsAfterTheRetries) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        return TestHttpServer::Reply::json(500, R"({"status":"error","errorType":"internal","error":"boom"})");
    });
    auto r = PrometheusClient(promSettingsFor(server)).query("up", 1);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "Prometheus at " + server.url("/api/v1/query") + ": internal: boom");
    EXPECT_EQ(server.requestCount(), 3u);  // the first try and maxRetries = 2
}

TEST(PrometheusFaults, UnavailableWithRetryAfterIsHonoured) {
    std::atomic<int> calls{0};
    TestHttpServer server([&](const TestHttpServer::Request&) {
        if (calls++ == 0)
            return TestHttpServer::Reply{
                503, {{"Retry-After", "1"}, {"Content-Type", "text/plain"}}, "Service Unavailable"};
        return TestHttpServer::Reply::json(200, kMatrixBody);
    });
    const auto began = std::chrono::steady_clock::now();
    auto r = PrometheusClient(promSettingsFor(server)).query("up", 1);
    const double took = promSecondsSince(began);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(server.requestCount(), 2u);
    EXPECT_GE(took, 0.9);  // the server's 1 s, not the 10 ms backoff
    EXPECT_LT(took, 5);
}

TEST(PrometheusFaults, TruncatedBody) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        TestHttpServer::Reply r = TestHttpServer::Reply::json(200, kMatrixBody);
        r.closeAfterBytes = 40;
        return r;
    });
    auto r = PrometheusClient(promSettingsFor(server)).query("up", 1);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("/api/v1/query: the response was cut off"), std::string::npos)
        << r.error().message;
    EXPECT_EQ(server.requestCount(), 3u);

    // Cut off in the JSON itself, with a matching Content-Length: a parse error, not retried.
    TestHttpServer cut(
        [](const TestHttpServer::Request&) { return TestHttpServer::Reply::json(200, kMatrixBody.substr(0, 60)); });
    auto c = PrometheusClient(promSettingsFor(cut)).query("up", 1);
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("HTTP 200: not Prometheus API JSON"), std::string::npos) << c.error().message;
    EXPECT_EQ(cut.requestCount(), 1u);
}

TEST(PrometheusFaults, NonJsonBodyFromAProxy) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        return TestHttpServer::Reply{502, {{"Content-Type", "text/html"}}, "<html><body>Bad Gateway</body></html>"};
    });
    auto r = PrometheusClient(promSettingsFor(server)).query("up", 1);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "Prometheus at " + server.url("/api/v1/query") +
                                     ": HTTP 502 (the server or a proxy in front of it is unavailable); it answered: "
                                     "\"<html><body>Bad Gateway</body></html>\"");
    EXPECT_EQ(server.requestCount(), 3u);  // 502 is retried, then reported
}

TEST(PrometheusFaults, OneFailingChunkFailsTheRangeAndStopsTheRest) {
    TestHttpServer server([](const TestHttpServer::Request& r) {
        if (r.queryValue("start") == "1100")
            return TestHttpServer::Reply::json(
                422,
                R"({"status":"error","errorType":"execution","error":"query processing would load too many samples into memory in query execution"})");
        return TestHttpServer::Reply::json(200, kMatrixBody);
    });
    auto settings = promSettingsFor(server);
    settings.maxPointsPerQuery = 10;
    auto r = PrometheusClient(settings).queryRange("x", 1000, 1990, 10, {}, 1);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "Prometheus at " + server.url("/api/v1/query_range") +
                                     ": execution: query processing would load too many samples into memory in query "
                                     "execution (part 2 of 10, 1100 to 1190)");
    EXPECT_EQ(server.requestCount(), 2u);  // one at a time: nothing is asked after the failure
}

TEST(PrometheusFaults, CancelDuringSlowChunksEndsPromptly) {
    TestHttpServer server([](const TestHttpServer::Request&) {
        TestHttpServer::Reply r = TestHttpServer::Reply::json(200, kMatrixBody);
        r.delayMs = 5000;
        return r;
    });
    auto settings = promSettingsFor(server);
    settings.maxPointsPerQuery = 10;
    std::atomic<bool> cancel{false};
    Progress progress;
    progress.cancelled = [&] { return cancel.load(); };
    const auto began = std::chrono::steady_clock::now();
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        cancel = true;
    });
    auto r = PrometheusClient(settings).queryRange("x", 1000, 1390, 10, progress, 4);
    canceller.join();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "Prometheus at " + server.url("/api/v1/query_range") + ": cancelled");
    EXPECT_LT(promSecondsSince(began), 2.5);  // libcurl polls the cancel at least once a second
    EXPECT_EQ(server.requestCount(), 4u);     // the four in flight; the rest never started
}

}  // namespace
}  // namespace fp8dash
