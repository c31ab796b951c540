#include "filecoin/circuits/update_gadgets.hpp"

#include <bit>
#include <string>

#include "filecoin/gadgets/bits.hpp"
#include "filecoin/gadgets/sha254.hpp"
#include "r1cs/gadgets/multipack.hpp"
#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::filecoin {

using r1cs::AllocatedBit;
using r1cs::AllocatedNum;
using r1cs::Boolean;
using r1cs::ConstraintSystem;
using r1cs::LinearCombination;
using r1cs::Num;
using r1cs::Variable;

namespace {

// neptune's poseidon_hash ends in ensure_allocated: its result is one new variable.
Result<AllocatedNum> single_variable(const Result<Num>& x) {
  if (!x) return x.error();
  const auto terms = x->lc.terms();
  if (terms.size() != 1 || terms[0].coeff != Fr::one())
    return make_error("Poseidon's circuit result is not a single variable");
  return AllocatedNum{terms[0].var, x->value};
}

}  // namespace

Result<AllocatedNum> gen_randomness_circuit(ConstraintSystem& cs, const AllocatedNum& a,
                                            const AllocatedNum& b) {
  const Num preimage[2] = {a.num(), b.num()};
  return single_variable(r1cs::poseidon_hash_circuit(cs, r1cs::poseidon_constants_2(), preimage,
                                                     r1cs::PoseidonHashType::custom(1)));
}

Status apex_por(ConstraintSystem& cs, std::span<const AllocatedNum> apex_leaves,
                std::span<const AllocatedBit> partition_bits, std::span<const AllocatedNum> partition_path,
                const AllocatedNum& comm_d) {
  if (apex_leaves.empty() || !std::has_single_bit(apex_leaves.size()))
    return make_error("apex_por: " + std::to_string(apex_leaves.size()) + " apex leaves, not a power of two");
  std::vector<AllocatedNum> row(apex_leaves.begin(), apex_leaves.end());
  while (row.size() > 1) {
    std::vector<AllocatedNum> up;
    for (size_t j = 0; j < row.size(); j += 2)
      up.push_back(sha254_node_circuit(cs, row[j].num(), row[j + 1].num()));
    row = std::move(up);
  }
  std::vector<std::vector<Num>> siblings;
  for (const AllocatedNum& s : partition_path) siblings.push_back({s.num()});
  const std::vector<PathLevel> levels = sha254_path_levels(partition_path.size());
  Status s = por_no_challenge_input(cs, levels, partition_bits, row[0].num(), siblings, comm_d.num());
  if (!s) return make_error("apex_por: " + s.message());
  return Status::Ok();
}

Result<std::vector<std::vector<AllocatedBit>>> gen_challenge_bits(ConstraintSystem& cs,
                                                                  const AllocatedNum& comm_r_new,
                                                                  const AllocatedNum& partition,
                                                                  size_t challenges,
                                                                  size_t bits_per_challenge) {
  if (bits_per_challenge == 0 || bits_per_challenge > r1cs::kFrCapacity)
    return make_error("gen_challenge_bits: " + std::to_string(bits_per_challenge) + " bits per challenge");
  const size_t per_digest = r1cs::kFrCapacity / bits_per_challenge;
  const uint64_t digests = (challenges + per_digest - 1) / per_digest;
  std::vector<std::vector<AllocatedBit>> out;
  for (uint64_t j = 0; j < digests; ++j) {
    const Fr d = Fr::from_u64(digests), jf = Fr::from_u64(j);
    const AllocatedNum index = AllocatedNum::alloc(cs, partition.value * d + jf);
    LinearCombination lc(partition.variable, d);
    lc.add(Variable::one(), jf);  // a zero coefficient for j = 0, as upstream's LC has
    cs.enforce(lc, Variable::one(), index.variable);

    auto digest = gen_randomness_circuit(cs, comm_r_new, index);
    if (!digest)
      return make_error("gen_challenge_bits: digest " + std::to_string(j) + ": " + digest.message());
    const std::vector<AllocatedBit> bits = allocated_num_to_allocated_bits(cs, *digest);
    const size_t take = j + 1 == digests ? challenges - out.size() : per_digest;
    for (size_t c = 0; c < take; ++c) {
      const auto first = bits.begin() + ptrdiff_t(c * bits_per_challenge);
      out.emplace_back(first, first + ptrdiff_t(bits_per_challenge));
    }
  }
  return out;
}

Result<AllocatedNum> get_challenge_high_bits(ConstraintSystem& cs, std::span<const AllocatedBit> c_bits,
                                             std::span<const AllocatedBit> h_select_bits,
                                             std::span<const unsigned> hs) {
  if (hs.size() != h_select_bits.size())
    return make_error("get_challenge_high_bits: " + std::to_string(hs.size()) + " h values for " +
                      std::to_string(h_select_bits.size()) + " select bits");
  const std::vector<Boolean> bits(c_bits.begin(), c_bits.end());
  std::vector<AllocatedNum> zs;
  Fr sum = Fr::zero();
  for (size_t k = 0; k < hs.size(); ++k) {
    if (hs[k] > bits.size())
      return make_error("get_challenge_high_bits: h = " + std::to_string(hs[k]) + " of a " +
                        std::to_string(bits.size()) + "-bit challenge");
    const AllocatedNum packed = r1cs::pack_bits(cs, std::span<const Boolean>(bits).last(hs[k]));
    const AllocatedBit& select = h_select_bits[k];
    const AllocatedNum z = AllocatedNum::alloc(cs, select.value() ? packed.value : Fr::zero());
    cs.enforce(packed.variable, select.variable(), z.variable);
    sum += z.value;
    zs.push_back(z);
  }
  const AllocatedNum selected = AllocatedNum::alloc(cs, sum);
  LinearCombination lc;
  for (const AllocatedNum& z : zs) lc.add(z.variable, Fr::one());
  cs.enforce(lc, Variable::one(), selected.variable);
  return selected;
}

AllocatedNum label_r_new(ConstraintSystem& cs, const AllocatedNum& leaf_r_old, const AllocatedNum& leaf_d_new,
                         const AllocatedNum& rho) {
  const AllocatedNum m = r1cs::mul(cs, leaf_d_new.num(), rho.num());
  const AllocatedNum r = AllocatedNum::alloc(cs, leaf_r_old.value + m.value);
  LinearCombination lc(leaf_r_old.variable);
  lc.add(m.variable, Fr::one());
  cs.enforce(lc, Variable::one(), r.variable);
  return r;
}

}  // namespace cuzk::filecoin
