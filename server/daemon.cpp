#include "server/daemon.hpp"

#include <grpcpp/grpcpp.h>
#include <grpcpp/security/server_credentials.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/compiled_cache.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "filecoin/types/parameter_files.hpp"
#include "server/curio_service.hpp"
#include "server/devices.hpp"
#include "server/http.hpp"
#include "server/metrics.hpp"
#include "server/param_progress.hpp"
#include "server/public_status.hpp"
#include "server/service.hpp"
#include "server/spool.hpp"

namespace cuzk::server {
namespace {

Result<std::string> read_text(const std::string& path, const char* what) {
  std::ifstream in(path);
  if (!in) return make_error(std::string("cannot read the ") + what + " " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// How often the log says how far parameter sets being loaded have come.
constexpr std::chrono::seconds kParamLogInterval{10};

bool is_unix(const std::string& address) { return address.rfind("unix:", 0) == 0; }

bool is_loopback(const std::string& address) {
  return address.rfind("127.", 0) == 0 || address.rfind("localhost:", 0) == 0 ||
         address.rfind("[::1]:", 0) == 0 || address.rfind("ipv4:127.", 0) == 0;
}

// The file of "unix:///abs/path", "unix:rel/path" or "unix:/abs/path".
std::string socket_path(const std::string& address) {
  std::string rest = address.substr(5);
  if (rest.rfind("//", 0) == 0) rest = rest.substr(2);
  return rest;
}

// The folders of the parameter files loaded at start, and Filecoin's parameter directory
// ($FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters/): where clients may name
// others by default.
std::vector<std::string> default_params_dirs(const DaemonConfig& c) {
  std::vector<std::string> dirs = {filecoin::parameter_directory().string()};
  for (const auto& p : c.preload) {
    const auto parent = std::filesystem::path(p).parent_path();
    dirs.push_back(parent.empty() ? "." : parent.string());
  }
  return dirs;
}

std::string default_spool(const DaemonConfig& c) {
  if (!c.spool_dir.empty()) return c.spool_dir;
  if (!c.journal.empty()) return c.journal + ".spool";
  return (std::filesystem::temp_directory_path() / ("cuzkd-spool-" + std::to_string(::getpid()))).string();
}

}  // namespace

Status Daemon::take_locks() {
  const DaemonConfig& c = config_;
  if (!c.journal.empty()) {
    auto lock = engine::FileLock::acquire(c.journal + ".lock", "the journal " + c.journal);
    if (!lock) return lock.error();
    journal_lock_ = std::make_shared<engine::FileLock>(std::move(*lock));
  }
  for (const auto& address : c.listen) {
    if (!is_unix(address)) continue;
    const std::string path = socket_path(address);
    const auto folder = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!folder.empty() && !std::filesystem::is_directory(folder, ec))
      return make_error(
          "cannot listen on " + address + ": the folder " + folder.string() +
          " does not exist (create it, e.g. systemd's RuntimeDirectory=cuzk, or give --listen)");
    auto lock = engine::FileLock::acquire(path + ".lock", "the socket " + path);
    if (!lock) return lock.error();
    socket_locks_.push_back(std::move(*lock));
    socket_paths_.push_back(path);
  }
  return {};
}

Result<std::unique_ptr<Daemon>> Daemon::start(DaemonConfig config, engine::Logger log) {
  std::unique_ptr<Daemon> d(new Daemon());
  d->config_ = std::move(config);
  d->log_ = log;
  const DaemonConfig& c = d->config_;
  if (auto st = d->take_locks(); !st) return st.error();
  for (const auto& w : c.warnings) log->warn("event=config_warning note=\"{}\"", w);
  if (c.journal.empty())
    log->warn(
        "event=no_journal note=\"no journal configured (engine.journal): queued and running jobs are lost "
        "when the daemon stops\"");
  d->metrics_ = std::make_unique<Metrics>();
  d->state_ = std::make_unique<ServiceState>();

  auto spool = Spool::open(default_spool(c), log);
  if (!spool) return spool.error();
  d->spool_ = std::move(*spool);
  d->spool_->sweep(std::chrono::seconds(c.result_ttl_s));

  auto devices = make_device_set(c);
  if (!devices) return devices.error();
  engine::EngineConfig ec;
  ec.journal_path = c.journal;
  ec.journal_sync_full = c.journal_sync_full;
  ec.journal_lock = d->journal_lock_;
  if (!c.journal_write_fault_file.empty())
    ec.journal_write_fault = [f = c.journal_write_fault_file] {
      std::error_code e;
      return std::filesystem::exists(f, e);
    };
  ec.host_memory_budget = c.host_memory_budget;
  ec.synthesis_workers = c.synthesis_workers;
  ec.synthesis_threads = c.synthesis_threads;
  ec.synthesis_nice = int(c.synthesis_nice);
  ec.express_synthesis_workers = c.express_synthesis_workers;
  ec.max_partitions_ahead = c.max_partitions_ahead;
  if (c.idle_buffer_sets) ec.idle_buffer_sets = int(*c.idle_buffer_sets);
  ec.devices = std::move(*devices);
  ec.max_attempts = c.max_attempts;
  ec.quarantine_after = c.quarantine_after;
  ec.trusted_params = c.trusted_params;
  ec.compiled_dir = engine::compiled_circuit_dir(c.compiled_dir, c.curio_param_dir).string();
  ec.device_witness = c.device_witness;
  ec.result_ttl = std::chrono::seconds(c.result_ttl_s);
  ec.logger = log;
  ec.keys = c.benchmark_keys;
  ec.ignore_verify_for_benchmarks = c.benchmark_unverified_proofs;
  d->state_->unverified_proofs = c.benchmark_unverified_proofs;
  if (c.benchmark_unverified_proofs)
    log->warn(
        "event=benchmark_mode note=\"proofs are not checked (fake parameters): every result is reported "
        "FAILED, NOT VALID, its proofs attached for timing only\"");
  Metrics* metrics = d->metrics_.get();
  Spool* spool_ptr = d->spool_.get();
  if (c.curio_enabled && !c.journal.empty()) {
    auto journal = curio::CurioJournal::open(c.journal + ".curio", c.journal_sync_full);
    if (!journal)
      return make_error("cuzk.v1 request ids: " + journal.message() +
                        " (moving the file away starts the daemon without them; the jobs stay in the "
                        "engine's journal, and Curio's retries of their ids become new jobs)");
    d->curio_journal_ = std::move(*journal);
  }
  if (c.curio_enabled)
    d->curio_jobs_ = std::make_unique<curio::CurioJobs>(
        std::chrono::seconds(c.result_ttl_s) + std::chrono::minutes(1), d->curio_journal_.get());
  curio::CurioJobs* curio_jobs = d->curio_jobs_.get();
  ec.observer = [metrics, spool_ptr, curio_jobs](const engine::EngineEvent& e) {
    metrics->on_event(e);
    if (curio_jobs) curio_jobs->on_event(e);
    using T = engine::EngineEvent::Type;
    if (e.type == T::job_done || e.type == T::job_failed || e.type == T::job_cancelled)
      spool_ptr->job_ended(e.job);
  };
  auto engine = engine::Engine::create(std::move(ec));
  if (!engine) return make_error("engine: " + engine.message());
  d->engine_ = std::move(*engine);
  if (d->curio_jobs_) {
    engine::Engine* e = d->engine_.get();
    auto st = d->curio_jobs_->restore(
        [e](engine::JobId id, const std::string& client) { return e->check_owner(id, client).ok(); });
    if (!st) return make_error("cuzk.v1 request ids: " + st.message());
  }

  {
    engine::Engine* e = d->engine_.get();
    d->param_log_ = std::make_unique<ParamLoadLog>([e] { return e->status(); }, log, kParamLogInterval);
  }
  // A daemon that starts without its configured parameters would fail every job later: fail now.
  for (const auto& p : c.preload) {
    log->info("event=params_preload name={}", p);
    if (auto st = d->engine_->preload_params(p); !st) return make_error("preload " + p + ": " + st.message());
  }

  ServicePolicy policy{c.client_tokens,
                       AllowedFolders(c.params_dirs.empty() ? default_params_dirs(c) : c.params_dirs,
                                      "parameter files", "daemon.params_dirs"),
                       AllowedFolders(c.input_dirs, "input files", "daemon.input_dirs")};
  d->service_ = std::make_unique<ProverService>(*d->engine_, *d->metrics_, *d->spool_, *d->state_,
                                                std::move(policy), log);
  if (c.curio_enabled) {
    curio::CurioOptions o;
    o.param_dir = filecoin::resolve_parameter_directory(c.curio_param_dir);
    o.tokens = c.client_tokens;
    o.allow_tokenless_tcp = c.curio_allow_tokenless_tcp;
    o.device_name = c.backend;
    d->curio_ = std::make_unique<curio::CurioService>(*d->engine_, *d->metrics_, *d->state_, *d->curio_jobs_,
                                                      std::move(o), log);
    if (auto st = d->curio_->preload(c.curio_preload); !st) return st.error();
    if (c.curio_allow_tokenless_tcp && c.client_tokens.empty())
      log->warn(
          "event=curio_tokenless_tcp note=\"curio.allow_tokenless_tcp: any process that reaches a TCP listen "
          "address may submit and cancel cuzk.v1 jobs without a token\"");
    log->info("event=curio_api param_dir={}",
              filecoin::resolve_parameter_directory(c.curio_param_dir).string());
  }
  if (auto st = d->start_grpc(); !st) return st.error();

  if (!c.http_listen.empty()) {
    Daemon* self = d.get();
    HttpHandlers h;
    h.metrics = [self] { return self->metrics_->render(self->engine_->status(), self->state_->draining); };
    h.status = [self] { return public_status_json(self->engine_->status(), self->state_->draining); };
    h.health = [self] { return public_health(self->engine_->status(), self->state_->draining); };
    auto http = HttpServer::start(c.http_listen, std::move(h), log);
    if (!http) return http.error();
    d->http_ = std::move(*http);
  }
  d->maintenance_ = std::thread([self = d.get()] { self->maintenance(); });
  std::string listening;
  for (const auto& a : d->addresses_) listening += (listening.empty() ? "" : ",") + a;
  log->info("event=started listen={} http={} devices={} backend={} journal={} tls={} token={}", listening,
            c.http_listen.empty() ? "off" : c.http_listen, c.devices.size(), c.backend,
            c.journal.empty() ? "none" : c.journal, c.tls_cert.empty() ? "off" : "on",
            c.client_tokens.empty() ? "off" : std::to_string(c.client_tokens.size()) + " client(s)");
  return d;
}

// The credentials of one address. TLS where configured; a unix socket or loopback TCP without TLS
// takes gRPC's local credentials, which check the peer is local and, unlike insecure credentials,
// run the token processor before the request is read (auth.hpp); plain TCP beyond loopback only
// with allow_plaintext_tcp.
Result<std::shared_ptr<grpc::ServerCredentials>> Daemon::credentials_for(const std::string& address) const {
  const DaemonConfig& c = config_;
  std::shared_ptr<grpc::ServerCredentials> creds;
  if (!c.tls_cert.empty()) {
    auto cert = read_text(c.tls_cert, "TLS certificate");
    auto key = read_text(c.tls_key, "TLS key");
    if (!cert) return cert.error();
    if (!key) return key.error();
    grpc::SslServerCredentialsOptions ssl;
    ssl.pem_key_cert_pairs.push_back({*key, *cert});
    creds = grpc::SslServerCredentials(ssl);
  } else if (is_unix(address)) {
    creds = grpc::experimental::LocalServerCredentials(UDS);
  } else if (is_loopback(address)) {
    creds = grpc::experimental::LocalServerCredentials(LOCAL_TCP);
  } else {
    if (!c.allow_plaintext_tcp)
      return make_error(
          "refusing to listen on " + address +
          " without TLS: configure tls_cert/tls_key, listen on loopback or a unix socket, or set "
          "daemon.allow_plaintext_tcp = true on a network you trust");
    log_->warn(
        "event=plaintext_tcp address={} note=\"no TLS: tokens cross the network in clear and are checked "
        "only after a request is read\"",
        address);
    return grpc::InsecureServerCredentials();
  }
  if (!c.client_tokens.empty())
    creds->SetAuthMetadataProcessor(std::make_shared<TokenAuthProcessor>(c.client_tokens));
  return creds;
}

Status Daemon::start_grpc() {
  const DaemonConfig& c = config_;
  grpc::ServerBuilder builder;
  builder.SetMaxReceiveMessageSize(int(c.max_message_bytes));
  builder.SetMaxSendMessageSize(int(c.max_message_bytes));
  // A port held by another daemon is an error, not a port shared with it.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.RegisterService(service_.get());
  if (curio_) builder.RegisterService(curio_.get());
  std::vector<std::unique_ptr<int>> ports;
  for (const auto& address : c.listen) {
    auto creds = credentials_for(address);
    if (!creds) return creds.error();
    ports.push_back(std::make_unique<int>(0));
    builder.AddListeningPort(address, *creds, ports.back().get());
    if (!is_unix(address) && c.client_tokens.empty())
      log_->warn(
          "event=unauthenticated_tcp address={} note=\"no token configured: any process that reaches this "
          "port may submit, await and cancel jobs; set token_file\"",
          address);
  }
  grpc_ = builder.BuildAndStart();
  if (!grpc_) {
    std::string all;
    for (const auto& a : c.listen) all += (all.empty() ? "" : ", ") + a;
    return make_error("cannot listen on " + all + " (a TCP port in use, a bad address, or no permission)");
  }
  for (size_t i = 0; i < c.listen.size(); ++i) {
    const std::string& a = c.listen[i];
    if (*ports[i] == 0 && a.rfind("unix:", 0) != 0) return make_error("cannot listen on " + a);
    // Report TCP addresses with the port actually bound.
    if (a.rfind("unix:", 0) == 0) {
      addresses_.push_back(a);
    } else {
      addresses_.push_back(a.substr(0, a.rfind(':') + 1) + std::to_string(*ports[i]));
    }
  }
  return {};
}

int Daemon::http_port() const { return http_ ? http_->port() : 0; }

void Daemon::maintenance() {
  // Spooled files of jobs that ended while the daemon was down have no owner: sweep them now and
  // then. The engine sweeps its own expired results on every call; a status read triggers it.
  std::unique_lock lock(mutex_);
  while (!maintenance_stop_) {
    cv_.wait_for(lock, std::chrono::minutes(10), [&] { return maintenance_stop_; });
    if (maintenance_stop_) break;
    lock.unlock();
    spool_->sweep(std::chrono::seconds(config_.result_ttl_s));
    (void)engine_->status();
    lock.lock();
  }
}

void Daemon::hurry() {
  {
    std::lock_guard lock(mutex_);
    hurry_ = true;
  }
  cv_.notify_all();
}

void Daemon::shutdown(std::chrono::seconds grace) {
  std::lock_guard one(shutdown_mutex_);
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
  }
  state_->draining = true;
  engine_->pause();
  log_->info("event=draining grace_s={}", grace.count());
  const auto until = std::chrono::steady_clock::now() + grace;
  for (;;) {
    const auto s = engine_->status();
    const uint32_t in_flight = s.partitions_synthesizing + s.partitions_waiting_device + s.partitions_proving;
    std::unique_lock lock(mutex_);
    if (in_flight == 0) {
      log_->info("event=drained");
      break;
    }
    if (hurry_ || std::chrono::steady_clock::now() >= until) {
      log_->warn("event=drain_cut_short partitions_in_flight={} note=\"they resume from the journal\"",
                 in_flight);
      break;
    }
    cv_.wait_for(lock, std::chrono::milliseconds(100), [&] { return hurry_; });
  }
  state_->stopping = true;
  // Waits notice `stopping` within a slice; give them that, then cut what is left.
  grpc_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  grpc_->Wait();
  for (const auto& path : socket_paths_) ::unlink(path.c_str());  // ours: we hold its lock
  http_.reset();
  {
    std::lock_guard lock(mutex_);
    maintenance_stop_ = true;
  }
  cv_.notify_all();
  if (maintenance_.joinable()) maintenance_.join();
  const auto s = engine_->status();
  param_log_.reset();
  engine_.reset();  // partitions still in flight are abandoned; the journal has them
  log_->info("event=stopped queued_jobs_left={} running_jobs_left={}",
             s.queued_jobs[0] + s.queued_jobs[1] + s.queued_jobs[2] + s.queued_jobs[3], s.running_jobs);
  std::lock_guard lock(mutex_);
  stopped_ = true;
}

Daemon::~Daemon() {
  if (engine_ && grpc_) shutdown(std::chrono::seconds(0));
  {
    std::lock_guard lock(mutex_);
    maintenance_stop_ = true;
  }
  cv_.notify_all();
  if (maintenance_.joinable()) maintenance_.join();
}

}  // namespace cuzk::server
