// Registered proof types, parameter file names and prover ids against upstream's own data:
// rust-filecoin-proofs-api's porep-id test vectors, every name in rust-fil-proofs'
// parameters.json, Curio's SRS file table.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "filecoin/types/parameter_files.hpp"
#include "filecoin/types/proof_types.hpp"
#include "filecoin/types/prover_id.hpp"
#include "test_util.hpp"

namespace cuzk::filecoin {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
const uint64_t kSizes[5] = {2 * kKiB, 8 * kMiB, 512 * kMiB, 32 * kGiB, 64 * kGiB};

TEST(ProofTypes, SealTypesMatchTheProofsApi) {
  // rust-filecoin-proofs-api: src/registry.rs, the enum in declaration order.
  const char* names[20] = {"StackedDrg2KiBV1",
                           "StackedDrg8MiBV1",
                           "StackedDrg512MiBV1",
                           "StackedDrg32GiBV1",
                           "StackedDrg64GiBV1",
                           "StackedDrg2KiBV1_1",
                           "StackedDrg8MiBV1_1",
                           "StackedDrg512MiBV1_1",
                           "StackedDrg32GiBV1_1",
                           "StackedDrg64GiBV1_1",
                           "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
                           "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
                           "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
                           "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
                           "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
                           "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
                           "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
                           "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
                           "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
                           "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep"};
  const char* shape_keys[5] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1",
                               "StackedDrg32GiBV1", "StackedDrg64GiBV1"};
  const ApiVersion versions[4] = {ApiVersion::v1_0_0, ApiVersion::v1_1_0, ApiVersion::v1_2_0,
                                  ApiVersion::v1_2_0};
  ASSERT_EQ(registered_proofs(ProofFamily::seal).size(), 20u);
  for (uint64_t id = 0; id < 20; ++id) {
    auto p = seal_proof(id);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->name, names[id]);
    EXPECT_EQ(p->sector_size, kSizes[id % 5]);
    EXPECT_EQ(p->shape_key, shape_keys[id % 5]);
    EXPECT_EQ(p->api_version, versions[id / 5]);
    EXPECT_EQ(p->kind, ProofKind::seal);
    EXPECT_EQ(p->synthetic, id / 5 == 2);
    EXPECT_EQ(p->non_interactive, id / 5 == 3);
    // registry.rs test_porep_id: the id as the first byte, then zeros.
    std::string want = "00000000000000000000000000000000000000000000000000000000000000";
    static constexpr char kHex[] = "0123456789abcdef";
    want = std::string{kHex[id >> 4], kHex[id & 15]} + want;
    EXPECT_EQ(test::to_hex(p->porep_id()), want) << names[id];
    auto by_name = registered_proof(ProofFamily::seal, names[id]);
    ASSERT_TRUE(by_name.ok());
    EXPECT_EQ(*by_name, *p);
  }
  // Go's abi name of the NI types.
  auto ni = registered_proof(ProofFamily::seal, "StackedDrg32GiBV1_2_Feat_NiPoRep");
  ASSERT_TRUE(ni.ok());
  EXPECT_EQ(ni->id, 18u);
}

