// Poseidon as neptune v11 builds it: the derived constants, neptune's and filecoin-hashers' test
// vectors, the optimized permutation against the reference one, and the circuit row for row against
// a literal transcription of neptune's legacy circuit (src/circuit.rs), with neptune's counts.
#include <gtest/gtest.h>

#include <random>

#include "r1cs/gadgets/poseidon.hpp"
#include "r1cs/matrices.hpp"
#include "test_util.hpp"

namespace cuzk::r1cs {
namespace {

using test::fresh_seed;
using test::random_fr;

// neptune's scalar_from_u64s / filecoin-hashers' u64s_to_u8s: little-endian 64-bit limbs.
Fr from_limbs(uint64_t l0, uint64_t l1, uint64_t l2, uint64_t l3) {
  const uint64_t v[4] = {l0, l1, l2, l3};
  return Fr::from_canonical(v);
}

const PoseidonConstants& constants(size_t arity) {
  auto c = poseidon_constants(arity);
  EXPECT_TRUE(c.ok()) << c.message();
  return **c;
}

constexpr size_t kArities[] = {2, 4, 8, 11, 16, 24, 36};

// ------------------------------------------------------------------------------------ constants

TEST(PoseidonConstants, ShapesOfNeptunesParameters) {
  struct Shape {
    size_t arity, partial_rounds, raw, compressed;
  };
  // Raw constant counts from reference §2.7.2, compressed ones from §2.7.6: (R_F + R_P)·t and R_F·t + R_P.
  for (const Shape& s : {Shape{2, 55, 189, 79}, Shape{4, 56, 320, 96}, Shape{8, 57, 585, 129},
                         Shape{11, 57, 780, 153}, Shape{16, 59, 17 * 67, 8 * 17 + 59},
                         Shape{24, 59, 25 * 67, 8 * 25 + 59}, Shape{36, 60, 37 * 68, 8 * 37 + 60}}) {
    SCOPED_TRACE("arity " + std::to_string(s.arity));
    const PoseidonConstants& c = constants(s.arity);
    const size_t t = s.arity + 1;
    EXPECT_EQ(c.width, t);
    EXPECT_EQ(c.full_rounds, 8u);
    EXPECT_EQ(c.partial_rounds, s.partial_rounds);
    EXPECT_EQ(c.round_constants.size(), s.raw);
    EXPECT_EQ(c.compressed_round_constants.size(), s.compressed);
    EXPECT_EQ(c.sparse.size(), s.partial_rounds);
    EXPECT_EQ(c.merkle_tag, Fr::from_u64((uint64_t(1) << s.arity) - 1));
    // M·M⁻¹ = I, and M is the Cauchy matrix 1/(i + t + j).
    for (size_t i = 0; i < t; ++i)
      for (size_t j = 0; j < t; ++j) {
        Fr acc = Fr::zero();
        for (size_t k = 0; k < t; ++k) acc += c.m(i, k) * c.mds_inverse[k * t + j];
        EXPECT_EQ(acc, i == j ? Fr::one() : Fr::zero());
        EXPECT_EQ(c.m(i, j) * Fr::from_u64(i + t + j), Fr::one());
      }
  }
  // The cache hands out one object per arity.
  EXPECT_EQ(*poseidon_constants(8), &poseidon_constants_8());
  for (size_t bad : {size_t(0), size_t(1), size_t(3), size_t(37), size_t(1000)})
    EXPECT_FALSE(poseidon_constants(bad).ok()) << bad;
  EXPECT_FALSE(PoseidonConstants::derive(5).ok());
}

TEST(PoseidonConstants, DomainTags) {
  // neptune src/hash_type.rs: MerkleTree 2^arity − 1, ConstantLength(L) L·2^64, Custom(id) id·2^40.
  EXPECT_EQ(*PoseidonHashType::merkle_tree().domain_tag(8), from_limbs(0xff, 0, 0, 0));
  EXPECT_EQ(*PoseidonHashType::merkle_tree().domain_tag(11), Fr::from_u64(2047));
  EXPECT_EQ(*PoseidonHashType::custom(1).domain_tag(2), Fr::from_u64(uint64_t(1) << 40));
  EXPECT_EQ(*PoseidonHashType::custom(256).domain_tag(2), Fr::from_u64(uint64_t(1) << 48));
  EXPECT_EQ(*PoseidonHashType::constant_length(4).domain_tag(8), from_limbs(0, 4, 0, 0));
  EXPECT_FALSE(PoseidonHashType::custom(0).domain_tag(2).ok());
  EXPECT_FALSE(PoseidonHashType::custom(257).domain_tag(2).ok());
  EXPECT_FALSE(PoseidonHashType::constant_length(0).domain_tag(2).ok());
  EXPECT_FALSE(PoseidonHashType::constant_length(3).domain_tag(2).ok());
}

// --------------------------------------------------------------------------------------- native

// neptune src/poseidon.rs `hash_values` (Strength::Standard): the MerkleTree hash of 0, 1, ..., arity−1,
// and the ConstantLength(4) hash of 0, 1, 2, 3 (zero-padded) for the arities ≥ 4.
TEST(PoseidonNative, NeptuneHashValues) {
  struct Vector {
    size_t arity;
    Fr merkle;
    Fr constant_length_4;  // zero when the arity is below 4 (neptune uses its sponge there)
  };
  const Vector vectors[] = {
      {2, from_limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b),
       Fr::zero()},
      {4, from_limbs(0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a),
       from_limbs(0x8935b00a07909d45, 0x4984de08542c9977, 0x39443980077d7593, 0x3a21a6ae86754a29)},
      {8, from_limbs(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55),
       from_limbs(0x370a94532f818897, 0x203e3c7c4a85c1f9, 0xcad8b9f8aeb1578f, 0x5c6de4b69de9d792)},
      {11, from_limbs(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28),
       from_limbs(0xe9b0cb7d6496f73b, 0x7d2807d793af9582, 0xef841b6bf51a5a39, 0x02550c3a2113c7ca)},
      {16, from_limbs(0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a),
       from_limbs(0x6a1e563d359c1bdd, 0x6b4493d5d40be9d3, 0x275a6eb04a0ecb37, 0x30ec6fa0fec08504)},
      {24, from_limbs(0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15),
       from_limbs(0xc540772c5968a299, 0xe2e556352af20f97, 0x15ed0a6b8faba5aa, 0x327bdee6fa2b22b6)},
      {36, from_limbs(0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f),
       from_limbs(0x7d89cddb70217dcd, 0x02ae71d3d04f0b32, 0xfe52151f29c50f99, 0x626bdae6cad79307)},
  };
  for (const Vector& v : vectors) {
    SCOPED_TRACE("arity " + std::to_string(v.arity));
    const PoseidonConstants& c = constants(v.arity);
    std::vector<Fr> preimage;
    for (size_t i = 0; i < v.arity; ++i) preimage.push_back(Fr::from_u64(i));
    auto h = poseidon_hash(c, preimage);
    ASSERT_TRUE(h.ok()) << h.message();
    EXPECT_EQ(*h, v.merkle);
    EXPECT_EQ(poseidon_merkle_node(c, preimage.data()), v.merkle);
    // The reference permutation gives the same digest.
    std::vector<Fr> state = {c.merkle_tag};
    state.insert(state.end(), preimage.begin(), preimage.end());
    poseidon_permute_reference(c, state);
    EXPECT_EQ(state[1], v.merkle);

    if (v.arity >= 4) {
      auto hc =
          poseidon_hash(c, std::span<const Fr>(preimage).first(4), PoseidonHashType::constant_length(4));
      ASSERT_TRUE(hc.ok()) << hc.message();
      EXPECT_EQ(*hc, v.constant_length_4);
    }
  }
}

// filecoin-hashers src/poseidon.rs `test_poseidon_hasher`: a binary tree over the leaves 1, 0, 0, 1.
TEST(PoseidonNative, FilecoinHashersBinaryTree) {
  const PoseidonConstants& c = poseidon_constants_2();
  const Fr l01[2] = {Fr::one(), Fr::zero()}, l23[2] = {Fr::zero(), Fr::one()};
  const Fr i1 = *poseidon_hash(c, l01), i2 = *poseidon_hash(c, l23);
  EXPECT_EQ(i1, from_limbs(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3));
  const Fr top[2] = {i1, i2};
  EXPECT_EQ(*poseidon_hash(c, top),
            from_limbs(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb));
}

// filecoin-hashers `test_hash_md`: 71 ones folded through arity-36 hashes (the running digest then
// 35 new elements per hash).
TEST(PoseidonNative, FilecoinHashersHashMd) {
  const PoseidonConstants& c = constants(36);
  const std::vector<Fr> data(71, Fr::one());
  Fr acc = data[0];
  for (size_t start = 1; start < data.size(); start += 35) {
    std::vector<Fr> preimage = {acc};
    preimage.insert(preimage.end(), data.begin() + ptrdiff_t(start), data.begin() + ptrdiff_t(start + 35));
    acc = *poseidon_hash(c, preimage);
  }
  EXPECT_EQ(acc, from_limbs(0x351c54133b332c90, 0xc26f6d625f4e8195, 0x5fd9623643ed9622, 0x59f42220e09ff6f7));
}

TEST(PoseidonNative, OptimizedEqualsReferenceOnRandomStates) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (size_t arity : kArities) {
    SCOPED_TRACE("arity " + std::to_string(arity));
    const PoseidonConstants& c = constants(arity);
    for (int trial = 0; trial < 8; ++trial) {
      std::vector<Fr> a(c.width);
      for (Fr& x : a) x = random_fr(rng);
      std::vector<Fr> b = a;
      poseidon_permute_reference(c, a);
      poseidon_permute(c, b);
      EXPECT_EQ(a, b);
    }
  }
}

