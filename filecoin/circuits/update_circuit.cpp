#include "filecoin/circuits/update_circuit.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "filecoin/circuits/update_gadgets.hpp"
#include "filecoin/por/insertion.hpp"
#include "filecoin/vanilla/merkle_tree.hpp"
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
using vanilla::UpdateShape;

namespace {

constexpr size_t kHs = 6;

Result<std::vector<PathLevel>> tree_r_levels(const UpdateShape& shape) {
  auto layout = vanilla::poseidon_layout(shape.tree, shape.nodes);
  if (!layout) return make_error("SnapDeals: " + layout.message());
  return poseidon_path_levels(shape.tree, layout->base_levels);
}

// The partition path: the top partition_bits siblings of a tree_d path.
std::span<const Fr> partition_path(const UpdateShape& shape, const UpdateChallengeWitness& c) {
  return std::span<const Fr>(c.path_d_new).subspan(shape.random_bits());
}

Status check_path(const std::string& what, const std::vector<std::vector<Fr>>& path,
                  std::span<const PathLevel> levels) {
  if (path.size() != levels.size())
    return make_input_error(what + " has " + std::to_string(path.size()) + " levels, TreeR has " +
                            std::to_string(levels.size()));
  for (size_t l = 0; l < path.size(); ++l)
    if (path[l].size() + 1 != levels[l].arity)
      return make_input_error(what + " level " + std::to_string(l) + " has " +
                              std::to_string(path[l].size()) + " siblings for arity " +
                              std::to_string(levels[l].arity));
  return Status::Ok();
}

// What circuit.rs asserts before synthesis, as errors.
Status check_witness(const UpdateShape& shape, std::span<const PathLevel> levels_r, const UpdateWitness& w) {
  const std::string at = "SnapDeals circuit: ";
  const unsigned pb = shape.partition_bits;
  uint64_t v[Fr::N];
  w.k_and_h_select.to_canonical(v);
  for (size_t i = 1; i < Fr::N; ++i)
    if (v[i]) return make_input_error(at + "k_and_h_select has bits above partition and h-select bits");
  const uint64_t k = v[0] & ((uint64_t(1) << pb) - 1), select = v[0] >> pb;
  if (k >= shape.partitions)
    return make_input_error(at + "partition " + std::to_string(k) + " of " +
                            std::to_string(shape.partitions));
  if (select >= (uint64_t(1) << kHs) || std::popcount(select) != 1)
    return make_input_error(at + "h_select " + std::to_string(select) +
                            " does not have exactly one of 6 bits set");
  if (w.apex_leaves.size() != shape.apex_leaves || w.challenges.size() != shape.challenges)
    return make_input_error(at + std::to_string(w.apex_leaves.size()) + " apex leaves and " +
                            std::to_string(w.challenges.size()) + " challenges, expected " +
                            std::to_string(shape.apex_leaves) + " and " + std::to_string(shape.challenges));
  for (size_t i = 0; i < w.challenges.size(); ++i) {
    const UpdateChallengeWitness& c = w.challenges[i];
    const std::string ch = at + "challenge " + std::to_string(i) + ": ";
    CUZK_TRY_STATUS(check_path(ch + "path_r_old", c.path_r_old, levels_r));
    CUZK_TRY_STATUS(check_path(ch + "path_r_new", c.path_r_new, levels_r));
    if (c.path_d_new.size() != shape.challenge_bits)
      return make_input_error(ch + "path_d_new has " + std::to_string(c.path_d_new.size()) +
                              " levels, tree_d has " + std::to_string(shape.challenge_bits));
    const auto mine = partition_path(shape, c), first = partition_path(shape, w.challenges[0]);
    if (!std::equal(mine.begin(), mine.end(), first.begin(), first.end()))
      return make_input_error(ch + "the partition path differs from challenge 0's");
  }
  return Status::Ok();
}

std::vector<AllocatedNum> alloc_all(ConstraintSystem& cs, std::span<const Fr> values) {
  std::vector<AllocatedNum> out;
  out.reserve(values.size());
  for (const Fr& x : values) out.push_back(AllocatedNum::alloc(cs, x));
  return out;
}

std::vector<std::vector<Num>> alloc_path(ConstraintSystem& cs, const std::vector<std::vector<Fr>>& path) {
  std::vector<std::vector<Num>> out;
  for (const std::vector<Fr>& level : path) {
    std::vector<Num> siblings;
    for (const Fr& s : level) siblings.push_back(Num::alloc(cs, s));
    out.push_back(std::move(siblings));
  }
  return out;
}

// The top part's variables: those the challenges read, and those gen_challenge_bits reads.
struct Shared {
  UpdateTopVariables top;
  AllocatedNum partition, comm_r_new;
};

AllocatedNum alloc_public(ConstraintSystem& cs, const Fr& value) {
  const AllocatedNum x = AllocatedNum::alloc(cs, value);
  r1cs::inputize(cs, x.num());
  return x;
}

// Steps 1–8: the public inputs, φ, the private commitments, comm_r and the apex PoR.
Result<Shared> synthesize_shared(ConstraintSystem& cs, const UpdateShape& shape, const UpdateWitness& w) {
  Shared s;
  UpdateTopVariables& t = s.top;
  const AllocatedNum k_and_h_select = alloc_public(cs, w.k_and_h_select);
  LinearCombination decomposition;
  for (unsigned i = 0; i < shape.partition_bits + kHs; ++i) {
    const AllocatedBit bit = AllocatedBit::alloc(cs, r1cs::canonical_bit(w.k_and_h_select, i));
    decomposition.add(bit.variable(), r1cs::power_of_two(i));
    (i < shape.partition_bits ? t.partition_bits : t.h_select_bits).push_back(bit);
  }
  cs.enforce(decomposition, Variable::one(), k_and_h_select.variable);
  const std::vector<Boolean> partition_booleans(t.partition_bits.begin(), t.partition_bits.end());
  s.partition = r1cs::pack_bits(cs, partition_booleans);

  const AllocatedNum comm_r_old = alloc_public(cs, w.comm_r_old);
  const AllocatedNum comm_d_new = alloc_public(cs, w.comm_d_new);
  s.comm_r_new = alloc_public(cs, w.comm_r_new);
  auto phi = gen_randomness_circuit(cs, comm_d_new, comm_r_old);
  if (!phi) return make_error("SnapDeals: phi: " + phi.message());
  t.phi = *phi;

  const AllocatedNum comm_c = AllocatedNum::alloc(cs, w.comm_c);
  t.root_r_old = AllocatedNum::alloc(cs, w.root_r_old);
  t.root_r_new = AllocatedNum::alloc(cs, w.root_r_new);
  t.apex_leaves = alloc_all(cs, w.apex_leaves);
  const std::vector<AllocatedNum> partition_siblings = alloc_all(cs, partition_path(shape, w.challenges[0]));

  for (const auto& [root, comm_r] :
       {std::pair{t.root_r_old, comm_r_old}, std::pair{t.root_r_new, s.comm_r_new}}) {
    const Num pair[2] = {comm_c.num(), root.num()};
    auto calc = r1cs::poseidon_hash_circuit(cs, r1cs::poseidon_constants_2(), pair);
    if (!calc) return make_error("SnapDeals: comm_r: " + calc.message());
    cs.enforce(calc->lc, Variable::one(), comm_r.variable);
  }
  CUZK_TRY_STATUS(apex_por(cs, t.apex_leaves, t.partition_bits, partition_siblings, comm_d_new));
  return s;
}

// Step 10 for one challenge.
Status synthesize_one_challenge(ConstraintSystem& cs, const UpdateShape& shape,
                                std::span<const PathLevel> levels_r, const UpdateTopVariables& s,
                                std::vector<AllocatedBit> c_bits, const UpdateChallengeWitness& w) {
  c_bits.insert(c_bits.end(), s.partition_bits.begin(), s.partition_bits.end());
  auto c_high = get_challenge_high_bits(cs, c_bits, s.h_select_bits, shape.hs);
  if (!c_high) return c_high.error();
  auto rho = gen_randomness_circuit(cs, s.phi, *c_high);
  if (!rho) return make_error("rho: " + rho.message());

  const AllocatedNum leaf_r_old = AllocatedNum::alloc(cs, w.leaf_r_old);
  const AllocatedNum leaf_d_new = AllocatedNum::alloc(cs, w.leaf_d_new);
  const AllocatedNum leaf_r_new = label_r_new(cs, leaf_r_old, leaf_d_new, *rho);

  const auto path_r_old = alloc_path(cs, w.path_r_old);
  Status st = por_no_challenge_input(cs, levels_r, c_bits, leaf_r_old.num(), path_r_old, s.root_r_old.num());
  if (!st) return make_error("tree_r_old: " + st.message());
  const auto path_r_new = alloc_path(cs, w.path_r_new);
  st = por_no_challenge_input(cs, levels_r, c_bits, leaf_r_new.num(), path_r_new, s.root_r_new.num());
  if (!st) return make_error("tree_r_new: " + st.message());

  const unsigned height = shape.apex_height();
  const std::vector<Boolean> apex_bits(c_bits.begin() + height, c_bits.begin() + height + shape.apex_bits);
  std::vector<Num> apex_leaves;
  for (const AllocatedNum& a : s.apex_leaves) apex_leaves.push_back(a.num());
  auto apex_leaf = select(cs, apex_leaves, apex_bits);
  if (!apex_leaf) return apex_leaf.error();
  std::vector<std::vector<Num>> path_to_apex;
  for (unsigned l = 0; l < height; ++l) path_to_apex.push_back({Num::alloc(cs, w.path_d_new[l])});
  st = por_no_challenge_input(cs, sha254_path_levels(height),
                              std::span<const AllocatedBit>(c_bits).first(height), leaf_d_new.num(),
                              path_to_apex, *apex_leaf);
  if (!st) return make_error("tree_d_new: " + st.message());
  return Status::Ok();
}

}  // namespace

