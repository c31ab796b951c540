// Interop with snarkjs 0.7.6 / circom 2.2.3 (label `interop`): the files in tests/data/snarkjs were
// made by make_snarkjs_fixtures.sh (a toy circuit, a fresh ceremony, a proof, the bellman export).
// We parse them and check them against each other, write snarkjs's JSON from what we parsed and
// compare it with snarkjs's own output, and have snarkjs verify the JSON we wrote.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "io/bellman.hpp"
#include "io/file.hpp"
#include "io/proof.hpp"
#include "io/r1cs_convert.hpp"
#include "io/snarkjs_json.hpp"
#include "io/snarkjs_r1cs.hpp"
#include "io/snarkjs_wtns.hpp"
#include "io/snarkjs_zkey.hpp"
#include "io_test_util.hpp"

namespace cuzk {
namespace {

const std::filesystem::path kData = CUZK_IO_SNARKJS_DATA;

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Fixture {
  SnarkjsR1cs r1cs;
  SnarkjsWitness wtns;
  SnarkjsZkey zkey;
};

Fixture load() {
  Fixture f;
  auto r = read_r1cs(kData / "toy.r1cs");
  EXPECT_TRUE(r.ok()) << r.message();
  auto w = read_wtns(kData / "toy.wtns");
  EXPECT_TRUE(w.ok()) << w.message();
  auto z = read_zkey(kData / "toy.zkey");
  EXPECT_TRUE(z.ok()) << z.message();
  if (r.ok()) f.r1cs = std::move(*r);
  if (w.ok()) f.wtns = std::move(*w);
  if (z.ok()) f.zkey = std::move(*z);
  return f;
}

TEST(SnarkjsInterop, WitnessSatisfiesTheCircuit) {
  const Fixture f = load();
  ASSERT_FALSE(HasFailure());
  EXPECT_EQ(f.r1cs.n_public(), 3u);  // outputs c, d and the public input a
  EXPECT_TRUE(f.r1cs.check_witness(f.wtns.values).ok());
  // The same through cuzk's own constraint matrices.
  const auto m = to_constraint_matrices(f.r1cs);
  EXPECT_TRUE(m.validate().ok());
  EXPECT_EQ(m.num_inputs, 4u);
  auto bad = r1cs::first_unsatisfied(m, f.wtns.values);
  ASSERT_TRUE(bad.ok()) << bad.message();
  EXPECT_FALSE(bad->has_value());
  auto broken = f.wtns.values;
  broken.back() += Fr::one();
  EXPECT_FALSE(f.r1cs.check_witness(broken).ok());

  // public.json = w[1 ..= nPublic], written exactly as snarkjs writes it.
  const auto pub = f.wtns.inputs(f.r1cs.n_public()).subspan(1);
  EXPECT_EQ(snarkjs_public_json(pub), slurp(kData / "public.json"));
  auto parsed = parse_snarkjs_public_json(slurp(kData / "public.json"));
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_TRUE(std::equal(parsed->begin(), parsed->end(), pub.begin(), pub.end()));
}

TEST(SnarkjsInterop, ZkeyMatchesTheCircuitAndItsVerificationKey) {
  const Fixture f = load();
  ASSERT_FALSE(HasFailure());
  const SnarkjsZkey& z = f.zkey;
  EXPECT_EQ(z.n_vars, f.r1cs.n_wires);
  EXPECT_EQ(z.n_public, f.r1cs.n_public());
  uint32_t want_domain = 1;
  while (want_domain < f.r1cs.n_constraints() + f.r1cs.n_public() + 1) want_domain *= 2;
  EXPECT_EQ(z.domain_size, want_domain);
  EXPECT_EQ(z.h.size(), z.domain_size);
  EXPECT_EQ(z.c.size(), z.n_vars - z.n_public - 1);

  // Section 4 = the r1cs A and B matrices plus A = x_s at row nConstraints + s for every public
  // signal s (ONE included).
  using Key = std::tuple<uint32_t, uint32_t, uint32_t>;  // matrix, constraint, signal
  std::map<Key, Fr> want, got;
  const SparseRows* mats[] = {&f.r1cs.a, &f.r1cs.b};
  for (uint32_t mi = 0; mi < 2; ++mi)
    for (size_t k = 0; k < mats[mi]->rows(); ++k)
      for (size_t t = 0; t < mats[mi]->row_wires(k).size(); ++t)
        want[{mi, uint32_t(k), mats[mi]->row_wires(k)[t]}] += mats[mi]->row_coeffs(k)[t];
  for (uint32_t s = 0; s <= z.n_public; ++s) want[{0, f.r1cs.n_constraints() + s, s}] += Fr::one();
  for (const auto& c : z.coefficients) got[{c.matrix, c.constraint, c.signal}] += c.value;
  std::erase_if(want, [](const auto& kv) { return kv.second.is_zero(); });
  std::erase_if(got, [](const auto& kv) { return kv.second.is_zero(); });
  EXPECT_EQ(want.size(), got.size());
  for (const auto& [key, value] : want) {
    auto it = got.find(key);
    ASSERT_NE(it, got.end()) << "missing coefficient (" << std::get<0>(key) << ", " << std::get<1>(key)
                             << ", " << std::get<2>(key) << ")";
    EXPECT_EQ(it->second, value);
  }

  // verification_key.json: same points, and our writer reproduces snarkjs's file except for
  // vk_alphabeta_12 (a pairing, which we do not compute here).
  const std::string vk_text = slurp(kData / "verification_key.json");
  auto vk = parse_snarkjs_vk_json(vk_text);
  ASSERT_TRUE(vk.ok()) << vk.message();
  EXPECT_EQ(vk->alpha_g1, z.alpha_g1);
  EXPECT_EQ(vk->beta_g2, z.beta_g2);
  EXPECT_EQ(vk->gamma_g2, z.gamma_g2);
  EXPECT_EQ(vk->delta_g2, z.delta_g2);
  EXPECT_EQ(vk->ic, z.ic);
  EXPECT_TRUE(z.gamma_g2 == G2Affine::generator());  // snarkjs's setup fixes gamma = G2
  auto theirs = nlohmann::ordered_json::parse(vk_text);
  theirs.erase("vk_alphabeta_12");
  EXPECT_EQ(snarkjs_vk_json(z.verifying_key()), theirs.dump(1));
}

TEST(SnarkjsInterop, ProofJsonRoundTripsByteForByte) {
  const std::string text = slurp(kData / "proof.json");
  auto proof = parse_snarkjs_proof_json(text);
  ASSERT_TRUE(proof.ok()) << proof.message();
  EXPECT_EQ(snarkjs_proof_json(*proof), text);
  // And through bellperson's 192-byte form.
  const auto bytes = write_proofs(std::span(&*proof, 1));
  auto back = read_proofs(bytes);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(snarkjs_proof_json((*back)[0]), text);
}

TEST(SnarkjsInterop, BellmanExportNeedsCompaction) {
  const Fixture f = load();
  ASSERT_FALSE(HasFailure());
  const SnarkjsZkey& z = f.zkey;
  auto file = read_file_bytes(kData / "toy.params");
  ASSERT_TRUE(file.ok()) << file.message();
  // The vk head matches the zkey, beta_g1 and delta_g1 included.
  auto vk = parse_bellman_vk(*file);
  ASSERT_TRUE(vk.ok()) << vk.message();
  EXPECT_EQ(vk->alpha_g1, z.alpha_g1);
  EXPECT_EQ(vk->beta_g1, z.beta_g1);
  EXPECT_EQ(vk->delta_g1, z.delta_g1);
  EXPECT_EQ(vk->delta_g2, z.delta_g2);
  EXPECT_EQ(vk->ic, z.ic);

  // snarkjs writes unused A/B entries as all-zero bytes, which bellperson rejects: so do we.
  auto raw = parse_bellman_params(*file);
  ASSERT_FALSE(raw.ok());
  EXPECT_NE(raw.message().find("params: a point"), std::string::npos) << raw.message();

  // Compact a, b_g1, b_g2 (drop the all-zero entries, formats.md §4.8) and read it again.
  auto m = MappedBellmanParameters::from_bytes(*file, Check::full);  // locates, decodes only the vk
  ASSERT_TRUE(m.ok()) << m.message();
  std::vector<uint8_t> compact = serialize_bellman_vk(m->vk());
  auto put_u32_be = [&](size_t v) {
    for (int shift : {24, 16, 8, 0}) compact.push_back(uint8_t(v >> shift));
  };
  for (ParamsArray which :
       {ParamsArray::h, ParamsArray::l, ParamsArray::a, ParamsArray::b_g1, ParamsArray::b_g2}) {
    const auto bytes = m->raw(which);
    const size_t size = which == ParamsArray::b_g2 ? 192 : 96;
    std::vector<uint8_t> kept;
    size_t n = 0;
    for (size_t at = 0; at < bytes.size(); at += size) {
      const auto point = bytes.subspan(at, size);
      if (std::all_of(point.begin(), point.end(), [](uint8_t b) { return b == 0; })) continue;
      kept.insert(kept.end(), point.begin(), point.end());
      ++n;
    }
    put_u32_be(n);
    compact.insert(compact.end(), kept.begin(), kept.end());
  }
  auto params = parse_bellman_params(compact);
  ASSERT_TRUE(params.ok()) << params.message();
  EXPECT_EQ(params->h.size(), z.domain_size - 1);
  EXPECT_EQ(params->l, z.c);
  auto nonzero = [](auto points) {
    std::erase_if(points, [](const auto& p) { return p.is_inf(); });
    return points;
  };
  EXPECT_EQ(params->a, nonzero(z.a));
  EXPECT_EQ(params->b_g1, nonzero(z.b_g1));
  EXPECT_EQ(params->b_g2, nonzero(z.b_g2));
  EXPECT_LT(params->b_g1.size(), z.b_g1.size());  // the toy circuit leaves some signals out of B
}

// The fuzz loop of fuzz_test.cpp on the real files (circom's section order, real sizes).
TEST(SnarkjsInterop, MutatedFixturesAreErrorsOrValues) {
  test::Rng rng;
  CUZK_SEED_TRACE(rng);
  const std::pair<const char*, std::function<bool(std::span<const uint8_t>)>> parsers[] = {
      {"toy.r1cs", [](std::span<const uint8_t> b) { return parse_r1cs(b).ok(); }},
      {"toy.wtns", [](std::span<const uint8_t> b) { return parse_wtns(b).ok(); }},
      {"toy.zkey", [](std::span<const uint8_t> b) { return parse_zkey(b, Check::curve_only).ok(); }},
      {"toy.params", [](std::span<const uint8_t> b) { return parse_bellman_vk(b).ok(); }},
  };
  for (const auto& [name, parse] : parsers) {
    SCOPED_TRACE(name);
    auto file = read_file_bytes(kData / name);
    ASSERT_TRUE(file.ok()) << file.message();
    EXPECT_TRUE(parse(*file));
    for (int i = 0; i < 200; ++i) (void)parse(test::mutate(rng, *file, {}));
  }
}

// snarkjs itself accepts the JSON we write: verify the fixture's proof from files written by our
// writers (the verifying key without vk_alphabeta_12).
TEST(SnarkjsInterop, SnarkjsVerifiesOurJson) {
  const std::filesystem::path snarkjs = CUZK_IO_SNARKJS_BIN;
  ASSERT_TRUE(std::filesystem::exists(snarkjs)) << snarkjs << " is missing: run tools/setup.sh";
  const Fixture f = load();
  ASSERT_FALSE(HasFailure());
  auto proof = parse_snarkjs_proof_json(slurp(kData / "proof.json"));
  ASSERT_TRUE(proof.ok()) << proof.message();
  const auto dir = std::filesystem::temp_directory_path() / ("cuzk-io-snarkjs-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto write = [&](const char* name, const std::string& text) {
    return write_file_bytes(dir / name, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()))
        .ok();
  };
  ASSERT_TRUE(write("vk.json", snarkjs_vk_json(f.zkey.verifying_key())));
  ASSERT_TRUE(write("proof.json", snarkjs_proof_json(*proof)));
  ASSERT_TRUE(write("public.json", snarkjs_public_json(f.wtns.inputs(f.zkey.n_public).subspan(1))));
  const std::string verify = snarkjs.string() + " groth16 verify " + (dir / "vk.json").string() + " " +
                             (dir / "public.json").string() + " " + (dir / "proof.json").string() + " > " +
                             (dir / "out.txt").string() + " 2>&1";
  const int rc = std::system(verify.c_str());
  const std::string out = slurp(dir / "out.txt");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("OK"), std::string::npos) << out;

  // A wrong public signal must fail: the check above is not vacuous.
  auto pub = std::vector<Fr>(f.wtns.values.begin() + 1, f.wtns.values.begin() + 1 + f.zkey.n_public);
  pub[0] += Fr::one();
  ASSERT_TRUE(write("public.json", snarkjs_public_json(pub)));
  EXPECT_NE(std::system(verify.c_str()), 0) << slurp(dir / "out.txt");
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace
}  // namespace cuzk
