// What both gRPC services (service.cpp, curio_service.cpp) do around every handler: the peer's
// name for logs, a handler's exceptions as statuses (never a crash), a log line for a failed call,
// and the slice an engine wait lasts.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <exception>
#include <new>
#include <string>

#include "engine/log.hpp"

namespace cuzk::server {

// How long one engine wait lasts before a wait re-checks its client and the daemon.
inline constexpr std::chrono::milliseconds kWaitSlice{1000};

inline std::string peer_of(const grpc::ServerContext* ctx) { return ctx->peer().empty() ? "-" : ctx->peer(); }

// body()'s status; an exception becomes RESOURCE_EXHAUSTED (out of host memory) or INTERNAL.
template <class F>
grpc::Status run_guarded(F&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return {grpc::StatusCode::RESOURCE_EXHAUSTED, "the daemon is out of host memory for this request"};
  } catch (const std::exception& e) {
    return {grpc::StatusCode::INTERNAL, std::string("internal error: ") + e.what()};
  }
}

// A failed call's log line: at info for the client's faults, at err for the daemon's (INTERNAL).
// `api` names a service other than the daemon's own ("cuzk.v1"), "" for the daemon's.
inline void log_rpc_error(const engine::Logger& log, const std::string& api, const char* method,
                          const grpc::ServerContext* ctx, const grpc::Status& st) {
  if (st.ok()) return;
  const bool client_fault = st.error_code() != grpc::StatusCode::INTERNAL;
  log->log(client_fault ? spdlog::level::info : spdlog::level::err,
           "event=rpc_error {}method={} peer={} code={} error=\"{}\"", api.empty() ? "" : "api=" + api + " ",
           method, peer_of(ctx), int(st.error_code()), st.error_message());
}

}  // namespace cuzk::server
