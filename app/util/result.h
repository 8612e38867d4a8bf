// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace facet {

// Result-or-error for I/O (std::expected is C++23): the error is a message a user can act on,
// naming the file, the variable, what was expected and what was found.
struct Error {
    QString message;
};

template <class T> class Result {
public:
    Result(T value)
        : m_value(std::move(value))
    {
    }
    Result(Error error)
        : m_value(std::move(error))
    {
    }

    bool ok() const { return std::holds_alternative<T>(m_value); }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<T>(m_value); }
    const T& value() const { return std::get<T>(m_value); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const QString& error() const { return std::get<Error>(m_value).message; }

private:
    std::variant<T, Error> m_value;
};

} // namespace facet
