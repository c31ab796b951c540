// Many scalar multiplications of one fixed point (the generator), for the setup: a table of
// 2^w multiples per w-bit window turns each product into 256/w mixed additions, and the results
// are brought to affine in batches with one inversion each.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "common/thread_pool.hpp"
#include "curve/point.hpp"
#include "field/fields.hpp"

namespace cuzk::groth16 {

template <class Affine, class Jacobian>
class FixedBaseTable {
 public:
  static constexpr unsigned kWindow = 8;
  static constexpr unsigned kWindows = (255 + kWindow - 1) / kWindow;

  explicit FixedBaseTable(const Affine& base) : table_(curve::window_table(base, kWindow, kWindows)) {}

  Jacobian mul(const Fr& k) const {
    uint64_t v[Fr::N];
    k.to_canonical(v);
    Jacobian acc = Jacobian::infinity();
    for (unsigned w = 0; w < kWindows; ++w) {
      const unsigned bit = w * kWindow;
      const unsigned digit = unsigned(v[bit / 64] >> (bit % 64)) & ((1u << kWindow) - 1);
      if (digit) acc = acc.add_mixed(table_[(size_t(w) << kWindow) + digit]);
    }
    return acc;
  }

  // out[i] = scalars[i]·base, in affine, on all threads of the pool.
  void mul_many(std::span<const Fr> scalars, std::span<Affine> out, ThreadPool& pool) const {
    pool.for_ranges(scalars.size(), 256, [&](size_t begin, size_t end) {
      std::vector<Jacobian> tmp(end - begin);
      for (size_t i = begin; i < end; ++i) tmp[i - begin] = mul(scalars[i]);
      curve::batch_to_affine(tmp.data(), out.data() + begin, tmp.size());
    });
  }

 private:
  std::vector<Affine> table_;
};

}  // namespace cuzk::groth16
