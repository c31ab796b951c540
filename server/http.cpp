#include "server/http.hpp"

#include <httplib.h>

#include <chrono>

namespace cuzk::server {

Result<std::unique_ptr<HttpServer>> HttpServer::start(const std::string& address, HttpHandlers h,
                                                      engine::Logger log) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos) return make_error("http_listen must be host:port, not " + address);
  std::string host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  int port = 0;
  try {
    size_t used = 0;
    port = std::stoi(address.substr(colon + 1), &used);
    if (used != address.size() - colon - 1 || port < 0 || port > 65535) throw std::out_of_range("port");
  } catch (const std::exception&) {
    return make_error("http_listen has no valid port: " + address);
  }

  std::unique_ptr<HttpServer> s(new HttpServer());
  s->server_ = std::make_unique<httplib::Server>();
  auto& srv = *s->server_;
  // A handler that throws must not take the daemon down: httplib answers 500.
  srv.set_exception_handler(
      [log](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unknown";
        try {
          if (ep) std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        log->error("event=http_error path={} error=\"{}\"", req.path, what);
        res.status = 500;
        res.set_content("internal error\n", "text/plain");
      });
  srv.Get("/metrics", [h](const httplib::Request&, httplib::Response& res) {
    res.set_content(h.metrics(), "text/plain; version=0.0.4; charset=utf-8");
  });
  srv.Get("/status", [h](const httplib::Request&, httplib::Response& res) {
    res.set_content(h.status(), "application/json");
  });
  srv.Get("/healthz", [h](const httplib::Request&, httplib::Response& res) {
    const auto st = h.health();
    res.status = st ? 200 : 503;
    res.set_content(st ? "ok\n" : st.message() + "\n", "text/plain");
  });

  if (port == 0) {
    port = srv.bind_to_any_port(host);
    if (port < 0) return make_error("cannot listen for HTTP on " + address);
  } else if (!srv.bind_to_port(host, port)) {
    return make_error("cannot listen for HTTP on " + address + " (in use, or not an address of this host)");
  }
  s->port_ = port;
  s->thread_ = std::thread([&srv] { srv.listen_after_bind(); });
  // stop() is a no-op until the loop runs; a stop right after the start must not be lost.
  for (int i = 0; i < 10000 && !srv.is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  log->info("event=http_listening address={}:{}", host, port);
  return s;
}

HttpServer::~HttpServer() {
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace cuzk::server
