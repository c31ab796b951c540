#include "server/config.hpp"

#include <sys/stat.h>
#include <toml++/toml.h>

#include <cctype>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace cuzk::server {
namespace {

// Reads one table strictly: each get_* names the key it reads, and finish() rejects any key that
// nothing read (a typo, or an option of another version).
class Table {
 public:
  Table(const toml::table* t, std::string where) : t_(t), where_(std::move(where)) {}

  Status get_string(const char* key, std::string& out) { return get<std::string>(key, out, "a string"); }
  Status get_bool(const char* key, bool& out) { return get<bool>(key, out, "true or false"); }
  template <class U>
  Status get_uint(const char* key, U& out) {
    int64_t v = 0;
    bool found = false;
    CUZK_TRY_STATUS(get<int64_t>(key, v, "an integer", &found));
    if (!found) return {};
    if (v < 0 || uint64_t(v) > uint64_t(std::numeric_limits<U>::max()))
      return make_error(name(key) + " is out of range");
    out = U(v);
    return {};
  }
  // A fraction in [0, 1] (an integer 0 or 1 is taken too).
  Status get_fraction(const char* key, double& out) {
    if (!t_ || !t_->contains(key)) return {};
    seen_.insert(key);
    const auto& node = *t_->get(key);
    std::optional<double> v;
    if (node.is_floating_point()) v = node.value<double>();
    if (node.is_integer()) v = double(*node.value<int64_t>());
    if (!v) return make_error(name(key) + " must be a number");
    if (!(*v >= 0 && *v <= 1)) return make_error(name(key) + " must be between 0 and 1");
    out = *v;
    return {};
  }
  // A size: an integer (bytes) or a string such as "96G".
  Status get_size(const char* key, uint64_t& out) {
    if (!t_ || !t_->contains(key)) return {};
    seen_.insert(key);
    const auto& node = *t_->get(key);
    if (auto i = node.value<int64_t>(); i && node.is_integer()) {
      if (*i < 0) return make_error(name(key) + " is negative");
      out = uint64_t(*i);
      return {};
    }
    if (auto s = node.value<std::string>(); s && node.is_string()) {
      auto v = parse_size(*s);
      if (!v) return make_error(name(key) + ": " + v.message());
      out = *v;
      return {};
    }
    return make_error(name(key) + " must be a byte count or a size such as \"16G\"");
  }
  Status get_strings(const char* key, std::vector<std::string>& out) {
    if (!t_ || !t_->contains(key)) return {};
    seen_.insert(key);
    const auto& node = *t_->get(key);
    if (node.is_string()) {  // a single string is a list of one
      out = {*node.value<std::string>()};
      return {};
    }
    const auto* arr = node.as_array();
    if (!arr) return make_error(name(key) + " must be a string or an array of strings");
    out.clear();
    for (const auto& e : *arr) {
      if (!e.is_string()) return make_error(name(key) + " must hold strings only");
      out.push_back(*e.value<std::string>());
    }
    return {};
  }
  void mark(const char* key) { seen_.insert(key); }
  Status finish() const {
    if (!t_) return {};
    for (const auto& [k, v] : *t_)
      if (!seen_.count(std::string(k.str()))) return make_error("unknown key " + name(std::string(k.str())));
    return {};
  }

 private:
  template <class V>
  Status get(const char* key, V& out, const char* what, bool* found = nullptr) {
    if (!t_ || !t_->contains(key)) return {};
    seen_.insert(key);
    const auto& node = *t_->get(key);
    const bool right = std::is_same_v<V, std::string> ? node.is_string()
                       : std::is_same_v<V, bool>      ? node.is_boolean()
                                                      : node.is_integer();
    if (!right) return make_error(name(key) + " must be " + what);
    out = *node.value<V>();
    if (found) *found = true;
    return {};
  }
  std::string name(const std::string& key) const { return where_ + "." + key; }

