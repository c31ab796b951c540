// Counting helpers of the SnapDeals count tests.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "filecoin/circuits/update_circuit.hpp"
#include "filecoin/circuits/update_gadgets.hpp"
#include "r1cs/counting_system.hpp"

namespace cuzk::filecoin::test {

// The blank circuit of `shape`, counted.
inline r1cs::ShapeCounts count_update(const vanilla::UpdateShape& shape) {
  r1cs::ShapeCounts n;
  auto circuit = UpdateCircuit::blank(shape);
  EXPECT_TRUE(circuit.ok()) << circuit.message();
  if (!circuit) return n;
  r1cs::CountingSystem cs;
  const Status s = circuit->synthesize(cs);
  EXPECT_TRUE(s.ok()) << s.message();
  n.constraints = cs.num_constraints();
  n.inputs = cs.num_inputs();
  n.aux = cs.num_aux();
  return n;
}

// Rows of apex_por alone over `apex_leaves` leaves and log2(partitions) partition levels.
inline size_t count_apex_por(size_t partitions, size_t apex_leaves) {
  r1cs::CountingSystem cs;
  std::vector<r1cs::AllocatedNum> leaves, path;
  std::vector<r1cs::AllocatedBit> bits;
  const auto comm_d = r1cs::AllocatedNum::alloc(cs, Fr::zero());
  for (size_t p = partitions; p > 1; p /= 2) {
    bits.push_back(r1cs::AllocatedBit::alloc(cs, false));
    path.push_back(r1cs::AllocatedNum::alloc(cs, Fr::zero()));
  }
  for (size_t j = 0; j < apex_leaves; ++j) leaves.push_back(r1cs::AllocatedNum::alloc(cs, Fr::zero()));
  const size_t before = cs.num_constraints();
  const Status s = apex_por(cs, leaves, bits, path, comm_d);
  EXPECT_TRUE(s.ok()) << s.message();
  return cs.num_constraints() - before;
}

}  // namespace cuzk::filecoin::test
