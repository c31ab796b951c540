// The gRPC service of proto/cuzk/v1/prover.proto over one Engine.
//
// Every call is authenticated first (auth.hpp) and acts for the client its token names: a job
// belongs to the client that submitted it, and only that client may await or cancel it. Every
// call is counted in the metrics with its status code, and
// logged when it fails. A bad request is an error status for that call only: nothing a client
// sends can stop the daemon. Waits (Await, Prove) block a server thread in slices, so that they
// notice a client that went away and the daemon's shutdown.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "cuzk/v1/prover.grpc.pb.h"
#include "engine/engine.hpp"
#include "server/auth.hpp"
#include "server/metrics.hpp"
#include "server/paths.hpp"
#include "server/spool.hpp"

namespace cuzk::server {

struct ServiceState {
  std::atomic<bool> draining{false};  // SIGTERM: no new jobs
  std::atomic<bool> stopping{false};  // waits end now
  // DaemonConfig::benchmark_unverified_proofs: proofs are not checked, no result is reported valid.
  bool unverified_proofs = false;
};

// The error of every result that ends with proofs in a daemon whose proofs are not checked.
inline constexpr const char* kBenchmarkProofsNotValid =
    "NOT VALID: a benchmark daemon with fake parameters made these proofs and did not check them";

// What a service checks clients against.
struct ServicePolicy {
  ClientTokens tokens;    // empty: no authentication
  AllowedFolders params;  // parameter files clients may name
  AllowedFolders inputs;  // witness and circuit files clients may name
};

class ProverService final : public ::cuzk::v1::Prover::Service {
 public:
  ProverService(engine::Engine& engine, Metrics& metrics, Spool& spool, ServiceState& state,
                ServicePolicy policy, engine::Logger log);

  grpc::Status Submit(grpc::ServerContext* ctx, const ::cuzk::v1::SubmitRequest* req,
                      ::cuzk::v1::SubmitResponse* resp) override;
  grpc::Status Await(grpc::ServerContext* ctx, const ::cuzk::v1::AwaitRequest* req,
                     ::cuzk::v1::JobResult* resp) override;
  grpc::Status Prove(grpc::ServerContext* ctx, const ::cuzk::v1::ProveRequest* req,
                     ::cuzk::v1::JobResult* resp) override;
  grpc::Status Cancel(grpc::ServerContext* ctx, const ::cuzk::v1::CancelRequest* req,
                      ::cuzk::v1::CancelResponse* resp) override;
  grpc::Status Status(grpc::ServerContext* ctx, const ::cuzk::v1::StatusRequest* req,
                      ::cuzk::v1::StatusResponse* resp) override;
  grpc::Status PreloadParams(grpc::ServerContext* ctx, const ::cuzk::v1::ParamsRequest* req,
                             ::cuzk::v1::ParamsResponse* resp) override;
  grpc::Status EvictParams(grpc::ServerContext* ctx, const ::cuzk::v1::ParamsRequest* req,
                           ::cuzk::v1::ParamsResponse* resp) override;

 private:
  template <class F>
  grpc::Status call(const char* method, grpc::ServerContext* ctx, F&& body);
  grpc::Status check_params(std::string& name);
  grpc::Status submit(grpc::ServerContext* ctx, const std::string& client, const ::cuzk::v1::JobSpec& spec,
                      engine::JobId& id);
  grpc::Status wait(grpc::ServerContext* ctx, engine::JobId id, std::chrono::milliseconds timeout,
                    ::cuzk::v1::JobResult* resp);

  engine::Engine& engine_;
  Metrics& metrics_;
  Spool& spool_;
  ServiceState& state_;
  ServicePolicy policy_;
  engine::Logger log_;
};

}  // namespace cuzk::server
