#include "filecoin/formats/json_reader.hpp"

#include <nlohmann/json.hpp>

namespace cuzk::filecoin::json {

std::string Scalar::describe() const {
  switch (type) {
    case Type::null:
      return "null";
    case Type::boolean:
      return b ? "true" : "false";
    case Type::integer:
      return std::to_string(i);
    case Type::unsigned_integer:
      return std::to_string(u);
    case Type::floating:
      return std::string(text);
    case Type::string:
      break;
  }
  std::string out = "\"";
  out += text.size() > 40 ? text.substr(0, 37) : text;
  out += text.size() > 40 ? "...\"" : "\"";
  return out;
}

std::string describe_container(bool is_object) { return is_object ? "an object" : "an array"; }

Status Node::key(std::string_view) { return make_input_error("unexpected object key"); }

Status DomainNode::scalar(const Scalar& value) {
  ++count_;
  if (count_ > 32) return {};  // close() reports the count
  if (value.type == Scalar::Type::unsigned_integer && value.u <= 255) {
    out_[count_ - 1] = uint8_t(value.u);
    return {};
  }
  return make_input_error("expected an integer 0–255, got " + value.describe());
}

Result<std::unique_ptr<Node>> DomainNode::open(bool is_object) {
  ++count_;
  return make_input_error("expected an integer 0–255, got " + describe_container(is_object));
}

Status DomainNode::close() {
  if (count_ == 32) return {};
  return make_input_error("expected 32 integers 0–255, got " + std::to_string(count_));
}

void DomainNode::append_segment(std::string& path) const {
  if (count_) append_index(path, count_ - 1);
}

Status read_u64(uint64_t& out, const Scalar& value) {
  if (value.type == Scalar::Type::unsigned_integer) {
    out = value.u;
    return {};
  }
  return make_input_error("expected an unsigned 64-bit integer, got " + value.describe());
}

Status read_u32(uint32_t& out, const Scalar& value) {
  if (value.type == Scalar::Type::unsigned_integer && value.u <= UINT32_MAX) {
    out = uint32_t(value.u);
    return {};
  }
  return make_input_error("expected an unsigned 32-bit integer, got " + value.describe());
}

Status read_null(const Scalar& value) {
  if (value.type == Scalar::Type::null) return {};
  return make_input_error("expected null, got " + value.describe());
}

Status expect_container(bool is_object, bool want_object) {
  if (is_object == want_object) return {};
  return make_input_error("expected " + describe_container(want_object) + ", got " +
                          describe_container(is_object));
}

Result<std::unique_ptr<Node>> open_domain(Domain& out, bool is_object) {
  if (is_object) return make_input_error("expected an array of 32 integers 0–255, got an object");
  return std::unique_ptr<Node>(new DomainNode(out));
}

Result<std::unique_ptr<Node>> open_domains(std::vector<Domain>& out, bool is_object) {
  CUZK_TRY_STATUS(expect_container(is_object, false));
  return std::unique_ptr<Node>(new ArrayNode<Domain>(out, open_domain, "an array of 32 integers 0–255"));
}

namespace {

// nlohmann's SAX interface over the node stack. Returning false stops the parse.
class Handler {
 public:
  using json = nlohmann::json;
  explicit Handler(const std::function<Result<std::unique_ptr<Node>>(bool)>& open_root)
      : open_root_(open_root) {}

  bool null() { return on_scalar(Scalar{}); }
  bool boolean(bool v) {
    Scalar s;
    s.type = Scalar::Type::boolean;
    s.b = v;
    return on_scalar(s);
  }
  bool number_integer(json::number_integer_t v) {
    Scalar s;
    s.type = Scalar::Type::integer;
    s.i = v;
    return on_scalar(s);
  }
  bool number_unsigned(json::number_unsigned_t v) {
    Scalar s;
    s.type = Scalar::Type::unsigned_integer;
    s.u = v;
    return on_scalar(s);
  }
  bool number_float(json::number_float_t, const json::string_t& literal) {
    Scalar s;
    s.type = Scalar::Type::floating;
    s.text = literal;
    return on_scalar(s);
  }
  bool string(json::string_t& v) {
    Scalar s;
    s.type = Scalar::Type::string;
    s.text = v;
    return on_scalar(s);
  }
  bool binary(json::binary_t&) { return fail(make_input_error("unexpected binary value"), stack_.size()); }
  bool start_object(std::size_t) { return on_open(true); }
  bool start_array(std::size_t) { return on_open(false); }
  bool key(json::string_t& k) { return check(stack_.back()->key(k), stack_.size()); }
  bool end_object() { return on_close(); }
  bool end_array() { return on_close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) {
    // nlohmann's message: "[json.exception.parse_error.101] parse error at line 3, column 5: ...".
    std::string m = ex.what();
    if (const size_t close = m.find("] "); m.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
      m = m.substr(close + 2);
    return fail(make_input_error("JSON " + m), stack_.size());
  }

  const Error* error() const { return failed_ ? &error_ : nullptr; }

 private:
  bool on_scalar(const Scalar& s) {
    if (stack_.empty()) {
      return fail(make_input_error("expected an object or array at the top level, got " + s.describe()), 0);
    }
    return check(stack_.back()->scalar(s), stack_.size());
  }
  bool on_open(bool is_object) {
    Result<std::unique_ptr<Node>> child =
        stack_.empty() ? open_root_(is_object) : stack_.back()->open(is_object);
    if (!child) return fail(child.error(), stack_.size());
    stack_.push_back(std::move(*child));
    return true;
  }
  bool on_close() {
    const bool ok = check(stack_.back()->close(), stack_.size() - 1);
    stack_.pop_back();
    return ok;
  }
  bool check(const Status& s, size_t depth) { return s.ok() || fail(s.error(), depth); }
  // The path of the first `depth` nodes' current members: where the error is.
  bool fail(const Error& e, size_t depth) {
    if (failed_) return false;
    std::string path;
    for (size_t i = 0; i < depth && i < stack_.size(); ++i) stack_[i]->append_segment(path);
    if (!path.empty() && path[0] == '.') path.erase(0, 1);
    error_ = e;
    if (!path.empty()) error_.message = path + ": " + e.message;
    failed_ = true;
    return false;
  }

  const std::function<Result<std::unique_ptr<Node>>(bool)>& open_root_;
  std::vector<std::unique_ptr<Node>> stack_;
  Error error_;
  bool failed_ = false;
};

}  // namespace

Status parse(std::string_view text, const std::string& what,
             const std::function<Result<std::unique_ptr<Node>>(bool is_object)>& open_root) {
  Handler h(open_root);
  const bool ok = nlohmann::json::sax_parse(text, &h, nlohmann::json::input_format_t::json, true, false);
  if (const Error* e = h.error()) return make_input_error(what + ": " + e->message);
  if (!ok) return make_input_error(what + ": invalid JSON");
  return {};
}

}  // namespace cuzk::filecoin::json
