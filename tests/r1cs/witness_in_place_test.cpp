// Witness-only synthesis writing in place: storage adopted from an earlier witness, and pieces
// forked into the system's storage (ProvingAssignment::fork_into), give exactly the witness that
// synthesizing in order gives; joins that cannot be right are refused. Also the gadgets' witness
// path, which counts rows without building them: the same variables and the same row count as
// full synthesis.
#include <gtest/gtest.h>

#include <random>
#include <span>
#include <vector>

#include "r1cs/counting_system.hpp"
#include "r1cs/gadgets/boolean.hpp"
#include "r1cs/gadgets/poseidon.hpp"
#include "r1cs/gadgets/sha256.hpp"
#include "r1cs/proving_assignment.hpp"
#include "test_util.hpp"

namespace cuzk::r1cs {
namespace {

// A piece of `n` auxiliaries (and an input now and then) with a row after each.
void piece(ConstraintSystem& cs, uint64_t seed, size_t n, bool inputs = false) {
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < n; ++i) {
    const Variable v = cs.alloc(test::random_fr(rng));
    if (inputs && i % 7 == 3) (void)cs.alloc_input(test::random_fr(rng));
    cs.enforce(v, Variable::one(), v);
  }
}

constexpr size_t kTop = 5, kPiece = 100, kPieces = 4;

Assignment sequential(uint64_t seed) {
  ProvingAssignment cs = ProvingAssignment::witness_only();
  piece(cs, seed, kTop);
  for (size_t k = 0; k < kPieces; ++k) piece(cs, seed + 1 + k, kPiece, true);
  return cs.finish().value();
}

void expect_same_witness(const Assignment& x, const Assignment& y) {
  EXPECT_EQ(x.witness_rows, y.witness_rows);
  EXPECT_TRUE(x.input_assignment == y.input_assignment);
  EXPECT_TRUE(x.aux_assignment == y.aux_assignment);
}

// The top part, then the pieces forked into the system's room and joined in order.
Result<Assignment> in_place(uint64_t seed, std::vector<Fr> storage) {
  ProvingAssignment cs = ProvingAssignment::witness_only(std::move(storage));
  cs.reserve(0, kTop + kPieces * kPiece);
  piece(cs, seed, kTop);
  const ProvingAssignment top = cs.fork();
  std::vector<ProvingAssignment> forks;
  for (size_t k = 0; k < kPieces; ++k) {
    const std::span<Fr> room = cs.aux_room(kTop + k * kPiece, kPiece);
    EXPECT_EQ(room.size(), kPiece);
    forks.push_back(top.fork_into(room));
  }
  for (size_t k = kPieces; k-- > 0;) piece(forks[k], seed + 1 + k, kPiece, true);  // any order
  for (ProvingAssignment& f : forks) CUZK_TRY_STATUS(cs.extend(std::move(f)));
  return cs.finish();
}

TEST(WitnessInPlace, AdoptedStorageGivesTheSameWitness) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  const Assignment want = sequential(seed);
  // Storage shorter, as long and longer than the witness, holding another witness's values.
  for (size_t len : {size_t(0), size_t(17), want.aux_assignment.size(), want.aux_assignment.size() + 33}) {
    std::mt19937_64 rng(seed ^ len);
    std::vector<Fr> storage(len);
    for (Fr& x : storage) x = test::random_fr(rng);
    ProvingAssignment cs = ProvingAssignment::witness_only(std::move(storage));
    cs.reserve(0, want.aux_assignment.size());
    piece(cs, seed, kTop);
    for (size_t k = 0; k < kPieces; ++k) piece(cs, seed + 1 + k, kPiece, true);
    expect_same_witness(cs.finish().value(), want);
  }
}

TEST(WitnessInPlace, PiecesForkedIntoTheRoomJoinAsSequentialSynthesis) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  const Assignment want = sequential(seed);
  auto fresh = in_place(seed, {});
  ASSERT_TRUE(fresh.ok()) << fresh.message();
  expect_same_witness(*fresh, want);
  std::vector<Fr> reused = std::move(fresh->aux_assignment);  // another seed's values in it
  auto again = in_place(seed + 100, std::move(reused));
  ASSERT_TRUE(again.ok()) << again.message();
  expect_same_witness(*again, sequential(seed + 100));
}

