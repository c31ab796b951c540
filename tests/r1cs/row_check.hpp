// Comparing recorded constraint rows with rows written out by hand from upstream's gadget source.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "r1cs/matrices.hpp"

namespace cuzk::r1cs::test {

// A small integer as a field element (negative values as r - |k|).
inline Fr small(int64_t k) { return k < 0 ? -Fr::from_u64(uint64_t(-k)) : Fr::from_u64(uint64_t(k)); }

// One side of a row by variables: {{v, 2}, {Variable::one(), -1}}.
using Side = std::vector<std::pair<Variable, Fr>>;
inline Side side(std::initializer_list<std::pair<Variable, int64_t>> terms) {
  Side s;
  for (const auto& [v, k] : terms) s.emplace_back(v, small(k));
  return s;
}

// The side in wire numbering, merged per wire, without zero terms, sorted.
inline SparseRow to_wires(const Side& s, uint32_t num_inputs) {
  SparseRow row;
  for (const auto& [v, k] : s) {
    const uint32_t wire = v.is_input() ? v.index : num_inputs + v.index;
    auto it = std::find_if(row.begin(), row.end(), [&](const auto& t) { return t.first == wire; });
    if (it == row.end()) {
      row.emplace_back(wire, k);
    } else {
      it->second += k;
    }
  }
  std::erase_if(row, [](const auto& t) { return t.second.is_zero(); });
  std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return row;
}

inline SparseRow sorted(SparseRow row) {
  std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return row;
}

inline bool same_row(const SparseRow& x, const SparseRow& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i].first != y[i].first || x[i].second != y[i].second) return false;
  return true;
}

// Row k of m is (a)·(b) = (c).
inline ::testing::AssertionResult row_is(const ConstraintMatrices& m, size_t k, const Side& a, const Side& b,
                                         const Side& c) {
  if (k >= m.num_constraints()) return ::testing::AssertionFailure() << "no row " << k;
  const char* names[3] = {"A", "B", "C"};
  const SparseRow* got[3] = {&m.a[k], &m.b[k], &m.c[k]};
  const Side* want[3] = {&a, &b, &c};
  for (int s = 0; s < 3; ++s) {
    if (!same_row(sorted(*got[s]), to_wires(*want[s], m.num_inputs)))
      return ::testing::AssertionFailure()
             << "row " << k << ": side " << names[s] << " differs (" << got[s]->size() << " terms recorded, "
             << to_wires(*want[s], m.num_inputs).size() << " expected)";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace cuzk::r1cs::test
