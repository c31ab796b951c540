// The C ABI (include/cuzk.h) over the C++ engine. Every entry point catches everything: an
// exception never crosses into C, Rust or Go; it becomes CUZK_ERR_FAILED with its message.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "cuzk.h"
#include "engine/device_set.hpp"
#include "engine/engine.hpp"
#include "io/proof.hpp"
#include "io/scalars.hpp"

struct cuzk_engine {
  std::unique_ptr<cuzk::engine::Engine> engine;
};

struct cuzk_result {
  cuzk::engine::JobResult result;
};

struct cuzk_synthesis {
  cuzk::engine::SynthesizedPartition partition;
  std::vector<uint8_t> a, b, c, inputs, aux;  // canonical little-endian images for the view
};

namespace {

using namespace cuzk;
using namespace cuzk::engine;

cuzk_code fail(cuzk_error* err, cuzk_code code, const std::string& message) {
  if (err) {
    err->code = code;
    std::snprintf(err->message, sizeof(err->message), "%s", message.c_str());
  }
  return code;
}

cuzk_code ok(cuzk_error* err) {
  if (err) {
    err->code = CUZK_OK;
    err->message[0] = '\0';
  }
  return CUZK_OK;
}

// Runs `body` (returning cuzk_code), turning exceptions into errors.
template <class F>
cuzk_code guarded(cuzk_error* err, F&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return fail(err, CUZK_ERR_FAILED, "out of host memory");
  } catch (const std::exception& e) {
    return fail(err, CUZK_ERR_FAILED, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(err, CUZK_ERR_FAILED, "internal error");
  }
}

Result<JobRequest> request_header(cuzk_job_kind kind, cuzk_priority priority, const char* params) {
  if (int(kind) < 0 || int(kind) > int(CUZK_KIND_GENERIC))
    return make_error("unknown job kind " + std::to_string(kind));
  if (int(priority) < -1 || int(priority) > int(CUZK_PRIORITY_CRITICAL))
    return make_error("unknown priority " + std::to_string(priority));
  if (!params || !*params) return make_error("no parameter set given");
  JobRequest r;
  r.kind = JobKind(kind);
  if (priority != CUZK_PRIORITY_DEFAULT) r.priority = Priority(priority);
  r.params = params;
  r.client = "capi";
  return r;
}

cuzk_code submit(cuzk_engine* engine, Result<JobRequest> request, cuzk_job_id* out, cuzk_error* err) {
  if (!request) return fail(err, CUZK_ERR_INVALID_ARGUMENT, request.message());
  auto id = engine->engine->submit(std::move(*request));
  if (!id) return fail(err, CUZK_ERR_INVALID_ARGUMENT, id.message());
  *out = *id;
  return ok(err);
}

Result<std::vector<Fr>> scalars(const uint8_t* bytes, size_t n, const char* what) {
  return io::scalars_from_le_bytes(bytes, n, what);
}

r1cs::DensityBitmap bitmap(const uint64_t* words, size_t bits) {
  r1cs::DensityBitmap d;
  d.resize(bits);
  for (size_t i = 0; i < d.words.size(); ++i) d.words[i] = words ? words[i] : ~uint64_t(0);
  if (bits % 64 && !d.words.empty()) d.words.back() &= (uint64_t(1) << (bits % 64)) - 1;
  d.recount();
  return d;
}

Result<r1cs::Assignment> assignment_from(const cuzk_partition& p) {
  r1cs::Assignment as;
  auto a = scalars(p.a, p.num_constraints, "a");
  auto b = scalars(p.b, p.num_constraints, "b");
  // c NULL: left to the prover, which forms c = a∘b (r1cs::Assignment::c_from_ab).
  auto c = p.c ? scalars(p.c, p.num_constraints, "c") : Result<std::vector<Fr>>(std::vector<Fr>{});
  auto in = scalars(p.inputs, p.num_inputs, "inputs");
  auto aux = scalars(p.aux, p.num_aux, "aux");
  for (const auto* r : {&a, &b, &c, &in, &aux})
    if (!*r) return r->error();
  if (p.num_inputs == 0) return make_error("inputs: at least ONE is needed");
  as.a = std::move(*a);
  as.b = std::move(*b);
  as.c = std::move(*c);
  as.c_from_ab = p.c == nullptr;
  as.input_assignment = std::move(*in);
  as.aux_assignment = std::move(*aux);
  as.a_aux_density = bitmap(p.a_aux_density, p.num_aux);
  as.b_input_density = bitmap(p.b_input_density, p.num_inputs);
  as.b_aux_density = bitmap(p.b_aux_density, p.num_aux);
  return as;
}

// The backend's devices: CPU logical devices 0 .. num_devices − 1, or GPUs 0 .. num_devices − 1
// (0: every GPU found); each with workers_per_device workers pinned to it by index, within
// device_memory_budget each (for GPUs, 0: its free memory less 1 GiB).
Result<DeviceSet> device_set(const cuzk_engine_config& c, const std::string& backend) {
  DeviceSetOptions o;
  o.backend = backend;
  o.cpu.devices = logical_devices(c.num_devices, c.workers_per_device, c.device_memory_budget,
                                  c.express_workers_per_device);
  o.cpu.threads_per_worker = c.threads_per_worker;
  for (uint32_t i = 0; i < c.num_devices; ++i) o.cuda.indices.push_back(i);
  o.cuda.vram_budget = c.device_memory_budget;
  o.cuda.workers = c.workers_per_device;
  o.cuda.shared_bases_fraction = c.shared_bases_fraction;
  o.cuda.express_workers = c.express_workers_per_device;
  auto chosen = make_device_set(o);
  if (!chosen) return chosen.error();
  return std::move(chosen->set);
}

std::vector<uint8_t> canonical_bytes(const std::vector<Fr>& v) {
  std::vector<uint8_t> out(v.size() * CUZK_SCALAR_BYTES);
  io::scalars_to_le_bytes(v, out.data());
  return out;
}

spdlog::level::level_enum log_level(const char* name) {
  if (!name) return spdlog::level::info;
  return spdlog::level::from_str(name);
}

}  // namespace

