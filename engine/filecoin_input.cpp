#include "engine/filecoin_input.hpp"

#include <algorithm>
#include <filesystem>

#include "engine/compiled_cache.hpp"
#include "engine/job.hpp"
#include "filecoin/circuits/post_witness.hpp"
#include "filecoin/proofs/circuit_bridge.hpp"
#include "filecoin/proofs/compiled_circuits.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "io/file.hpp"
#include "r1cs/compiled/evaluate.hpp"

namespace cuzk::engine {
namespace {

JobKind job_kind_of(filecoin::ProofKind kind) {
  switch (kind) {
    case filecoin::ProofKind::seal:
      return JobKind::porep_c2;
    case filecoin::ProofKind::update:
      return JobKind::snap_deals;
    case filecoin::ProofKind::window_post:
      return JobKind::window_post;
    case filecoin::ProofKind::winning_post:
      return JobKind::winning_post;
  }
  return JobKind::generic;
}

Result<filecoin::PreparedProof> prepare(const filecoin::ProofRequest& request,
                                        const std::vector<std::string>& paths) {
  if (paths.empty() || !request.vanilla.empty())
    return filecoin::PreparedProof::prepare(request, filecoin::PrepareFor::proving);
  filecoin::ProofRequest read = request;
  for (const auto& path : paths) {
    auto bytes = read_file_bytes(path);
    if (!bytes) return make_input_error(bytes.message());
    read.vanilla.emplace_back(bytes->begin(), bytes->end());
  }
  return filecoin::PreparedProof::prepare(read, filecoin::PrepareFor::proving);
}

}  // namespace

Result<filecoin::PreparedProof> FilecoinRequest::prepared() const {
  std::call_once(once_, [&] { prepared_ = prepare(request_, paths_); });
  return *prepared_;
}

Result<bool> expand_filecoin_request(JobRequest& r) {
  size_t filecoin = 0;
  for (const auto& p : r.partitions) filecoin += std::holds_alternative<FilecoinInput>(p);
  if (filecoin == 0) return false;
  if (filecoin != r.partitions.size())
    return make_input_error("a job of Filecoin partitions takes no other inputs");
  // Held by value: the partitions are rebuilt below.
  const std::shared_ptr<const FilecoinRequest> request = std::get<FilecoinInput>(r.partitions[0]).request;
  if (!request) return make_input_error("partition 0: no Filecoin request");
  const filecoin::ProofKind kind = request->request().kind;
  if (r.kind != job_kind_of(kind))
    return make_input_error(std::string("a ") + filecoin::proof_kind_name(kind) + " request is a " +
                            to_string(job_kind_of(kind)) + " job, not " + to_string(r.kind));
  auto prepared = request->prepared();
  if (!prepared) return prepared.error();
  const size_t n = prepared->partitions();
  // A request that names no partition stands for all of them, however often it was replicated (a
  // PoRep C2 job is first given the kind's ten inputs).
  const bool whole = std::all_of(r.partitions.begin(), r.partitions.end(), [&](const PartitionInput& p) {
    const auto& f = std::get<FilecoinInput>(p);
    return f.request == request && !f.partition;
  });
  if (whole) {
    r.partitions.clear();
    for (uint32_t k = 0; k < n; ++k) r.partitions.emplace_back(FilecoinInput{request, k});
  }
  if (r.partitions.size() != n)
    return make_input_error(std::string(filecoin::proof_kind_name(kind)) + " " +
                            std::string(prepared->proof_type().name) + " has " + std::to_string(n) +
                            " partitions, the job " + std::to_string(r.partitions.size()));
  for (size_t k = 0; k < n; ++k) {
    const auto& p = std::get<FilecoinInput>(r.partitions[k]);
    if (p.request != request || !p.partition || *p.partition != k)
      return make_input_error("partition " + std::to_string(k) + " is not partition " + std::to_string(k) +
                              " of the job's Filecoin request");
  }
  if (r.params.empty()) {
    auto path = filecoin::find_parameter_file(prepared->circuit(), filecoin::ParameterExt::params,
                                              filecoin::parameter_directory());
    if (!path) return path.error();
    r.params = path->string();
  }
  return true;
}

Result<std::string> compiled_circuit_key(const filecoin::CircuitId& id) {
  auto name = filecoin::parameter_file_name(id.kind, id.sector_size);
  if (!name) return name.error();
  return "filecoin " + *name + " compiler " + std::to_string(r1cs::kCompilerVersion) + " without C";
}

namespace {

CompiledBuilder blank_circuit_builder(const filecoin::CircuitId& id, unsigned threads) {
  return [id, threads]() { return filecoin::compile_blank_circuit(id, threads, {.keep_c = false}); };
}

}  // namespace

std::optional<filecoin::CircuitId> circuit_of_parameter_file(const std::string& path) {
  const std::string file = std::filesystem::path(path).filename().string();
  if (file.rfind("v28-", 0) != 0) return std::nullopt;
  // Every registered proof's circuit (a handful of kinds and sizes; names are cheap to make).
  for (auto family :
       {filecoin::ProofFamily::seal, filecoin::ProofFamily::post, filecoin::ProofFamily::update})
    for (const auto& p : filecoin::registered_proofs(family)) {
      const filecoin::CircuitId id{filecoin::circuit_kind(p.kind), p.sector_size};
      auto name = filecoin::parameter_file_name(id.kind, id.sector_size);
      if (name && *name == file) return id;
    }
  return std::nullopt;
}

void prefetch_compiled_circuit(CompiledCache& compiled, const filecoin::CircuitId& id, unsigned threads) {
  auto key = compiled_circuit_key(id);
  if (key) compiled.prefetch(*key, blank_circuit_builder(id, threads));
}

Result<r1cs::Assignment> synthesize_filecoin(const FilecoinInput& input, unsigned threads,
                                             CompiledCache* compiled, std::vector<Fr> storage,
                                             bool defer_witness) {
  if (!input.request || !input.partition)
    return make_input_error("a Filecoin partition without its request or index");
  auto prepared = input.request->prepared();
  if (!prepared) return prepared.error();
  auto part = prepared->partition(*input.partition);
  if (!part) return part.error();
  const auto* post = dynamic_cast<const filecoin::FallbackPostCircuit*>(part->circuit.get());
  auto as = compiled && defer_witness && post != nullptr
                ? filecoin::post_witness_deferred(*post, std::move(storage))
            : compiled ? filecoin::synthesize_partition_witness(*part->circuit, threads, std::move(storage))
                       : filecoin::synthesize_partition(*part->circuit, threads);
  if (!as) return as.error();
  if (!std::equal(as->input_assignment.begin() + 1, as->input_assignment.end(), part->public_inputs.begin(),
                  part->public_inputs.end()))
    return make_error("partition " + std::to_string(*input.partition) +
                      ": the circuit's public inputs differ from the verifier's");
  if (compiled) {
    const filecoin::CircuitId id = prepared->circuit();
    auto key = compiled_circuit_key(id);
    if (!key) return key.error();
    auto circuit = compiled->get_or_build(*key, blank_circuit_builder(id, threads));
    if (!circuit) return circuit.error();
    CUZK_TRY_STATUS(r1cs::attach_compiled(*as, std::move(*circuit)));
  }
  return as;
}

}  // namespace cuzk::engine
