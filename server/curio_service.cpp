#include "server/curio_service.hpp"

#include <grpcpp/impl/rpc_service_method.h>
#include <grpcpp/support/method_handler.h>

#include <algorithm>
#include <array>
#include <cstdio>

#include "engine/filecoin_input.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "filecoin/types/parameter_files.hpp"
#include "server/rpc_frame.hpp"

namespace cuzk::server::curio {
namespace {

using Clock = std::chrono::steady_clock;
using grpc::StatusCode;
namespace fc = ::cuzk::filecoin;

// The longest error message a status carries (the rest is cut).
constexpr size_t kMaxMessage = 1024;

bool over_tcp(const grpc::ServerContext* ctx) {
  const std::string peer = ctx->peer();
  return peer.rfind("ipv4:", 0) == 0 || peer.rfind("ipv6:", 0) == 0;
}

// Engine submit errors are about the request, except these, which are about the daemon.
grpc::Status submit_error(const Error& error) {
  const std::string& m = error.message;
  if (!error.bad_input) {
    if (m.find("no device is in service") != std::string::npos) return {StatusCode::UNAVAILABLE, m};
    if (m.find("journal") != std::string::npos) return {StatusCode::UNAVAILABLE, m};
    if (m.find("host budget") != std::string::npos) return {StatusCode::RESOURCE_EXHAUSTED, m};
  }
  return {StatusCode::INVALID_ARGUMENT, m};
}

// The vanilla bytes parsed and checked (the engine keeps the result for its submit: the work is
// done once), then the parameter file: a bad input is INVALID_ARGUMENT whether or not the
// parameters are there.
grpc::Status check_input(const Converted& c) {
  const auto& input = std::get<engine::FilecoinInput>(c.job.partitions.at(0));
  if (auto prepared = input.request->prepared(); !prepared)
    return {StatusCode::INVALID_ARGUMENT, prepared.message()};
  if (!c.params_error.empty()) return {StatusCode::FAILED_PRECONDITION, c.params_error};
  return grpc::Status::OK;
}

// Releases a claimed request_id unless its job was bound.
class ClaimGuard {
 public:
  ClaimGuard(CurioJobs& jobs, const std::string& client, const std::string& id)
      : jobs_(jobs), client_(client), id_(id) {}
  ~ClaimGuard() {
    if (!bound_) jobs_.release(client_, id_);
  }
  Status bind(engine::JobId job, engine::JobKind kind) {
    auto st = jobs_.bind(client_, id_, job, kind);
    bound_ = st.ok();
    return st;
  }

