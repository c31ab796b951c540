#include "filecoin/vanilla/update.hpp"

#include <string>

#include "filecoin/vanilla/fr32.hpp"
#include "filecoin/vanilla/hashes.hpp"
#include "filecoin/vanilla/parallel.hpp"
#include "filecoin/vanilla/poseidon.hpp"
#include "filecoin/vanilla/update_challenges.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

// ρ of every value of a node's top h bits.
std::vector<Fr> rho_table(const Fr& phi, unsigned h) {
  std::vector<Fr> rho(uint64_t(1) << h);
  parallel_for(rho.size(), 64, [&](uint64_t b, uint64_t e) {
    for (uint64_t high = b; high < e; ++high) rho[high] = update_rho(phi, high);
  });
  return rho;
}

}  // namespace

Result<UpdatedSector> encode_update(const UpdateShape& shape, const MerkleTree& tree_r_old,
                                    const Domain& comm_c, std::vector<Domain> data_new, unsigned h) {
  CUZK_TRY_STATUS(shape.h_select(h));
  if (data_new.size() != shape.nodes || tree_r_old.layout().leaves != shape.nodes)
    return make_input_error("SnapDeals: " + std::to_string(data_new.size()) +
                            " data nodes and an old replica of " +
                            std::to_string(tree_r_old.layout().leaves) + " for a sector of " +
                            std::to_string(shape.nodes) + " nodes");
  UpdatedSector u;
  u.shape = shape;
  u.h = h;
  u.comm_c = comm_c;
  u.comm_r_last_old = tree_r_old.root();
  const Domain pair_old[2] = {comm_c, u.comm_r_last_old};
  auto comm_r_old = poseidon_merkle(pair_old);
  if (!comm_r_old) return make_input_error("SnapDeals: comm_c is not a field element");
  u.comm_r_old = *comm_r_old;

  auto tree_d = MerkleTree::dense(binary_sha_layout(shape.challenge_bits), std::move(data_new));
  if (!tree_d) return tree_d.error();
  u.tree_d_new = std::move(*tree_d);
  u.comm_d_new = u.tree_d_new.root();
  u.phi = update_phi(*domain_to_fr(u.comm_d_new), *domain_to_fr(u.comm_r_old));

  const std::vector<Fr> rho = rho_table(u.phi, h);
  std::vector<Domain> replica(shape.nodes);
  bool bad = false;
  parallel_for(shape.nodes, 4096, [&](uint64_t b, uint64_t e) {
    for (uint64_t v = b; v < e; ++v) {
      const auto old = domain_to_fr(tree_r_old.leaf(v));
      const auto data = domain_to_fr(u.tree_d_new.leaf(v));
      if (!old || !data) {
        bad = true;
        return;
      }
      replica[v] = fr_to_domain(*old + *data * rho[update_high_bits(shape, v, h)]);
    }
  });
  if (bad) return make_input_error("SnapDeals: a data or old replica node is not a field element");

  auto layout = poseidon_layout(shape.tree, shape.nodes);
  if (!layout) return layout.error();
  auto tree_r = MerkleTree::dense(*layout, std::move(replica));
  if (!tree_r) return tree_r.error();
  u.tree_r_new = std::move(*tree_r);
  u.comm_r_last_new = u.tree_r_new.root();
  const Domain pair_new[2] = {comm_c, u.comm_r_last_new};
  u.comm_r_new = poseidon_merkle(pair_new).value();
  return u;
}

Result<UpdatedSector> update_test_sector(const TestSector& sealed, std::span<const uint8_t> raw, unsigned h) {
  auto shape = update_shape(sealed.info.shape.sector_size);
  if (!shape) return shape.error();
  if (raw.size() > fr32_unpadded_size(shape->sector_size()))
    return make_input_error("SnapDeals: " + std::to_string(raw.size()) +
                            " bytes of new data do not fit a sector of " +
                            std::to_string(shape->sector_size()) + " bytes");
  return encode_update(*shape, sealed.tree_r_last, sealed.comm_c, fr32_pad(raw, shape->nodes), h);
}

UpdateView update_view(const TestSector& sealed, const UpdatedSector& updated) {
  UpdateView v;
  v.shape = &updated.shape;
  v.tree_r_old = &sealed.tree_r_last;
  v.tree_d_new = &updated.tree_d_new;
  v.tree_r_new = &updated.tree_r_new;
  v.comm_c = updated.comm_c;
  v.comm_r_new = updated.comm_r_new;
  return v;
}

Result<std::vector<Domain>> update_apex_leaves(const UpdateShape& shape, const MerkleTree& tree_d_new,
                                               uint64_t k) {
  if (k >= shape.partitions)
    return make_input_error("SnapDeals: partition " + std::to_string(k) + " of " +
                            std::to_string(shape.partitions));
  const unsigned height = shape.apex_height();
  std::vector<Domain> leaves;
  for (uint64_t j = 0; j < shape.apex_leaves; ++j) {
    // The node at `height` above the first leaf under it: hash up that leaf's path.
    const MerkleProof p = tree_d_new.proof((k * shape.apex_leaves + j) << height);
    Domain cur = p.leaf;
    for (unsigned l = 0; l < height; ++l) {
      const PathElement& e = p.base[l];
      cur = e.index == 0 ? sha254_node(cur, e.hashes[0]) : sha254_node(e.hashes[0], cur);
    }
    leaves.push_back(cur);
  }
  return leaves;
}

Result<UpdatePartitionProof> update_partition_proof(const UpdateView& view, uint64_t k) {
  const UpdateShape& shape = *view.shape;
  auto apex = update_apex_leaves(shape, *view.tree_d_new, k);
  if (!apex) return apex.error();
  auto comm_r_new = domain_to_fr(view.comm_r_new);
  if (!comm_r_new) return make_input_error("SnapDeals: comm_r_new is not a field element");
  UpdatePartitionProof proof;
  proof.comm_c = view.comm_c;
  proof.apex_leafs = std::move(*apex);
  const std::vector<uint64_t> challenges = update_challenges(shape, *comm_r_new, k);
  proof.challenge_proofs.resize(challenges.size());
  parallel_for(challenges.size(), 4, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) {
      const uint64_t c = challenges[i];
      proof.challenge_proofs[i] = {view.tree_r_old->proof(c), view.tree_d_new->proof(c),
                                   view.tree_r_new->proof(c)};
    }
  });
  return proof;
}

Result<std::vector<UpdatePartitionProof>> update_vanilla_proofs(const UpdateView& view) {
  std::vector<UpdatePartitionProof> out;
  for (uint64_t k = 0; k < view.shape->partitions; ++k) {
    auto p = update_partition_proof(view, k);
    if (!p) return p.error();
    out.push_back(std::move(*p));
  }
  return out;
}

}  // namespace cuzk::filecoin::vanilla
