// The FallbackPoSt witness as straight-line code, one definition for the host and the device.
//
// A FallbackPoSt partition's auxiliaries fall into blocks of fixed size: per circuit sector a header
// (comm_r_last, comm_c, comm_r, then the comm_r hash's Poseidon variables) and, after it, one block
// per challenge (the leaf, then per path level its index bits, its siblings, the insertion's picks
// and the level hash's Poseidon variables). Each block depends only on its sector's commitments and
// its own path, so the blocks are computed independently, in any order, on any number of threads
// or device threads; the values are the ones the gadgets allocate (post_circuit.cpp, por_circuit.cpp,
// insertion.cpp, r1cs/gadgets/poseidon_circuit.cpp in witness mode), variable for variable, which
// tests/filecoin_circuits/post_witness_test.cpp checks against witness-only synthesis.
//
// Everything here is plain data and CUZK_HD functions: the tables and the sector data are flat
// arrays of Fr whose offsets the geometry records, so that the same bytes serve the host and, copied
// as they are, the device.
#pragma once

#include <cstddef>
#include <cstdint>

#include "field/fields.hpp"
#include "field/hd.hpp"

namespace cuzk::filecoin::post_witness {

constexpr unsigned kMaxLevels = 16;  // a 64 GiB tree has 11
constexpr unsigned kMaxWidth = 9;    // arity 8, the widest FallbackPoSt hashes
constexpr unsigned kTables = 4;      // indexed by log2(arity): 1 (arity 2), 2 (4), 3 (8)

// One Poseidon arity's constants, as offsets into the flat table array (neptune's optimized form,
// r1cs/gadgets/poseidon.hpp): compressed round constants (R_F·t + R_P), the MDS matrix and the
// pre-sparse matrix (t × t, row-major), the sparse matrices' dense columns (R_P × t) and rows
// without their first element (R_P × (t − 1)), and the Merkle domain tag.
struct TableOffsets {
  uint32_t width = 0;  // 0: this arity is not used
  uint32_t half_full_rounds = 0;
  uint32_t partial_rounds = 0;
  uint32_t round_constants = 0;
  uint32_t mds = 0;
  uint32_t pre_sparse = 0;
  uint32_t w_hat = 0;
  uint32_t v_rest = 0;
  uint32_t tag = 0;
  uint32_t variables = 0;  // the circuit hash's aux variables, 3(t−1) + 4t(R_F−1) + 4R_P + 1
};

// The partition's layout. Sector data (sector_words Fr per circuit sector, a repeated one's
// repeated): comm_r, comm_c,
// comm_r_last, then per challenge the leaf and every level's siblings in stored order. Path
// indices: one uint64_t per (sector, challenge), level l's index at bit index_shift[l].
struct Geometry {
  uint32_t levels = 0;
  uint8_t arity[kMaxLevels] = {};
  uint8_t index_shift[kMaxLevels] = {};
  uint32_t challenge_count = 0;  // per circuit sector
  uint32_t sector_count = 0;     // circuit sectors in the partition
  uint32_t challenge_words = 0;  // 1 + Σ (arity − 1)
  uint32_t sector_words = 0;     // 3 + challenge_count · challenge_words
  uint64_t header_vars = 0;      // 3 + the comm_r hash's variables
  uint64_t challenge_vars = 0;
  uint64_t sector_vars = 0;  // header_vars + challenge_count · challenge_vars
  TableOffsets tables[kTables];

