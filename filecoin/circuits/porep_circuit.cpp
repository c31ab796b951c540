#include "filecoin/circuits/porep_circuit.hpp"

#include <span>
#include <string>

#include "filecoin/gadgets/bits.hpp"
#include "filecoin/gadgets/create_label.hpp"
#include "filecoin/gadgets/sha254.hpp"
#include "filecoin/gadgets/uint64.hpp"
#include "r1cs/gadgets/poseidon.hpp"
#include "r1cs/gadgets/uint32.hpp"

namespace cuzk::filecoin {

using r1cs::Boolean;
using r1cs::ConstraintSystem;
using r1cs::Num;
using r1cs::Variable;

namespace {

Status check_path(std::span<const PathLevel> levels, std::span<const PathLevelValues> path,
                  const std::string& what) {
  if (path.size() != levels.size())
    return make_input_error(what + " has " + std::to_string(path.size()) + " levels, the tree " +
                            std::to_string(levels.size()));
  for (size_t l = 0; l < path.size(); ++l)
    if (path[l].siblings.size() + 1 != levels[l].arity || path[l].index >= levels[l].arity)
      return make_input_error(what + " level " + std::to_string(l) + " has " +
                              std::to_string(path[l].siblings.size()) + " siblings and index " +
                              std::to_string(path[l].index) + " for arity " +
                              std::to_string(levels[l].arity));
  return Status::Ok();
}

Status check_columns(const PorepParams& params, std::span<const PathLevel> tree_cr,
                     std::span<const PorepColumnWitness> columns, size_t expected, const std::string& what) {
  if (columns.size() != expected)
    return make_input_error(std::to_string(columns.size()) + " " + what + " columns, expected " +
                            std::to_string(expected));
  for (size_t p = 0; p < columns.size(); ++p) {
    const std::string name = what + " parent " + std::to_string(p);
    if (columns[p].rows.size() != params.layers)
      return make_input_error(name + " has " + std::to_string(columns[p].rows.size()) + " rows for " +
                              std::to_string(params.layers) + " layers");
    CUZK_TRY_STATUS(check_path(tree_cr, columns[p].path, name + " path"));
  }
  return Status::Ok();
}

Status check_challenge(const PorepParams& params, std::span<const PathLevel> tree_d,
                       std::span<const PathLevel> tree_cr, const PorepChallengeWitness& w) {
  CUZK_TRY_STATUS(check_path(tree_d, w.comm_d_path, "comm_d path"));
  CUZK_TRY_STATUS(check_columns(params, tree_cr, w.drg_parents, kPorepDrgParents, "drg"));
  CUZK_TRY_STATUS(check_columns(params, tree_cr, w.exp_parents, kPorepExpParents, "exp"));
  CUZK_TRY_STATUS(check_path(tree_cr, w.comm_r_last_path, "comm_r_last path"));
  CUZK_TRY_STATUS(check_path(tree_cr, w.comm_c_path, "comm_c path"));
  if (w.challenge >= params.nodes)
    return make_input_error("challenge " + std::to_string(w.challenge) + " is not a node of " +
                            std::to_string(params.nodes));
  return Status::Ok();
}

PorepChallengeWitness zero_challenge(const PorepParams& params, std::span<const PathLevel> tree_d,
                                     std::span<const PathLevel> tree_cr) {
  auto zero_path = [](std::span<const PathLevel> levels) {
    std::vector<PathLevelValues> path;
    for (const PathLevel& l : levels) path.push_back({std::vector<Fr>(l.arity - 1, Fr::zero()), 0});
    return path;
  };
  const PorepColumnWitness column{std::vector<Fr>(params.layers, Fr::zero()), zero_path(tree_cr)};
  PorepChallengeWitness w;
  w.comm_d_path = zero_path(tree_d);
  w.drg_parents.assign(kPorepDrgParents, column);
  w.exp_parents.assign(kPorepExpParents, column);
  w.comm_r_last_path = zero_path(tree_cr);
  w.comm_c_path = zero_path(tree_cr);
  return w;
}

// PoRCircuit::synthesize with a leaf and root already in the circuit and a private root.
Status enforce_inclusion(ConstraintSystem& cs, std::span<const PathLevel> levels,
                         std::span<const PathLevelValues> path, const Num& leaf, const Num& root,
                         const char* what) {
  Status s = synthesize_por(cs, levels, leaf, path, root, /*root_private=*/true);
  if (!s) return make_error(std::string(what) + ": " + s.message());
  return Status::Ok();
}

// A column's rows allocated in order (column.rs `Column::alloc`).
std::vector<Num> alloc_column(ConstraintSystem& cs, std::span<const Fr> rows) {
  std::vector<Num> out;
  out.reserve(rows.size());
  for (const Fr& r : rows) out.push_back(Num::alloc(cs, r));
  return out;
}

// The 37 parents of a label from the decomposed parents of its layer (6, or 14 after layer 1).
std::vector<std::span<const Boolean>> expand_parents(const std::vector<std::vector<Boolean>>& parents) {
  std::vector<std::span<const Boolean>> out;
  out.reserve(kLabelParents);
  if (parents.size() == kPorepDrgParents) {
    for (int round = 0; round < 6; ++round)
      for (const auto& p : parents) out.emplace_back(p);
    out.emplace_back(parents[0]);
  } else {
    for (int round = 0; round < 2; ++round)
      for (const auto& p : parents) out.emplace_back(p);
    for (size_t p = 0; p < 9; ++p) out.emplace_back(parents[p]);
  }
  return out;
}

}  // namespace

PorepCircuit::PorepCircuit(PorepParams params, PorepTreeLevels levels, PorepWitness witness, bool blank)
    : params_(params),
      tree_d_levels_(sha254_path_levels(levels.tree_d)),
      column_hash_(*r1cs::poseidon_constants(params.layers)),  // porep_tree_levels checked it
      witness_(std::move(witness)),
      blank_(blank) {
  tree_cr_levels_ = *poseidon_path_levels(params.tree, levels.tree_cr_base);  // likewise
}

Result<PorepCircuit> PorepCircuit::blank(const PorepParams& params) {
  auto levels = porep_tree_levels(params);
  if (!levels) return levels.error();
  PorepCircuit c(params, *levels, {}, true);
  c.witness_.challenges.push_back(zero_challenge(params, c.tree_d_levels_, c.tree_cr_levels_));
  return c;
}

Result<PorepCircuit> PorepCircuit::create(const PorepParams& params, PorepWitness witness) {
  auto levels = porep_tree_levels(params);
  if (!levels) return levels.error();
  if (witness.challenges.size() != params.challenge_count)
    return make_input_error("PoRep: " + std::to_string(witness.challenges.size()) +
                            " challenges for a circuit of " + std::to_string(params.challenge_count));
  PorepCircuit c(params, *levels, std::move(witness), false);
  for (size_t i = 0; i < params.challenge_count; ++i) {
    Status s = check_challenge(params, c.tree_d_levels_, c.tree_cr_levels_, c.witness_.challenges[i]);
    if (!s) return make_input_error("PoRep: challenge " + std::to_string(i) + ": " + s.message());
  }
  return c;
}

Result<PorepTopVariables> PorepCircuit::synthesize_top(ConstraintSystem& cs) const {
  const PorepWitness& w = witness_;
  const Num replica_id = Num::alloc(cs, w.replica_id);
  r1cs::inputize(cs, replica_id);
  PorepTopVariables top;
  top.replica_id_bits = reverse_bit_numbering(r1cs::to_bits_le(cs, replica_id));
  top.comm_d = Num::alloc(cs, w.comm_d);
  r1cs::inputize(cs, top.comm_d);
  const Num comm_r = Num::alloc(cs, w.comm_r);
  r1cs::inputize(cs, comm_r);
  top.comm_r_last = Num::alloc(cs, w.comm_r_last);
  top.comm_c = Num::alloc(cs, w.comm_c);
  const Num pair[2] = {top.comm_c, top.comm_r_last};
  auto h = r1cs::poseidon_hash_circuit(cs, r1cs::poseidon_constants_2(), pair);
  if (!h) return make_error("PoRep: comm_r hash: " + h.message());
  cs.enforce(comm_r.lc, Variable::one(), h->lc);
  return top;
}

Status PorepCircuit::synthesize_challenge(ConstraintSystem& cs, const PorepTopVariables& top,
                                          size_t i) const {
  if (i >= params_.challenge_count)
    return make_error("PoRep: challenge " + std::to_string(i) + " of a circuit of " +
                      std::to_string(params_.challenge_count));
  const PorepChallengeWitness& w = challenge(i);
  const Num data_leaf = Num::alloc(cs, w.data_leaf);
  CUZK_TRY_STATUS(
      enforce_inclusion(cs, tree_d_levels_, w.comm_d_path, data_leaf, top.comm_d, "comm_d inclusion"));

  // The parents' columns: allocated, hashed and opened in tree_c, DRG parents first.
  std::vector<std::vector<Num>> columns;
  for (const auto* set : {&w.drg_parents, &w.exp_parents}) {
    for (const PorepColumnWitness& col : *set) {
      columns.push_back(alloc_column(cs, col.rows));
      auto hash = r1cs::poseidon_hash_circuit(cs, *column_hash_, columns.back());
      if (!hash) return make_error("PoRep: parent column hash: " + hash.message());
      CUZK_TRY_STATUS(
          enforce_inclusion(cs, tree_cr_levels_, col.path, *hash, top.comm_c, "parent inclusion"));
    }
  }

  const UInt64 node = UInt64::alloc(cs, w.challenge);
  node.pack_into_input(cs);

  std::vector<Num> labels;
  for (size_t layer = 1; layer <= params_.layers; ++layer) {
    std::vector<std::vector<Boolean>> parents;
    for (size_t p = 0; p < kPorepDrgParents; ++p)
      parents.push_back(reverse_bit_numbering(r1cs::to_bits_le(cs, columns[p][layer - 1])));
    if (layer > 1)
      for (size_t p = kPorepDrgParents; p < columns.size(); ++p)
        parents.push_back(reverse_bit_numbering(r1cs::to_bits_le(cs, columns[p][layer - 2])));
    auto label = create_label_circuit(cs, top.replica_id_bits, expand_parents(parents),
                                      r1cs::UInt32::constant(uint32_t(layer)), node);
    if (!label) return make_error("PoRep: layer " + std::to_string(layer) + " label: " + label.message());
    labels.push_back(label->num());
  }

  // encode: enc = label_layers + data_leaf, (label + data)·(ONE) = (enc).
  const Num enc = Num::alloc(cs, labels.back().value + data_leaf.value);
  cs.enforce(labels.back().lc + data_leaf.lc, Variable::one(), enc.lc);
  CUZK_TRY_STATUS(enforce_inclusion(cs, tree_cr_levels_, w.comm_r_last_path, enc, top.comm_r_last,
                                    "comm_r_last inclusion"));

  auto column = r1cs::poseidon_hash_circuit(cs, *column_hash_, labels);
  if (!column) return make_error("PoRep: challenged column hash: " + column.message());
  return enforce_inclusion(cs, tree_cr_levels_, w.comm_c_path, *column, top.comm_c, "comm_c inclusion");
}

Status PorepCircuit::synthesize(ConstraintSystem& cs) const {
  auto top = synthesize_top(cs);
  if (!top) return top.error();
  for (size_t i = 0; i < params_.challenge_count; ++i) CUZK_TRY_STATUS(synthesize_challenge(cs, *top, i));
  return Status::Ok();
}

}  // namespace cuzk::filecoin
