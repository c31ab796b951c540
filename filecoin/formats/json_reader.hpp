// Reads JSON straight into typed C++ values from nlohmann-json's SAX events, without building a
// DOM: a 50 MB commit-phase-1 file costs its parsed structures and nothing more.
//
// Each open object or array has a Node that knows the C++ value it fills and what it expects next.
// The reader keeps the stack of open nodes, so that every error names its JSON path
// ("vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs") and a syntax error also its line and
// column. Objects behave like serde's derived Deserialize: every listed field is required, a field
// given twice is an error, unknown fields are skipped.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "filecoin/types/domain.hpp"

namespace cuzk::filecoin::json {

struct Scalar {
  enum class Type { null, boolean, integer, unsigned_integer, floating, string };
  Type type = Type::null;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  std::string_view text;  // the string, or the literal of a floating-point number

  // For messages: `null`, `true`, `-3`, `1.5`, `"abc"` (long strings shortened).
  std::string describe() const;
};

// What a value is, for "expected …, got …" messages.
std::string describe_container(bool is_object);

// Appends "[i]" (built piecewise: GCC 12 warns falsely on "[" + std::to_string(i)).
inline void append_index(std::string& path, size_t i) {
  path += '[';
  path += std::to_string(i);
  path += ']';
}

class Node {
 public:
  virtual ~Node() = default;
  // Objects: the key of the member whose value comes next.
  virtual Status key(std::string_view key);
  // The next member or element is a scalar.
  virtual Status scalar(const Scalar& value) = 0;
  // The next member or element opens an object or an array: the node that reads it.
  virtual Result<std::unique_ptr<Node>> open(bool is_object) = 0;
  // This node's own value ended: check it is complete.
  virtual Status close() = 0;
  // Appends ".key" or "[i]" for the member or element being read; nothing before the first.
  virtual void append_segment(std::string& path) const = 0;
};

// Consumes any value and keeps nothing (unknown fields).
class SkipNode final : public Node {
 public:
  Status key(std::string_view) override { return {}; }
  Status scalar(const Scalar&) override { return {}; }
  Result<std::unique_ptr<Node>> open(bool) override { return std::unique_ptr<Node>(new SkipNode); }
  Status close() override { return {}; }
  void append_segment(std::string&) const override {}
};

// Reads 32 integers 0–255 into a Domain.
class DomainNode final : public Node {
 public:
  explicit DomainNode(Domain& out) : out_(out) {}
  Status scalar(const Scalar& value) override;
  Result<std::unique_ptr<Node>> open(bool is_object) override;
  Status close() override;
  void append_segment(std::string& path) const override;

 private:
  Domain& out_;
  size_t count_ = 0;
};

// The field table of an object read into a T. Each field has exactly one of `scalar` (its value is
// a scalar) or `open` (its value is an object or array).
template <class T>
struct Field {
  std::string_view name;
  Status (*scalar)(T& target, const Scalar& value) = nullptr;
  Result<std::unique_ptr<Node>> (*open)(T& target, bool is_object) = nullptr;
  // For messages about a scalar where `open` expects a container; "an object or array" if unset.
  const char* expected = nullptr;
};

template <class T>
class ObjectNode final : public Node {
 public:
  ObjectNode(T& target, std::span<const Field<T>> fields) : target_(target), fields_(fields) {}

  Status key(std::string_view key) override {
    key_.assign(key);
    current_ = nullptr;
    for (size_t f = 0; f < fields_.size(); ++f) {
      if (fields_[f].name != key) continue;
      if (seen_ & (uint64_t(1) << f)) return make_input_error("duplicate field `" + key_ + "`");
      seen_ |= uint64_t(1) << f;
      current_ = &fields_[f];
    }
    return {};
  }
  Status scalar(const Scalar& value) override {
    if (!current_) return {};  // unknown field, skipped
    if (!current_->scalar)
      return make_input_error("expected " +
                              std::string(current_->expected ? current_->expected : "an object or array") +
                              ", got " + value.describe());
    return current_->scalar(target_, value);
  }
  Result<std::unique_ptr<Node>> open(bool is_object) override {
    if (!current_) return std::unique_ptr<Node>(new SkipNode);
    if (!current_->open)
      return make_input_error("expected a scalar value, got " + describe_container(is_object));
    return current_->open(target_, is_object);
  }
  Status close() override {
    for (size_t f = 0; f < fields_.size(); ++f)
      if (!(seen_ & (uint64_t(1) << f)))
        return make_input_error("missing field `" + std::string(fields_[f].name) + "`");
    return {};
  }
  void append_segment(std::string& path) const override {
    if (!key_.empty()) path += "." + key_;
  }

 private:
  T& target_;
  std::span<const Field<T>> fields_;
  const Field<T>* current_ = nullptr;
  std::string key_;
  uint64_t seen_ = 0;
};

// An array read element by element: `open_element` reads one object/array element into a new
// value at the back of the vector. Elements that are scalars are errors.
template <class E>
class ArrayNode final : public Node {
 public:
  using OpenElement = Result<std::unique_ptr<Node>> (*)(E& element, bool is_object);
  ArrayNode(std::vector<E>& target, OpenElement open_element, const char* element_description)
      : target_(target), open_element_(open_element), element_description_(element_description) {}

  Status scalar(const Scalar& value) override {
    ++count_;
    return make_input_error(std::string("expected ") + element_description_ + ", got " + value.describe());
  }
  Result<std::unique_ptr<Node>> open(bool is_object) override {
    ++count_;
    return open_element_(target_.emplace_back(), is_object);
  }
  Status close() override { return {}; }
  void append_segment(std::string& path) const override {
    if (count_) append_index(path, count_ - 1);
  }

 private:
  std::vector<E>& target_;
  OpenElement open_element_;
  const char* element_description_;
  size_t count_ = 0;
};

// Integer fields.
Status read_u64(uint64_t& out, const Scalar& value);
Status read_u32(uint32_t& out, const Scalar& value);
Status read_null(const Scalar& value);
// A Domain field's value, and arrays of Domains.
Result<std::unique_ptr<Node>> open_domain(Domain& out, bool is_object);
Result<std::unique_ptr<Node>> open_domains(std::vector<Domain>& out, bool is_object);
// An error unless the value opens the expected kind of container.
Status expect_container(bool is_object, bool want_object);

// Parses `text`, one JSON value, whose top level `open_root` reads (a scalar there is an error).
// `what` starts every message (a file path, or "C1 JSON").
Status parse(std::string_view text, const std::string& what,
             const std::function<Result<std::unique_ptr<Node>>(bool is_object)>& open_root);

}  // namespace cuzk::filecoin::json