Result<UpdateCircuit> UpdateCircuit::blank(const UpdateShape& shape) {
  auto levels = tree_r_levels(shape);
  if (!levels) return levels.error();
  UpdateWitness w;
  w.k_and_h_select = Fr::from_u64(uint64_t(1) << shape.partition_bits);  // k = 0, the first h
  w.apex_leaves.assign(shape.apex_leaves, Fr::zero());
  UpdateChallengeWitness c;
  for (const PathLevel& l : *levels) c.path_r_old.emplace_back(l.arity - 1, Fr::zero());
  c.path_r_new = c.path_r_old;
  c.path_d_new.assign(shape.challenge_bits, Fr::zero());
  w.challenges.assign(shape.challenges, c);
  return UpdateCircuit(shape, std::move(*levels), std::move(w), true);
}

Result<UpdateCircuit> UpdateCircuit::create(const UpdateShape& shape, UpdateWitness witness) {
  auto levels = tree_r_levels(shape);
  if (!levels) return levels.error();
  CUZK_TRY_STATUS(check_witness(shape, *levels, witness));
  return UpdateCircuit(shape, std::move(*levels), std::move(witness), false);
}

std::vector<Fr> UpdateCircuit::public_inputs() const {
  return {witness_.k_and_h_select, witness_.comm_r_old, witness_.comm_d_new, witness_.comm_r_new};
}

