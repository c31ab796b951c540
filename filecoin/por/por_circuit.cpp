#include "filecoin/por/por_circuit.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "filecoin/gadgets/sha254.hpp"
#include "filecoin/por/insertion.hpp"

namespace cuzk::filecoin {

using r1cs::AllocatedBit;
using r1cs::Boolean;
using r1cs::ConstraintSystem;
using r1cs::LinearCombination;
using r1cs::Num;
using r1cs::Variable;

namespace {

constexpr size_t kPackCapacity = 254;  // Fr::CAPACITY

Status check_level(const PathLevel& level, size_t i) {
  if (level.arity < 2 || !std::has_single_bit(level.arity))
    return make_error("PoR: level " + std::to_string(i) + " has arity " + std::to_string(level.arity) +
                      ", not a power of two ≥ 2");
  if (!level.hash) return make_error("PoR: level " + std::to_string(i) + " has no node hash");
  return Status::Ok();
}

// insert, then the level's hash.
Result<Num> hash_level(ConstraintSystem& cs, const PathLevel& level, size_t i, const Num& cur,
                       std::span<const AllocatedBit> bits, std::span<const Num> siblings) {
  auto preimage = insert(cs, cur, bits, siblings);
  if (!preimage) return make_error("PoR: level " + std::to_string(i) + ": " + preimage.message());
  auto node = level.hash(cs, *preimage);
  if (!node) return make_error("PoR: level " + std::to_string(i) + ": " + node.message());
  return node;
}

Num allocated(ConstraintSystem& cs, const ValueOrNum& x) {
  if (const Fr* value = std::get_if<Fr>(&x)) return Num::alloc(cs, *value);
  return std::get<Num>(x);
}

// bellpepper's AllocatedNum::inputize: input p; (p)·(ONE) = (x).
void inputize_as_bellpepper(ConstraintSystem& cs, const Num& x) {
  const Variable p = cs.alloc_input(x.value);
  cs.enforce(p, Variable::one(), x.lc);
}

}  // namespace

CircuitNodeHash poseidon_node_hash(const r1cs::PoseidonConstants& constants) {
  const r1cs::PoseidonConstants* c = &constants;  // the cached constants outlive every circuit
  return [c](ConstraintSystem& cs, std::span<const Num> children) {
    return r1cs::poseidon_hash_circuit(cs, *c, children);
  };
}

Result<std::vector<PathLevel>> poseidon_path_levels(const TreeShape& shape, size_t base_levels) {
  if (shape.top_arity && !shape.sub_arity)
    return make_error("PoR: tree shape " + shape.name() + " has a top level without a sub level");
  std::vector<PathLevel> levels;
  auto add = [&](unsigned arity, size_t count) -> Status {
    auto c = r1cs::poseidon_constants(arity);
    if (!c) return make_error("PoR: tree shape " + shape.name() + ": " + c.message());
    for (size_t i = 0; i < count; ++i) levels.push_back({arity, poseidon_node_hash(**c)});
    return Status::Ok();
  };
  CUZK_TRY_STATUS(add(shape.base_arity, base_levels));
  if (shape.sub_arity) CUZK_TRY_STATUS(add(shape.sub_arity, 1));
  if (shape.top_arity) CUZK_TRY_STATUS(add(shape.top_arity, 1));
  return levels;
}

std::vector<Variable> pack_into_inputs(ConstraintSystem& cs, std::span<const Boolean> bits) {
  std::vector<Variable> inputs;
  for (size_t start = 0; start < bits.size(); start += kPackCapacity) {
    const size_t n = std::min(kPackCapacity, bits.size() - start);
    LinearCombination lc;
    Fr value = Fr::zero();
    for (size_t i = 0; i < n; ++i) {
      const Fr& coeff = r1cs::power_of_two(unsigned(i));
      lc.add(bits[start + i].lc(coeff));
      if (bits[start + i].value()) value += coeff;
    }
    const Variable p = cs.alloc_input(value);
    cs.enforce(lc, Variable::one(), p);
    inputs.push_back(p);
  }
  return inputs;
}

Status synthesize_por(ConstraintSystem& cs, std::span<const PathLevel> levels, const ValueOrNum& leaf,
                      std::span<const PathLevelValues> path, const ValueOrNum& root, bool root_private,
                      Fr* reached) {
  if (path.size() != levels.size())
    return make_error("PoR: a path of " + std::to_string(path.size()) + " levels for a tree of " +
                      std::to_string(levels.size()));
  for (size_t i = 0; i < levels.size(); ++i) {
    CUZK_TRY_STATUS(check_level(levels[i], i));
    if (path[i].siblings.size() + 1 != levels[i].arity)
      return make_error("PoR: level " + std::to_string(i) + " has " +
                        std::to_string(path[i].siblings.size()) + " siblings for arity " +
                        std::to_string(levels[i].arity));
    if (path[i].index >= levels[i].arity)
      return make_error("PoR: level " + std::to_string(i) + " index " + std::to_string(path[i].index) +
                        " out of range for arity " + std::to_string(levels[i].arity));
  }

  Num cur = allocated(cs, leaf);
  std::vector<Boolean> all_bits;
  for (size_t i = 0; i < levels.size(); ++i) {
    const unsigned bit_count = unsigned(std::countr_zero(levels[i].arity));
    std::vector<AllocatedBit> bits;
    for (unsigned b = 0; b < bit_count; ++b)
      bits.push_back(AllocatedBit::alloc(cs, (path[i].index >> b) & 1));
    all_bits.insert(all_bits.end(), bits.begin(), bits.end());
    std::vector<Num> siblings;
    for (const Fr& s : path[i].siblings) siblings.push_back(Num::alloc(cs, s));
    auto node = hash_level(cs, levels[i], i, cur, bits, siblings);
    if (!node) return node.error();
    cur = std::move(*node);
  }

  if (reached) *reached = cur.value;
  pack_into_inputs(cs, all_bits);
  const Num rt = allocated(cs, root);
  cs.enforce(cur.lc, Variable::one(), rt.lc);
  if (!root_private) inputize_as_bellpepper(cs, rt);
  return Status::Ok();
}

Status por_no_challenge_input(ConstraintSystem& cs, std::span<const PathLevel> levels,
                              std::span<const AllocatedBit> challenge_bits, const Num& leaf,
                              std::span<const std::vector<Num>> siblings, const Num& root) {
  if (siblings.size() != levels.size())
    return make_error("PoR: " + std::to_string(siblings.size()) + " sibling sets for a tree of " +
                      std::to_string(levels.size()) + " levels");
  size_t need = 0;
  for (size_t i = 0; i < levels.size(); ++i) {
    CUZK_TRY_STATUS(check_level(levels[i], i));
    if (siblings[i].size() + 1 != levels[i].arity)
      return make_error("PoR: level " + std::to_string(i) + " has " + std::to_string(siblings[i].size()) +
                        " siblings for arity " + std::to_string(levels[i].arity));
    need += size_t(std::countr_zero(levels[i].arity));
  }
  if (challenge_bits.size() != need)
    return make_error("PoR: " + std::to_string(challenge_bits.size()) +
                      " challenge bits for a path that takes " + std::to_string(need));

  Num cur = leaf;
  size_t used = 0;
  for (size_t i = 0; i < levels.size(); ++i) {
    const size_t bit_count = size_t(std::countr_zero(levels[i].arity));
    auto node = hash_level(cs, levels[i], i, cur, challenge_bits.subspan(used, bit_count), siblings[i]);
    if (!node) return node.error();
    cur = std::move(*node);
    used += bit_count;
  }
  cs.enforce(cur.lc, Variable::one(), root.lc);
  return Status::Ok();
}

std::vector<PathLevel> sha254_path_levels(size_t levels) {
  const CircuitNodeHash hash = [](ConstraintSystem& cs, std::span<const Num> children) -> Result<Num> {
    return sha254_multi_leaf_circuit(cs, children).num();
  };
  return std::vector<PathLevel>(levels, PathLevel{2, hash});
}

}  // namespace cuzk::filecoin
