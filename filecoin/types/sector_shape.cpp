#include "filecoin/types/sector_shape.hpp"

#include <array>
#include <bit>
#include <string>

namespace cuzk::filecoin {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

SectorShape make(uint64_t size, TreeShape tree, unsigned layers, unsigned porep_partitions,
                 unsigned porep_challenges, unsigned ni_partitions, unsigned window_sectors) {
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
  return s;
}

const std::array<SectorShape, 5>& table() {
  static const std::array<SectorShape, 5> t = {
      make(2 * kKiB, {8, 0, 0}, 2, 1, 2, 13, 2),         make(8 * kMiB, {8, 0, 0}, 2, 1, 2, 13, 2),
      make(512 * kMiB, {8, 0, 0}, 2, 1, 2, 13, 2),       make(32 * kGiB, {8, 8, 0}, 11, 10, 18, 126, 2349),
      make(64 * kGiB, {8, 8, 2}, 11, 10, 18, 126, 2300),
  };
  return t;
}

}  // namespace

std::string TreeShape::name() const {
  return std::to_string(base_arity) + "-" + std::to_string(sub_arity) + "-" + std::to_string(top_arity);
}

std::span<const SectorShape> sector_shapes() { return table(); }

std::optional<SectorShape> sector_shape(uint64_t sector_size) {
  for (const SectorShape& s : table())
    if (s.sector_size == sector_size) return s;
  return std::nullopt;
}

}  // namespace cuzk::filecoin