TEST(PoseidonNative, CustomTagAndBadPreimages) {
  const PoseidonConstants& c = poseidon_constants_2();
  const Fr xs[2] = {Fr::from_u64(5), Fr::from_u64(7)};
  std::vector<Fr> state = {Fr::from_u64(uint64_t(1) << 40), xs[0], xs[1]};
  poseidon_permute_reference(c, state);
  auto h = poseidon_hash(c, xs, PoseidonHashType::custom(1));
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(*h, state[1]);
  EXPECT_NE(*h, *poseidon_hash(c, xs));
  EXPECT_FALSE(poseidon_hash(c, std::span<const Fr>(xs).first(1)).ok());
  EXPECT_FALSE(poseidon_hash(c, xs, PoseidonHashType::custom(0)).ok());
  EXPECT_FALSE(poseidon_hash(c, xs, PoseidonHashType::constant_length(1)).ok());  // 2 elements, length 1
}

// -------------------------------------------------------------------------------------- circuit

// A literal transcription of neptune's legacy circuit: elements are allocated numbers or running
// linear combinations, multiplied through the matrices term by term. The tests compare its rows
// with the library's.
class NeptuneLegacyCircuit {
 public:
  NeptuneLegacyCircuit(ConstraintSystem& cs, const PoseidonConstants& c) : cs_(cs), c_(c) {}

