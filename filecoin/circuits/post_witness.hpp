// A FallbackPoSt partition's witness left to the prover's backend (backend/deferred_witness.hpp):
// its blocks (post_witness_blocks.hpp) computed on the device where the build has one, from the
// circuit sectors' commitments and paths, instead of by witness-only synthesis on the host.
//
// The values are the ones synthesize_post_witness gives, variable for variable; the inputs (ONE,
// then per circuit sector comm_r and each challenge's leaf index) are computed here, at once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backend/deferred_witness.hpp"
#include "common/result.hpp"
#include "filecoin/circuits/post_circuit.hpp"
#include "filecoin/circuits/post_witness_blocks.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin {

class PostWitness final : public DeferredWitness {
 public:
  // The program of `circuit`'s witness; an error for a tree the blocks do not cover (arities other
  // than 2, 4 and 8, more than 16 levels or 64 index bits).
  static Result<std::shared_ptr<const PostWitness>> create(const FallbackPostCircuit& circuit);

  size_t num_aux() const override { return size_t(geometry_.num_aux()); }
  std::string describe() const override;
  Status fill_host(std::span<Fr> aux, unsigned threads) const override;
  bool has_device_form() const override;
  size_t device_scratch_bytes() const override;
  Status fill_device(Fr* aux, void* scratch, void* stream) const override;

  const post_witness::Geometry& geometry() const { return geometry_; }
  // ONE, then per circuit sector comm_r and one leaf index per challenge (the circuit's inputs).
  const std::vector<Fr>& inputs() const { return inputs_; }
  // The rows of the prover's system: the circuit's constraints and one per input.
  size_t witness_rows() const { return rows_; }

 private:
  PostWitness() = default;
  // The error for the first block whose root is not its sector's comm_r_last (UINT64_MAX: none).
  Status verdict(uint64_t first_bad) const;

  post_witness::Geometry geometry_;
  std::vector<Fr> tables_, sectors_;
  std::vector<uint64_t> indices_;
  std::vector<Fr> inputs_;
  size_t rows_ = 0;
  bool check_roots_ = false;
};

// The partition's witness-only assignment with its auxiliaries deferred: inputs set, aux_assignment
// `storage` sized to the witness (values pending), witness_rows set, `deferred` the program. Ready
// for r1cs::attach_compiled.
Result<r1cs::Assignment> post_witness_deferred(const FallbackPostCircuit& circuit,
                                               std::vector<Fr> storage = {});

}  // namespace cuzk::filecoin