extern "C" {

const char* cuzk_version(void) { return "cuzk 0.1.0"; }

void cuzk_engine_config_init(cuzk_engine_config* c) {
  if (!c) return;
  std::memset(c, 0, sizeof(*c));
  c->synthesis_workers = 2;
  c->synthesis_threads = 0;
  c->backend = "cpu";
  c->num_devices = 1;
  c->workers_per_device = 1;
  c->device_memory_budget = uint64_t(4) << 30;
  c->threads_per_worker = 0;
  c->max_attempts = 3;
  c->quarantine_after = 3;
  c->result_ttl_seconds = 24 * 3600;
  c->log_level = "info";
  c->max_partitions_ahead = 0;
  c->idle_buffer_sets = -1;
  c->express_synthesis_workers = 1;
  c->shared_bases_fraction = 0.6;
  c->express_workers_per_device = 1;
  c->synthesis_nice = 10;
}

cuzk_code cuzk_engine_create(const cuzk_engine_config* c, cuzk_engine** out, cuzk_error* err) {
  return guarded(err, [&] {
    if (!c || !out) return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_engine_create: NULL config or out");
    *out = nullptr;
    const std::string backend = c->backend ? c->backend : "cpu";
    if (backend != "cpu" && !(backend == "cuda" && cuda_built()))
      return fail(err, CUZK_ERR_INVALID_ARGUMENT, "backend '" + backend + "' is not built into this library");
    if (!(c->shared_bases_fraction >= 0 && c->shared_bases_fraction <= 1))
      return fail(err, CUZK_ERR_INVALID_ARGUMENT, "shared_bases_fraction must be between 0 and 1");
    if (c->synthesis_nice > 19)
      return fail(err, CUZK_ERR_INVALID_ARGUMENT, "synthesis_nice must be between 0 and 19");
    if ((backend == "cpu" && c->num_devices == 0) || c->workers_per_device == 0)
      return fail(err, CUZK_ERR_INVALID_ARGUMENT, "num_devices and workers_per_device must be at least 1");
    EngineConfig config;
    if (c->journal_path) config.journal_path = c->journal_path;
    config.host_memory_budget = c->host_memory_budget;
    config.synthesis_workers = c->synthesis_workers;
    config.synthesis_threads = c->synthesis_threads;
    config.synthesis_nice = int(c->synthesis_nice);
    config.max_partitions_ahead = c->max_partitions_ahead;
    config.express_synthesis_workers = c->express_synthesis_workers;
    config.idle_buffer_sets = c->idle_buffer_sets < 0 ? -1 : c->idle_buffer_sets;
    auto devices = device_set(*c, backend);
    if (!devices) return fail(err, CUZK_ERR_FAILED, devices.message());
    config.devices = std::move(*devices);
    config.max_attempts = c->max_attempts;
    config.quarantine_after = c->quarantine_after;
    config.trusted_params = c->trusted_params != 0;
    config.result_ttl = std::chrono::seconds(c->result_ttl_seconds);
    config.logger = make_stderr_logger("cuzk");
    config.logger->set_level(log_level(c->log_level));
    auto engine = Engine::create(std::move(config));
    if (!engine) return fail(err, CUZK_ERR_FAILED, engine.message());
    *out = new cuzk_engine{std::move(*engine)};
    return ok(err);
  });
}

void cuzk_engine_destroy(cuzk_engine* engine) {
  try {
    delete engine;
  } catch (...) {
  }
}

cuzk_code cuzk_submit_sample(cuzk_engine* engine, cuzk_job_kind kind, cuzk_priority priority,
                             const char* params, const cuzk_sample* partitions, size_t n, cuzk_job_id* out,
                             cuzk_error* err) {
  return guarded(err, [&] {
    if (!engine || !out || (n && !partitions))
      return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_submit_sample: NULL engine, out or partitions");
    auto request = request_header(kind, priority, params);
    if (request) {
      for (size_t i = 0; i < n; ++i) {
        r1cs::SampleSpec spec;
        spec.kind = partitions[i].kind ? partitions[i].kind : "";
        spec.merkle_depth = partitions[i].size;
        spec.message_bytes = partitions[i].size;
        spec.log_domain = unsigned(std::min<uint64_t>(partitions[i].size, 64));
        spec.seed = partitions[i].seed;
        request->partitions.push_back(SampleInput{spec});
      }
    }
    return submit(engine, std::move(request), out, err);
  });
}

cuzk_code cuzk_submit_circom(cuzk_engine* engine, cuzk_job_kind kind, cuzk_priority priority,
                             const char* params, const char* r1cs_path, const char* const* wtns_paths,
                             size_t n, cuzk_job_id* out, cuzk_error* err) {
  return guarded(err, [&] {
    if (!engine || !out || (n && !wtns_paths))
      return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_submit_circom: NULL engine, out or wtns_paths");
    auto request = request_header(kind, priority, params);
    if (request) {
      for (size_t i = 0; i < n; ++i) {
        if (!wtns_paths[i])
          return fail(err, CUZK_ERR_INVALID_ARGUMENT, "wtns_paths[" + std::to_string(i) + "] is NULL");
        request->partitions.push_back(CircomInput{r1cs_path ? r1cs_path : "", wtns_paths[i]});
      }
    }
    return submit(engine, std::move(request), out, err);
  });
}

cuzk_code cuzk_submit_synthesized(cuzk_engine* engine, cuzk_job_kind kind, cuzk_priority priority,
                                  const char* params, const cuzk_partition* partitions, size_t n,
                                  cuzk_job_id* out, cuzk_error* err) {
  return guarded(err, [&] {
    if (!engine || !out || (n && !partitions))
      return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_submit_synthesized: NULL engine, out or partitions");
    auto request = request_header(kind, priority, params);
    if (request) {
      for (size_t i = 0; i < n; ++i) {
        auto as = assignment_from(partitions[i]);
        if (!as)
          return fail(err, CUZK_ERR_INVALID_ARGUMENT, "partition " + std::to_string(i) + ": " + as.message());
        request->partitions.push_back(
            SynthesizedInput{std::make_shared<const r1cs::Assignment>(std::move(*as))});
      }
    }
    return submit(engine, std::move(request), out, err);
  });
}

namespace {

// The header of a Filecoin job: the kind, priority and parameter set ("" names the official file).
Result<JobRequest> filecoin_header(cuzk_job_kind kind, cuzk_priority priority, const char* params) {
  auto r = request_header(kind, priority, params && *params ? params : "-");
  if (r) r->params = params ? params : "";
  return r;
}

filecoin::Domain domain_from(const uint8_t* bytes) {
  filecoin::Domain d;
  std::memcpy(d.data(), bytes, d.size());
  return d;
}

}  // namespace

cuzk_code cuzk_submit_porep_c2(cuzk_engine* engine, cuzk_priority priority, const uint8_t* c1, size_t c1_len,
                               const uint8_t* prover_id, uint64_t sector_id, const char* params,
                               cuzk_job_id* out, cuzk_error* err) {
  return guarded(err, [&] {
    if (!engine || !out || !c1)
      return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_submit_porep_c2: NULL argument");
    filecoin::ProofRequest fr;
    fr.kind = filecoin::ProofKind::seal;
    fr.vanilla.emplace_back(reinterpret_cast<const char*>(c1), c1_len);
    if (prover_id) fr.prover_id = domain_from(prover_id);
    if (sector_id != CUZK_SECTOR_ID_NONE) fr.sector_id = sector_id;
    auto request = filecoin_header(CUZK_KIND_POREP_C2, priority, params);
    if (request)
      request->partitions.push_back(FilecoinInput{std::make_shared<FilecoinRequest>(std::move(fr)), {}});
    return submit(engine, std::move(request), out, err);
  });
}

cuzk_code cuzk_submit_post(cuzk_engine* engine, cuzk_job_kind kind, cuzk_priority priority,
                           uint64_t post_proof_id, const uint8_t* randomness, const uint8_t* const* vanilla,
                           const size_t* vanilla_lens, size_t num_vanilla, uint64_t first_partition,
                           const char* params, cuzk_job_id* out, cuzk_error* err) {
  return guarded(err, [&] {
    if (!engine || !out || !randomness || (num_vanilla && (!vanilla || !vanilla_lens)))
      return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_submit_post: NULL argument");
    if (kind != CUZK_KIND_WINDOW_POST && kind != CUZK_KIND_WINNING_POST)
      return fail(err, CUZK_ERR_INVALID_ARGUMENT,
                  "cuzk_submit_post: the kind is WINDOW_POST or WINNING_POST");
    filecoin::ProofRequest fr;
    fr.kind =
        kind == CUZK_KIND_WINNING_POST ? filecoin::ProofKind::winning_post : filecoin::ProofKind::window_post;
    fr.proof_id = post_proof_id;
    fr.randomness = filecoin::trim_to_fr32(domain_from(randomness));
    fr.first_partition = first_partition;
    for (size_t i = 0; i < num_vanilla; ++i) {
      if (!vanilla[i])
        return fail(err, CUZK_ERR_INVALID_ARGUMENT, "vanilla[" + std::to_string(i) + "] is NULL");
      fr.vanilla.emplace_back(reinterpret_cast<const char*>(vanilla[i]), vanilla_lens[i]);
    }
    auto request = filecoin_header(kind, priority, params);
    if (request)
      request->partitions.push_back(FilecoinInput{std::make_shared<FilecoinRequest>(std::move(fr)), {}});
    return submit(engine, std::move(request), out, err);
  });
}

cuzk_code cuzk_synthesize_circom(cuzk_engine* engine, const char* params, const char* r1cs_path,
                                 const char* wtns_path, cuzk_synthesis** out, cuzk_partition* view,
                                 cuzk_error* err) {
  return guarded(err, [&] {
    if (!engine || !params || !wtns_path || !out || !view)
      return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_synthesize_circom: NULL argument");
    auto s = engine->engine->synthesize(params, CircomInput{r1cs_path ? r1cs_path : "", wtns_path});
    if (!s) return fail(err, CUZK_ERR_FAILED, s.message());
    auto* synthesis = new cuzk_synthesis{std::move(*s), {}, {}, {}, {}, {}};
    const r1cs::Assignment& as = synthesis->partition.assignment;
    synthesis->a = canonical_bytes(as.a);
    synthesis->b = canonical_bytes(as.b);
    std::vector<Fr> formed_c;
    synthesis->c = canonical_bytes(r1cs::c_values(as, formed_c));
    synthesis->inputs = canonical_bytes(as.input_assignment);
    synthesis->aux = canonical_bytes(as.aux_assignment);
    *view = {};
    view->a = synthesis->a.data();
    view->b = synthesis->b.data();
    view->c = synthesis->c.data();
    view->num_constraints = as.a.size();
    view->inputs = synthesis->inputs.data();
    view->num_inputs = as.input_assignment.size();
    view->aux = synthesis->aux.data();
    view->num_aux = as.aux_assignment.size();
    view->a_aux_density = as.a_aux_density.words.data();
    view->b_input_density = as.b_input_density.words.data();
    view->b_aux_density = as.b_aux_density.words.data();
    *out = synthesis;
    return ok(err);
  });
}

void cuzk_synthesis_free(cuzk_synthesis* synthesis) { delete synthesis; }

cuzk_code cuzk_await(cuzk_engine* engine, cuzk_job_id id, int64_t timeout_ms, cuzk_result** out,
                     cuzk_error* err) {
  return guarded(err, [&] {
    if (!engine || !out) return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_await: NULL engine or out");
    *out = nullptr;
    const auto timeout = timeout_ms < 0 ? std::chrono::milliseconds(std::chrono::hours(24 * 365))
                                        : std::chrono::milliseconds(timeout_ms);
    auto r = engine->engine->await(id, timeout);
    if (!r) return fail(err, CUZK_ERR_NOT_FOUND, r.message());
    if (!is_terminal(r->state))
      return fail(err, CUZK_ERR_TIMEOUT, "job " + std::to_string(id) + " is still " + to_string(r->state));
    *out = new cuzk_result{std::move(*r)};
    return ok(err);
  });
}

cuzk_code cuzk_cancel(cuzk_engine* engine, cuzk_job_id id, cuzk_error* err) {
  return guarded(err, [&] {
    if (!engine) return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_cancel: NULL engine");
    auto st = engine->engine->cancel(id);
    if (!st)
      return fail(err,
                  st.message().find("unknown") != std::string::npos ? CUZK_ERR_NOT_FOUND : CUZK_ERR_FAILED,
                  st.message());
    return ok(err);
  });
}

cuzk_job_state cuzk_result_state(const cuzk_result* r) {
  return r ? cuzk_job_state(r->result.state) : CUZK_STATE_FAILED;
}
const char* cuzk_result_error(const cuzk_result* r) { return r ? r->result.error.c_str() : "no result"; }
size_t cuzk_result_num_proofs(const cuzk_result* r) { return r ? r->result.proofs.size() : 0; }

cuzk_code cuzk_result_proof(const cuzk_result* r, size_t index, uint8_t* out) {
  if (!r || !out || index >= r->result.proofs.size()) return CUZK_ERR_INVALID_ARGUMENT;
  const auto bytes = proof_to_bytes(r->result.proofs[index]);
  std::memcpy(out, bytes.data(), bytes.size());
  return CUZK_OK;
}

size_t cuzk_result_num_public_inputs(const cuzk_result* r, size_t proof_index) {
  if (!r || proof_index >= r->result.public_inputs.size()) return 0;
  return r->result.public_inputs[proof_index].size();
}

cuzk_code cuzk_result_public_input(const cuzk_result* r, size_t proof_index, size_t input_index,
                                   uint8_t* out) {
  if (!r || !out || proof_index >= r->result.public_inputs.size() ||
      input_index >= r->result.public_inputs[proof_index].size())
    return CUZK_ERR_INVALID_ARGUMENT;
  r->result.public_inputs[proof_index][input_index].to_bytes_le(out);
  return CUZK_OK;
}

cuzk_timings cuzk_result_timings(const cuzk_result* r) {
  cuzk_timings t{};
  if (!r) return t;
  const auto& s = r->result.timings;
  t = {s.queue_wait_ms, s.param_load_ms, s.synthesis_ms, s.gpu_ms, s.verify_ms, s.total_ms};
  return t;
}

uint32_t cuzk_result_retries(const cuzk_result* r) { return r ? r->result.retries : 0; }
void cuzk_result_free(cuzk_result* r) { delete r; }

cuzk_code cuzk_status_json(cuzk_engine* engine, char** out, cuzk_error* err) {
  return guarded(err, [&] {
    if (!engine || !out) return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_status_json: NULL engine or out");
    const std::string json = status_to_json(engine->engine->status());
    *out = new char[json.size() + 1];
    std::memcpy(*out, json.c_str(), json.size() + 1);
    return ok(err);
  });
}

void cuzk_string_free(char* s) { delete[] s; }

cuzk_code cuzk_preload_params(cuzk_engine* engine, const char* params, cuzk_error* err) {
  return guarded(err, [&] {
    if (!engine || !params) return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_preload_params: NULL argument");
    auto st = engine->engine->preload_params(params);
    return st ? ok(err) : fail(err, CUZK_ERR_FAILED, st.message());
  });
}

cuzk_code cuzk_evict_params(cuzk_engine* engine, const char* params, cuzk_error* err) {
  return guarded(err, [&] {
    if (!engine || !params) return fail(err, CUZK_ERR_INVALID_ARGUMENT, "cuzk_evict_params: NULL argument");
    auto st = engine->engine->evict_params(params);
    return st ? ok(err) : fail(err, CUZK_ERR_FAILED, st.message());
  });
}

}  // extern "C"
