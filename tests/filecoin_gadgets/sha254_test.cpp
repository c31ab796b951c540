// The SHA-254 node hash in and out of circuit. Counts: 45,379 rows and 45,331 aux per node
// (reference/filecoin-circuits.md §2.6, as the SnapDeals and SHA PoR test counts imply) and
// storage-proofs-core util.rs's hash_leaf_bits_circuit test, 45,387 with its 512 input bits.
#include <gtest/gtest.h>

#include "filecoin/gadgets/sha254.hpp"
#include "helpers.hpp"
#include "r1cs/gadgets/sha256.hpp"

namespace cuzk::filecoin {
namespace {

using r1cs::AllocatedNum;
using r1cs::Boolean;
using r1cs::Num;
using r1cs::RecordingSystem;

Domain hex32(const char* hex) {
  Domain d{};
  for (size_t i = 0; i < 32; ++i) d[i] = uint8_t(std::stoul(std::string(hex + 2 * i, 2), nullptr, 16));
  return d;
}

TEST(Sha254, NativeTrimsTheTopTwoBits) {
  // reference §0: sha256(64 zero bytes) = f5a5fd42…59fb4b, trimmed to …59fb0b.
  const Domain zero{};
  const Domain got = sha254_node(zero, zero);
  EXPECT_EQ(got, hex32("f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b"));
  const auto full = r1cs::sha256(std::vector<uint8_t>(64, 0));
  EXPECT_EQ(full[31], 0x4b);
  EXPECT_TRUE(domain_to_fr(got).has_value());
}

TEST(Sha254, NodeCircuitCountsAndValues) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  const std::vector<Fr> values = test::edge_values(rng);
  // Pairs that put every edge value on the left and on the right.
  for (size_t k = 0; k < values.size(); ++k) {
    const Fr& x = values[k];
    const Fr& y = values[(k + 3) % values.size()];
    SCOPED_TRACE("pair " + std::to_string(k));
    RecordingSystem cs;
    const AllocatedNum a = AllocatedNum::alloc(cs, x), b = AllocatedNum::alloc(cs, y);
    const AllocatedNum h = sha254_node_circuit(cs, a, b);
    EXPECT_EQ(cs.num_constraints(), 45379u);
    EXPECT_EQ(cs.num_aux() - 2, 45331u);
    EXPECT_EQ(cs.num_inputs(), 1u);
    EXPECT_EQ(h.variable, r1cs::Variable::aux(uint32_t(cs.num_aux() - 1)));  // the last aux: pack_bits
    EXPECT_EQ(test::domain_of(h), sha254_node(fr_to_domain(x), fr_to_domain(y)));
    ASSERT_TRUE(cs.is_satisfied());
  }
}

TEST(Sha254, ShapeWithoutValuesHasTheSameCounts) {
  RecordingSystem cs(false);
  const AllocatedNum a = AllocatedNum::alloc(cs, Fr::zero()), b = AllocatedNum::alloc(cs, Fr::zero());
  (void)sha254_node_circuit(cs, a, b);
  EXPECT_EQ(cs.num_constraints(), 45379u);
  EXPECT_EQ(cs.num_aux(), 45333u);
}

TEST(Sha254, MultiLeafOfTwoIsTheNodeHashRowForRow) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  const Fr x = test::random_fr(rng), y = test::random_fr(rng);
  RecordingSystem c1, c2;
  const AllocatedNum a1 = AllocatedNum::alloc(c1, x), b1 = AllocatedNum::alloc(c1, y);
  const AllocatedNum a2 = AllocatedNum::alloc(c2, x), b2 = AllocatedNum::alloc(c2, y);
  const AllocatedNum h1 = sha254_node_circuit(c1, a1, b1);
  const Num leaves[] = {a2, b2};
  const AllocatedNum h2 = sha254_multi_leaf_circuit(c2, leaves);
  EXPECT_EQ(h1.value, h2.value);
  const r1cs::ConstraintMatrices m1 = c1.matrices(), m2 = c2.matrices();
  ASSERT_EQ(m1.num_constraints(), m2.num_constraints());
  EXPECT_EQ(m1.num_aux, m2.num_aux);
  EXPECT_TRUE(m1.a == m2.a && m1.b == m2.b && m1.c == m2.c);
  EXPECT_EQ(c1.witness(), c2.witness());
}

// storage-proofs-core util.rs hash_leaf_bits_circuit: two random field elements as 32 LE bytes,
// each allocated least significant bit of each byte first (bytes_into_boolean_vec, 256 bits).
TEST(Sha254, LeafBitsCircuitUpstreamCount) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  const Domain left = fr_to_domain(test::random_fr(rng)), right = fr_to_domain(test::random_fr(rng));
  RecordingSystem cs;
  const std::vector<Boolean> l = test::alloc_byte_bits(cs, left, false);
  const std::vector<Boolean> r = test::alloc_byte_bits(cs, right, false);
  const AllocatedNum h = sha254_leaf_bits_circuit(cs, l, r);
  EXPECT_EQ(cs.num_constraints(), 45387u);
  EXPECT_EQ(test::domain_of(h), sha254_node(left, right));
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(Sha254, CircuitOfBitsMatchesNative) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (size_t len : {size_t(0), size_t(32), size_t(100)}) {
    std::vector<uint8_t> msg(len);
    for (auto& byte : msg) byte = uint8_t(rng());
    RecordingSystem cs;
    std::vector<Boolean> bits;
    for (bool b : r1cs::bytes_to_bits(msg)) bits.push_back(Boolean::alloc(cs, b));
    const AllocatedNum h = sha254_circuit(cs, bits);
    EXPECT_EQ(test::domain_of(h), sha254(msg)) << len;
    EXPECT_TRUE(cs.is_satisfied());
  }
}

// A tampered leaf decomposition is caught.
TEST(Sha254, WrongWitnessFails) {
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  RecordingSystem cs;
  const AllocatedNum a = AllocatedNum::alloc(cs, test::random_fr(rng));
  const AllocatedNum b = AllocatedNum::alloc(cs, test::random_fr(rng));
  (void)sha254_node_circuit(cs, a, b);
  std::vector<Fr> w = cs.witness();
  w[1] += Fr::one();  // the left leaf
  auto bad = r1cs::first_unsatisfied(cs.matrices(), w);
  ASSERT_TRUE(bad.ok());
  ASSERT_TRUE(bad->has_value());
  EXPECT_EQ(**bad, 255u);  // its unpacking row
}

}  // namespace
}  // namespace cuzk::filecoin
