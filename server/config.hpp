// cuzkd's configuration: a TOML file (deploy/cuzkd.example.toml documents every key), then command
// line flags, each of which overrides the file's value.
//
// The file is read strictly: an unknown table or key, or a value of the wrong type, is an error
// naming it, so that a typo never silently falls back to a default.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"

namespace cuzk::groth16 {
struct ProvingKey;
}

namespace cuzk::server {

struct DeviceConfig {
  uint32_t index = 0;
  uint64_t vram_budget = 0;  // bytes; 0: the backend's default (CPU devices: 4 GiB)
  uint32_t workers = 1;
};

struct DaemonConfig {
  // [daemon]
  std::vector<std::string> listen{"unix:///run/cuzk/cuzkd.sock"};  // "unix:///path" or "host:port"
  std::string http_listen = "127.0.0.1:9821";                      // "" disables /metrics etc.
  std::string tls_cert, tls_key;                                   // PEM paths; both or neither
  std::string token, token_file;                                   // bearer token; at most one
  // Several clients, each with its own token: "NAME TOKEN" lines. A job belongs to the client that
  // submitted it: only that client may await or cancel it.
  std::string clients_file;
  // Plain TCP beyond loopback (no TLS): refused unless set, since a token then crosses the network
  // in clear and is checked only after the request is read.
  bool allow_plaintext_tcp = false;
  // Folders whose files clients may name as parameter sets (besides the sets loaded at start);
  // default: the folders of [params] preload.
  std::vector<std::string> params_dirs;
  // Folders whose files clients may name as circom witnesses and circuits (circom_files); default:
  // none (upload the bytes instead).
  std::vector<std::string> input_dirs;
  uint64_t max_message_bytes = uint64_t(512) << 20;
  uint32_t shutdown_grace_s = 120;  // SIGTERM: time for partitions in flight to finish
  std::string spool_dir;            // uploaded witnesses; default: <journal>.spool, or a temp folder
  std::string log_level = "info";

  // [engine]
  std::string journal;              // SQLite journal; "": jobs do not survive a restart
  bool journal_sync_full = true;    // fsync each commit
  uint64_t host_memory_budget = 0;  // bytes; 0: 3/4 of physical memory
  uint32_t synthesis_workers = 2;
  uint32_t synthesis_threads = 0;  // per synthesis; 0: the hardware threads, shared by the syntheses running
  uint32_t synthesis_nice = 10;  // nice increment of synthesis threads (0..19): they yield to device workers
  uint32_t express_synthesis_workers = 1;  // more, for HIGH and CRITICAL partitions only
  uint32_t max_partitions_ahead = 0;       // synthesized ahead of the devices; 0: the engine's default
  // Pooled partition buffer sets kept idle; absent: as many as can be in flight.
  std::optional<uint32_t> idle_buffer_sets;
  uint32_t max_attempts = 3;
  uint32_t quarantine_after = 3;
  bool trusted_params = false;
  uint32_t result_ttl_s = 24 * 3600;
  // Compiled circuits (engine/compiled_cache.hpp); "": "cuzk-compiled" in the Filecoin parameter
  // directory ([curio] param_dir, else $FIL_PROOFS_PARAMETER_CACHE, else
  // /var/tmp/filecoin-proof-parameters/).
  std::string compiled_dir;
  // PoSt witnesses computed on the proving GPU (EngineConfig::device_witness).
  bool device_witness = true;

