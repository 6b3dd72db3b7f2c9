// The shapes follow OpenAI's API reference for chat completions and models, and the error bodies OpenAI (and vLLM's
// OpenAI-compatible server) send: {"error": {"message", "type", "param", "code"}}.
#include "openai_test_server.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>
#include <sstream>

namespace fp8dash::test {
namespace {

using Reply = TestHttpServer::Reply;
using json = nlohmann::json;

Reply openAiError(int status, const std::string& message, const std::string& type, json code = nullptr,
                  json param = nullptr) {
    return Reply::json(
        status, json{{"error", {{"message", message}, {"type", type}, {"param", param}, {"code", code}}}}.dump());
}

std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// OpenAI shows a wrong key masked: the first 3 and the last 4 characters.
std::string maskedKey(const std::string& key) {
    if (key.size() <= 8) return std::string(key.size(), '*');
    return key.substr(0, 3) + std::string(key.size() - 7, '*') + key.substr(key.size() - 4);
}

}  // namespace

const std::string& OpenAiTestServer::ChatRequest::lastUserContent() const {
    static const std::string none;
    for (auto it = messages.rbegin(); it != messages.rend(); ++it)
        if (it->role == "user") return it->content;
    return none;
}

OpenAiTestServer::OpenAiTestServer(Answerer answerer) : OpenAiTestServer(std::move(answerer), Options{}) {}

OpenAiTestServer::OpenAiTestServer(Answerer answerer, Options options)
    : m_answerer(std::move(answerer)),
      m_options(std::move(options)),
      m_http([this](const TestHttpServer::Request& r) { return handle(r); }) {}

std::size_t OpenAiTestServer::chatRequestCount() const {
    std::lock_guard lock(m_mutex);
    return static_cast<std::size_t>(m_chatRequests);
}

std::vector<OpenAiTestServer::ChatRequest> OpenAiTestServer::received() const {
    std::lock_guard lock(m_mutex);
    return m_received;
}

std::size_t OpenAiTestServer::receivedCount() const {
    std::lock_guard lock(m_mutex);
    return m_received.size();
}

OpenAiTestServer::Answerer OpenAiTestServer::byPrompt(std::map<std::string, std::string> answers,
                                                      std::string fallback) {
    return [answers = std::move(answers), fallback = std::move(fallback)](const ChatRequest& r) {
        const auto it = answers.find(r.lastUserContent());
        return Answer(it == answers.end() ? fallback : it->second);
    };
}

TestHttpServer::Reply OpenAiTestServer::handle(const TestHttpServer::Request& request) {
    const bool isChat = request.path == "/v1/chat/completions";
    const bool isModels = request.path == "/v1/models" && m_options.modelsRoute;
    if (!isChat && !isModels)
        return openAiError(404, "Invalid URL (" + request.method + " " + request.path + ")", "invalid_request_error");
    if (isChat) {
        std::lock_guard lock(m_mutex);
        ++m_chatRequests;
    }
    if ((isChat && request.method != "POST") || (isModels && request.method != "GET"))
        return openAiError(405, "Method not allowed", "invalid_request_error");

    if (!m_options.apiKey.empty()) {
        const auto auth = request.header("authorization");
        if (!auth || auth->rfind("Bearer ", 0) != 0)
            return openAiError(401,
                               "You didn't provide an API key. You need to provide your API key in an Authorization "
                               "header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
                               "invalid_request_error");
        const std::string given = auth->substr(7);
        if (given != m_options.apiKey)
            return openAiError(401, "Incorrect API key provided: " + maskedKey(given) + ".", "invalid_request_error",
                               "invalid_api_key");
    }

    if (isModels) {
        json data = json::array();
        for (const auto& m : m_options.models)
            data.push_back({{"id", m}, {"object", "model"}, {"created", 1735689600}, {"owned_by", "fp8dash-test"}});
        return Reply::json(200, json{{"object", "list"}, {"data", data}}.dump());
    }
    return chat(request);
}

TestHttpServer::Reply OpenAiTestServer::chat(const TestHttpServer::Request& request) {
    {
        std::lock_guard lock(m_mutex);
        const int n = m_completionCounter++;
        if (n < m_options.rateLimitFirst) {
            Reply r = openAiError(429,
                                  "Rate limit reached for requests. Limit: 3 / min. Please try again in " +
                                      std::to_string(m_options.retryAfterS) + "s.",
                                  "requests", "rate_limit_exceeded");
            r.headers.emplace_back("Retry-After", std::to_string(m_options.retryAfterS));
            return r;
        }
        if (n < m_options.rateLimitFirst + m_options.serverErrorFirst)
            return openAiError(500, "The server had an error while processing your request. Sorry about that!",
                               "server_error");
    }

    const json body = json::parse(request.body, nullptr, false);
    if (body.is_discarded() || !body.is_object())
        return openAiError(400, "We could not parse the JSON body of your request.", "invalid_request_error");
    if (!body.contains("model") || !body["model"].is_string())
        return openAiError(400, "you must provide a model parameter", "invalid_request_error", nullptr, "model");
    ChatRequest req;
    req.model = body["model"].get<std::string>();
    if (!body.contains("messages") || !body["messages"].is_array() || body["messages"].empty())
        return openAiError(400, "'messages' must contain at least one message", "invalid_request_error", nullptr,
                           "messages");
    for (std::size_t i = 0; i < body["messages"].size(); ++i) {
        const json& m = body["messages"][i];
        const std::string where = "messages[" + std::to_string(i) + "]";
        if (!m.is_object() || !m.contains("role") || !m["role"].is_string())
            return openAiError(400, "Missing required parameter: '" + where + ".role'.", "invalid_request_error",
                               nullptr, where + ".role");
        const std::string role = m["role"].get<std::string>();
        if (role != "system" && role != "developer" && role != "user" && role != "assistant")
            return openAiError(400,
                               "Invalid value: '" + role +
                                   "'. Supported values are: 'system', 'developer', "
                                   "'user' and 'assistant'.",
                               "invalid_request_error", "invalid_value", where + ".role");
        if (!m.contains("content") || !m["content"].is_string())
            return openAiError(400, "Invalid type for '" + where + ".content': expected a string.",
                               "invalid_request_error", nullptr, where + ".content");
        req.messages.push_back({role, m["content"].get<std::string>()});
    }
    if (body.contains("temperature")) {
        if (!body["temperature"].is_number() || body["temperature"].get<double>() < 0 ||
            body["temperature"].get<double>() > 2)
            return openAiError(400, "Invalid 'temperature': expected a number between 0 and 2.",
                               "invalid_request_error", "invalid_value", "temperature");
        req.temperature = body["temperature"].get<double>();
    }
    if (body.contains("max_tokens")) {
        if (!body["max_tokens"].is_number_integer() || body["max_tokens"].get<long>() < 1)
            return openAiError(400, "Invalid 'max_tokens': expected an integer of at least 1.", "invalid_request_error",
                               "invalid_value", "max_tokens");
        req.maxTokens = body["max_tokens"].get<long>();
    }
    if (const auto auth = request.header("authorization")) req.authorization = *auth;
    if (std::find(m_options.models.begin(), m_options.models.end(), req.model) == m_options.models.end())
        return openAiError(404, "The model `" + req.model + "` does not exist or you do not have access to it.",
                           "invalid_request_error", "model_not_found");

    int id = 0;
    {
        std::lock_guard lock(m_mutex);
        m_received.push_back(req);
        id = static_cast<int>(m_received.size());
    }
    const Answer answer = m_answerer(req);
    Reply reply;
    reply.delayMs = answer.delayMs;
    if (answer.status != 200) {
        Reply e = openAiError(answer.status, "The server had an error while processing your request.", "server_error");
        e.delayMs = answer.delayMs;
        return e;
    }

    std::vector<std::string> tokens = words(answer.content);
    std::string content = answer.content;
    std::string finish = "stop";
    if (req.maxTokens && tokens.size() > static_cast<std::size_t>(*req.maxTokens)) {
        tokens.resize(static_cast<std::size_t>(*req.maxTokens));
        content.clear();
        for (const auto& w : tokens) content += (content.empty() ? "" : " ") + w;
        finish = "length";
    }
    std::size_t promptTokens = 0;
    for (const auto& m : req.messages) promptTokens += words(m.content).size();
    json out{{"id", "chatcmpl-test" + std::to_string(id)},
             {"object", "chat.completion"},
             {"created", static_cast<long>(std::time(nullptr))},
             {"model", req.model},
             {"choices", json::array({{{"index", 0},
                                       {"message", {{"role", "assistant"}, {"content", content}}},
                                       {"logprobs", nullptr},
                                       {"finish_reason", finish}}})},
             {"usage",
              {{"prompt_tokens", promptTokens},
               {"completion_tokens", tokens.size()},
               {"total_tokens", promptTokens + tokens.size()}}}};
    switch (answer.malformed) {
        case Malformed::None:
            break;
        case Malformed::NotJson: {
            const std::string text = out.dump();
            reply.status = 200;
            reply.body = text.substr(0, text.size() / 2);
            return reply;
        }
        case Malformed::NoChoices:
            out.erase("choices");
            break;
        case Malformed::ContentNotText:
            out["choices"][0]["message"]["content"] = 42;
            break;
        case Malformed::RepeatedKey: {
            // nlohmann keeps no repeated key, so the second "content" goes into the text: the score 5 after the answer.
            std::string text = out.dump();
            const std::string role = "\"role\":\"assistant\"";
            text.insert(text.find(role) + role.size(), ",\"content\":\"5\"");
            reply.status = 200;
            reply.body = text;
            return reply;
        }
    }
    reply.status = 200;
    reply.body = out.dump();
    return reply;
}

}  // namespace fp8dash::test
