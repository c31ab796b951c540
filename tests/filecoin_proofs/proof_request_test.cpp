// filecoin/proofs without parameters: requests of a sealed 2 KiB sector turned into partitions whose
// circuits are satisfied and whose public inputs are the verifier's; malformed and inconsistent
// requests refused with a message; parameter lookup by official name; blank circuits by circuit id.
#include <gtest/gtest.h>

#include <filesystem>

#include "filecoin/formats/c1_json.hpp"
#include "filecoin/formats/curio_c1.hpp"
#include "filecoin/formats/vanilla_bincode.hpp"
#include "filecoin/proofs/blank_circuit.hpp"
#include "filecoin/proofs/parameter_lookup.hpp"
#include "filecoin/proofs/proof_request.hpp"
#include "filecoin/types/prover_id.hpp"
#include "filecoin/vanilla/post_proof.hpp"
#include "filecoin/vanilla/seal.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::filecoin {
namespace {

Domain bytes_of(uint8_t first) {
  Domain d{};
  for (size_t i = 0; i < d.size(); ++i) d[i] = uint8_t(first + 7 * i);
  return trim_to_fr32(d);
}

const vanilla::TestSector& sector() {
  static const vanilla::TestSector s = *vanilla::seal_test_sector(
      5, prover_id_from_actor_id(1000), 42, bytes_of(1), bytes_of(2), std::vector<uint8_t>(2032, 0x5a));
  return s;
}

std::string as_string(const std::vector<uint8_t>& b) { return {b.begin(), b.end()}; }

ProofRequest window_request(const Domain& randomness) {
  const auto type = *post_proof(10);  // StackedDrgWindow2KiBV1_2
  ProofRequest r;
  r.kind = ProofKind::window_post;
  r.proof_id = type.id;
  r.randomness = randomness;
  r.vanilla.push_back(
      as_string(write_post_vanilla_proof(*vanilla::post_vanilla_proof(sector(), type, randomness))));
  return r;
}

TEST(ProofRequest, HexDomains) {
  const std::string hex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
  auto d = parse_domain_hex(hex);
  ASSERT_TRUE(d.ok());
  for (size_t i = 0; i < 32; ++i) EXPECT_EQ((*d)[i], i);
  EXPECT_EQ(domain_hex(*d), hex);
  EXPECT_TRUE(parse_domain_hex("0x" + hex).ok());
  EXPECT_FALSE(parse_domain_hex(hex.substr(2)).ok());
  EXPECT_FALSE(parse_domain_hex(hex + "00").ok());
  EXPECT_FALSE(parse_domain_hex("zz" + hex.substr(2)).ok());
  EXPECT_FALSE(parse_domain_hex("").ok());
}

TEST(ProofRequest, WindowPostPartitionIsSatisfiedWithTheVerifiersInputs) {
  const Domain r = bytes_of(9);
  auto prepared = PreparedProof::prepare(window_request(r));
  ASSERT_TRUE(prepared.ok()) << prepared.message();
  EXPECT_EQ(prepared->partitions(), 1u);
  EXPECT_EQ(prepared->circuit(), (CircuitId{CircuitKind::window_post, 2048}));
  auto part = prepared->partition(0);
  ASSERT_TRUE(part.ok()) << part.message();
  auto as = r1cs::synthesize_for_proving(*part->circuit);
  ASSERT_TRUE(as.ok()) << as.message();
  const std::vector<Fr> wires(as->input_assignment.begin() + 1, as->input_assignment.end());
  EXPECT_EQ(wires, part->public_inputs);
  // The verifier, from the sector ids and comm_r alone, computes the same inputs.
  auto verifier = PreparedProof::prepare(window_request(r), PrepareFor::verifying);
  ASSERT_TRUE(verifier.ok());
  EXPECT_EQ(*verifier->public_inputs(0), part->public_inputs);
  EXPECT_FALSE(verifier->partition(0).ok());  // prepared for verifying only
  EXPECT_FALSE(prepared->partition(1).ok());
}

TEST(ProofRequest, BadPostRequestsAreRefused) {
  const Domain r = bytes_of(9);
  auto other = window_request(bytes_of(10));
  other.randomness = r;  // proofs at another randomness: the challenges differ
  auto st = PreparedProof::prepare(other);
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(st.error().bad_input);
  EXPECT_NE(st.message().find("challenge"), std::string::npos) << st.message();

  auto truncated = window_request(r);
  for (size_t n : {size_t(0), size_t(1), truncated.vanilla[0].size() / 2, truncated.vanilla[0].size() - 1}) {
    auto t = truncated;
    t.vanilla[0].resize(n);
    EXPECT_FALSE(PreparedProof::prepare(t).ok()) << n;
    EXPECT_FALSE(PreparedProof::prepare(t, PrepareFor::verifying).ok()) << n;
  }
  // Proofs are parsed on every core; the error names the first bad one however the work ran.
  auto several = window_request(r);
  several.vanilla.assign(40, several.vanilla[0]);
  for (size_t bad : {size_t(37), size_t(21), size_t(5)}) several.vanilla[bad].resize(3);
  auto first_bad = PreparedProof::prepare(several);
  ASSERT_FALSE(first_bad.ok());
  EXPECT_TRUE(first_bad.error().bad_input);
  EXPECT_NE(first_bad.message().find("vanilla proof 5:"), std::string::npos) << first_bad.message();
  auto none = window_request(r);
  none.vanilla.clear();
  EXPECT_FALSE(PreparedProof::prepare(none).ok());
  auto winning_type = window_request(r);
  winning_type.proof_id = 0;  // StackedDrgWinning2KiBV1 for a WindowPoSt request
  EXPECT_FALSE(PreparedProof::prepare(winning_type).ok());
  auto unknown = window_request(r);
  unknown.proof_id = 99;
  EXPECT_FALSE(PreparedProof::prepare(unknown).ok());
  auto not_fr = window_request(r);
  not_fr.randomness[31] = 0xff;
  EXPECT_FALSE(PreparedProof::prepare(not_fr).ok());
}

TEST(ProofRequest, PorepEnvelopeAndIdsAreChecked) {
  const auto c1 = *vanilla::commit_phase1(sector());
  const std::string json = write_c1_json(c1);
  ProofRequest r;
  r.kind = ProofKind::seal;
  r.vanilla = {json};
  auto verifier = PreparedProof::prepare(r, PrepareFor::verifying);
  ASSERT_TRUE(verifier.ok()) << verifier.message();
  EXPECT_EQ(verifier->partitions(), 1u);
  EXPECT_EQ(verifier->circuit(), (CircuitId{CircuitKind::porep, 2048}));
  auto inputs = verifier->public_inputs(0);
  ASSERT_TRUE(inputs.ok()) << inputs.message();
  EXPECT_EQ(inputs->size(), 3u + 2 * 18);  // reference §3.1.4: 40 with ONE at the test sizes

  // The right ids give the C1's replica_id, so the same inputs; another sector id other inputs.
  r.prover_id = prover_id_from_actor_id(1000);
  r.sector_id = 42;
  EXPECT_EQ(*PreparedProof::prepare(r, PrepareFor::verifying)->public_inputs(0), *inputs);
  r.sector_id = 43;
  EXPECT_NE(*PreparedProof::prepare(r, PrepareFor::verifying)->public_inputs(0), *inputs);
  // Proving checks the ids against replica_id.
  EXPECT_FALSE(PreparedProof::prepare(r).ok());
  r.sector_id.reset();
  EXPECT_FALSE(PreparedProof::prepare(r, PrepareFor::verifying).ok());  // one id without the other

  // Curio's wrapper carries the sector number; a different one given beside it is refused.
  ProofRequest wrapped;
  wrapped.kind = ProofKind::seal;
  wrapped.vanilla = {write_curio_c1_wrapper({42, 2048, json})};
  wrapped.prover_id = prover_id_from_actor_id(1000);
  auto w = PreparedProof::prepare(wrapped, PrepareFor::verifying);
  ASSERT_TRUE(w.ok()) << w.message();
  EXPECT_EQ(*w->public_inputs(0), *inputs);
  wrapped.sector_id = 41;
  EXPECT_FALSE(PreparedProof::prepare(wrapped, PrepareFor::verifying).ok());

  ProofRequest bad;
  bad.kind = ProofKind::seal;
  for (std::string text :
       {std::string(), std::string("{"), json.substr(0, json.size() / 2), std::string("[]")}) {
    bad.vanilla = {text};
    EXPECT_FALSE(PreparedProof::prepare(bad, PrepareFor::verifying).ok());
  }
  bad.vanilla = {json, json};
  EXPECT_FALSE(PreparedProof::prepare(bad, PrepareFor::verifying).ok());
  bad.vanilla = {json};
  bad.proof_id = 0;  // StackedDrg2KiBV1, the C1 is V1_1
  EXPECT_FALSE(PreparedProof::prepare(bad, PrepareFor::verifying).ok());
}

TEST(ProofRequest, TypesCuzkCannotProveAreRefusedByName) {
  // Every registered type but NI-PoRep's five seal types is provable.
  for (auto family : {ProofFamily::seal, ProofFamily::post, ProofFamily::update})
    for (const RegisteredProof& p : registered_proofs(family))
      EXPECT_EQ(check_provable(p).ok(), !p.non_interactive) << p.name;
  const RegisteredProof ni =
      *registered_proof(ProofFamily::seal, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep");
  const Status st = check_provable(ni);
  EXPECT_TRUE(st.error().bad_input);
  EXPECT_EQ(
      st.message(),
      "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep (seal proof type 18) is NI-PoRep: its commit-phase-2 "
      "output is a SnarkPack aggregate of the partition proofs, which cuzk does not make");

  // A C1 of an NI-PoRep type, for proving and for verifying.
  auto c1 = *vanilla::commit_phase1(sector());
  c1.registered_proof = "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep";
  ProofRequest r;
  r.kind = ProofKind::seal;
  r.vanilla = {write_c1_json(c1)};
  const std::string refusal =
      "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep (seal proof type 15) is NI-PoRep: its commit-phase-2 "
      "output is a SnarkPack aggregate of the partition proofs, which cuzk does not make";
  for (auto use : {PrepareFor::proving, PrepareFor::verifying}) {
    auto p = PreparedProof::prepare(r, use);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.message(), refusal);
  }
  // Named by id: refused before the C1 is read, whatever it holds.
  r.proof_id = 15;
  r.vanilla = {"{"};
  EXPECT_EQ(PreparedProof::prepare(r).message(), refusal);
}

TEST(ParameterLookup, OfficialNamesAndAClearErrorWhenMissing) {
  const auto dir = std::filesystem::temp_directory_path() / "cuzk-no-such-parameter-dir";
  const CircuitId id{CircuitKind::porep, 2048};
  auto path = parameter_path(id, ParameterExt::params, dir);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(path->filename().string(),
            "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
            "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params");
  auto missing = find_parameter_file(id, ParameterExt::params, dir);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find(path->string()), std::string::npos) << missing.message();
  EXPECT_NE(missing.message().find("cuzk setup --filecoin porep-2k"), std::string::npos) << missing.message();
  EXPECT_EQ(resolve_parameter_directory("/x/y"), std::filesystem::path("/x/y"));
}

TEST(BlankCircuit, ByCircuitId) {
  for (const char* name : {"wpost-2k", "winning-2k"}) {
    auto id = parse_circuit_id(name);
    ASSERT_TRUE(id.ok());
    auto circuit = blank_circuit(*id);
    ASSERT_TRUE(circuit.ok()) << circuit.message();
    // reference §3.2: sectors × (1 + challenges) inputs; 2 × 11 and 66 × 2.
    EXPECT_EQ((*circuit)->num_public_inputs(), std::string(name) == "wpost-2k" ? 22u : 132u);
  }
  EXPECT_EQ((*blank_circuit({CircuitKind::porep, 2048}))->num_public_inputs(), 39u);
  EXPECT_EQ((*blank_circuit({CircuitKind::update, 2048}))->num_public_inputs(), 4u);
  EXPECT_FALSE(blank_circuit({CircuitKind::update_poseidon, 2048}).ok());
  EXPECT_FALSE(blank_circuit({CircuitKind::porep, 4096}).ok());
}

}  // namespace
}  // namespace cuzk::filecoin
