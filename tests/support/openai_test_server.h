#pragma once
// A stand-in for an OpenAI-compatible server (vLLM's, OpenAI's) on loopback, following the published API for what
// fp8dash uses: POST /v1/chat/completions ({"model", "messages": [{"role", "content"}], "temperature",
// "max_tokens"} → {"id": "chatcmpl-…", "object": "chat.completion", "created", "model", "choices": [{"index": 0,
// "message": {"role": "assistant", "content"}, "logprobs": null, "finish_reason": "stop"|"length"}], "usage":
// {"prompt_tokens", "completion_tokens", "total_tokens"}}) and GET /v1/models ({"object": "list", "data": [{"id",
// "object": "model", "created", "owned_by"}]}); errors as {"error": {"message", "type", "param", "code"}} (400 invalid
// request, 401 bad key, 404 unknown model or route, 429 rate limit with Retry-After, 500 server error).
// Tokens are counted as whitespace-separated words; max_tokens cuts the answer to that many words ("length").
// Scripted behaviour: the answer for each request comes from a function of the request (fixed answers per prompt, a
// judge that reads the answer it is shown), with per-request faults (slow, malformed, 500); the first N requests can
// be rate-limited or fail with 500. Requests are counted and their Authorization headers recorded.
// Thread-safe like TestHttpServer.

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "test_http_server.h"

namespace fp8dash::test {

class OpenAiTestServer {
public:
    struct Message {
        std::string role;
        std::string content;
    };
    struct ChatRequest {
        std::string model;
        std::vector<Message> messages;
        std::optional<double> temperature;
        std::optional<long> maxTokens;
        std::optional<std::string> authorization;  // the header as sent
        const std::string& lastUserContent() const;
    };

    enum class Malformed {
        None,
        NotJson,         // the body is cut mid-JSON
        NoChoices,       // a JSON object without "choices"
        ContentNotText,  // choices[0].message.content is a number
        RepeatedKey      // choices[0].message holds "content" twice: the answer, then another (issue 26)
    };

    // How one chat request is answered.
    struct Answer {
        Answer() = default;
        Answer(std::string content_) : content(std::move(content_)) {}  // NOLINT: a plain answer reads naturally
        std::string content;
        int delayMs = 0;   // answer this late
        int status = 200;  // e.g. 500: an OpenAI error body with this status
        Malformed malformed = Malformed::None;
    };
    using Answerer = std::function<Answer(const ChatRequest&)>;

    struct Options {
        std::vector<std::string> models{"test-model"};  // GET /v1/models lists these; other names answer 404
        bool modelsRoute = true;  // false: GET /v1/models answers 404 (a server without the listing)
        std::string apiKey;       // when set, requests without "Authorization: Bearer <apiKey>" answer 401
        int rateLimitFirst = 0;   // the first N chat requests answer 429 with Retry-After
        int retryAfterS = 1;
        int serverErrorFirst = 0;  // the next N chat requests answer 500
    };

    explicit OpenAiTestServer(Answerer answerer);
    OpenAiTestServer(Answerer answerer, Options options);

    std::string baseUrl() const { return m_http.baseUrl(); }  // "http://127.0.0.1:PORT" (clients add /v1/...)
    const Options& options() const { return m_options; }

    std::vector<TestHttpServer::Request> requests() const { return m_http.requests(); }  // every request, raw
    std::size_t chatRequestCount() const;       // every POST /v1/chat/completions, refused ones included
    std::vector<ChatRequest> received() const;  // the valid, authorised requests that reached the answerer, in order
    std::size_t receivedCount() const;

    // An answerer giving fixed answers by prompt (the last user message), and `fallback` for other prompts.
    static Answerer byPrompt(std::map<std::string, std::string> answers, std::string fallback = "I do not know.");

private:
    TestHttpServer::Reply handle(const TestHttpServer::Request& request);
    TestHttpServer::Reply chat(const TestHttpServer::Request& request);

    Answerer m_answerer;
    Options m_options;
    mutable std::mutex m_mutex;  // guards the counters and m_received
    int m_chatRequests = 0;
    int m_completionCounter = 0;
    std::vector<ChatRequest> m_received;
    TestHttpServer m_http;  // last: its threads start in its constructor and call handle()
};

}  // namespace fp8dash::test
