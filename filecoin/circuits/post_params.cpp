#include "filecoin/circuits/post_params.hpp"

#include <bit>
#include <string>

namespace cuzk::filecoin {

std::string_view to_string(PostKind kind) { return kind == PostKind::window ? "WindowPoSt" : "WinningPoSt"; }

Result<size_t> post_base_levels(const FallbackPostParams& params) {
  const TreeShape& t = params.tree;
  const std::string what = "FallbackPoSt: a sector of " + std::to_string(params.sector_size) +
                           " bytes in a tree of shape " + t.name();
  if (params.challenge_count == 0 || params.sector_count == 0)
    return make_error("FallbackPoSt: " + std::to_string(params.sector_count) + " sectors of " +
                      std::to_string(params.challenge_count) + " challenges; both must be at least 1");
  if (t.base_arity < 2 || !std::has_single_bit(t.base_arity))
    return make_error(what + ": the base arity is not a power of two ≥ 2");
  if (t.top_arity && !t.sub_arity) return make_error(what + ": a top level without a sub level");
  const uint64_t nodes = params.nodes(), trees = t.base_trees();
  if (params.sector_size % 32 != 0 || nodes == 0 || nodes % trees != 0)
    return make_error(what + ": the nodes do not split into " + std::to_string(trees) + " base trees");
  const uint64_t leaves = nodes / trees;
  const unsigned bits = unsigned(std::countr_zero(t.base_arity));
  if (!std::has_single_bit(leaves) || std::countr_zero(leaves) % bits != 0 || leaves < t.base_arity)
    return make_error(what + ": " + std::to_string(leaves) + " leaves per base tree are not a power of " +
                      std::to_string(t.base_arity));
  return size_t(std::countr_zero(leaves) / bits);
}

Result<FallbackPostParams> fallback_post_params(PostKind kind, uint64_t sector_size,
                                                PostApiVersion api_version) {
  const auto shape = sector_shape(sector_size);
  if (!shape)
    return make_error(std::string(to_string(kind)) + ": no Filecoin sector has " +
                      std::to_string(sector_size) + " bytes");
  FallbackPostParams p;
  p.sector_size = sector_size;
  p.tree = shape->tree;
  p.api_version = api_version;
  if (kind == PostKind::window) {
    p.challenge_count = shape->window_post_challenges;
    p.sector_count = shape->window_post_sectors;
  } else {
    p.challenge_count = shape->winning_post_challenges;
    p.sector_count = shape->winning_post_sectors;
  }
  CUZK_TRY_STATUS(post_base_levels(p));
  return p;
}

}  // namespace cuzk::filecoin