 private:
  CurioJobs& jobs_;
  const std::string& client_;
  const std::string& id_;
  bool bound_ = false;
};

constexpr std::array<uint64_t, 5> kSectorSizes{2048, uint64_t(8) << 20, uint64_t(512) << 20,
                                               uint64_t(32) << 30, uint64_t(64) << 30};
constexpr std::array<fc::CircuitKind, 4> kCircuitKinds{fc::CircuitKind::porep, fc::CircuitKind::winning_post,
                                                       fc::CircuitKind::window_post, fc::CircuitKind::update};

}  // namespace

template <class Req, class Resp>
void CurioService::add_method(const char* path, grpc::Status (CurioService::*handler)(grpc::ServerContext*,
                                                                                      const Req*, Resp*)) {
  // What protoc's service code does for each method, under the path of cuzk.v1.
  AddMethod(new grpc::internal::RpcServiceMethod(
      path, grpc::internal::RpcMethod::NORMAL_RPC,
      new grpc::internal::RpcMethodHandler<CurioService, Req, Resp, grpc::protobuf::MessageLite,
                                           grpc::protobuf::MessageLite>(
          [handler](CurioService* self, grpc::ServerContext* ctx, const Req* req, Resp* resp) {
            return (self->*handler)(ctx, req, resp);
          },
          this)));
}

CurioService::CurioService(engine::Engine& engine, Metrics& metrics, ServiceState& state, CurioJobs& jobs,
                           CurioOptions options, engine::Logger log)
    : engine_(engine),
      metrics_(metrics),
      state_(state),
      jobs_(jobs),
      options_(std::move(options)),
      log_(log) {
  add_method("/cuzk.v1.ProvingEngine/SubmitProof", &CurioService::SubmitProof);
  add_method("/cuzk.v1.ProvingEngine/AwaitProof", &CurioService::AwaitProof);
  add_method("/cuzk.v1.ProvingEngine/Prove", &CurioService::Prove);
  add_method("/cuzk.v1.ProvingEngine/CancelProof", &CurioService::CancelProof);
  add_method("/cuzk.v1.ProvingEngine/GetStatus", &CurioService::GetStatus);
  add_method("/cuzk.v1.ProvingEngine/GetMetrics", &CurioService::GetMetrics);
  add_method("/cuzk.v1.ProvingEngine/PreloadSRS", &CurioService::PreloadSRS);
  add_method("/cuzk.v1.ProvingEngine/EvictSRS", &CurioService::EvictSRS);
}

// The frame of every call: authentication (the daemon's tokens; TCP without any only where the
// config allows), exceptions turned into errors, metrics, a log line for failures.
template <class F>
grpc::Status CurioService::call(const char* method, grpc::ServerContext* ctx, F&& body) {
  std::string client;
  grpc::Status st = authenticate(*ctx, options_.tokens, client);
  if (st.ok() && options_.tokens.empty() && !options_.allow_tokenless_tcp && over_tcp(ctx))
    st = {StatusCode::UNAUTHENTICATED,
          "cuzk.v1 over TCP needs a token (daemon.token_file or clients_file), or curio.allow_tokenless_tcp "
          "= true on a network you trust; a unix socket needs neither"};
  if (st.ok()) st = run_guarded([&]() -> grpc::Status { return body(client); });
  // A parser's message may quote the input; a status travels in HTTP/2 trailers, which a client
  // refuses beyond a few KiB.
  if (st.error_message().size() > kMaxMessage)
    st = grpc::Status(st.error_code(), st.error_message().substr(0, kMaxMessage) + " [...]");
  metrics_.on_rpc(std::string("cuzk.v1.") + method, int(st.error_code()));
  log_rpc_error(log_, "cuzk.v1", method, ctx, st);
  return st;
}

grpc::Status CurioService::submit(grpc::ServerContext* ctx, const std::string& client,
                                  pb::SubmitProofRequest& req, engine::JobId& id, std::string& job_id,
                                  engine::Priority& priority_out) {
  if (state_.draining)
    return {StatusCode::UNAVAILABLE, "the daemon is shutting down and accepts no new jobs"};
  Converted converted;
  if (auto st = job_from_submit(req, options_.param_dir, converted); !st.ok()) return st;
  // A set held in memory under the file's name stands for the file (cuzkd-bench's fake keys; cuzkd
  // itself holds none).
  if (!converted.params_error.empty())
    for (const auto& p : engine_.status().params)
      if (p.registered && p.name == converted.job.params) converted.params_error.clear();
  const engine::JobKind kind = converted.job.kind;
  const engine::Priority priority = *converted.job.priority;
  priority_out = priority;
  converted.job.client = client.empty() ? peer_of(ctx) : client;
  converted.job.owner = client;

  if (req.request_id().empty()) {  // no idempotency asked for: a job of its own name
    if (auto st = check_input(converted); !st.ok()) return st;
    auto submitted = engine_.submit(std::move(converted.job));
    if (!submitted) return submit_error(submitted.error());
    id = *submitted;
    char name[32];
    std::snprintf(name, sizeof name, "cuzk-%016llx", static_cast<unsigned long long>(id));
    job_id = name;
    engine::JobId same = id;
    if (jobs_.claim(client, job_id, converted.fingerprint, same) == CurioJobs::Claim::claimed) {
      ClaimGuard guard(jobs_, client, job_id);
      if (auto st = guard.bind(id, kind); !st) return unjournaled(id, job_id, st);
    }
    metrics_.on_submitted(kind, priority);
    return grpc::Status::OK;
  }

  job_id = req.request_id();
  for (;;) {
    engine::JobId existing = 0;
    const auto claim = jobs_.claim(client, job_id, converted.fingerprint, existing);
    if (claim == CurioJobs::Claim::conflict)
      return {StatusCode::ALREADY_EXISTS,
              "request_id \"" + job_id + "\" names a job of a different request (queued, running or done)"};
    if (claim == CurioJobs::Claim::claimed) break;
    if (engine_.check_owner(existing, client)) {
      id = existing;
      log_->info("event=request_id_repeated api=cuzk.v1 request_id={} job={} peer={}", job_id, id,
                 peer_of(ctx));
      return grpc::Status::OK;
    }
    jobs_.forget(client, job_id);  // its result expired: the id is free
  }
  ClaimGuard guard(jobs_, client, job_id);
  if (auto st = check_input(converted); !st.ok()) return st;
  auto submitted = engine_.submit(std::move(converted.job));
  if (!submitted) return submit_error(submitted.error());
  id = *submitted;
  if (auto st = guard.bind(id, kind); !st) return unjournaled(id, job_id, st);
  metrics_.on_submitted(kind, priority);
  return grpc::Status::OK;
}

// A job whose request id cannot be journaled is cancelled: after a restart nobody could ask for it.
grpc::Status CurioService::unjournaled(engine::JobId id, const std::string& job_id, const Status& why) {
  (void)engine_.cancel(id);
  log_->error("event=request_id_journal_failed api=cuzk.v1 request_id={} job={} error=\"{}\"", job_id, id,
              why.message());
  return {StatusCode::UNAVAILABLE, "cannot journal request_id \"" + job_id + "\" (" + why.message() +
                                       "); the job was not taken, retry later"};
}

grpc::Status CurioService::wait(grpc::ServerContext* ctx, const std::string& client, engine::JobId id,
                                const std::string& job_id, std::optional<std::chrono::milliseconds> timeout,
                                pb::AwaitProofResponse* resp) {
  const auto until = timeout ? Clock::now() + *timeout : Clock::time_point::max();
  for (;;) {
    const auto left =
        timeout ? std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()) : kWaitSlice;
    auto r = engine_.await(id, std::clamp(left, std::chrono::milliseconds(0), kWaitSlice));
    if (!r) {
      jobs_.forget(client, job_id);
      return {StatusCode::NOT_FOUND, "job " + job_id + ": " + r.message()};
    }
    if (engine::is_terminal(r->state) || (timeout && left <= kWaitSlice)) {
      if (engine::is_terminal(r->state)) {
        metrics_.on_result(*r);
        jobs_.on_result(id, r->state);
      }
      result_to_proto(*r, job_id, resp);
      if (state_.unverified_proofs && resp->status() == pb::AwaitProofResponse::COMPLETED) {
        resp->set_status(pb::AwaitProofResponse::FAILED);
        resp->set_error_message(kBenchmarkProofsNotValid);
      }
      return grpc::Status::OK;
    }
    if (ctx->IsCancelled()) return {StatusCode::CANCELLED, "the call ended before job " + job_id + " did"};
    if (state_.stopping)
      return {StatusCode::UNAVAILABLE, "the daemon is shutting down; job " + job_id +
                                           " stays in its journal and resumes at the next start"};
  }
}