Result<UpdateTopVariables> UpdateCircuit::synthesize_top(ConstraintSystem& cs) const {
  auto shared = synthesize_shared(cs, shape_, witness_);
  if (!shared) return shared.error();
  auto bits =
      gen_challenge_bits(cs, shared->comm_r_new, shared->partition, shape_.challenges, shape_.random_bits());
  if (!bits) return make_error("SnapDeals: " + bits.message());
  shared->top.challenge_bits = std::move(*bits);
  return std::move(shared->top);
}

Status UpdateCircuit::synthesize_challenge(ConstraintSystem& cs, const UpdateTopVariables& top,
                                           size_t i) const {
  if (i >= top.challenge_bits.size() || i >= witness_.challenges.size())
    return make_error("SnapDeals: challenge " + std::to_string(i) + " of " +
                      std::to_string(shape_.challenges));
  return synthesize_one_challenge(cs, shape_, levels_r_, top, top.challenge_bits[i], witness_.challenges[i]);
}

Status UpdateCircuit::synthesize(ConstraintSystem& cs) const {
  auto top = synthesize_top(cs);
  if (!top) return top.error();
  for (size_t i = 0; i < shape_.challenges; ++i) {
    Status s = synthesize_challenge(cs, *top, i);
    if (!s) return make_error("SnapDeals: challenge " + std::to_string(i) + ": " + s.message());
  }
  return Status::Ok();
}

}  // namespace cuzk::filecoin