  // [devices]
  std::string backend = "cpu";  // "cpu" in this build; "cuda" once its factory is plugged in
  uint32_t cpu_threads_per_worker = 1;
  // cuda: share of a device's budget for the resident bases its workers share (and compiled
  // circuits' matrices, where there is room), where it has several workers and each keeps at least
  // 20 GiB beside it; 0: each worker keeps its own.
  double shared_bases_fraction = 0.6;
  // Workers per device that take only HIGH and CRITICAL partitions of at most 2^express_max_log_domain
  // (a WinningPoSt never waits for a PoRep proof to end); cuda: each in a share of at most 8 GiB.
  uint32_t express_workers = 1;
  uint32_t express_max_log_domain = 24;
  // cuda: host threads waiting for a device sleep instead of spinning, leaving their cores to
  // synthesis (engine::CudaDeviceOptions::blocking_sync).
  bool blocking_sync = false;
  // cuda: each device's first worker runs its streams at raised priority and the others fill the SMs
  // it leaves (engine::CudaDeviceOptions::lead_worker).
  bool lead_worker = false;
  std::vector<DeviceConfig> devices{DeviceConfig{}};

  // [params]
  std::vector<std::string> preload;  // parameter sets (file paths) loaded at start

  // [curio]: Curio's cuzk.v1 API on the same listeners (server/curio_service.hpp)
  bool curio_enabled = true;
  // Filecoin parameter files by their official names; "": $FIL_PROOFS_PARAMETER_CACHE, else
  // /var/tmp/filecoin-proof-parameters/.
  std::string curio_param_dir;
  std::vector<std::string> curio_preload;  // circuit ids loaded at start, e.g. "porep-32g"
  // cuzk.v1 calls over TCP with no token configured: refused unless set (Curio's stock client sends
  // none; a unix socket is the place for it).
  bool curio_allow_tokenless_tcp = false;

  // [testing]: drills and tests only
  uint32_t device_delay_ms = 0;  // every device call sleeps this long first
  // While this file exists every journal write fails as on a full disk (a drill).
  std::string journal_write_fault_file;

  // Benchmarks only (bench/curio's cuzkd-bench; never from the file or the flags): parameter sets in
  // memory by name (fake or test keys), and, for fake keys, proofs accepted although they fail their pairing
  // check (engine::EngineConfig::ignore_verify_for_benchmarks). With the latter set, every job that ends with
  // proofs is reported FAILED with kBenchmarkProofsNotValid, its proofs attached for their size: no client
  // can take such a proof for a valid one.
  std::map<std::string, std::shared_ptr<const groth16::ProvingKey>> benchmark_keys;
  bool benchmark_unverified_proofs = false;

  // The token in force (from `token` or `token_file`), read by resolve().
  std::string effective_token;
  // Every client's token by name (resolve()): "default" for token/token_file, then clients_file's.
  std::vector<std::pair<std::string, std::string>> client_tokens;
  // Things resolve() found worth a warning at start (a token file others can read).
  std::vector<std::string> warnings;
};

// "96G", "512M", "4096K", "1T" (powers of 1024) or a plain byte count.
Result<uint64_t> parse_size(const std::string& text);

// Reads `path` over the defaults of `config`.
Status load_config_file(const std::string& path, DaemonConfig& config);
// The same from text (for tests); `origin` names it in errors.
Status load_config_text(const std::string& text, const std::string& origin, DaemonConfig& config);

// Flags that override the file. add_flags() binds them to `overrides`; apply() writes the ones
// given into `config`.
struct ConfigOverrides {
  std::string config_path;
  std::vector<std::string> listen;
  std::optional<std::string> http_listen, tls_cert, tls_key, token_file, journal, spool_dir, log_level;
  std::optional<std::string> host_memory_budget, backend;
  std::optional<uint32_t> synthesis_workers, synthesis_threads, shutdown_grace_s, device_delay_ms;
  std::optional<uint64_t> max_message_bytes;
  std::vector<std::string> devices;  // "INDEX[:VRAM[:WORKERS]]", replaces [[devices]]
  std::vector<std::string> preload;  // appended to [params] preload
  // "table.key=value": any key of the file, value in TOML (a bare word is taken as a string).
  std::vector<std::string> set;
};
void add_flags(CLI::App& app, ConfigOverrides& overrides);
Status apply_overrides(const ConfigOverrides& overrides, DaemonConfig& config);

// Checks the whole configuration and reads the token file. Call after the file and the flags.
Status resolve(DaemonConfig& config);

}  // namespace cuzk::server