  Variable hash(std::span<const Variable> preimage, std::span<const Fr> values, const Fr& tag) {
    const size_t t = c_.width;
    elements_.clear();
    elements_.push_back({false, LinearCombination::constant(tag), tag});
    for (size_t i = 0; i < preimage.size(); ++i) elements_.push_back({true, preimage[i], values[i]});
    full_round(true, false);
    for (size_t i = 1; i < c_.half_full_rounds; ++i) full_round(false, false);
    for (size_t i = 0; i < c_.partial_rounds; ++i) partial_round();
    for (size_t i = 1; i < c_.half_full_rounds; ++i) full_round(false, false);
    full_round(false, true);
    (void)t;
    return ensure_allocated(elements_[1]);
  }

 private:
  struct Elt {
    bool allocated;
    LinearCombination lc;
    Fr value;
  };

  Variable ensure_allocated(const Elt& e) {
    if (e.allocated) return e.lc.terms()[0].var;
    const Variable v = cs_.alloc(e.value);
    cs_.enforce(e.lc, Variable::one(), v);
    return v;
  }

  Elt quintic_s_box(const Elt& e, const Fr* post) {
    const Variable l = ensure_allocated(e);
    const Fr l2v = e.value.sqr(), l4v = l2v.sqr();
    const Variable l2 = cs_.alloc(l2v);
    cs_.enforce(l, l, l2);
    const Variable l4 = cs_.alloc(l4v);
    cs_.enforce(l2, l2, l4);
    Fr l5v = l4v * e.value;
    if (post) l5v += *post;
    const Variable l5 = cs_.alloc(l5v);
    LinearCombination c(l5);
    if (post) c.add(Variable::one(), -*post);
    cs_.enforce(l, l4, c);
    return {true, l5, l5v};
  }