TEST(WitnessInPlace, PlacedJoinsThatCannotBeRightAreRefused) {
  auto setup = [](ProvingAssignment& cs) {
    cs.reserve(0, kTop + 2 * kPiece);
    piece(cs, 1, kTop);
  };
  {  // joined out of order
    ProvingAssignment cs = ProvingAssignment::witness_only();
    setup(cs);
    ProvingAssignment first = cs.fork_into(cs.aux_room(kTop, kPiece));
    ProvingAssignment second = cs.fork_into(cs.aux_room(kTop + kPiece, kPiece));
    piece(first, 2, kPiece);
    piece(second, 3, kPiece);
    const Status s = cs.extend(std::move(second));
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("room"), std::string::npos) << s.message();
  }
  {  // a piece that fills less, or more, than its room
    for (size_t n : {kPiece - 1, kPiece + 1}) {
      ProvingAssignment cs = ProvingAssignment::witness_only();
      setup(cs);
      ProvingAssignment p = cs.fork_into(cs.aux_room(kTop, kPiece));
      piece(p, 2, n);
      EXPECT_FALSE(cs.extend(std::move(p)).ok()) << n;
    }
  }
  {  // the system allocating over a room lent out, or finishing before the pieces are joined
    ProvingAssignment cs = ProvingAssignment::witness_only();
    setup(cs);
    ProvingAssignment p = cs.fork_into(cs.aux_room(kTop, kPiece));
    EXPECT_FALSE(cs.finish().ok());
    ProvingAssignment cs2 = ProvingAssignment::witness_only();
    setup(cs2);
    (void)cs2.aux_room(kTop, kPiece);
    (void)cs2.alloc(Fr::one());
    EXPECT_FALSE(cs2.finish().ok());
  }
  {  // a piece forked into a room is neither forked again nor joined into
    ProvingAssignment cs = ProvingAssignment::witness_only();
    setup(cs);
    ProvingAssignment p = cs.fork_into(cs.aux_room(kTop, kPiece));
    piece(p, 2, kPiece);
    EXPECT_FALSE(cs.extend(p.fork()).ok());
    EXPECT_FALSE(p.extend(ProvingAssignment::witness_only()).ok());
    EXPECT_FALSE(p.finish().ok());
  }
  {  // rooms that do not exist: beyond the storage, before the present variables, in a full system
    ProvingAssignment cs = ProvingAssignment::witness_only();
    setup(cs);
    EXPECT_TRUE(cs.aux_room(kTop + 2 * kPiece, 1).empty());
    EXPECT_EQ(cs.aux_room(0, 1).data(), nullptr);
    ProvingAssignment full;
    full.reserve(10, 10);
    EXPECT_EQ(full.aux_room(0, 1).data(), nullptr);
    std::vector<Fr> room(3);
    ProvingAssignment p = full.fork_into(room);
    EXPECT_FALSE(full.extend(std::move(p)).ok());
  }
}

TEST(WitnessInPlace, RowsCountedWithoutBuildingThem) {
  // count_constraints: a counter and a witness count; the prover, which keeps rows, refuses it.
  CountingSystem counting;
  counting.count_constraints(3);
  EXPECT_EQ(counting.num_constraints(), 3u);
  ProvingAssignment witness = ProvingAssignment::witness_only();
  witness.count_constraints(4);
  EXPECT_EQ(witness.finish().value().witness_rows, 4u + 1);
  ProvingAssignment full;
  full.count_constraints(1);
  EXPECT_FALSE(full.finish().ok());
}

TEST(WitnessInPlace, Sha256WitnessEqualsFullSynthesis) {
  // SHA-256's bits and sums skip their rows in a witness: the same variables, the same row count.
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (size_t bits : {size_t(0), size_t(256), size_t(600)}) {
    std::vector<bool> message(bits);
    for (size_t i = 0; i < bits; ++i) message[i] = rng() & 1;
    auto run = [&](ProvingAssignment cs) {
      std::vector<Boolean> in;
      for (size_t i = 0; i < bits; ++i)
        in.push_back(i % 5 == 0 ? Boolean::constant(message[i]) : Boolean::alloc(cs, message[i]));
      const std::vector<Boolean> digest = sha256_circuit(cs, in);
      EXPECT_EQ(digest.size(), 256u);
      return cs.finish().value();
    };
    const Assignment full = run(ProvingAssignment());
    const Assignment witness = run(ProvingAssignment::witness_only());
    EXPECT_EQ(witness.witness_rows, full.a.size()) << bits;
    EXPECT_TRUE(witness.aux_assignment == full.aux_assignment) << bits;
    EXPECT_TRUE(witness.input_assignment == full.input_assignment) << bits;
  }
}

TEST(WitnessInPlace, PoseidonWitnessEqualsFullSynthesis) {
  // Poseidon's rounds skip their linear forms in a witness: the same variables, the same rows, and
  // the hash the native permutation gives.
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (size_t arity : {2, 4, 8, 11}) {
    const PoseidonConstants& c = *poseidon_constants(arity).value();
    std::vector<Fr> preimage(arity);
    for (Fr& x : preimage) x = test::random_fr(rng);
    auto run = [&](ProvingAssignment cs, Fr& hash) {
      std::vector<Num> nums;
      for (const Fr& x : preimage) nums.push_back(Num::alloc(cs, x));
      hash = poseidon_hash_circuit(cs, c, nums).value().value;
      return cs.finish().value();
    };
    Fr full_hash, witness_hash;
    const Assignment full = run(ProvingAssignment(), full_hash);
    const Assignment witness = run(ProvingAssignment::witness_only(), witness_hash);
    EXPECT_EQ(witness.witness_rows, full.a.size()) << arity;
    EXPECT_TRUE(witness.aux_assignment == full.aux_assignment) << arity;
    EXPECT_EQ(witness_hash, poseidon_hash(c, preimage).value()) << arity;
    EXPECT_EQ(full_hash, witness_hash) << arity;
  }
}

}  // namespace
}  // namespace cuzk::r1cs
