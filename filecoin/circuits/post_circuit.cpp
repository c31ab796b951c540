#include "filecoin/circuits/post_circuit.hpp"

#include <string>

#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::filecoin {

using r1cs::ConstraintSystem;
using r1cs::Num;
using r1cs::Variable;

namespace {

// bellpepper's AllocatedNum::inputize: input p, (p)·(ONE) = (x). The one place this circuit makes
// a number public, so that it can move to r1cs/gadgets/num.hpp's inputize once that has this form.
void inputize_bellpepper(ConstraintSystem& cs, const Num& x) {
  const Variable p = cs.alloc_input(x.value);
  cs.enforce(p, Variable::one(), x.lc);
}

Status check_sector(const FallbackPostParams& params, std::span<const PathLevel> levels,
                    const PostCircuitSector& s, size_t i) {
  const std::string at = "FallbackPoSt: circuit sector " + std::to_string(i) + ": ";
  if (s.leaves.size() != params.challenge_count || s.paths.size() != params.challenge_count)
    return make_input_error(at + std::to_string(s.leaves.size()) + " leaves and " +
                            std::to_string(s.paths.size()) + " paths for " +
                            std::to_string(params.challenge_count) + " challenges");
  for (size_t c = 0; c < s.paths.size(); ++c) {
    const auto& path = s.paths[c];
    const std::string ch = at + "challenge " + std::to_string(c) + ": ";
    if (path.size() != levels.size())
      return make_input_error(ch + "a path of " + std::to_string(path.size()) + " levels for a tree of " +
                              std::to_string(levels.size()));
    for (size_t l = 0; l < path.size(); ++l) {
      if (path[l].siblings.size() + 1 != levels[l].arity || path[l].index >= levels[l].arity)
        return make_input_error(ch + "level " + std::to_string(l) + " has " +
                                std::to_string(path[l].siblings.size()) + " siblings and index " +
                                std::to_string(path[l].index) + " for arity " +
                                std::to_string(levels[l].arity));
    }
  }
  return Status::Ok();
}

Result<std::vector<PathLevel>> levels_of(const FallbackPostParams& params) {
  auto base_levels = post_base_levels(params);
  if (!base_levels) return base_levels.error();
  return poseidon_path_levels(params.tree, *base_levels);
}

}  // namespace

Status synthesize_post_sector(ConstraintSystem& cs, std::span<const PathLevel> levels,
                              const PostCircuitSector& sector, bool check_roots) {
  const Num comm_r_last = Num::alloc(cs, sector.comm_r_last);
  const Num comm_c = Num::alloc(cs, sector.comm_c);
  const Num comm_r = Num::alloc(cs, sector.comm_r);
  inputize_bellpepper(cs, comm_r);

  const Num preimage[2] = {comm_c, comm_r_last};
  auto h = r1cs::poseidon_hash_circuit(cs, r1cs::poseidon_constants_2(), preimage);
  if (!h) return make_error("FallbackPoSt: comm_r hash: " + h.message());
  cs.enforce(comm_r.lc, Variable::one(), h->lc);

  const bool compare = check_roots && cs.has_values();
  for (size_t c = 0; c < sector.leaves.size(); ++c) {
    Fr reached;
    Status s = synthesize_por(cs, levels, sector.leaves[c], sector.paths[c], comm_r_last,
                              /*root_private=*/true, compare ? &reached : nullptr);
    if (!s) return make_error("FallbackPoSt: challenge " + std::to_string(c) + ": " + s.message());
    if (compare && reached != sector.comm_r_last)
      return make_input_error("challenge " + std::to_string(c) + "'s path does not reach comm_r_last");
  }
  return Status::Ok();
}

Result<FallbackPostCircuit> FallbackPostCircuit::blank(const FallbackPostParams& params) {
  auto levels = levels_of(params);
  if (!levels) return levels.error();
  PostCircuitSector zero;
  zero.comm_r = zero.comm_c = zero.comm_r_last = Fr::zero();
  zero.leaves.assign(params.challenge_count, Fr::zero());
  std::vector<PathLevelValues> path;
  for (const PathLevel& l : *levels) path.push_back({std::vector<Fr>(l.arity - 1, Fr::zero()), 0});
  zero.paths.assign(params.challenge_count, path);
  std::vector<PostCircuitSector> sectors;
  sectors.push_back(std::move(zero));
  return FallbackPostCircuit(params, std::move(*levels), std::move(sectors), true);
}

Result<FallbackPostCircuit> FallbackPostCircuit::create(const FallbackPostParams& params,
                                                        std::vector<PostCircuitSector> sectors) {
  auto levels = levels_of(params);
  if (!levels) return levels.error();
  if (sectors.empty() || sectors.size() > params.sector_count)
    return make_input_error("FallbackPoSt: " + std::to_string(sectors.size()) +
                            " circuit sectors for a circuit of " + std::to_string(params.sector_count));
  for (size_t i = 0; i < sectors.size(); ++i) CUZK_TRY_STATUS(check_sector(params, *levels, sectors[i], i));
  return FallbackPostCircuit(params, std::move(*levels), std::move(sectors), false);
}

Status FallbackPostCircuit::synthesize(ConstraintSystem& cs) const {
  return synthesize_sectors(cs, 0, params_.sector_count);
}

Status FallbackPostCircuit::synthesize_sectors(ConstraintSystem& cs, size_t begin, size_t end) const {
  if (begin > end || end > params_.sector_count)
    return make_error("FallbackPoSt: sectors [" + std::to_string(begin) + ", " + std::to_string(end) +
                      ") of a circuit of " + std::to_string(params_.sector_count));
  for (size_t i = begin; i < end; ++i) {
    Status s = synthesize_post_sector(cs, levels_, sector(i), check_roots_);
    if (!s) return in_context("circuit sector " + std::to_string(i) + ": ", s.error());
  }
  return Status::Ok();
}

}  // namespace cuzk::filecoin