  Elt quintic_s_box_pre_add(const Elt& e, const Fr& pre, const Fr& post) {
    const Variable l = ensure_allocated(e);
    LinearCombination lp(l);
    lp.add(Variable::one(), pre);
    const Fr lpv = e.value + pre;
    const Fr l2v = lpv.sqr(), l4v = l2v.sqr();
    const Variable l2 = cs_.alloc(l2v);
    cs_.enforce(lp, lp, l2);
    const Variable l4 = cs_.alloc(l4v);
    cs_.enforce(l2, l2, l4);
    const Fr l5v = l4v * lpv + post;
    const Variable l5 = cs_.alloc(l5v);
    LinearCombination c(l5);
    c.add(Variable::one(), -post);
    cs_.enforce(lp, l4, c);
    return {true, l5, l5v};
  }

  void full_round(bool first, bool last) {
    const size_t t = c_.width;
    const Fr* pre = first ? &c_.compressed_round_constants[offset_] : nullptr;
    if (first) offset_ += t;
    const Fr* post = (first || !last) ? &c_.compressed_round_constants[offset_] : nullptr;
    if (post) offset_ += t;
    for (size_t i = 0; i < t; ++i) {
      if (first && i == 0) {
        Fr tag = elements_[0].value + pre[0];
        tag = tag.sqr().sqr() * tag + post[0];
        elements_[0] = {false, LinearCombination::constant(tag), tag};
      } else if (first) {
        elements_[i] = quintic_s_box_pre_add(elements_[i], pre[i], post[i]);
      } else {
        elements_[i] = quintic_s_box(elements_[i], post ? &post[i] : nullptr);
      }
    }
    product_mds();
  }

  void partial_round() {
    const Fr key = c_.compressed_round_constants[offset_++];
    elements_[0] = quintic_s_box(elements_[0], &key);
    product_mds();
  }

  static Elt scaled(const Elt& e, const Fr& s) { return {false, e.lc * s, e.value * s}; }
  static void add_to(Elt& acc, const Elt& e) {
    acc.lc.add(e.lc);
    acc.value += e.value;
  }

  void product_mds() {
    const size_t t = c_.width, sparse_offset = c_.half_full_rounds - 1;
    std::vector<Elt> result;
    if (round_ > sparse_offset && round_ < c_.half_full_rounds + c_.partial_rounds) {
      const PoseidonSparseMatrix& m = c_.sparse[round_ - sparse_offset - 1];
      Elt first{false, {}, Fr::zero()};
      for (size_t i = 0; i < t; ++i) add_to(first, scaled(elements_[i], m.w_hat[i]));
      result.push_back(first);
      for (size_t j = 1; j < t; ++j) {
        Elt e = elements_[j];
        e.allocated = false;
        add_to(e, scaled(elements_[0], m.v_rest[j - 1]));
        result.push_back(e);
      }
    } else {
      const Fr* m = round_ == sparse_offset ? c_.pre_sparse.data() : c_.mds.data();
      for (size_t j = 0; j < t; ++j) {
        Elt acc{false, {}, Fr::zero()};
        for (size_t i = 0; i < t; ++i) add_to(acc, scaled(elements_[i], m[i * t + j]));
        result.push_back(acc);
      }
    }
    elements_ = std::move(result);
    ++round_;
  }

  ConstraintSystem& cs_;
  const PoseidonConstants& c_;
  std::vector<Elt> elements_;
  size_t offset_ = 0;
  size_t round_ = 0;
};

void expect_same_rows(const ConstraintMatrices& a, const ConstraintMatrices& b) {
  ASSERT_EQ(a.num_constraints(), b.num_constraints());
  EXPECT_EQ(a.num_inputs, b.num_inputs);
  EXPECT_EQ(a.num_aux, b.num_aux);
  for (size_t k = 0; k < a.num_constraints(); ++k) {
    ASSERT_EQ(a.a[k], b.a[k]) << "row " << k << " (A)";
    ASSERT_EQ(a.b[k], b.b[k]) << "row " << k << " (B)";
    ASSERT_EQ(a.c[k], b.c[k]) << "row " << k << " (C)";
  }
}

