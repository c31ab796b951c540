#include "filecoin/proofs/porep_inputs.hpp"

#include <string>

#include "filecoin/vanilla/challenges.hpp"
#include "filecoin/vanilla/graph.hpp"
#include "filecoin/vanilla/seal_proof.hpp"

namespace cuzk::filecoin {
namespace {

Result<Fr> field_element(const Domain& d, const char* name, bool nonzero) {
  auto x = domain_to_fr(d);
  if (!x) return make_input_error(std::string("C1: ") + name + " is not a field element");
  if (nonzero && x->is_zero()) return make_input_error(std::string("C1: ") + name + " is all zeros");
  return *x;
}

}  // namespace

Result<std::vector<Fr>> porep_public_inputs(const SealCommitPhase1Output& c1, const Domain& replica_id,
                                            size_t partition) {
  auto info = vanilla::seal_proof_info(c1.registered_proof);
  if (!info) return make_input_error("C1: " + info.message());
  if (partition >= info->partitions)
    return make_input_error("C1: partition " + std::to_string(partition) + " of " +
                            std::to_string(info->partitions));
  auto rid = field_element(replica_id, "replica_id", false);
  if (!rid) return rid.error();
  auto comm_d = field_element(c1.comm_d, "comm_d", true);
  if (!comm_d) return comm_d.error();
  auto comm_r = field_element(c1.comm_r, "comm_r", true);
  if (!comm_r) return comm_r.error();
  if (c1.seed == Domain{}) return make_input_error("C1: seed is all zeros");

  const vanilla::StackedGraph graph(info->shape.nodes, info->porep_id, info->api);
  const auto challenges =
      vanilla::porep_challenges(*info, replica_id, c1.comm_r, c1.seed, unsigned(partition));
  std::vector<Fr> inputs = {*rid, *comm_d, *comm_r};
  inputs.reserve(3 + challenges.size() * 18);
  for (uint64_t c : challenges) {
    uint32_t parents[vanilla::kParents];
    graph.parents(c, parents);
    const Fr fc = Fr::from_u64(c);
    inputs.push_back(fc);
    for (uint32_t p : parents) inputs.push_back(Fr::from_u64(p));
    for (int i = 0; i < 3; ++i) inputs.push_back(fc);
  }
  return inputs;
}

}  // namespace cuzk::filecoin
