#include "filecoin/gadgets/create_label.hpp"

#include <string>
#include <vector>

#include "filecoin/gadgets/sha254.hpp"

namespace cuzk::filecoin {

using r1cs::Boolean;

Domain label_hash(const Domain& replica_id, uint32_t layer, uint64_t node, std::span<const Domain> parents) {
  // replica_id ‖ layer u32 BE ‖ node u64 BE ‖ 20 zero bytes: the first 64-byte block.
  uint8_t prefix[64] = {};
  std::copy(replica_id.begin(), replica_id.end(), prefix);
  for (int i = 0; i < 4; ++i) prefix[32 + i] = uint8_t(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) prefix[36 + i] = uint8_t(node >> (56 - 8 * i));
  // A Domain is 32 bytes with no padding, so the parents are one contiguous run.
  static_assert(sizeof(Domain) == 32);
  return sha254({prefix, {parents.empty() ? nullptr : parents.data()->data(), 32 * parents.size()}});
}

Result<r1cs::AllocatedNum> create_label_circuit(r1cs::ConstraintSystem& cs,
                                                std::span<const Boolean> replica_id,
                                                std::span<const std::span<const Boolean>> parents,
                                                const r1cs::UInt32& layer, const UInt64& node) {
  if (replica_id.size() < 32 || replica_id.size() > 256)
    return make_error("create_label_circuit: a replica id of " + std::to_string(replica_id.size()) +
                      " bits (needs 32 to 256)");
  if (parents.size() != kLabelParents)
    return make_error("create_label_circuit: " + std::to_string(parents.size()) + " parents (needs " +
                      std::to_string(kLabelParents) + ")");
  for (size_t p = 0; p < parents.size(); ++p)
    if (parents[p].empty() || parents[p].size() > 256)
      return make_error("create_label_circuit: parent " + std::to_string(p) + " has " +
                        std::to_string(parents[p].size()) + " bits (needs 1 to 256)");

  std::vector<Boolean> preimage;
  preimage.reserve((2 + kLabelParents) * 256);
  preimage.insert(preimage.end(), replica_id.begin(), replica_id.end());
  preimage.resize(256, Boolean::constant(false));
  const std::array<Boolean, 32> layer_bits = layer.bits_be();
  preimage.insert(preimage.end(), layer_bits.begin(), layer_bits.end());
  const std::array<Boolean, 64> node_bits = node.bits_be();
  preimage.insert(preimage.end(), node_bits.begin(), node_bits.end());
  preimage.resize(512, Boolean::constant(false));
  for (const std::span<const Boolean>& parent : parents) {
    preimage.insert(preimage.end(), parent.begin(), parent.end());
    preimage.resize((preimage.size() + 255) / 256 * 256, Boolean::constant(false));
  }
  return sha254_circuit(cs, preimage);
}

}  // namespace cuzk::filecoin