  const toml::table* t_;
  std::string where_;
  std::set<std::string> seen_;
};

Status parse_device(const std::string& text, DeviceConfig& d) {
  // INDEX[:VRAM[:WORKERS]]
  std::vector<std::string> parts;
  std::stringstream ss(text);
  for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
  if (parts.empty() || parts.size() > 3)
    return make_error("--device takes INDEX[:VRAM[:WORKERS]], not " + text);
  try {
    size_t used = 0;
    d.index = uint32_t(std::stoul(parts[0], &used));
    if (used != parts[0].size()) throw std::invalid_argument(parts[0]);
    if (parts.size() > 1 && !parts[1].empty()) {
      auto v = parse_size(parts[1]);
      if (!v) return make_error("--device " + text + ": " + v.message());
      d.vram_budget = *v;
    }
    if (parts.size() > 2) {
      d.workers = uint32_t(std::stoul(parts[2], &used));
      if (used != parts[2].size()) throw std::invalid_argument(parts[2]);
    }
  } catch (const std::exception&) {
    return make_error("--device takes INDEX[:VRAM[:WORKERS]], not " + text);
  }
  return {};
}

}  // namespace

Result<uint64_t> parse_size(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0 || i > 19) return make_error("\"" + text + "\" is not a size (e.g. 16G, 512M, 1048576)");
  uint64_t v = std::stoull(text.substr(0, i));
  std::string unit = text.substr(i);
  if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.pop_back();
  if (unit == "i") unit.clear();
  if (unit.size() == 2 && (unit[1] == 'i' || unit[1] == 'I')) unit.pop_back();
  static const std::map<std::string, unsigned> shifts{{"", 0},   {"K", 10}, {"k", 10}, {"M", 20}, {"m", 20},
                                                      {"G", 30}, {"g", 30}, {"T", 40}, {"t", 40}};
  auto it = shifts.find(unit);
  if (it == shifts.end()) return make_error("\"" + text + "\" has an unknown unit (use K, M, G or T)");
  if (it->second && v > (~uint64_t(0) >> it->second)) return make_error("\"" + text + "\" is too large");
  return v << it->second;
}

