#include "filecoin/vanilla/update_virtual.hpp"

#include <map>
#include <random>

#include "filecoin/vanilla/poseidon.hpp"
#include "filecoin/vanilla/update_challenges.hpp"
#include "filecoin/vanilla/virtual_sector.hpp"

namespace cuzk::filecoin::vanilla {

namespace {

std::map<uint64_t, Domain> random_nodes(std::mt19937_64& rng, uint64_t nodes, unsigned count) {
  std::map<uint64_t, Domain> out;
  while (out.size() < count && out.size() < nodes) out[rng() % nodes] = random_domain(rng);
  return out;
}

Result<Domain> comm_r_of(const Domain& comm_c, const Domain& root) {
  const Domain pair[2] = {comm_c, root};
  return poseidon_merkle(pair);
}

}  // namespace

UpdateView VirtualUpdate::view() const {
  UpdateView v;
  v.shape = &shape;
  v.tree_r_old = &tree_r_old;
  v.tree_d_new = &tree_d_new;
  v.tree_r_new = &tree_r_new;
  v.comm_c = comm_c;
  v.comm_r_new = comm_r_new;
  return v;
}

Result<VirtualUpdate> virtual_update(uint64_t sector_size, unsigned h, uint64_t rng_seed, unsigned marked) {
  auto shape = update_shape(sector_size);
  if (!shape) return shape.error();
  CUZK_TRY_STATUS(shape->h_select(h));
  auto layout_r = poseidon_layout(shape->tree, shape->nodes);
  if (!layout_r) return layout_r.error();

  std::mt19937_64 rng(rng_seed);
  VirtualUpdate u;
  u.shape = *shape;
  u.h = h;
  u.comm_c = random_domain(rng);
  const Domain old_default = random_domain(rng);
  const std::map<uint64_t, Domain> old_nodes = random_nodes(rng, shape->nodes, marked);
  const std::map<uint64_t, Domain> data_nodes = random_nodes(rng, shape->nodes, marked);

  auto tree_r_old = MerkleTree::sparse(*layout_r, old_nodes, old_default);
  if (!tree_r_old) return tree_r_old.error();
  u.tree_r_old = std::move(*tree_r_old);
  auto comm_r_old = comm_r_of(u.comm_c, u.tree_r_old.root());
  if (!comm_r_old) return comm_r_old.error();
  u.comm_r_old = *comm_r_old;
  auto tree_d = MerkleTree::sparse(binary_sha_layout(shape->challenge_bits), data_nodes, Domain{});
  if (!tree_d) return tree_d.error();
  u.tree_d_new = std::move(*tree_d);
  u.comm_d_new = u.tree_d_new.root();

  // The new replica differs from the old one only where the data is not zero.
  const Fr phi = update_phi(*domain_to_fr(u.comm_d_new), *domain_to_fr(u.comm_r_old));
  std::map<uint64_t, Domain> new_nodes = old_nodes;
  for (const auto& [v, data] : data_nodes) {
    const Fr rho = update_rho(phi, update_high_bits(*shape, v, h));
    const Fr old = *domain_to_fr(u.tree_r_old.leaf(v));
    new_nodes[v] = fr_to_domain(old + *domain_to_fr(data) * rho);
  }
  auto tree_r_new = MerkleTree::sparse(*layout_r, new_nodes, old_default);
  if (!tree_r_new) return tree_r_new.error();
  u.tree_r_new = std::move(*tree_r_new);
  auto comm_r_new = comm_r_of(u.comm_c, u.tree_r_new.root());
  if (!comm_r_new) return comm_r_new.error();
  u.comm_r_new = *comm_r_new;
  return u;
}

}  // namespace cuzk::filecoin::vanilla
