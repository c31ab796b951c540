// Errors are values: every fallible operation of cuzk returns Result<T> (or Status), carrying a
// message written for the person who will read it. Nothing in the library throws across its API,
// aborts or exits on bad input or a failing device.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace cuzk {

struct Error {
  std::string message;
  // The input is at fault (a witness that does not satisfy its constraints, say), not the machine
  // that ran it: trying again elsewhere cannot help, and no device is to blame.
  bool bad_input = false;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }
  const std::string& message() const { return error().message; }

 private:
  std::variant<T, Error> v_;
};

// Result<void>.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : err_(std::move(error)), ok_(false) {}  // NOLINT(google-explicit-constructor)
  static Status Ok() { return {}; }
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return err_; }
  const std::string& message() const { return err_.message; }

 private:
  Error err_;
  bool ok_ = true;
};

inline Error make_error(std::string message) { return Error{std::move(message)}; }
inline Error make_input_error(std::string message) { return Error{std::move(message), true}; }
// The same error with `context` before its message; bad input stays bad input.
inline Error in_context(std::string context, const Error& e) {
  return Error{std::move(context) + e.message, e.bad_input};
}

}  // namespace cuzk

// Propagate an error from an expression yielding Status or Result<T>.
#define CUZK_TRY_STATUS(expr)                          \
  do {                                                 \
    auto cuzk_try_s_ = (expr);                         \
    if (!cuzk_try_s_.ok()) return cuzk_try_s_.error(); \
  } while (0)