grpc::Status CurioService::SubmitProof(grpc::ServerContext* ctx, const pb::SubmitProofRequest* req,
                                       pb::SubmitProofResponse* resp) {
  return call("SubmitProof", ctx, [&](const std::string& client) {
    // The request is the call's own message, read once: its vanilla bytes move into the job
    // instead of being copied (tens of MB for a 32 GiB PoRep).
    auto& request = const_cast<pb::SubmitProofRequest&>(*req);
    engine::JobId id = 0;
    std::string job_id;
    engine::Priority priority{};
    auto st = submit(ctx, client, request, id, job_id, priority);
    if (!st.ok()) return st;
    resp->set_job_id(job_id);
    // Unfinished jobs of its priority or higher, itself included.
    const auto s = engine_.status();
    uint32_t position = 0;
    for (size_t p = size_t(priority); p < s.queued_jobs.size(); ++p) position += s.queued_jobs[p];
    resp->set_queue_position(position);
    return st;
  });
}

grpc::Status CurioService::AwaitProof(grpc::ServerContext* ctx, const pb::AwaitProofRequest* req,
                                      pb::AwaitProofResponse* resp) {
  return call("AwaitProof", ctx, [&](const std::string& client) {
    if (req->job_id().empty()) return grpc::Status(StatusCode::INVALID_ARGUMENT, "job_id is empty");
    auto id = jobs_.find(client, req->job_id());
    if (!id) return grpc::Status(StatusCode::NOT_FOUND, "no job " + req->job_id() + " (of this client)");
    std::optional<std::chrono::milliseconds> timeout;
    if (req->timeout_ms() != 0)
      timeout = std::chrono::milliseconds(std::min<uint64_t>(req->timeout_ms(), INT64_MAX / 2));
    return wait(ctx, client, *id, req->job_id(), timeout, resp);
  });
}