TEST(PoseidonCircuit, NeptuneCountsRowsAndValues) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(test::seed_trace(seed));
  std::mt19937_64 rng(seed);
  // neptune src/circuit.rs `test_poseidon_hash` (Standard) and rust-fil-proofs' hash.rs tests.
  const std::pair<size_t, size_t> counts[] = {{2, 311},  {4, 377},   {8, 505},  {11, 598},
                                              {16, 761}, {24, 1009}, {36, 1385}};
  for (const auto& [arity, want] : counts) {
    for (const PoseidonHashType& type : {PoseidonHashType::merkle_tree(), PoseidonHashType::custom(1),
                                         PoseidonHashType::constant_length(arity)}) {
      SCOPED_TRACE("arity " + std::to_string(arity) + ", tag kind " + std::to_string(int(type.kind())));
      const PoseidonConstants& c = constants(arity);
      EXPECT_EQ(poseidon_circuit_constraints(c), want);
      std::vector<Fr> xs(arity);
      for (Fr& x : xs) x = random_fr(rng);

      RecordingSystem cs;
      std::vector<Num> nums;
      std::vector<Variable> vars;
      for (const Fr& x : xs) {
        nums.push_back(Num::alloc(cs, x));
        vars.push_back(nums.back().lc.terms()[0].var);
      }
      auto got = poseidon_hash_circuit(cs, c, nums, type);
      ASSERT_TRUE(got.ok()) << got.message();
      EXPECT_EQ(cs.num_constraints(), want);
      EXPECT_EQ(cs.num_aux(), arity + want);  // one aux per constraint after the preimage
      ASSERT_EQ(got->lc.size(), 1u);
      EXPECT_EQ(got->lc.terms()[0].var, Variable::aux(uint32_t(arity + want - 1)));
      const Fr native = *poseidon_hash(c, xs, type);
      EXPECT_EQ(got->value, native);
      EXPECT_EQ(got->lc.evaluate(cs.input_assignment(), cs.aux_assignment()), native);
      EXPECT_TRUE(cs.is_satisfied());

      // neptune's own construction gives the same rows, the same witness and the same output.
      RecordingSystem ref;
      for (const Fr& x : xs) (void)ref.alloc(x);
      const Variable out = NeptuneLegacyCircuit(ref, c).hash(vars, xs, *type.domain_tag(arity));
      EXPECT_EQ(out, got->lc.terms()[0].var);
      expect_same_rows(cs.matrices(), ref.matrices());
      EXPECT_EQ(cs.witness(), ref.witness());

      // The shape without values has the same rows.
      RecordingSystem shape(false);
      std::vector<Num> blanks;
      for (size_t i = 0; i < arity; ++i) blanks.push_back(Num::alloc(shape, Fr::zero()));
      ASSERT_TRUE(poseidon_hash_circuit(shape, c, blanks, type).ok());
      expect_same_rows(shape.matrices(), cs.matrices());

      // A tampered intermediate value breaks the circuit.
      std::vector<Fr> w = cs.witness();
      w[cs.num_inputs() + arity + rng() % want] += Fr::one();
      auto bad = first_unsatisfied(cs.matrices(), w);
      ASSERT_TRUE(bad.ok());
      EXPECT_TRUE(bad->has_value());
    }
  }
}

TEST(PoseidonCircuit, RejectsBadPreimages) {
  const PoseidonConstants& c = poseidon_constants_4();
  RecordingSystem cs;
  std::vector<Num> nums;
  for (int i = 0; i < 4; ++i) nums.push_back(Num::alloc(cs, Fr::from_u64(i)));
  EXPECT_FALSE(poseidon_hash_circuit(cs, c, std::span<const Num>(nums).first(3)).ok());
  EXPECT_FALSE(poseidon_hash_circuit(cs, c, nums, PoseidonHashType::constant_length(3)).ok());
  EXPECT_FALSE(poseidon_hash_circuit(cs, c, nums, PoseidonHashType::custom(300)).ok());
  EXPECT_EQ(cs.num_constraints(), 0u);
}

}  // namespace
}  // namespace cuzk::r1cs
