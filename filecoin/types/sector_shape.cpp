#include "filecoin/types/sector_shape.hpp"

#include <array>
#include <bit>

namespace cuzk::filecoin {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

SectorShape make(uint64_t size, TreeShape tree, unsigned layers, unsigned porep_partitions,
                 unsigned porep_challenges, unsigned ni_partitions, unsigned window_sectors,
                 unsigned update_partitions, unsigned update_challenges, unsigned apex_leaves,
                 bool small_update) {
  SectorShape s;
  s.sector_size = size;
  s.nodes = size / 32;
  s.log2_nodes = unsigned(std::countr_zero(s.nodes));
  s.tree = tree;
  s.layers = layers;
  s.column_arity = layers;
  s.porep_partitions = porep_partitions;
  s.porep_challenges = porep_challenges;
  s.ni_porep_partitions = ni_partitions;
  s.window_post_sectors = window_sectors;
  s.update_partitions = update_partitions;
  s.update_challenges = update_challenges;
  s.update_apex_leaves = apex_leaves;
  // storage-proofs-update constants.rs: the 2 KiB sector has one h value; the others choose among
  // 7…12 with 10 the default.
  if (small_update) {
    for (unsigned& h : s.update_hs) h = 1;
    s.update_h_default = 1;
  } else {
    for (unsigned i = 0; i < 6; ++i) s.update_hs[i] = 7 + i;
    s.update_h_default = 10;
  }
  return s;
}

const std::array<SectorShape, 5>& table() {
  static const std::array<SectorShape, 5> t = {
      make(2 * kKiB, {8, 0, 0}, 2, 1, 2, 13, 2, 1, 10, 8, true),
      make(8 * kMiB, {8, 0, 0}, 2, 1, 2, 13, 2, 4, 10, 128, false),
      make(512 * kMiB, {8, 0, 0}, 2, 1, 2, 13, 2, 16, 86, 128, false),
      make(32 * kGiB, {8, 8, 0}, 11, 10, 18, 126, 2349, 16, 86, 128, false),
      make(64 * kGiB, {8, 8, 2}, 11, 10, 18, 126, 2300, 16, 86, 128, false),
  };
  return t;
}

}  // namespace

std::string TreeShape::name() const {
  return std::to_string(base_arity) + "-" + std::to_string(sub_arity) + "-" + std::to_string(top_arity);
}

unsigned SectorShape::update_partition_bits() const { return unsigned(std::countr_zero(update_partitions)); }
unsigned SectorShape::update_apex_bits() const { return unsigned(std::countr_zero(update_apex_leaves)); }
unsigned SectorShape::update_h_select() const {
  for (unsigned i = 0; i < 6; ++i)
    if (update_hs[i] == update_h_default) return 1u << i;
  return 0;
}

std::span<const SectorShape> sector_shapes() { return table(); }

std::optional<SectorShape> sector_shape(uint64_t sector_size) {
  for (const SectorShape& s : table())
    if (s.sector_size == sector_size) return s;
  return std::nullopt;
}

}  // namespace cuzk::filecoin
