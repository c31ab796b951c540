// Curio's proving API, cuzk.v1.ProvingEngine (proto/cuzk/v1/proving.proto), over the same engine,
// on the same listeners as the daemon's own API, with the same authentication.
//
//   SubmitProof  converts (curio_convert.hpp), claims the request_id (curio_jobs.hpp) and submits.
//                The job_id is the request_id (as in Curio's daemon), or "cuzk-<hex>" when the
//                request has none; ids are per client.
//   AwaitProof   waits; timeout_ms 0 waits until the job ends (or the call's deadline). A wait
//                that times out answers TIMEOUT with the job still queued or running.
//   Prove        SubmitProof, then AwaitProof with no timeout of its own.
//   CancelProof  was_running: the job had a partition admitted (it was not only queued).
//   GetStatus    devices, parameter sets by circuit id, this API's queues by kind, counters.
//   GetMetrics   the daemon's Prometheus text (the same as HTTP /metrics).
//   PreloadSRS   a circuit id ("porep-32g", also the test sizes "porep-2k" ...) to its official
//   EvictSRS     file name in the parameter directory, loaded into / dropped from the engine's
//                parameter cache.
//
// Errors: INVALID_ARGUMENT (a malformed request; the message names the field), UNIMPLEMENTED (a
// kind or proof type not proved here), FAILED_PRECONDITION (parameters missing; cancel of an ended
// job; evict of a set in use), ALREADY_EXISTS (a request_id in use by a different request),
// NOT_FOUND (an unknown job_id), UNAUTHENTICATED, RESOURCE_EXHAUSTED (over max_message_bytes:
// refused by gRPC before the handler), UNAVAILABLE (shutting down, no device in service).
//
// Messages are the generated classes of package curio.cuzk.v1 (server/CMakeLists.txt says why)
// served under the paths of cuzk.v1: the bytes on the wire are proving.proto's.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "engine/engine.hpp"
#include "server/auth.hpp"
#include "server/curio_convert.hpp"
#include "server/curio_jobs.hpp"
#include "server/metrics.hpp"
#include "server/service.hpp"

namespace cuzk::server::curio {

struct CurioOptions {
  std::filesystem::path param_dir;  // the official parameter files
  ClientTokens tokens;              // the daemon's; empty: no authentication
  // Calls over TCP when no token is configured: refused unless this is set.
  bool allow_tokenless_tcp = false;
  std::string device_name = "cpu";  // GPUStatus.name is "<device_name>:<index>"
};

class CurioService final : public grpc::Service {
 public:
  CurioService(engine::Engine& engine, Metrics& metrics, ServiceState& state, CurioJobs& jobs,
               CurioOptions options, engine::Logger log);

  // Loads circuits' parameters by circuit id (config curio.preload), at start.
  Status preload(const std::vector<std::string>& circuit_ids);

  grpc::Status SubmitProof(grpc::ServerContext* ctx, const pb::SubmitProofRequest* req,
                           pb::SubmitProofResponse* resp);
  grpc::Status AwaitProof(grpc::ServerContext* ctx, const pb::AwaitProofRequest* req,
                          pb::AwaitProofResponse* resp);
  grpc::Status Prove(grpc::ServerContext* ctx, const pb::ProveRequest* req, pb::ProveResponse* resp);
  grpc::Status CancelProof(grpc::ServerContext* ctx, const pb::CancelProofRequest* req,
                           pb::CancelProofResponse* resp);
  grpc::Status GetStatus(grpc::ServerContext* ctx, const pb::GetStatusRequest* req,
                         pb::GetStatusResponse* resp);
  grpc::Status GetMetrics(grpc::ServerContext* ctx, const pb::GetMetricsRequest* req,
                          pb::GetMetricsResponse* resp);
  grpc::Status PreloadSRS(grpc::ServerContext* ctx, const pb::PreloadSrsRequest* req,
                          pb::PreloadSrsResponse* resp);
  grpc::Status EvictSRS(grpc::ServerContext* ctx, const pb::EvictSrsRequest* req, pb::EvictSrsResponse* resp);

 private:
  template <class Req, class Resp>
  void add_method(const char* path,
                  grpc::Status (CurioService::*handler)(grpc::ServerContext*, const Req*, Resp*));
  template <class F>
  grpc::Status call(const char* method, grpc::ServerContext* ctx, F&& body);
  grpc::Status submit(grpc::ServerContext* ctx, const std::string& client, pb::SubmitProofRequest& req,
                      engine::JobId& id, std::string& job_id, engine::Priority& priority);
  grpc::Status unjournaled(engine::JobId id, const std::string& job_id, const Status& why);
  grpc::Status wait(grpc::ServerContext* ctx, const std::string& client, engine::JobId id,
                    const std::string& job_id, std::optional<std::chrono::milliseconds> timeout,
                    pb::AwaitProofResponse* resp);
  // The parameter file of a circuit id; INVALID_ARGUMENT or FAILED_PRECONDITION.
  grpc::Status params_of(const std::string& circuit_id, std::string& path) const;
  // The circuit id of a loaded parameter file, or its file name.
  std::string circuit_id_of(const std::string& params) const;

  engine::Engine& engine_;
  Metrics& metrics_;
  ServiceState& state_;
  CurioJobs& jobs_;
  CurioOptions options_;
  engine::Logger log_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace cuzk::server::curio
