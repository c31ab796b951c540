#include "filecoin/proofs/blank_circuit.hpp"

#include "filecoin/circuits/post_circuit.hpp"
#include "filecoin/proofs/circuit_bridge.hpp"

namespace cuzk::filecoin {

Result<std::unique_ptr<r1cs::Circuit>> blank_circuit(CircuitId id) {
  switch (id.kind) {
    case CircuitKind::porep:
      return porep_blank_circuit(id.sector_size);
    case CircuitKind::winning_post:
    case CircuitKind::window_post: {
      // The API version changes only how challenges are derived, not the circuit.
      const PostKind kind = id.kind == CircuitKind::winning_post ? PostKind::winning : PostKind::window;
      auto params = fallback_post_params(kind, id.sector_size, PostApiVersion::v1_2_0);
      if (!params) return params.error();
      auto circuit = FallbackPostCircuit::blank(*params);
      if (!circuit) return circuit.error();
      return std::unique_ptr<r1cs::Circuit>(std::make_unique<FallbackPostCircuit>(std::move(*circuit)));
    }
    case CircuitKind::update:
      return update_blank_circuit(id.sector_size);
    case CircuitKind::update_poseidon:
      break;
  }
  return make_input_error("cuzk does not build the " + std::string(to_string(id.kind)) + " circuit");
}

}  // namespace cuzk::filecoin
