// The daemon's HTTP side: GET /metrics (Prometheus text), /status (JSON), /healthz. Read-only and
// unauthenticated: bind it to loopback, or to a network only the monitoring can reach.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "common/result.hpp"
#include "engine/log.hpp"

namespace httplib {
class Server;
}

namespace cuzk::server {

struct HttpHandlers {
  std::function<std::string()> metrics;  // Prometheus text
  std::function<std::string()> status;   // JSON
  // OK: 200 "ok"; an error: 503 with its message (draining, no device in service).
  std::function<Status()> health;
};

class HttpServer {
 public:
  // Listens on "host:port" (port 0: any free one) and serves on its own thread.
  static Result<std::unique_ptr<HttpServer>> start(const std::string& address, HttpHandlers handlers,
                                                   engine::Logger log);
  ~HttpServer();  // stops
  int port() const { return port_; }

 private:
  HttpServer() = default;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace cuzk::server