TEST(ProofTypes, PostAndUpdateTypes) {
  ASSERT_EQ(registered_proofs(ProofFamily::post).size(), 15u);
  auto win = post_proof(3);
  ASSERT_TRUE(win.ok());
  EXPECT_EQ(win->name, "StackedDrgWinning32GiBV1");
  EXPECT_EQ(win->kind, ProofKind::winning_post);
  EXPECT_EQ(win->api_version, ApiVersion::v1_0_0);
  auto window = post_proof(8);
  ASSERT_TRUE(window.ok());
  EXPECT_EQ(window->name, "StackedDrgWindow32GiBV1");
  EXPECT_EQ(window->kind, ProofKind::window_post);
  auto window2 = post_proof(13);
  ASSERT_TRUE(window2.ok());
  EXPECT_EQ(window2->name, "StackedDrgWindow32GiBV1_2");
  EXPECT_EQ(window2->api_version, ApiVersion::v1_2_0);
  EXPECT_EQ(window2->sector_size, 32 * kGiB);
  // Go calls it V1_1.
  auto go = registered_proof(ProofFamily::post, "StackedDrgWindow32GiBV1_1");
  ASSERT_TRUE(go.ok());
  EXPECT_EQ(go->id, 13u);
  auto w2k = registered_proof(ProofFamily::post, "StackedDrgWinning2KiBV1");
  ASSERT_TRUE(w2k.ok());
  EXPECT_EQ(w2k->id, 0u);
  EXPECT_EQ(w2k->sector_size, 2 * kKiB);

  ASSERT_EQ(registered_proofs(ProofFamily::update).size(), 5u);
  for (uint64_t id = 0; id < 5; ++id) {
    auto u = update_proof(id);
    ASSERT_TRUE(u.ok());
    EXPECT_EQ(u->sector_size, kSizes[id]);
    EXPECT_EQ(u->api_version, ApiVersion::v1_1_0);
    EXPECT_EQ(u->porep_id()[0], id);
  }
  EXPECT_EQ(update_proof(3)->name, "StackedDrg32GiBV1");
}

TEST(ProofTypes, LookupErrorsNameWhatIsWrong) {
  auto a = seal_proof(20);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.message(), "unknown registered seal proof 20 (known: 0–19)");
  EXPECT_TRUE(a.error().bad_input);
  EXPECT_EQ(post_proof(15).message(), "unknown registered post proof 15 (known: 0–14)");
  EXPECT_EQ(update_proof(5).message(), "unknown registered update proof 5 (known: 0–4)");
  EXPECT_EQ(registered_proof(ProofFamily::seal, "StackedDrg1TiBV1").message(),
            "unknown registered seal proof \"StackedDrg1TiBV1\"");
  EXPECT_FALSE(registered_proof(ProofFamily::post, "StackedDrg32GiBV1_1").ok());
  EXPECT_FALSE(c1_shape_key(4096).ok());
  EXPECT_EQ(*c1_shape_key(64 * kGiB), "StackedDrg64GiBV1");
}

// Every .params and .vk name of rust-fil-proofs' parameters.json, with its sector size.
TEST(ParameterFiles, EveryNameOfParametersJson) {
  std::ifstream in(test::data_path("parameter_names.txt"));
  std::map<std::string, uint64_t> want;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string name;
    uint64_t size = 0;
    ls >> name >> size;
    want[name] = size;
  }
  ASSERT_EQ(want.size(), 44u);
  std::map<std::string, uint64_t> got;
  const CircuitKind kinds[4] = {CircuitKind::porep, CircuitKind::winning_post, CircuitKind::window_post,
                                CircuitKind::update};
  for (uint64_t size : kSizes) {
    for (CircuitKind k : kinds)
      for (ParameterExt e : {ParameterExt::params, ParameterExt::vk})
        got[*parameter_file_name(k, size, e)] = size;
  }
  // The Poseidon update variant is published for the two large sizes only.
  for (uint64_t size : {32 * kGiB, 64 * kGiB})
    for (ParameterExt e : {ParameterExt::params, ParameterExt::vk})
      got[*parameter_file_name(CircuitKind::update_poseidon, size, e)] = size;
  EXPECT_EQ(got, want);
}

TEST(ParameterFiles, IdentifiersAndNames) {
  EXPECT_EQ(*circuit_identifier(CircuitKind::window_post, 2 * kKiB),
            "FallbackPoSt::PublicParams{sector_size: 2048, challenge_count: 10, sector_count: 2}");
  EXPECT_EQ(*circuit_identifier(CircuitKind::winning_post, 32 * kGiB),
            "FallbackPoSt::PublicParams{sector_size: 34359738368, challenge_count: 1, sector_count: 66}");
  EXPECT_EQ(*circuit_identifier(CircuitKind::update, 32 * kGiB),
            "empty_sector_update::PublicParams{ sector_nodes: 1073741824 }");
  EXPECT_EQ(
      *circuit_identifier(CircuitKind::porep, 2 * kKiB),
      "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
      "drgraph::BucketGraph{size: 64; degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges { "
      "layers: 2, max_count: 2 }, tree: merkletree-poseidon_hasher-8-0-0 }");
  EXPECT_EQ(*parameter_file_name(*seal_proof(8), ParameterExt::meta),
            "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
            "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.meta");
  // Every type of one kind and size shares the file.
  for (uint64_t id = 0; id < 20; ++id)
    EXPECT_EQ(*parameter_file_name(*seal_proof(id)), *parameter_file_name(*seal_proof(id % 5)));
  EXPECT_EQ(*parameter_file_name(*post_proof(8)), *parameter_file_name(*post_proof(13)));
  EXPECT_NE(*parameter_file_name(*post_proof(3)), *parameter_file_name(*post_proof(8)));
  auto bad = parameter_file_name(CircuitKind::porep, 4096);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "no Filecoin circuit has sector size 4096 bytes");
}

