// The prover's constraint system, bellperson's ProvingAssignment (reference/formats.md §3.1).
//
// It evaluates every constraint as it is enforced and keeps only the evaluations, the assignment
// and the density bitmaps, never the constraints: a 130 M-constraint circuit then costs
// 3 × 32 B per constraint for a, b, c plus 32 B per variable, about 17 GB, which is what the
// prover needs anyway.
//
// Pieces of a circuit can be synthesized on several threads, each into its own system, and joined
// in order with extend() (bellperson's ProvingAssignment::extend, reference/filecoin-circuits.md
// §1.6): the result equals sequential synthesis, vector for vector and bit for bit. A piece sees
// the variables of the prefix it was forked from (bellperson: ONE only) and its own; since the
// system keeps evaluations rather than constraints, a piece's own variables may carry other
// indices while it is synthesized than after the join.
//
// Witness-only synthesis (witness_only()) runs the same circuit code for its variable values alone:
// enforce() only counts the constraint. What it finishes is the assignment with a, b, c and the
// densities left empty and Assignment::witness_rows set; a compiled circuit of the same shape
// (r1cs/compiled/) supplies the rest. Forks keep the mode, and pieces join as in the full mode.
// A witness-only system keeps its auxiliaries in storage sized up front (reserve), which may be
// adopted from an earlier partition's witness so that no page is mapped afresh; a piece of it may
// write its own variables straight into that storage (fork_into), where the join leaves them.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class ProvingAssignment final : public ConstraintSystem {
 public:
  // Allocates ONE (input 0 = 1) before anything else, as bellperson's prover does.
  ProvingAssignment();
  // The witness-only mode: variables only, constraints counted.
  static ProvingAssignment witness_only() { return ProvingAssignment(Mode::witness_only); }
  // The same, with `storage` for its auxiliaries: a vector from an earlier witness (its size and
  // values do not matter; reserve() writes nothing over what it already holds).
  static ProvingAssignment witness_only(std::vector<Fr> storage);
  bool is_witness_only() const { return mode_ == Mode::witness_only; }

  // Reserves room for a circuit of this shape (constraints without the input ones), so that
  // the large vectors are allocated once instead of grown by doubling, and asks the OS to back
  // them with huge pages (Linux: a 2 MiB page is one fault where 4 KiB pages are 512).
  // Witness-only: the auxiliaries' storage is sized to `aux` (elements beyond its present size
  // are zero-filled once, on the machine's threads).
  void reserve(size_t constraints, size_t aux, size_t inputs = 1);
  // Has the OS map the reserved, still unused room now (Linux MADV_POPULATE_WRITE; nothing
  // elsewhere), so that filling it later runs at memory speed instead of one page fault at a time.
  // Meant for a thread with nothing better to do while others synthesize pieces to be joined;
  // the system must not be used meanwhile.
  void prefault();

  bool has_values() const override { return true; }
  Variable alloc(const Fr& value) override;
  Variable alloc_input(const Fr& value) override;
  void enforce(const LinearCombination& a, const LinearCombination& b, const LinearCombination& c) override;
  bool keeps_rows() const override { return !is_witness_only(); }
  void count_constraints(size_t n) override;

  size_t num_inputs() const override { return out_.input_assignment.size(); }
  size_t num_aux() const override { return is_witness_only() ? aux_count_ : out_.aux_assignment.size(); }
  size_t num_constraints() const override { return constraints_; }

  // Appends one constraint x_i · 0 = 0 per input (ONE included), which makes the A-query of every
  // input independent, and hands the result over (witness-only: the assignment, with witness_rows
  // counting those rows). The system is spent afterwards; a second call, or any use after the
  // first, is an error.
  Result<Assignment> finish();

  // A system for a piece of the circuit that follows the present state: a copy of this system's
  // variables (the piece may read every one of them; meant for a small prefix, such as the top
  // part every PoRep challenge reads) and no constraints. A fresh ProvingAssignment is the fork
  // of one with only ONE, bellperson's form.
  ProvingAssignment fork() const;
  // Witness-only: a fork whose own auxiliaries are written into `room` (the join then moves
  // nothing): room must be the storage of the system it joins, right after the variables it has
  // when it joins (aux_room). Allocating past the room is a misuse the join reports.
  ProvingAssignment fork_into(std::span<Fr> room) const;
  // Witness-only: storage [at, at + count) past this system's variables, for pieces forked into
  // it; empty when the reserved storage does not reach that far. The system must not allocate
  // while pieces forked into its room are out (they would overwrite each other).
  std::span<Fr> aux_room(size_t at, size_t count);

  // Appends `piece`, a fork of a system whose variables were this system's first ones (its
  // prefix): its constraints, then the variables it allocated after the prefix; density bits it
  // set on prefix variables are OR-ed into this system's. Joining the forks of one prefix in
  // order gives what synthesizing their pieces in order after the prefix would have. An error,
  // and nothing changed, when the prefix does not match this system's first variables, the modes
  // differ or either system is finished.
  Status extend(ProvingAssignment&& piece);

 private:
  enum class Mode { full, witness_only };
  explicit ProvingAssignment(Mode mode);

  void size_witness_storage(size_t aux);
  Variable alloc_witness(const Fr& value);
  // Witness-only: `n` auxiliaries appended (written over the storage first, then pushed).
  void put_aux(const Fr* values, size_t n);
  Status extend_placed(ProvingAssignment&& piece);

  Mode mode_ = Mode::full;
  size_t constraints_ = 0;
  Assignment out_;
  size_t prefix_inputs_ = 1;  // the variables the system was forked with (fresh: ONE)
  size_t prefix_aux_ = 0;
  size_t aux_count_ = 0;         // witness-only: the auxiliaries allocated (the storage may be longer)
  bool placed_ = false;          // witness-only: made by fork_into
  std::span<Fr> room_;           // and where its own auxiliaries go
  size_t room_claimed_end_ = 0;  // witness-only: end of the storage lent to pieces by aux_room
  bool finished_ = false;
  std::string misuse_;  // first misuse, reported by finish()
};

}  // namespace cuzk::r1cs