  CUZK_HD uint64_t num_aux() const { return sector_vars * sector_count; }
  CUZK_HD uint64_t blocks() const { return uint64_t(sector_count) * (1 + challenge_count); }
};

// Variables of one level's insertion (insertion.cpp): arity 2 two picks, 4 eight, 8 the NOR and
// AND of the low bits and twenty picks.
CUZK_HD uint32_t insertion_vars(uint32_t arity) { return arity == 2 ? 2 : arity == 4 ? 8 : 22; }

namespace detail {

CUZK_HD Fr pow5(const Fr& x) { return x.sqr().sqr() * x; }

CUZK_HD Fr bit(uint64_t b) { return b ? Fr::one() : Fr::zero(); }

// s ← s·m, m dense t × t, row-major (state a row vector).
CUZK_HD void mix_dense(Fr* s, const Fr* m, uint32_t t) {
  Fr r[kMaxWidth];
  for (uint32_t j = 0; j < t; ++j) {
    Fr acc = s[0] * m[j];
    for (uint32_t i = 1; i < t; ++i) acc += s[i] * m[i * t + j];
    r[j] = acc;
  }
  for (uint32_t j = 0; j < t; ++j) s[j] = r[j];
}

// s ← s·M″: new_0 = Σ w_hat_i·s_i, new_j = s_j + v_rest_{j−1}·s_0.
CUZK_HD void mix_sparse(Fr* s, const Fr* w_hat, const Fr* v_rest, uint32_t t) {
  Fr first = s[0] * w_hat[0];
  for (uint32_t i = 1; i < t; ++i) first += s[i] * w_hat[i];
  for (uint32_t j = 1; j < t; ++j) s[j] += v_rest[j - 1] * s[0];
  s[0] = first;
}

// An S-box on v whose input is already a variable (or is written first when `input`): x², x⁴, then
// y = x⁵ + post. v becomes y.
CUZK_HD void sbox(Fr& v, const Fr* post, bool input, Fr*& out) {
  if (input) *out++ = v;
  const Fr x2 = v.sqr();
  const Fr x4 = x2.sqr();
  *out++ = x2;
  *out++ = x4;
  v = v * x4;
  if (post) v += *post;
  *out++ = v;
}

}  // namespace detail

// neptune's circuit hash of `preimage` (t − 1 elements) in witness mode: its variables written to
// out (tab.variables of them), the hash returned.
CUZK_HD Fr poseidon_hash_vars(const TableOffsets& tab, const Fr* tables, const Fr* preimage, Fr* out) {
  const uint32_t t = tab.width, hf = tab.half_full_rounds;
  const Fr* k = tables + tab.round_constants;
  const Fr* mds = tables + tab.mds;
  Fr s[kMaxWidth];
  // First full round: the tag's S-box is a constant; the preimage's S-box inputs are variables.
  s[0] = detail::pow5(tables[tab.tag] + k[0]) + k[t];
  for (uint32_t i = 1; i < t; ++i) {
    s[i] = preimage[i - 1] + k[i];
    detail::sbox(s[i], &k[t + i], false, out);
  }
  k += 2 * t;
  detail::mix_dense(s, mds, t);
  for (uint32_t r = 1; r < hf; ++r) {
    for (uint32_t j = 0; j < t; ++j) detail::sbox(s[j], &k[j], true, out);
    k += t;
    detail::mix_dense(s, r + 1 == hf ? tables + tab.pre_sparse : mds, t);
  }
  for (uint32_t p = 0; p < tab.partial_rounds; ++p) {
    detail::sbox(s[0], k++, true, out);
    detail::mix_sparse(s, tables + tab.w_hat + p * t, tables + tab.v_rest + p * (t - 1), t);
  }
  for (uint32_t r = 0; r < hf; ++r) {
    const bool last = r + 1 == hf;
    for (uint32_t j = 0; j < t; ++j) detail::sbox(s[j], last ? nullptr : &k[j], true, out);
    if (!last) k += t;
    detail::mix_dense(s, mds, t);
  }
  *out = s[1];
  return s[1];
}

// One level's insertion (insertion.cpp's insert): cur placed at position `index` among the
// siblings, each pick's value written to out in allocation order, the hash's preimage to pre.
CUZK_HD void insertion_vars(uint32_t arity, const Fr& a, uint32_t index, const Fr* s, Fr* pre, Fr*& out) {
  const bool b0 = index & 1, b1 = (index >> 1) & 1, b2 = (index >> 2) & 1;
  auto pick = [&out](bool cond, const Fr& x, const Fr& y) -> Fr {
    const Fr v = cond ? x : y;
    *out++ = v;
    return v;
  };
  if (arity == 2) {
    pre[0] = pick(b0, s[0], a);
    pre[1] = pick(b0, a, s[0]);
  } else if (arity == 4) {
    const Fr &b = s[0], &c = s[1], &d = s[2];
    pre[0] = pick(b1, b, pick(b0, b, a));
    pre[1] = pick(b1, c, pick(b0, a, b));
    pre[2] = pick(b1, pick(b0, d, a), c);
    pre[3] = pick(b1, pick(b0, a, d), d);
  } else {
    const bool nor = !b0 && !b1, both = b0 && b1;
    *out++ = detail::bit(nor);
    *out++ = detail::bit(both);
    const Fr &b = s[0], &c = s[1], &d = s[2], &e = s[3], &f = s[4], &g = s[5], &h = s[6];
    pre[0] = pick(b2, b, pick(nor, a, b));
    pre[1] = pick(b2, c, pick(b1, c, pick(b0, a, b)));
    pre[2] = pick(b2, d, pick(b1, pick(b0, d, a), c));
    pre[3] = pick(b2, e, pick(both, a, d));
    pre[4] = pick(b2, pick(nor, a, f), e);
    pre[5] = pick(b2, pick(b1, g, pick(b0, a, f)), f);
    pre[6] = pick(b2, pick(b1, pick(b0, h, a), g), g);
    pre[7] = pick(b2, pick(both, a, h), h);
  }
}

// Block `block` of the partition (geometry.blocks() of them, sector by sector: its header, then its
// challenges) into aux. Returns the challenge's root (the top hash; for a header, comm_r_last), so
// the caller can compare it with comm_r_last.
CUZK_HD Fr block_vars(const Geometry& g, const Fr* tables, const Fr* sectors, const uint64_t* indices,
                      uint64_t block, Fr* aux, Fr* comm_r_last) {
  const uint64_t per_sector = 1 + g.challenge_count;
  const uint64_t sector = block / per_sector, in_sector = block % per_sector;
  const Fr* data = sectors + sector * g.sector_words;
  *comm_r_last = data[2];
  Fr* out = aux + sector * g.sector_vars;
  if (in_sector == 0) {  // comm_r_last, comm_c, comm_r; comm_r's hash of (comm_c, comm_r_last)
    out[0] = data[2];
    out[1] = data[1];
    out[2] = data[0];
    const Fr pre[2] = {data[1], data[2]};
    poseidon_hash_vars(g.tables[1], tables, pre, out + 3);
    return data[2];
  }
  const uint64_t c = in_sector - 1;
  out += g.header_vars + c * g.challenge_vars;
  const Fr* words = data + 3 + c * g.challenge_words;
  const uint64_t path = indices[sector * g.challenge_count + c];
  Fr cur = words[0];
  *out++ = cur;
  const Fr* siblings = words + 1;
  for (uint32_t l = 0; l < g.levels; ++l) {
    const uint32_t arity = g.arity[l];
    const uint32_t index = uint32_t(path >> g.index_shift[l]) & (arity - 1);
    for (uint32_t b = 0; (1u << b) < arity; ++b) *out++ = detail::bit((index >> b) & 1);
    for (uint32_t i = 0; i + 1 < arity; ++i) *out++ = siblings[i];
    Fr pre[kMaxWidth - 1];
    insertion_vars(arity, cur, index, siblings, pre, out);
    const TableOffsets& tab = g.tables[arity == 2 ? 1 : arity == 4 ? 2 : 3];
    cur = poseidon_hash_vars(tab, tables, pre, out);
    out += tab.variables;
    siblings += arity - 1;
  }
  return cur;
}

}  // namespace cuzk::filecoin::post_witness