// curio: extern/cuzk/cuzk-core/src/srs_manager.rs `circuit_id_to_param_filename`.
TEST(ParameterFiles, CurioCircuitIds) {
  const std::pair<const char*, const char*> curio[6] = {
      {"porep-32g",
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
       "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params"},
      {"porep-64g",
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
       "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params"},
      {"wpost-32g",
       "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
       "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params"},
      {"winning-32g",
       "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
       "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params"},
      {"snap-32g",
       "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
       "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params"},
      {"snap-64g",
       "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
       "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params"},
  };
  ASSERT_EQ(curio_circuit_ids().size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(curio_circuit_ids()[i], curio[i].first);
    auto id = parse_circuit_id(curio[i].first);
    ASSERT_TRUE(id.ok()) << curio[i].first;
    EXPECT_EQ(*parameter_file_name(id->kind, id->sector_size), curio[i].second);
    EXPECT_EQ(*circuit_id_string(*id), curio[i].first);
  }
  auto small = parse_circuit_id("wpost-2k");
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->kind, CircuitKind::window_post);
  EXPECT_EQ(small->sector_size, 2 * kKiB);
  for (const char* bad : {"porep-32G", "porep32g", "porep-16g", "", "snap-", "-32g", "porep-32gg"})
    EXPECT_FALSE(parse_circuit_id(bad).ok()) << bad;
  EXPECT_FALSE(circuit_id_string({CircuitKind::update_poseidon, 32 * kGiB}).ok());
}

TEST(ParameterFiles, Directory) {
  const char* old = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
  const std::string saved = old ? old : "";
  unsetenv("FIL_PROOFS_PARAMETER_CACHE");
  EXPECT_EQ(parameter_directory(), std::filesystem::path("/var/tmp/filecoin-proof-parameters/"));
  setenv("FIL_PROOFS_PARAMETER_CACHE", "/data/params", 1);
  EXPECT_EQ(parameter_directory(), std::filesystem::path("/data/params"));
  setenv("FIL_PROOFS_PARAMETER_CACHE", "", 1);
  EXPECT_EQ(parameter_directory(), std::filesystem::path("/var/tmp/filecoin-proof-parameters/"));
  if (old)
    setenv("FIL_PROOFS_PARAMETER_CACHE", saved.c_str(), 1);
  else
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
}

// The ID-address payload is unsigned LEB128 (go-address; f01000's payload is e8 07).
TEST(ProverId, Leb128OfTheActorId) {
  auto hex = [](uint64_t actor) { return test::to_hex(prover_id_from_actor_id(actor)); };
  const std::string zeros(64, '0');
  auto padded = [&](std::string prefix) { return prefix + zeros.substr(prefix.size()); };
  EXPECT_EQ(hex(0), padded("00"));
  EXPECT_EQ(hex(127), padded("7f"));
  EXPECT_EQ(hex(128), padded("8001"));
  EXPECT_EQ(hex(1000), padded("e807"));
  EXPECT_EQ(hex(123), padded("7b"));
  EXPECT_EQ(hex(300000), padded("e0a712"));
  EXPECT_EQ(hex(UINT64_MAX), padded("ffffffffffffffffff01"));
}

}  // namespace
}  // namespace cuzk::filecoin
