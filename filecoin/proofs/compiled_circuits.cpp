#include "filecoin/proofs/compiled_circuits.hpp"

#include "filecoin/circuits/porep_synthesis.hpp"
#include "filecoin/circuits/post_synthesis.hpp"
#include "filecoin/circuits/update_synthesis.hpp"
#include "filecoin/proofs/blank_circuit.hpp"

namespace cuzk::filecoin {

Result<r1cs::CompiledCircuit> compile_circuit(const r1cs::Circuit& circuit, unsigned threads,
                                              r1cs::CompileOptions options) {
  if (const auto* porep = dynamic_cast<const PorepCircuit*>(&circuit))
    return compile_porep(*porep, threads, options);
  if (const auto* post = dynamic_cast<const FallbackPostCircuit*>(&circuit))
    return compile_post(*post, threads, options);
  if (const auto* update = dynamic_cast<const UpdateCircuit*>(&circuit))
    return compile_update(*update, threads, options);
  return r1cs::compile(circuit, options);
}

Result<r1cs::CompiledCircuit> compile_blank_circuit(CircuitId id, unsigned threads,
                                                    r1cs::CompileOptions options) {
  auto circuit = blank_circuit(id);
  if (!circuit) return circuit.error();
  return compile_circuit(**circuit, threads, options);
}

Result<r1cs::Assignment> synthesize_partition_witness(const r1cs::Circuit& circuit, unsigned threads,
                                                      std::vector<Fr> storage) {
  if (const auto* porep = dynamic_cast<const PorepCircuit*>(&circuit))
    return synthesize_porep_witness(*porep, threads, std::move(storage));
  if (const auto* post = dynamic_cast<const FallbackPostCircuit*>(&circuit))
    return synthesize_post_witness(*post, threads, std::move(storage));
  if (const auto* update = dynamic_cast<const UpdateCircuit*>(&circuit))
    return synthesize_update_witness(*update, threads, std::move(storage));
  return r1cs::synthesize_witness(circuit);
}

}  // namespace cuzk::filecoin
