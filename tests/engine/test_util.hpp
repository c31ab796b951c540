// Shared fixtures of the engine tests: small keys (made once per process), engine configurations
// on CPU "devices", and an observer that records events.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.hpp"
#include "engine/synthesis.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "io/bellman.hpp"
#include "r1cs/circuits/samples.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::engine::testing {

// The smallest circuit with a real shape: synthetic, domain 2^6 (its shape depends on the seed, so
// every job uses this one seed; the proofs still differ by their randomness).
inline r1cs::SampleSpec tiny_spec() {
  r1cs::SampleSpec s;
  s.kind = "synthetic";
  s.log_domain = 6;
  s.seed = 7;
  return s;
}

// Parameters for `spec` (toxic waste from `setup_seed`), made once per process.
inline std::shared_ptr<const groth16::ProvingKey> key_for(const r1cs::SampleSpec& spec,
                                                          uint64_t setup_seed = 1) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const groth16::ProvingKey>> keys;
  const std::string name =
      spec.describe() + "/" + std::to_string(spec.seed) + "/" + std::to_string(setup_seed);
  std::lock_guard lock(mutex);
  if (auto it = keys.find(name); it != keys.end()) return it->second;
  auto circuit = r1cs::make_sample_circuit(spec);
  EXPECT_TRUE(circuit.ok()) << circuit.message();
  r1cs::RecordingSystem shape(false);
  EXPECT_TRUE((*circuit)->synthesize(shape).ok());
  ThreadPool pool(1);
  auto pk = groth16::generate_parameters(shape.matrices(), {setup_seed}, pool);
  EXPECT_TRUE(pk.ok()) << pk.message();
  auto key = std::make_shared<const groth16::ProvingKey>(std::move(*pk));
  keys[name] = key;
  return key;
}

inline std::shared_ptr<const groth16::ProvingKey> tiny_key() { return key_for(tiny_spec()); }

inline uint64_t tiny_partition_bytes() {
  auto set = make_param_set("tiny", tiny_key());
  EXPECT_TRUE(set.ok());
  return partition_host_bytes(**set);
}

// Logs to stderr when CUZK_TEST_LOG is set; silent otherwise.
inline Logger test_logger() {
  return std::getenv("CUZK_TEST_LOG") ? make_stderr_logger() : make_null_logger();
}

inline EngineConfig cpu_config(uint32_t devices = 1, uint32_t workers = 1) {
  EngineConfig c;
  c.devices = cpu_devices(devices, workers, uint64_t(1) << 30, 1);
  c.host_memory_budget = uint64_t(1) << 30;
  c.synthesis_workers = 2;
  c.keys["tiny"] = tiny_key();
  c.logger = test_logger();
  return c;
}

inline JobRequest tiny_job(JobKind kind = JobKind::generic, std::optional<Priority> priority = {}) {
  JobRequest r;
  r.kind = kind;
  r.priority = priority;
  r.params = "tiny";
  r.partitions.push_back(SampleInput{tiny_spec()});
  return r;
}

// Every proof of a finished job checks under `key`.
inline void expect_verifies(const JobResult& r, const groth16::ProvingKey& key) {
  ASSERT_EQ(r.state, JobState::done) << "job " << r.id << ": " << r.error;
  ASSERT_EQ(r.proofs.size(), r.partitions);
  auto pvk = groth16::prepare_verifying_key(key.vk);
  ASSERT_TRUE(pvk.ok());
  for (size_t i = 0; i < r.proofs.size(); ++i) {
    auto ok = groth16::verify_proof(*pvk, r.proofs[i], r.public_inputs[i]);
    ASSERT_TRUE(ok.ok()) << ok.message();
    EXPECT_TRUE(*ok) << "job " << r.id << " partition " << i;
  }
}

// Records the engine's events (thread-safe).
class EventLog {
 public:
  std::function<void(const EngineEvent&)> observer() {
    return [this](const EngineEvent& e) {
      std::lock_guard lock(mutex_);
      events_.push_back(e);
    };
  }
  std::vector<EngineEvent> events() const {
    std::lock_guard lock(mutex_);
    return events_;
  }
  size_t count(EngineEvent::Type t, JobId job = 0) const {
    std::lock_guard lock(mutex_);
    return size_t(std::count_if(events_.begin(), events_.end(), [&](const EngineEvent& e) {
      return e.type == t && (job == 0 || e.job == job);
    }));
  }

 private:
  mutable std::mutex mutex_;
  std::vector<EngineEvent> events_;
};

// A fresh folder under the system's temporary directory, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("cuzk-engine-test-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

constexpr auto kLongWait = std::chrono::minutes(5);  // a failure guard only, never a timing assertion

// Waits until no partition is in flight and every host reservation is back (partitions of failed
// or cancelled jobs are dropped by the worker holding them, a moment after the job's end).
// Idle: nothing synthesizing or proving, and nothing holding host memory but idle pooled buffers.
inline EngineStatus wait_until_idle(const Engine& engine) {
  const auto give_up = std::chrono::steady_clock::now() + kLongWait;
  for (;;) {
    auto s = engine.status();
    const bool idle =
        s.partitions_synthesizing + s.partitions_proving == 0 && s.host_reserved == s.buffer_idle_bytes;
    if (idle || std::chrono::steady_clock::now() > give_up) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace cuzk::engine::testing
