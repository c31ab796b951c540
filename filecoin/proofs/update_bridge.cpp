// The SnapDeals side of circuit_bridge.hpp: filecoin/circuits/update_* at the size's default h
// (the one filecoin-proofs' API proves with).
#include "filecoin/circuits/update_vanilla.hpp"
#include "filecoin/proofs/circuit_bridge.hpp"
#include "filecoin/types/proof_types.hpp"

namespace cuzk::filecoin {
namespace {

Result<vanilla::UpdateShape> shape_of(uint64_t update_proof_id) {
  auto type = update_proof(update_proof_id);
  if (!type) return make_input_error(type.message());
  return vanilla::update_shape(type->sector_size);
}

Result<vanilla::UpdatePublicInputs> inputs_of(const vanilla::UpdateShape& shape, size_t k,
                                              const Domain& comm_r_old, const Domain& comm_d_new,
                                              const Domain& comm_r_new) {
  return vanilla::UpdatePublicInputs{k, shape.h_default(), comm_r_old, comm_d_new, comm_r_new};
}

}  // namespace

Result<std::unique_ptr<r1cs::Circuit>> update_blank_circuit(uint64_t sector_size) {
  auto shape = vanilla::update_shape(sector_size);
  if (!shape) return shape.error();
  auto circuit = UpdateCircuit::blank(*shape);
  if (!circuit) return circuit.error();
  return std::unique_ptr<r1cs::Circuit>(std::make_unique<UpdateCircuit>(std::move(*circuit)));
}

Result<std::unique_ptr<r1cs::Circuit>> update_partition_circuit(
    uint64_t update_proof_id, const UpdatePartitionProof& proof, size_t k, const Domain& comm_r_old,
    const Domain& comm_d_new, const Domain& comm_r_new, std::vector<Fr>& public_inputs) {
  auto shape = shape_of(update_proof_id);
  if (!shape) return shape.error();
  auto inputs = inputs_of(*shape, k, comm_r_old, comm_d_new, comm_r_new);
  if (!inputs) return inputs.error();
  auto part = update_partition_from_vanilla(*shape, proof, *inputs);
  if (!part) return part.error();
  public_inputs = std::move(part->public_inputs);
  return std::unique_ptr<r1cs::Circuit>(std::make_unique<UpdateCircuit>(std::move(part->circuit)));
}

Result<std::vector<Fr>> update_public_inputs(uint64_t update_proof_id, size_t k, const Domain& comm_r_old,
                                             const Domain& comm_d_new, const Domain& comm_r_new) {
  auto shape = shape_of(update_proof_id);
  if (!shape) return shape.error();
  auto inputs = inputs_of(*shape, k, comm_r_old, comm_d_new, comm_r_new);
  if (!inputs) return inputs.error();
  auto out = update_public_inputs(*shape, *inputs);
  if (!out) return make_input_error(out.message());
  return out;
}

}  // namespace cuzk::filecoin