grpc::Status CurioService::Prove(grpc::ServerContext* ctx, const pb::ProveRequest* req,
                                 pb::ProveResponse* resp) {
  return call("Prove", ctx, [&](const std::string& client) {
    if (!req->has_submit()) return grpc::Status(StatusCode::INVALID_ARGUMENT, "submit is not set");
    auto& request = const_cast<pb::ProveRequest&>(*req);  // moved from, as in SubmitProof
    engine::JobId id = 0;
    std::string job_id;
    engine::Priority priority{};
    if (auto st = submit(ctx, client, *request.mutable_submit(), id, job_id, priority); !st.ok()) return st;
    return wait(ctx, client, id, job_id, std::nullopt, resp->mutable_result());
  });
}

grpc::Status CurioService::CancelProof(grpc::ServerContext* ctx, const pb::CancelProofRequest* req,
                                       pb::CancelProofResponse* resp) {
  return call("CancelProof", ctx, [&](const std::string& client) {
    auto id = jobs_.find(client, req->job_id());
    if (!id) return grpc::Status(StatusCode::NOT_FOUND, "no job " + req->job_id() + " (of this client)");
    const bool running = jobs_.is_running(*id);
    auto st = engine_.cancel(*id);
    if (!st) {
      const bool unknown = st.message().find("unknown") != std::string::npos;
      return grpc::Status(unknown ? StatusCode::NOT_FOUND : StatusCode::FAILED_PRECONDITION, st.message());
    }
    resp->set_was_running(running);
    log_->info("event=job_cancelled api=cuzk.v1 job_id={} peer={}", req->job_id(), peer_of(ctx));
    return grpc::Status::OK;
  });
}

grpc::Status CurioService::GetStatus(grpc::ServerContext* ctx, const pb::GetStatusRequest*,
                                     pb::GetStatusResponse* resp) {
  return call("GetStatus", ctx, [&](const std::string&) {
    const auto s = engine_.status();
    for (const auto& d : s.devices) {
      auto* g = resp->add_gpus();
      g->set_ordinal(d.index);
      g->set_name(options_.device_name + ":" + std::to_string(d.index) +
                  (d.quarantined ? " (quarantined)" : ""));
      g->set_vram_total_bytes(d.memory_budget);
      g->set_vram_free_bytes(d.memory_budget > d.memory_reserved ? d.memory_budget - d.memory_reserved : 0);
      if (auto job = jobs_.on_device(d.index)) {
        g->set_current_job_id(job->first);
        g->set_current_proof_kind(kind_name(job->second));
      }
    }
    for (const auto& p : s.params) {
      auto* srs = resp->add_loaded_srs();
      srs->set_circuit_id(circuit_id_of(p.name));
      srs->set_tier(p.loading ? pb::SRSStatus::WARM : pb::SRSStatus::HOT);
      srs->set_size_bytes(p.host_bytes);
      srs->set_ref_count(p.leases);
    }
    for (const auto& [kind, counts] : jobs_.queues()) {
      auto* q = resp->add_queues();
      q->set_proof_kind(kind_name(kind));
      q->set_pending(counts.pending);
      q->set_in_progress(counts.in_progress);
    }
    resp->set_total_proofs_completed(s.jobs_done);
    resp->set_total_proofs_failed(s.jobs_failed);
    resp->set_uptime_seconds(
        uint64_t(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started_).count()));
    resp->set_pinned_memory_bytes(s.host_reserved);
    resp->set_pinned_memory_limit_bytes(s.host_budget);
    return grpc::Status::OK;
  });
}

