// cuzkd as an object: the engine, the gRPC server on every listen address, the HTTP endpoint, the
// spool and the metrics, started together and stopped in order.
//
// Shutdown (SIGTERM): intake stops at once (Submit and Prove answer UNAVAILABLE, /healthz 503);
// dispatch of new partitions stops; the partitions already synthesizing or proving get up to the
// grace period to finish; then waits end, the servers stop and the engine stops. Whatever did not
// finish stays in the journal and resumes at the next start: work is finished or requeued, never
// lost (with a journal configured).
//
// One daemon per journal and per unix socket: start() first takes an exclusive lock on
// "<journal>.lock" and on "<socket>.lock" for each unix address, and fails, naming the owner,
// while another process holds one; TCP ports are bound without SO_REUSEPORT. Nothing is touched
// before the locks are held (not the spool, not the socket file).
//
// With a journal, the cuzk.v1 request ids are journaled beside it ("<journal>.curio",
// curio_journal.hpp) and restored after the engine has resumed its jobs.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/result.hpp"
#include "engine/engine.hpp"
#include "engine/file_lock.hpp"
#include "server/config.hpp"

namespace grpc {
class Server;
class ServerCredentials;
}  // namespace grpc

namespace cuzk::server {
namespace curio {
class CurioJobs;
class CurioJournal;
class CurioService;
}  // namespace curio

class HttpServer;
class Metrics;
class ParamLoadLog;
class ProverService;
class Spool;
struct ServiceState;

class Daemon {
 public:
  // `config` must have been resolve()d.
  static Result<std::unique_ptr<Daemon>> start(DaemonConfig config, engine::Logger log);
  ~Daemon();

  // Drains and stops (see above). Blocks; idempotent; callable from any thread.
  void shutdown(std::chrono::seconds grace);
  // Cuts a shutdown's grace short (a second SIGTERM).
  void hurry();

  // The gRPC addresses as bound (a TCP port 0 replaced by the port chosen).
  const std::vector<std::string>& addresses() const { return addresses_; }
  int http_port() const;
  engine::Engine& engine() { return *engine_; }

 private:
  Daemon() = default;
  Status take_locks();
  Result<std::shared_ptr<grpc::ServerCredentials>> credentials_for(const std::string& address) const;
  Status start_grpc();
  void maintenance();

  // First declared, last released: the locks outlive everything they guard.
  std::shared_ptr<engine::FileLock> journal_lock_;
  std::vector<engine::FileLock> socket_locks_;
  std::vector<std::string> socket_paths_;  // ours, removed at the stop
  DaemonConfig config_;
  engine::Logger log_;
  // Declared before the engine: they outlive it (its observer calls them until it stops).
  std::unique_ptr<Metrics> metrics_;
  std::unique_ptr<Spool> spool_;
  std::unique_ptr<ServiceState> state_;
  std::unique_ptr<curio::CurioJournal> curio_journal_;  // "<journal>.curio": cuzk.v1 request ids
  std::unique_ptr<curio::CurioJobs> curio_jobs_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<ParamLoadLog> param_log_;  // logs loads while the engine lives
  std::unique_ptr<ProverService> service_;
  std::unique_ptr<curio::CurioService> curio_;  // Curio's cuzk.v1 API, unless curio.enabled = false
  std::unique_ptr<grpc::Server> grpc_;
  std::unique_ptr<HttpServer> http_;
  std::vector<std::string> addresses_;

  std::mutex mutex_;
  std::condition_variable cv_;
  bool hurry_ = false, stopped_ = false, maintenance_stop_ = false;
  std::mutex shutdown_mutex_;  // one shutdown at a time
  std::thread maintenance_;
};

}  // namespace cuzk::server