Status load_config_text(const std::string& text, const std::string& origin, DaemonConfig& c) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << origin << ":" << e.source().begin.line << ":" << e.source().begin.column << ": "
        << e.description();
    return make_error(msg.str());
  }
  for (const auto& [k, v] : root) {
    static const std::set<std::string> tables{"daemon", "engine", "devices", "params", "curio", "testing"};
    if (!tables.count(std::string(k.str())))
      return make_error(origin + ": unknown table or key \"" + std::string(k.str()) + "\"");
  }
  auto table = [&](const char* name) -> Result<const toml::table*> {
    if (!root.contains(name)) return static_cast<const toml::table*>(nullptr);
    if (std::string(name) == "devices") return static_cast<const toml::table*>(nullptr);
    const auto* t = root.get(name)->as_table();
    if (!t) return make_error(origin + ": [" + std::string(name) + "] must be a table");
    return t;
  };

  auto daemon = table("daemon");
  if (!daemon) return daemon.error();
  Table d(*daemon, "daemon");
  CUZK_TRY_STATUS(d.get_strings("listen", c.listen));
  CUZK_TRY_STATUS(d.get_string("http_listen", c.http_listen));
  CUZK_TRY_STATUS(d.get_string("tls_cert", c.tls_cert));
  CUZK_TRY_STATUS(d.get_string("tls_key", c.tls_key));
  CUZK_TRY_STATUS(d.get_string("token", c.token));
  CUZK_TRY_STATUS(d.get_string("token_file", c.token_file));
  CUZK_TRY_STATUS(d.get_string("clients_file", c.clients_file));
  CUZK_TRY_STATUS(d.get_bool("allow_plaintext_tcp", c.allow_plaintext_tcp));
  CUZK_TRY_STATUS(d.get_strings("params_dirs", c.params_dirs));
  CUZK_TRY_STATUS(d.get_strings("input_dirs", c.input_dirs));
  CUZK_TRY_STATUS(d.get_size("max_message_bytes", c.max_message_bytes));
  CUZK_TRY_STATUS(d.get_uint("shutdown_grace_s", c.shutdown_grace_s));
  CUZK_TRY_STATUS(d.get_string("spool_dir", c.spool_dir));
  CUZK_TRY_STATUS(d.get_string("log_level", c.log_level));
  CUZK_TRY_STATUS(d.finish());

  auto engine = table("engine");
  if (!engine) return engine.error();
  Table e(*engine, "engine");
  CUZK_TRY_STATUS(e.get_string("journal", c.journal));
  CUZK_TRY_STATUS(e.get_bool("journal_sync_full", c.journal_sync_full));
  CUZK_TRY_STATUS(e.get_size("host_memory_budget", c.host_memory_budget));
  CUZK_TRY_STATUS(e.get_uint("synthesis_workers", c.synthesis_workers));
  CUZK_TRY_STATUS(e.get_uint("synthesis_threads", c.synthesis_threads));
  CUZK_TRY_STATUS(e.get_uint("synthesis_nice", c.synthesis_nice));
  CUZK_TRY_STATUS(e.get_uint("express_synthesis_workers", c.express_synthesis_workers));
  CUZK_TRY_STATUS(e.get_uint("max_partitions_ahead", c.max_partitions_ahead));
  if (*engine && (*engine)->contains("idle_buffer_sets")) {
    uint32_t idle = 0;
    CUZK_TRY_STATUS(e.get_uint("idle_buffer_sets", idle));
    c.idle_buffer_sets = idle;
  }
  CUZK_TRY_STATUS(e.get_uint("max_attempts", c.max_attempts));
  CUZK_TRY_STATUS(e.get_uint("quarantine_after", c.quarantine_after));
  CUZK_TRY_STATUS(e.get_bool("trusted_params", c.trusted_params));
  CUZK_TRY_STATUS(e.get_uint("result_ttl_s", c.result_ttl_s));
  CUZK_TRY_STATUS(e.get_string("compiled_dir", c.compiled_dir));
  CUZK_TRY_STATUS(e.get_bool("device_witness", c.device_witness));
  CUZK_TRY_STATUS(e.finish());

  // [devices] holds the backend's settings; [[devices.device]] one entry per device.
  if (root.contains("devices")) {
    const auto* t = root.get("devices")->as_table();
    if (!t) return make_error(origin + ": [devices] must be a table");
    Table dv(t, "devices");
    CUZK_TRY_STATUS(dv.get_string("backend", c.backend));
    CUZK_TRY_STATUS(dv.get_uint("cpu_threads_per_worker", c.cpu_threads_per_worker));
    CUZK_TRY_STATUS(dv.get_fraction("shared_bases_fraction", c.shared_bases_fraction));
    CUZK_TRY_STATUS(dv.get_uint("express_workers", c.express_workers));
    CUZK_TRY_STATUS(dv.get_uint("express_max_log_domain", c.express_max_log_domain));
    CUZK_TRY_STATUS(dv.get_bool("blocking_sync", c.blocking_sync));
    CUZK_TRY_STATUS(dv.get_bool("lead_worker", c.lead_worker));
    if (t->contains("device")) {
      const auto* arr = t->get("device")->as_array();
      if (!arr || !arr->is_array_of_tables())
        return make_error(origin + ": devices.device must be an array of tables ([[devices.device]])");
      c.devices.clear();
      size_t n = 0;
      for (const auto& node : *arr) {
        DeviceConfig dc;
        Table one(node.as_table(), "devices.device[" + std::to_string(n++) + "]");
        CUZK_TRY_STATUS(one.get_uint("index", dc.index));
        CUZK_TRY_STATUS(one.get_size("vram_budget", dc.vram_budget));
        CUZK_TRY_STATUS(one.get_uint("workers", dc.workers));
        CUZK_TRY_STATUS(one.finish());
        c.devices.push_back(dc);
      }
      dv.mark("device");
    }
    CUZK_TRY_STATUS(dv.finish());
  }

  auto params = table("params");
  if (!params) return params.error();
  Table p(*params, "params");
  CUZK_TRY_STATUS(p.get_strings("preload", c.preload));
  CUZK_TRY_STATUS(p.finish());

  auto curio = table("curio");
  if (!curio) return curio.error();
  Table cu(*curio, "curio");
  CUZK_TRY_STATUS(cu.get_bool("enabled", c.curio_enabled));
  CUZK_TRY_STATUS(cu.get_string("param_dir", c.curio_param_dir));
  CUZK_TRY_STATUS(cu.get_strings("preload", c.curio_preload));
  CUZK_TRY_STATUS(cu.get_bool("allow_tokenless_tcp", c.curio_allow_tokenless_tcp));
  CUZK_TRY_STATUS(cu.finish());

  auto testing = table("testing");
  if (!testing) return testing.error();
  Table ts(*testing, "testing");
  CUZK_TRY_STATUS(ts.get_uint("device_delay_ms", c.device_delay_ms));
  CUZK_TRY_STATUS(ts.get_string("journal_write_fault_file", c.journal_write_fault_file));
  CUZK_TRY_STATUS(ts.finish());
  return {};
}

