// synthesize_partition and its footprint (circuit_bridge.hpp): each Filecoin circuit's parallel
// synthesis, by the circuit's type or id.
#include "filecoin/circuits/porep_synthesis.hpp"
#include "filecoin/circuits/post_synthesis.hpp"
#include "filecoin/circuits/update_synthesis.hpp"
#include "filecoin/proofs/circuit_bridge.hpp"

namespace cuzk::filecoin {

Result<r1cs::Assignment> synthesize_partition(const r1cs::Circuit& circuit, unsigned threads) {
  if (const auto* porep = dynamic_cast<const PorepCircuit*>(&circuit))
    return synthesize_porep_for_proving(*porep, threads);
  if (const auto* post = dynamic_cast<const FallbackPostCircuit*>(&circuit))
    return synthesize_post_for_proving(*post, threads);
  if (const auto* update = dynamic_cast<const UpdateCircuit*>(&circuit))
    return synthesize_update_for_proving(*update, threads);
  return r1cs::synthesize_for_proving(circuit);
}

Result<SynthesisFootprint> partition_synthesis_footprint(CircuitId id, unsigned threads) {
  switch (id.kind) {
    case CircuitKind::porep: {
      auto params = porep_params(id.sector_size);
      if (!params) return params.error();
      return porep_synthesis_footprint(*params, threads);
    }
    case CircuitKind::winning_post:
    case CircuitKind::window_post: {
      // The API version changes only how challenges are derived, not the circuit.
      const PostKind kind = id.kind == CircuitKind::winning_post ? PostKind::winning : PostKind::window;
      auto params = fallback_post_params(kind, id.sector_size, PostApiVersion::v1_2_0);
      if (!params) return params.error();
      return post_synthesis_footprint(*params, threads);
    }
    case CircuitKind::update: {
      auto shape = vanilla::update_shape(id.sector_size);
      if (!shape) return shape.error();
      return update_synthesis_footprint(*shape, threads);
    }
    case CircuitKind::update_poseidon:
      break;
  }
  return make_input_error("cuzk does not build the " + std::string(to_string(id.kind)) + " circuit");
}

}  // namespace cuzk::filecoin
