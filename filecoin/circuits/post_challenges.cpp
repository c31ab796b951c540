#include "filecoin/circuits/post_challenges.hpp"

#include <array>
#include <string>

#include "r1cs/gadgets/sha256.hpp"

namespace cuzk::filecoin {

namespace {

void put_u64_le(uint8_t* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = uint8_t(v >> (8 * i));
}

}  // namespace

uint64_t post_challenge_index(PostApiVersion version, uint64_t sector_index, uint64_t challenge_count,
                              uint64_t n) {
  return version == PostApiVersion::v1_2_0 ? n : sector_index * challenge_count + n;
}

uint64_t post_leaf_challenge(const Domain& randomness, uint64_t sector_id, uint64_t challenge_index,
                             uint64_t nodes) {
  std::array<uint8_t, 48> message{};
  std::copy(randomness.begin(), randomness.end(), message.begin());
  put_u64_le(message.data() + 32, sector_id);
  put_u64_le(message.data() + 40, challenge_index);
  const auto digest = r1cs::sha256(message);
  uint64_t x = 0;
  for (int i = 0; i < 8; ++i) x |= uint64_t(digest[size_t(i)]) << (8 * i);
  return x % nodes;
}

std::vector<uint64_t> post_sector_challenges(const FallbackPostParams& params, const Domain& randomness,
                                             uint64_t sector_id, uint64_t sector_index) {
  std::vector<uint64_t> leaves;
  leaves.reserve(params.challenge_count);
  for (uint64_t n = 0; n < params.challenge_count; ++n) {
    const uint64_t index = post_challenge_index(params.api_version, sector_index, params.challenge_count, n);
    leaves.push_back(post_leaf_challenge(randomness, sector_id, index, params.nodes()));
  }
  return leaves;
}

Status check_post_randomness(const Domain& randomness) {
  if (!domain_to_fr(randomness))
    return make_input_error(
        "FallbackPoSt: the randomness is not a field element (≥ r); its top two bits "
        "must be clear");
  return Status::Ok();
}

Result<std::vector<Fr>> fallback_post_public_inputs(const FallbackPostParams& params,
                                                    const Domain& randomness,
                                                    std::span<const PostPublicSector> sectors,
                                                    size_t partition_index) {
  CUZK_TRY_STATUS(post_base_levels(params));
  CUZK_TRY_STATUS(check_post_randomness(randomness));
  if (sectors.empty() || sectors.size() > params.sector_count)
    return make_input_error("FallbackPoSt: " + std::to_string(sectors.size()) +
                            " sectors for a partition of 1 to " + std::to_string(params.sector_count));
  std::vector<Fr> inputs;
  inputs.reserve(params.num_public_inputs());
  for (size_t i = 0; i < sectors.size(); ++i) {
    const auto comm_r = domain_to_fr(sectors[i].comm_r);
    if (!comm_r)
      return make_input_error("FallbackPoSt: sector " + std::to_string(i) + " (id " +
                              std::to_string(sectors[i].id) + "): comm_r is not a field element");
    inputs.push_back(*comm_r);
    const uint64_t sector_index = uint64_t(partition_index) * params.sector_count + i;
    for (uint64_t leaf : post_sector_challenges(params, randomness, sectors[i].id, sector_index))
      inputs.push_back(Fr::from_u64(leaf));
  }
  // Too few sectors: the last sector's block again, as many times as it takes.
  const std::vector<Fr> last(inputs.end() - ptrdiff_t(1 + params.challenge_count), inputs.end());
  while (inputs.size() < params.num_public_inputs()) inputs.insert(inputs.end(), last.begin(), last.end());
  return inputs;
}

}  // namespace cuzk::filecoin
