// Fixtures of the daemon tests: a tiny parameter file, temporary folders, daemon configurations on
// unix sockets, clients, job specs, and a plain HTTP GET on loopback.
#pragma once

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <random>
#include <string>

#include "common/thread_pool.hpp"
#include "groth16/keys.hpp"
#include "groth16/setup.hpp"
#include "io/bellman.hpp"
#include "r1cs/circuits/samples.hpp"
#include "r1cs/matrices.hpp"
#include "server/client/client.hpp"
#include "server/config.hpp"

namespace cuzk::server::testing {

namespace v1 = ::cuzk::v1;

// Generous guards against a hung daemon; never timing assertions.
constexpr auto kGuard = std::chrono::minutes(3);

// The smallest circuit with a real shape (synthetic, domain 2^6, seed fixed: its shape depends on it).
inline r1cs::SampleSpec tiny_spec() {
  r1cs::SampleSpec s;
  s.kind = "synthetic";
  s.log_domain = 6;
  s.seed = 7;
  return s;
}

class TempDir {
 public:
  TempDir() {
    // Short: unix socket paths are limited to 107 bytes.
    path_ = std::filesystem::temp_directory_path() /
            ("cuzkd-" + std::to_string(std::random_device{}() % 100000000));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// A bellman .params file for tiny_spec(), written once per process.
inline std::shared_ptr<const groth16::ProvingKey> tiny_key() {
  static std::mutex mutex;
  static std::shared_ptr<const groth16::ProvingKey> key;
  std::lock_guard lock(mutex);
  if (key) return key;
  auto circuit = r1cs::make_sample_circuit(tiny_spec());
  EXPECT_TRUE(circuit.ok());
  r1cs::RecordingSystem shape(false);
  EXPECT_TRUE((*circuit)->synthesize(shape).ok());
  ThreadPool pool(1);
  auto pk = groth16::generate_parameters(shape.matrices(), {1}, pool);
  EXPECT_TRUE(pk.ok()) << pk.message();
  key = std::make_shared<const groth16::ProvingKey>(std::move(*pk));
  return key;
}

inline std::string write_tiny_params(const TempDir& dir) {
  auto params = to_bellman(*tiny_key());
  EXPECT_TRUE(params.ok()) << params.message();
  const auto path = dir.file("tiny.params");
  EXPECT_TRUE(write_bellman_params(path, *params).ok());
  return path;
}

// A daemon config on a unix socket in `dir`, HTTP on a free loopback port, small budgets.
inline DaemonConfig small_config(const TempDir& dir, const std::string& params) {
  DaemonConfig c;
  c.listen = {"unix://" + dir.file("d.sock")};
  c.http_listen = "127.0.0.1:0";
  c.journal = dir.file("journal.db");
  c.journal_sync_full = false;
  c.host_memory_budget = uint64_t(1) << 30;
  c.devices = {DeviceConfig{0, uint64_t(1) << 30, 1}};
  c.preload = {params};
  c.shutdown_grace_s = 60;
  c.log_level = std::getenv("CUZK_TEST_LOG") ? "info" : "off";
  return c;
}

inline Client client_for(const std::string& address, const std::string& token = "",
                         uint64_t max_message = uint64_t(64) << 20) {
  ClientOptions o;
  o.address = address;
  o.token = token;
  o.max_message_bytes = max_message;
  auto c = connect(o);
  EXPECT_TRUE(c.ok()) << c.message();
  return std::move(*c);
}

inline v1::JobSpec tiny_job(const std::string& params, v1::JobKind kind = v1::JOB_KIND_GENERIC,
                            v1::Priority priority = v1::PRIORITY_DEFAULT, uint32_t partitions = 1) {
  v1::JobSpec spec;
  spec.set_kind(kind);
  spec.set_priority(priority);
  spec.set_params(params);
  const auto s = tiny_spec();
  for (uint32_t i = 0; i < partitions; ++i) {
    auto* p = spec.add_partitions()->mutable_sample();
    p->set_kind(s.kind);
    p->set_log_domain(s.log_domain);
    p->set_seed(s.seed);
  }
  return spec;
}

// GET http://127.0.0.1:port/path; returns "STATUS\nBODY" (or "" when the connection fails).
inline std::string http_get(int port, const std::string& path) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return "";
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(uint16_t(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{30, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return "";
  }
  const std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  (void)!::write(fd, req.data(), req.size());
  std::string resp;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof(buf))) > 0;) resp.append(buf, size_t(n));
  ::close(fd);
  const auto sp = resp.find(' ');
  const auto body = resp.find("\r\n\r\n");
  if (sp == std::string::npos || body == std::string::npos) return "";
  return resp.substr(sp + 1, 3) + "\n" + resp.substr(body + 4);
}

}  // namespace cuzk::server::testing