Status load_config_file(const std::string& path, DaemonConfig& config) {
  std::ifstream in(path);
  if (!in) return make_error("cannot read the config file " + path);
  std::stringstream text;
  text << in.rdbuf();
  return load_config_text(text.str(), path, config);
}

void add_flags(CLI::App& app, ConfigOverrides& o) {
  app.add_option("--config,-c", o.config_path, "TOML config file (flags override it)");
  app.add_option("--listen", o.listen,
                 "gRPC address: unix:///path or host:port (repeatable; replaces the file's)");
  app.add_option("--http-listen", o.http_listen, "host:port for /metrics /status /healthz (\"\": off)");
  app.add_option("--tls-cert", o.tls_cert, "PEM certificate: serve gRPC over TLS");
  app.add_option("--tls-key", o.tls_key, "PEM private key of --tls-cert");
  app.add_option("--token-file", o.token_file, "File holding the bearer token clients must send");
  app.add_option("--journal", o.journal, "SQLite journal of jobs (\"\": none)");
  app.add_option("--spool-dir", o.spool_dir, "Folder for uploaded witnesses");
  app.add_option("--log-level", o.log_level, "trace, debug, info, warn, error, off");
  app.add_option("--host-memory-budget", o.host_memory_budget,
                 "Host RAM for partitions and parameters (e.g. 96G)");
  app.add_option("--backend", o.backend, "Device backend: cpu (this build)");
  app.add_option("--device", o.devices, "INDEX[:VRAM[:WORKERS]] (repeatable; replaces the file's devices)");
  app.add_option("--synthesis-workers", o.synthesis_workers, "Partitions synthesized at once");
  app.add_option("--synthesis-threads", o.synthesis_threads, "Threads per synthesis");
  app.add_option("--shutdown-grace", o.shutdown_grace_s, "Seconds SIGTERM waits for work in flight");
  app.add_option("--max-message-bytes", o.max_message_bytes, "Largest gRPC message accepted");
  app.add_option("--preload", o.preload, "Parameter file to load at start (repeatable)");
  app.add_option(
      "--set", o.set,
      "table.key=value: any key of the config file, e.g. engine.max_attempts=5 (repeatable; applied "
      "before the other flags)");
  app.add_option("--testing-device-delay-ms", o.device_delay_ms, "Drills only: slow every device call")
      ->group("");  // hidden
}

Status apply_overrides(const ConfigOverrides& o, DaemonConfig& c) {
  for (const auto& kv : o.set) {
    const auto eq = kv.find('='), dot = kv.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot > eq)
      return make_error("--set takes table.key=value, not " + kv);
    const std::string table = kv.substr(0, dot), key = kv.substr(dot + 1, eq - dot - 1),
                      value = kv.substr(eq + 1);
    const std::string as_toml = "[" + table + "]\n" + key + " = " + value + "\n";
    DaemonConfig trial = c;
    if (load_config_text(as_toml, "--set " + kv, trial).ok()) {
      c = std::move(trial);
      continue;
    }
    // Not a TOML value: a bare string (a path, a level), quoted as a TOML literal string.
    if (value.find('\'') != std::string::npos || value.find('\n') != std::string::npos)
      return make_error("--set " + kv + ": not a TOML value");
    CUZK_TRY_STATUS(load_config_text("[" + table + "]\n" + key + " = '" + value + "'\n", "--set " + kv, c));
  }
  if (!o.listen.empty()) c.listen = o.listen;
  if (o.http_listen) c.http_listen = *o.http_listen;
  if (o.tls_cert) c.tls_cert = *o.tls_cert;
  if (o.tls_key) c.tls_key = *o.tls_key;
  if (o.token_file) c.token_file = *o.token_file, c.token.clear();
  if (o.journal) c.journal = *o.journal;
  if (o.spool_dir) c.spool_dir = *o.spool_dir;
  if (o.log_level) c.log_level = *o.log_level;
  if (o.host_memory_budget) {
    auto v = parse_size(*o.host_memory_budget);
    if (!v) return make_error("--host-memory-budget: " + v.message());
    c.host_memory_budget = *v;
  }
  if (o.backend) c.backend = *o.backend;
  if (!o.devices.empty()) {
    c.devices.clear();
    for (const auto& text : o.devices) {
      DeviceConfig d;
      CUZK_TRY_STATUS(parse_device(text, d));
      c.devices.push_back(d);
    }
  }
  if (o.synthesis_workers) c.synthesis_workers = *o.synthesis_workers;
  if (o.synthesis_threads) c.synthesis_threads = *o.synthesis_threads;
  if (o.shutdown_grace_s) c.shutdown_grace_s = *o.shutdown_grace_s;
  if (o.max_message_bytes) c.max_message_bytes = *o.max_message_bytes;
  if (o.device_delay_ms) c.device_delay_ms = *o.device_delay_ms;
  c.preload.insert(c.preload.end(), o.preload.begin(), o.preload.end());
  return {};
}

