#include "cli/bench_engine_filecoin.hpp"

#include <chrono>
#include <utility>

#include "cli/fake_key.hpp"
#include "cli/filecoin_partition.hpp"
#include "engine/filecoin_input.hpp"
#include "filecoin/proofs/proof_request.hpp"
#include "filecoin/types/parameter_files.hpp"

namespace cuzk::cli {

namespace {

uint64_t assignment_bytes(const r1cs::Assignment& as) {
  return (as.a.size() + as.b.size() + as.c.size() + as.input_assignment.size() + as.aux_assignment.size()) *
         sizeof(Fr);
}

}  // namespace

Result<EngineBenchCircuit> filecoin_engine_circuit(const std::string& id, uint64_t seed, unsigned threads,
                                                   ThreadPool& pool) {
  const auto start = std::chrono::steady_clock::now();
  auto circuit = filecoin::parse_circuit_id(id);
  if (!circuit) return circuit.error();
  auto part = make_bench_partition(*circuit, seed);
  if (!part) return part.error();
  auto as = part->synthesize(threads);
  if (!as) return as.error();
  EngineBenchCircuit c;
  c.name = part->name;
  c.constraints = as->a.size();
  c.key = std::make_shared<const groth16::ProvingKey>(fake_key(*as, pool));
  if (part->request) {
    // PoRep and PoSt: the job is the provider's request (the commit-phase-1 output, the sectors'
    // vanilla proofs), and the engine prepares and synthesizes every partition from it, as it does
    // for a real request (--presynthesized copies one instead).
    c.synthesis = "every partition synthesized in the engine from the " +
                  std::string(part->request->kind == filecoin::ProofKind::seal ? "C1" : "vanilla proofs") +
                  " (" + part->vanilla + ")";
    for (const auto& v : part->request->vanilla) c.held_bytes += v.size();
    c.input =
        engine::FilecoinInput{std::make_shared<const engine::FilecoinRequest>(std::move(*part->request)), {}};
  } else {
    // The engine takes the partition already synthesized and copies it for each partition of a job.
    c.held_bytes = assignment_bytes(*as);
    c.synthesis = "synthesized once before the clock (" + part->vanilla + "), copied per partition";
    c.input = engine::SynthesizedInput{std::make_shared<const r1cs::Assignment>(std::move(*as))};
  }
  c.key_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return c;
}

Result<std::string> winning_circuit_for(const std::string& id) {
  auto circuit = filecoin::parse_circuit_id(id);
  if (!circuit) return circuit.error();
  if (circuit->kind != filecoin::CircuitKind::porep && circuit->kind != filecoin::CircuitKind::window_post)
    return make_input_error(
        "--filecoin " + id +
        ": the jobs are PoRep C2 or WindowPoSt jobs, a porep-* or wpost-* circuit is needed");
  return filecoin::circuit_id_string({filecoin::CircuitKind::winning_post, circuit->sector_size});
}

bool filecoin_window_post(const std::string& id) {
  auto circuit = filecoin::parse_circuit_id(id);
  return circuit && circuit->kind == filecoin::CircuitKind::window_post;
}

}  // namespace cuzk::cli
