#pragma once
// Result<T>: a value or a user-presentable error. Used at every library boundary and across threads
// (DESIGN.md: exceptions may live inside a library, never cross its edge). Value type; not thread-safe to share.

#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace fp8dash {

// An error a user can read: it names the file, field or URL and says what was wrong.
struct Error {
    std::string message;
};

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_v(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_v(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T& value() const& {
        check();
        return std::get<0>(m_v);
    }
    T& value() & {
        check();
        return std::get<0>(m_v);
    }
    T&& value() && {
        check();
        return std::get<0>(std::move(m_v));
    }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }

    const Error& error() const {
        if (ok()) throw std::logic_error("Result::error() called on a value");
        return std::get<1>(m_v);
    }

private:
    void check() const {
        if (!ok()) throw std::runtime_error(std::get<1>(m_v).message);
    }
    std::variant<T, Error> m_v;
};

// A Result without a value: success, or an Error.
struct Done {};
using Status = Result<Done>;
inline Status success() {
    return Done{};
}

}  // namespace fp8dash
