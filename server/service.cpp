#include "server/service.hpp"

#include <algorithm>
#include <filesystem>

#include "server/auth.hpp"
#include "server/client/convert.hpp"
#include "server/request.hpp"
#include "server/rpc_frame.hpp"

namespace cuzk::server {
namespace {

using Clock = std::chrono::steady_clock;
using grpc::StatusCode;

// Engine submit errors are about the request, except these, which are about the daemon.
grpc::Status submit_error(const std::string& message) {
  if (message.find("no device is in service") != std::string::npos) return {StatusCode::UNAVAILABLE, message};
  if (message.find("journal") != std::string::npos) return {StatusCode::UNAVAILABLE, message};
  if (message.find("host budget") != std::string::npos) return {StatusCode::RESOURCE_EXHAUSTED, message};
  return {StatusCode::INVALID_ARGUMENT, message};
}

}  // namespace

ProverService::ProverService(engine::Engine& engine, Metrics& metrics, Spool& spool, ServiceState& state,
                             ServicePolicy policy, engine::Logger log)
    : engine_(engine),
      metrics_(metrics),
      spool_(spool),
      state_(state),
      policy_(std::move(policy)),
      log_(std::move(log)) {}

// The frame of every call: authentication, exceptions turned into errors, metrics, a log line for
// failures.
template <class F>
grpc::Status ProverService::call(const char* method, grpc::ServerContext* ctx, F&& body) {
  std::string client;
  grpc::Status st = authenticate(*ctx, policy_.tokens, client);
  if (st.ok()) st = run_guarded([&]() -> grpc::Status { return body(client); });
  metrics_.on_rpc(method, int(st.error_code()));
  log_rpc_error(log_, "", method, ctx, st);
  return st;
}

// A set the daemon has, or a regular file under its parameter folders (then named by its canonical
// path); nothing else on the daemon's host is opened for a client.
grpc::Status ProverService::check_params(std::string& name) {
  for (const auto& p : engine_.status().params)
    if (p.name == name) return grpc::Status::OK;
  auto path = policy_.params.check(name);
  if (!path) return {StatusCode::INVALID_ARGUMENT, "unknown parameter set: " + path.message()};
  name = *path;
  return grpc::Status::OK;
}

grpc::Status ProverService::submit(grpc::ServerContext* ctx, const std::string& client,
                                   const v1::JobSpec& spec, engine::JobId& id) {
  if (state_.draining)
    return {StatusCode::UNAVAILABLE, "the daemon is shutting down and accepts no new jobs"};
  auto upload = spool_.begin();
  auto request = request_from_proto(spec, upload, policy_.inputs);
  if (!request) return {StatusCode::INVALID_ARGUMENT, request.message()};
  if (request->client.empty()) request->client = client.empty() ? peer_of(ctx) : client;
  request->owner = client;
  // A Filecoin request is checked now and names its parameter file (by official name) when the
  // client gave none.
  if (auto fc = engine::expand_filecoin_request(*request); !fc)
    return {StatusCode::INVALID_ARGUMENT, fc.message()};
  if (auto st = check_params(request->params); !st.ok()) return st;
  const auto kind = request->kind;
  auto result = engine_.submit(std::move(*request));
  if (!result) return submit_error(result.message());
  id = *result;
  spool_.bind(upload, id);
  auto prio = priority_from_proto(spec.priority());
  metrics_.on_submitted(kind, prio.ok() && *prio ? **prio : engine::default_priority(kind));
  return grpc::Status::OK;
}

grpc::Status ProverService::wait(grpc::ServerContext* ctx, engine::JobId id,
                                 std::chrono::milliseconds timeout, v1::JobResult* resp) {
  const auto until = Clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    auto r = engine_.await(id, std::clamp(left, std::chrono::milliseconds(0), kWaitSlice));
    if (!r) return {StatusCode::NOT_FOUND, r.message()};
    if (r->id != id) return {StatusCode::INTERNAL, "the engine answered for another job"};
    const bool over =
        engine::is_terminal(r->state) || left <= kWaitSlice || ctx->IsCancelled() || state_.stopping;
    if (over) {
      metrics_.on_result(*r);
      result_to_proto(*r, resp);
      if (state_.unverified_proofs && resp->state() == v1::JOB_STATE_DONE) {
        resp->set_state(v1::JOB_STATE_FAILED);
        resp->set_error(kBenchmarkProofsNotValid);
      }
      return grpc::Status::OK;
    }
  }
}

