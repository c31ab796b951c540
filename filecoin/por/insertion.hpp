// Insertion and selection of numbers by index bits, as rust-fil-proofs builds them
// (storage-proofs-core/src/gadgets/insertion.rs; reference/filecoin-circuits.md §2.8). A Merkle
// path level puts the running node among its siblings with `insert`; SnapDeals picks apex leaves
// with `select`. The pick sequences fix the rows of Filecoin's circuits, so they follow upstream
// pick for pick: arity 2 costs 2 rows, 4 costs 8, 8 costs 22, any other power of two
// size·(size − 1).
#pragma once

#include <span>
#include <vector>

#include "common/result.hpp"
#include "r1cs/gadgets/boolean.hpp"
#include "r1cs/gadgets/num.hpp"

namespace cuzk::filecoin {

// `a` when `cond` is true, else `b`: a new variable c with (b − a)·(cond) = (b − c).
r1cs::Num pick(r1cs::ConstraintSystem& cs, const r1cs::Boolean& cond, const r1cs::Num& a, const r1cs::Num& b);

// The siblings.size() + 1 elements with `cur` at the position the bits name (least significant bit
// first) and the siblings, in their order, around it. siblings.size() + 1 must be 2^bits.size().
// Arity 8 first allocates b0 NOR b1 and b0 AND b1, hence allocated bits.
Result<std::vector<r1cs::Num>> insert(r1cs::ConstraintSystem& cs, const r1cs::Num& cur,
                                      std::span<const r1cs::AllocatedBit> bits,
                                      std::span<const r1cs::Num> siblings);

// from[index] for the index the bits name (least significant first; consumed most significant
// first, halving the candidates each time): from.size() − 1 rows. from.size() must be 2^bits.size().
Result<r1cs::Num> select(r1cs::ConstraintSystem& cs, std::span<const r1cs::Num> from,
                         std::span<const r1cs::Boolean> bits);

}  // namespace cuzk::filecoin