grpc::Status CurioService::GetMetrics(grpc::ServerContext* ctx, const pb::GetMetricsRequest*,
                                      pb::GetMetricsResponse* resp) {
  return call("GetMetrics", ctx, [&](const std::string&) {
    resp->set_prometheus_text(metrics_.render(engine_.status(), state_.draining));
    return grpc::Status::OK;
  });
}

grpc::Status CurioService::params_of(const std::string& circuit_id, std::string& path) const {
  auto id = fc::parse_circuit_id(circuit_id);
  if (!id) return {StatusCode::INVALID_ARGUMENT, id.message()};
  auto file = fc::find_parameter_file(*id, fc::ParameterExt::params, options_.param_dir);
  if (!file) return {StatusCode::FAILED_PRECONDITION, file.message()};
  path = file->string();
  return grpc::Status::OK;
}

std::string CurioService::circuit_id_of(const std::string& params) const {
  const std::string file = std::filesystem::path(params).filename().string();
  for (auto kind : kCircuitKinds)
    for (uint64_t size : kSectorSizes) {
      auto name = fc::parameter_file_name(kind, size);
      if (!name || *name != file) continue;
      auto id = fc::circuit_id_string(fc::CircuitId{kind, size});
      if (id) return *id;
    }
  return file;
}

namespace {

const engine::ParamSetStatus* find_set(const engine::EngineStatus& s, const std::string& path) {
  for (const auto& p : s.params)
    if (p.name == path) return &p;
  return nullptr;
}

}  // namespace

grpc::Status CurioService::PreloadSRS(grpc::ServerContext* ctx, const pb::PreloadSrsRequest* req,
                                      pb::PreloadSrsResponse* resp) {
  return call("PreloadSRS", ctx, [&](const std::string&) {
    std::string path;
    if (auto st = params_of(req->circuit_id(), path); !st.ok()) return st;
    const auto* before = find_set(engine_.status(), path);
    const bool loaded = before && !before->loading && before->host_bytes > 0;
    const auto start = Clock::now();
    if (auto st = engine_.preload_params(path); !st)
      return grpc::Status(StatusCode::FAILED_PRECONDITION, req->circuit_id() + ": " + st.message());
    resp->set_already_loaded(loaded);
    resp->set_load_time_ms(
        loaded
            ? 0
            : uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count()));
    log_->info("event=params_preloaded api=cuzk.v1 circuit_id={} file={} peer={}", req->circuit_id(), path,
               peer_of(ctx));
    return grpc::Status::OK;
  });
}

grpc::Status CurioService::EvictSRS(grpc::ServerContext* ctx, const pb::EvictSrsRequest* req,
                                    pb::EvictSrsResponse* resp) {
  return call("EvictSRS", ctx, [&](const std::string&) {
    std::string path;
    if (auto id = fc::parse_circuit_id(req->circuit_id()); !id)
      return grpc::Status(StatusCode::INVALID_ARGUMENT, id.message());
    else if (auto file = fc::parameter_path(*id, fc::ParameterExt::params, options_.param_dir); !file)
      return grpc::Status(StatusCode::INVALID_ARGUMENT, file.message());
    else
      path = file->string();
    const auto* set = find_set(engine_.status(), path);
    if (!set) {  // not loaded: nothing to free
      resp->set_was_loaded(false);
      return grpc::Status::OK;
    }
    const uint64_t bytes = set->host_bytes;
    if (auto st = engine_.evict_params(path); !st)
      return grpc::Status(StatusCode::FAILED_PRECONDITION, req->circuit_id() + ": " + st.message());
    resp->set_was_loaded(true);
    resp->set_freed_bytes(bytes);
    log_->info("event=params_evicted api=cuzk.v1 circuit_id={} peer={}", req->circuit_id(), peer_of(ctx));
    return grpc::Status::OK;
  });
}

Status CurioService::preload(const std::vector<std::string>& circuit_ids) {
  for (const auto& id : circuit_ids) {
    std::string path;
    if (auto st = params_of(id, path); !st.ok())
      return make_error("curio.preload " + id + ": " + st.error_message());
    log_->info("event=params_preload circuit_id={} file={}", id, path);
    if (auto st = engine_.preload_params(path); !st)
      return make_error("curio.preload " + id + ": " + st.message());
  }
  return {};
}

}  // namespace cuzk::server::curio