grpc::Status ProverService::Submit(grpc::ServerContext* ctx, const v1::SubmitRequest* req,
                                   v1::SubmitResponse* resp) {
  return call("Submit", ctx, [&](const std::string& client) {
    engine::JobId id = 0;
    auto st = submit(ctx, client, req->job(), id);
    if (st.ok()) resp->set_job_id(id);
    return st;
  });
}

grpc::Status ProverService::Await(grpc::ServerContext* ctx, const v1::AwaitRequest* req,
                                  v1::JobResult* resp) {
  return call("Await", ctx, [&](const std::string& client) {
    if (req->job_id() == 0) return grpc::Status(StatusCode::INVALID_ARGUMENT, "job_id 0 is never a job");
    if (auto st = engine_.check_owner(req->job_id(), client); !st)
      return grpc::Status(StatusCode::NOT_FOUND, st.message());
    return wait(ctx, req->job_id(),
                std::chrono::milliseconds(std::min<uint64_t>(req->timeout_ms(), INT64_MAX / 2)), resp);
  });
}

grpc::Status ProverService::Prove(grpc::ServerContext* ctx, const v1::ProveRequest* req,
                                  v1::JobResult* resp) {
  return call("Prove", ctx, [&](const std::string& client) {
    engine::JobId id = 0;
    if (auto st = submit(ctx, client, req->job(), id); !st.ok()) return st;
    // No timeout: as long as the call's deadline allows (a client without one waits for good).
    auto timeout = std::chrono::milliseconds(std::min<uint64_t>(req->timeout_ms(), INT64_MAX / 2));
    if (req->timeout_ms() == 0) {
      const auto deadline = ctx->deadline();
      const auto now = std::chrono::system_clock::now();
      timeout = deadline > now + std::chrono::hours(24 * 365)
                    ? std::chrono::hours(24 * 365)
                    : std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    }
    return wait(ctx, id, timeout, resp);
  });
}

grpc::Status ProverService::Cancel(grpc::ServerContext* ctx, const v1::CancelRequest* req,
                                   v1::CancelResponse*) {
  return call("Cancel", ctx, [&](const std::string& client) {
    if (auto owned = engine_.check_owner(req->job_id(), client); !owned)
      return grpc::Status(StatusCode::NOT_FOUND, owned.message());
    auto st = engine_.cancel(req->job_id());
    if (st) return grpc::Status::OK;
    const bool unknown = st.message().find("unknown") != std::string::npos;
    return grpc::Status(unknown ? StatusCode::NOT_FOUND : StatusCode::FAILED_PRECONDITION, st.message());
  });
}

grpc::Status ProverService::Status(grpc::ServerContext* ctx, const v1::StatusRequest*,
                                   v1::StatusResponse* resp) {
  return call("Status", ctx, [&](const std::string&) {
    const auto s = engine_.status();
    resp->set_queued_low(s.queued_jobs[0]);
    resp->set_queued_normal(s.queued_jobs[1]);
    resp->set_queued_high(s.queued_jobs[2]);
    resp->set_queued_critical(s.queued_jobs[3]);
    resp->set_running_jobs(s.running_jobs);
    resp->set_jobs_done(s.jobs_done);
    resp->set_jobs_failed(s.jobs_failed);
    resp->set_jobs_cancelled(s.jobs_cancelled);
    resp->set_draining(state_.draining);
    resp->set_json(engine::status_to_json(s));
    return grpc::Status::OK;
  });
}

grpc::Status ProverService::PreloadParams(grpc::ServerContext* ctx, const v1::ParamsRequest* req,
                                          v1::ParamsResponse*) {
  return call("PreloadParams", ctx, [&](const std::string&) {
    if (req->name().empty()) return grpc::Status(StatusCode::INVALID_ARGUMENT, "no parameter set named");
    std::string name = req->name();
    if (auto checked = check_params(name); !checked.ok()) return checked;
    auto st = engine_.preload_params(name);
    if (!st) return grpc::Status(StatusCode::INVALID_ARGUMENT, st.message());
    log_->info("event=params_preloaded name={} peer={}", req->name(), peer_of(ctx));
    return grpc::Status::OK;
  });
}

grpc::Status ProverService::EvictParams(grpc::ServerContext* ctx, const v1::ParamsRequest* req,
                                        v1::ParamsResponse*) {
  return call("EvictParams", ctx, [&](const std::string&) {
    if (req->name().empty()) return grpc::Status(StatusCode::INVALID_ARGUMENT, "no parameter set named");
    auto st = engine_.evict_params(req->name());
    if (!st) return grpc::Status(StatusCode::FAILED_PRECONDITION, st.message());
    log_->info("event=params_evicted name={} peer={}", req->name(), peer_of(ctx));
    return grpc::Status::OK;
  });
}

}  // namespace cuzk::server