namespace {

// A secret's file: readable, and a warning when others may read it too.
Result<std::string> read_secret_file(const std::string& path, const char* what,
                                     std::vector<std::string>& warnings) {
  std::ifstream in(path);
  if (!in) return make_error(std::string("cannot read the ") + what + " " + path);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & 077) != 0)
    warnings.push_back(std::string("the ") + what + " " + path + " can be read by other users (mode " +
                       std::to_string((st.st_mode >> 6) & 7) + std::to_string((st.st_mode >> 3) & 7) +
                       std::to_string(st.st_mode & 7) + "): chmod 600 it");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

Status read_tokens(DaemonConfig& c) {
  c.effective_token = c.token;
  if (!c.token_file.empty()) {
    auto text = read_secret_file(c.token_file, "token file", c.warnings);
    if (!text) return text.error();
    c.effective_token = trim(text->substr(0, text->find('\n')));
    if (c.effective_token.empty()) return make_error("the token file " + c.token_file + " is empty");
  }
  c.client_tokens.clear();
  if (!c.effective_token.empty()) c.client_tokens.emplace_back("default", c.effective_token);
  if (c.clients_file.empty()) return {};
  auto text = read_secret_file(c.clients_file, "clients file", c.warnings);
  if (!text) return text.error();
  std::istringstream lines(*text);
  size_t n = 0;
  for (std::string line; std::getline(lines, line);) {
    ++n;
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.find_first_of(" \t");
    const std::string where = c.clients_file + ":" + std::to_string(n);
    if (space == std::string::npos) return make_error(where + ": a line is \"NAME TOKEN\"");
    const std::string name = line.substr(0, space), token = trim(line.substr(space));
    for (char ch : name)
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_' && ch != '.')
        return make_error(where + ": a client name is letters, digits, '-', '_' and '.'");
    for (const auto& [other_name, other_token] : c.client_tokens) {
      if (other_name == name) return make_error(where + ": client " + name + " is listed twice");
      if (other_token == token) return make_error(where + ": client " + name + " shares another's token");
    }
    c.client_tokens.emplace_back(name, token);
  }
  if (c.client_tokens.empty()) return make_error("the clients file " + c.clients_file + " names no client");
  return {};
}

}  // namespace

Status resolve(DaemonConfig& c) {
  if (c.listen.empty()) return make_error("no listen address (daemon.listen or --listen)");
  for (const auto& l : c.listen)
    if (l.empty()) return make_error("an empty listen address");
  if (c.tls_cert.empty() != c.tls_key.empty()) return make_error("TLS needs both tls_cert and tls_key");
  if (!c.token.empty() && !c.token_file.empty()) return make_error("give token or token_file, not both");
  c.warnings.clear();
  CUZK_TRY_STATUS(read_tokens(c));
  if (c.max_message_bytes < 4096 || c.max_message_bytes > (uint64_t(2) << 30) - 1)
    return make_error("max_message_bytes must be between 4 KiB and 2 GiB");
  if (c.devices.empty()) return make_error("no devices configured");
  std::set<uint32_t> seen;
  for (const auto& d : c.devices) {
    if (!seen.insert(d.index).second)
      return make_error("device " + std::to_string(d.index) + " is listed twice");
    if (d.workers == 0) return make_error("device " + std::to_string(d.index) + " has no workers");
  }
  if (c.synthesis_workers == 0) return make_error("synthesis_workers must be at least 1");
  if (c.synthesis_nice > 19) return make_error("synthesis_nice must be between 0 and 19");
  if (c.express_max_log_domain < 1 || c.express_max_log_domain > 32)
    return make_error("express_max_log_domain must be between 1 and 32");
  if (c.max_attempts == 0) return make_error("max_attempts must be at least 1");
  static const std::set<std::string> levels{"trace", "debug", "info", "warn", "error", "critical", "off"};
  if (!levels.count(c.log_level)) return make_error("unknown log level " + c.log_level);
  return {};
}

}  // namespace cuzk::server
