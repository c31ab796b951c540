#include "filecoin/vanilla/post_virtual.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>

#include "filecoin/circuits/post_challenges.hpp"
#include "filecoin/vanilla/merkle_tree.hpp"
#include "filecoin/vanilla/parallel.hpp"
#include "filecoin/vanilla/poseidon.hpp"
#include "filecoin/vanilla/virtual_sector.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

// The leaves the verifier challenges in the sector, in the order of its inclusion proofs:
// WindowPoSt its own, WinningPoSt those of each circuit sector in turn.
std::vector<uint64_t> challenged_leaves(const FallbackPostParams& p, PostKind kind, const Domain& randomness,
                                        uint64_t sector_id, uint64_t sector_index) {
  if (kind == PostKind::window) return post_sector_challenges(p, randomness, sector_id, sector_index);
  std::vector<uint64_t> leaves;
  for (uint64_t j = 0; j < p.sector_count; ++j) {
    const auto block = post_sector_challenges(p, randomness, sector_id, j);
    leaves.insert(leaves.end(), block.begin(), block.end());
  }
  return leaves;
}

Result<FallbackPostSectorProof> virtual_sector(const FallbackPostParams& p, const TreeLayout& layout,
                                               const VirtualPostRequest& r, uint64_t i) {
  // A stream per sector, so the sectors do not depend on how they are split among threads.
  std::seed_seq seq{r.rng_seed, i};
  std::mt19937_64 rng(seq);
  const uint64_t id = r.first_sector_id + i;
  const std::vector<uint64_t> leaves =
      challenged_leaves(p, r.type.kind, r.randomness, id, r.first_sector_index + i);
  std::map<uint64_t, Domain> marked;
  for (uint64_t leaf : leaves) marked[leaf] = random_domain(rng);
  const Domain comm_c = random_domain(rng);
  auto tree = MerkleTree::sparse(layout, marked, random_domain(rng));
  if (!tree) return tree.error();
  const Domain pair[2] = {comm_c, tree->root()};
  auto comm_r = poseidon_merkle(pair);
  if (!comm_r) return comm_r.error();

  FallbackPostSectorProof out;
  out.sector_id = id;
  out.comm_r = *comm_r;
  PostSectorProof proof;
  proof.comm_c = comm_c;
  proof.comm_r_last = tree->root();
  proof.inclusion_proofs.reserve(leaves.size());
  for (uint64_t leaf : leaves) proof.inclusion_proofs.push_back(tree->proof(leaf));
  out.sectors.push_back(std::move(proof));
  return out;
}

}  // namespace

Result<std::vector<FallbackPostSectorProof>> virtual_post_proofs(const VirtualPostRequest& r) {
  const std::string kind(to_string(r.type.kind));
  auto params = fallback_post_params(r.type.kind, r.type.sector_size, r.type.api_version);
  if (!params) return make_input_error(params.message());
  if (r.sectors == 0) return make_input_error(kind + ": no sectors asked for");
  if (r.type.kind == PostKind::winning && r.sectors != 1)
    return make_input_error(kind + " proves one sector, " + std::to_string(r.sectors) + " asked for");
  CUZK_TRY_STATUS(check_post_randomness(r.randomness));
  auto layout = poseidon_layout(params->tree, params->nodes());
  if (!layout) return layout.error();

  std::vector<FallbackPostSectorProof> out(r.sectors);
  std::mutex mu;
  std::optional<Error> first_error;
  std::atomic<bool> failed{false};
  parallel_for(r.sectors, 8, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e && !failed; ++i) {
      auto sector = virtual_sector(*params, *layout, r, i);
      if (!sector) {
        std::lock_guard lock(mu);
        if (!failed.exchange(true)) first_error = sector.error();
        return;
      }
      out[i] = std::move(*sector);
    }
  });
  if (first_error) return *first_error;
  return out;
}

}  // namespace cuzk::filecoin::vanilla
