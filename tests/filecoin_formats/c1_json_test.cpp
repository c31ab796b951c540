// Commit-phase-1 JSON: round trips, the writer's output against nlohmann's compact form, an error
// message for every field, truncation at every byte, random corruption, the content checks, and a
// synthetic 32 GiB C1 whose parse time and memory go to the test log.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "filecoin/formats/c1_json.hpp"
#include "filecoin/formats/vanilla_check.hpp"
#include "test_util.hpp"

#include <unistd.h>

namespace cuzk::filecoin {
namespace {

using ojson = nlohmann::ordered_json;

const SealCommitPhase1Output& c1_2k() {
  static const SealCommitPhase1Output c = test::Builder(1).c1(*seal_proof(5));
  return c;
}

TEST(C1Json, RoundTrips) {
  for (uint64_t id : {0u, 5u, 12u, 15u}) {
    const auto c1 = test::Builder(id).c1(*seal_proof(id));
    const std::string text = write_c1_json(c1);
    auto back = parse_c1_json(text);
    ASSERT_TRUE(back.ok()) << back.message();
    EXPECT_EQ(*back, c1);
    EXPECT_EQ(write_c1_json(*back), text);
    EXPECT_TRUE(check_c1(*back).ok()) << check_c1(*back).message();
  }
}

// serde_json's compact form: fields in declaration order, no whitespace; nlohmann's ordered dump
// of the same document is the same text.
TEST(C1Json, WriterIsCompactJsonInFieldOrder) {
  const std::string text = write_c1_json(c1_2k());
  const ojson j = ojson::parse(text);
  EXPECT_EQ(j.dump(), text);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                            "replica_id", "seed", "ticket"}));
  const ojson& ch = j["vanilla_proofs"]["StackedDrg2KiBV1"][0][0];
  EXPECT_EQ(ch.begin().key(), "comm_d_proofs");
  EXPECT_TRUE(ch["replica_column_proofs"]["c_x"]["column"]["_h"].is_null());
  EXPECT_EQ(ch["comm_d_proofs"]["data"]["Single"]["path"]["path"].size(), 6u);
  EXPECT_EQ(ch["labeling_proofs"][0].size(), 3u);  // parents, layer_index, node: no `_h`
}

struct Case {
  const char* name;
  std::function<void(ojson&)> mutate;
  std::string message;
};

ojson& challenge(ojson& j, int k, int i) { return j["vanilla_proofs"]["StackedDrg2KiBV1"][k][i]; }
ojson& single(ojson& j) { return challenge(j, 0, 1)["comm_d_proofs"]["data"]["Single"]; }
ojson& c_x(ojson& j) { return challenge(j, 0, 0)["replica_column_proofs"]["c_x"]; }

TEST(C1Json, EveryFieldsErrorNamesItsPath) {
  const std::string P = "C1 JSON: vanilla_proofs.StackedDrg2KiBV1";
  const Case cases[] = {
      {"missing top field", [](ojson& j) { j.erase("seed"); }, "C1 JSON: missing field `seed`"},
      {"registered_proof type", [](ojson& j) { j["registered_proof"] = 5; },
       "C1 JSON: registered_proof: expected a seal proof name, got 5"},
      {"registered_proof name", [](ojson& j) { j["registered_proof"] = "StackedDrgWindow2KiBV1"; },
       "C1 JSON: registered_proof: unknown registered seal proof \"StackedDrgWindow2KiBV1\""},
      {"Go name", [](ojson& j) { j["registered_proof"] = "StackedDrg2KiBV1_2_Feat_NiPoRep"; },
       "C1 JSON: registered_proof: \"StackedDrg2KiBV1_2_Feat_NiPoRep\" is Go's name; the JSON holds the Rust "
       "variant \"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep\""},
      {"shape key",
       [](ojson& j) {
         j["vanilla_proofs"] = ojson::object({{"StackedDrg4KiBV1", ojson::array()}});
       },
       "C1 JSON: vanilla_proofs: unknown vanilla proof shape `StackedDrg4KiBV1`, expected StackedDrg2KiBV1, "
       "StackedDrg8MiBV1, StackedDrg512MiBV1, StackedDrg32GiBV1 or StackedDrg64GiBV1"},
      {"two shape keys", [](ojson& j) { j["vanilla_proofs"]["StackedDrg8MiBV1"] = ojson::array(); },
       "C1 JSON: vanilla_proofs: one shape key expected, found `StackedDrg2KiBV1` and `StackedDrg8MiBV1`"},
      {"no shape key", [](ojson& j) { j["vanilla_proofs"] = ojson::object(); },
       "C1 JSON: vanilla_proofs: expected one shape key such as StackedDrg32GiBV1"},
      {"vanilla_proofs an array", [](ojson& j) { j["vanilla_proofs"] = ojson::array(); },
       "C1 JSON: vanilla_proofs: expected an object, got an array"},
      {"comm_r short", [](ojson& j) { j["comm_r"].erase(0); },
       "C1 JSON: comm_r: expected 32 integers 0–255, got 31"},
      {"comm_d long", [](ojson& j) { j["comm_d"].push_back(0); },
       "C1 JSON: comm_d: expected 32 integers 0–255, got 33"},
      {"comm_d byte", [](ojson& j) { j["comm_d"][5] = 256; },
       "C1 JSON: comm_d[5]: expected an integer 0–255, got 256"},
      {"replica_id negative", [](ojson& j) { j["replica_id"][0] = -1; },
       "C1 JSON: replica_id[0]: expected an integer 0–255, got -1"},
      {"seed float", [](ojson& j) { j["seed"][31] = 1.5; },
       "C1 JSON: seed[31]: expected an integer 0–255, got 1.5"},
      {"ticket string", [](ojson& j) { j["ticket"] = "abc"; },
       "C1 JSON: ticket: expected an array of 32 integers 0–255, got \"abc\""},
      {"ticket nested", [](ojson& j) { j["ticket"][3] = ojson::array(); },
       "C1 JSON: ticket[3]: expected an integer 0–255, got an array"},
      {"partition object", [](ojson& j) { j["vanilla_proofs"]["StackedDrg2KiBV1"][0] = ojson::object(); },
       P + "[0]: expected an array, got an object"},
      {"challenge scalar", [](ojson& j) { challenge(j, 0, 1) = 3; },
       P + "[0][1]: expected a challenge proof object, got 3"},
      {"missing challenge field", [](ojson& j) { challenge(j, 0, 1).erase("encoding_proof"); },
       P + "[0][1]: missing field `encoding_proof`"},
      {"hashes short", [](ojson& j) { single(j)["path"]["path"][2]["hashes"][0].erase(0); },
       P + "[0][1].comm_d_proofs.data.Single.path.path[2].hashes[0]: expected 32 integers 0–255, got 31"},
      {"index string", [](ojson& j) { single(j)["path"]["path"][2]["index"] = "x"; },
       P + "[0][1].comm_d_proofs.data.Single.path.path[2].index: expected an unsigned 64-bit integer, got "
           "\"x\""},
      {"index too big", [](ojson& j) { single(j)["path"]["path"][0]["index"] = 18446744073709551615.0 * 2; },
       P + "[0][1].comm_d_proofs.data.Single.path.path[0].index: expected an unsigned 64-bit integer, got "
           "3.6893488147419103e+19"},
      {"path element scalar", [](ojson& j) { single(j)["path"]["path"][1] = nullptr; },
       P + "[0][1].comm_d_proofs.data.Single.path.path[1]: expected a path element object, got null"},
      {"missing root", [](ojson& j) { single(j).erase("root"); },
       P + "[0][1].comm_d_proofs.data.Single: missing field `root`"},
      {"two variants", [](ojson& j) { challenge(j, 0, 1)["comm_d_proofs"]["data"]["Sub"] = ojson::object(); },
       P + "[0][1].comm_d_proofs.data: a MerkleProof has one variant, found `Single` and `Sub`"},
      {"unknown variant",
       [](ojson& j) {
         challenge(j, 0, 1)["comm_r_last_proof"]["data"] = ojson::object({{"Double", ojson::object()}});
       },
       P + "[0][1].comm_r_last_proof.data: unknown MerkleProof variant `Double`, expected Single, Sub or "
           "Top"},
      {"no variant", [](ojson& j) { challenge(j, 0, 1)["comm_r_last_proof"]["data"] = ojson::object(); },
       P + "[0][1].comm_r_last_proof.data: expected one of Single, Sub, Top"},
      {"missing data", [](ojson& j) { challenge(j, 0, 1)["comm_r_last_proof"] = ojson::object(); },
       P + "[0][1].comm_r_last_proof: missing field `data`"},
      {"column _h", [](ojson& j) { c_x(j)["column"]["_h"] = 0; },
       P + "[0][0].replica_column_proofs.c_x.column._h: expected null, got 0"},
      {"column no _h", [](ojson& j) { c_x(j)["column"].erase("_h"); },
       P + "[0][0].replica_column_proofs.c_x.column: missing field `_h`"},
      {"column index", [](ojson& j) { c_x(j)["column"]["index"] = 4294967296ull; },
       P + "[0][0].replica_column_proofs.c_x.column.index: expected an unsigned 32-bit integer, got "
           "4294967296"},
      {"column rows", [](ojson& j) { c_x(j)["column"]["rows"][1] = 7; },
       P + "[0][0].replica_column_proofs.c_x.column.rows[1]: expected an array of 32 integers 0–255, got 7"},
      {"drg_parents object",
       [](ojson& j) { challenge(j, 0, 0)["replica_column_proofs"]["drg_parents"] = ojson::object(); },
       P + "[0][0].replica_column_proofs.drg_parents: expected an array, got an object"},
      {"exp_parents element",
       [](ojson& j) { challenge(j, 0, 0)["replica_column_proofs"]["exp_parents"][7] = ojson::array(); },
       P + "[0][0].replica_column_proofs.exp_parents[7]: expected an object, got an array"},
      {"inclusion proof", [](ojson& j) { c_x(j)["inclusion_proof"]["data"]["Single"]["leaf"] = true; },
       P + "[0][0].replica_column_proofs.c_x.inclusion_proof.data.Single.leaf: expected an array of 32 "
           "integers "
           "0–255, got true"},
      {"layer_index", [](ojson& j) { challenge(j, 0, 1)["labeling_proofs"][1]["layer_index"] = true; },
       P + "[0][1].labeling_proofs[1].layer_index: expected an unsigned 32-bit integer, got true"},
      {"parents", [](ojson& j) { challenge(j, 0, 1)["labeling_proofs"][0]["parents"][36][0] = "1"; },
       P + "[0][1].labeling_proofs[0].parents[36][0]: expected an integer 0–255, got \"1\""},
      {"encoding node", [](ojson& j) { challenge(j, 0, 1)["encoding_proof"]["node"] = nullptr; },
       P + "[0][1].encoding_proof.node: expected an unsigned 64-bit integer, got null"},
      {"scalar for object", [](ojson& j) { challenge(j, 0, 1)["replica_column_proofs"] = 1; },
       P + "[0][1].replica_column_proofs: expected an object or array, got 1"},
      {"object for scalar", [](ojson& j) { challenge(j, 0, 1)["encoding_proof"]["node"] = ojson::object(); },
       P + "[0][1].encoding_proof.node: expected a scalar value, got an object"},
  };
  const ojson base = ojson::parse(write_c1_json(c1_2k()));
  for (const Case& c : cases) {
    ojson j = base;
    c.mutate(j);
    auto r = parse_c1_json(j.dump());
    ASSERT_FALSE(r.ok()) << c.name;
    EXPECT_EQ(r.message(), c.message) << c.name;
    EXPECT_TRUE(r.error().bad_input) << c.name;
  }
}

TEST(C1Json, DuplicateAndUnknownFields) {
  const std::string text = write_c1_json(c1_2k());
  std::string dup = text;
  dup.insert(1, "\"seed\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],");
  EXPECT_EQ(parse_c1_json(dup).message(), "C1 JSON: seed: duplicate field `seed`");
  // serde skips fields it does not know, whatever their value.
  std::string extra = text;
  extra.insert(1, "\"lotus\":{\"a\":[1,{\"b\":null}],\"c\":\"d\"},\"n\":1.5,");
  auto r = parse_c1_json(extra);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(*r, c1_2k());
  // Whitespace anywhere JSON allows it.
  auto pretty = parse_c1_json(ojson::parse(text).dump(2));
  ASSERT_TRUE(pretty.ok());
  EXPECT_EQ(*pretty, c1_2k());
}

TEST(C1Json, SyntaxErrorsGiveLineAndColumn) {
  auto r = parse_c1_json("{\n  \"registered_proof\": \"StackedDrg2KiBV1\",\n  \"comm_r\": [1, 2,, 3]\n}",
                         "c1.json");
  EXPECT_EQ(r.message(),
            "c1.json: comm_r[1]: JSON parse error at line 3, column 19: syntax error while parsing value - "
            "unexpected "
            "','; expected '[', '{', or a literal");
  EXPECT_EQ(
      parse_c1_json("").message(),
      "C1 JSON: JSON parse error at line 1, column 1: syntax error while parsing value - unexpected end of "
      "input; expected '[', '{', or a literal");
  EXPECT_EQ(parse_c1_json("[1]").message(), "C1 JSON: expected an object, got an array");
  EXPECT_EQ(parse_c1_json("5").message(), "C1 JSON: expected an object or array at the top level, got 5");
  const std::string text = write_c1_json(c1_2k());
  EXPECT_NE(parse_c1_json(text + "x").message().find("JSON parse error at line 1"), std::string::npos);
}

TEST(C1Json, FilesNameThemselves) {
  const auto dir = std::filesystem::temp_directory_path() / ("cuzk_c1_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "c1.json";
  ASSERT_TRUE(write_c1_json_file(c1_2k(), path).ok());
  auto r = read_c1_json_file(path);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(*r, c1_2k());
  std::filesystem::resize_file(path, 100);
  r = read_c1_json_file(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message().rfind(path.string() + ": vanilla_proofs.StackedDrg2KiBV1[0][0].comm_d_proofs", 0), 0u)
      << r.message();
  EXPECT_EQ(read_c1_json_file(dir / "absent.json").message(),
            (dir / "absent.json").string() + ": cannot open for reading");
  std::filesystem::remove_all(dir);
}

// A small C1 (parse-valid, not shape-valid) cut at every byte: a clear error each time.
TEST(C1Json, EveryTruncationIsAClearError) {
  SealCommitPhase1Output c = c1_2k();
  c.vanilla_proofs[0].resize(1);
  PorepChallengeProof& p = c.vanilla_proofs[0][0];
  p.comm_d_proofs.base.resize(1);
  p.comm_r_last_proof.kind = MerkleProof::Kind::top;
  p.comm_r_last_proof.sub = p.comm_r_last_proof.base;
  p.comm_r_last_proof.top = p.comm_r_last_proof.base;
  p.replica_column_proofs.drg_parents.resize(1);
  p.replica_column_proofs.exp_parents.clear();
  p.labeling_proofs.resize(1);
  p.labeling_proofs[0].parents.resize(2);
  p.encoding_proof.parents.resize(1);
  const std::string text = write_c1_json(c);
  ASSERT_TRUE(parse_c1_json(text).ok());
  ASSERT_LT(text.size(), 20000u);
  for (size_t n = 0; n < text.size(); ++n) {
    auto r = parse_c1_json(std::string_view(text).substr(0, n));
    ASSERT_FALSE(r.ok()) << n;
    ASSERT_EQ(r.message().rfind("C1 JSON: ", 0), 0u);
    ASSERT_NE(r.message().find("JSON parse error at line 1, column"), std::string::npos) << r.message();
  }
}

TEST(C1Json, RandomByteFlips) {
  const std::string text = write_c1_json(c1_2k());
  std::mt19937_64 rng(21);
  size_t parsed = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::string t = text;
    const int flips = 1 + int(rng() % 3);
    for (int f = 0; f < flips; ++f) t[rng() % t.size()] = char(rng());
    auto r = parse_c1_json(t);
    if (r.ok()) {
      ++parsed;
      ASSERT_TRUE(parse_c1_json(write_c1_json(*r)).ok());
    } else {
      ASSERT_EQ(r.message().rfind("C1 JSON: ", 0), 0u);
    }
  }
  // Digit changes inside bytes keep the file valid.
  EXPECT_GT(parsed, 0u);
}

TEST(C1Check, ContentAgainstTheShape) {
  const std::string P = "C1: vanilla_proofs.StackedDrg2KiBV1";
  const std::pair<std::function<void(SealCommitPhase1Output&)>, std::string> cases[] = {
      {[](auto& c) { c.shape_key = "StackedDrg8MiBV1"; },
       "C1: vanilla_proofs: registered_proof StackedDrg2KiBV1_1 needs the key StackedDrg2KiBV1, found "
       "StackedDrg8MiBV1"},
      {[](auto& c) { c.comm_d.fill(0); }, "C1: comm_d: all zero (upstream: \"Invalid all zero commitment\")"},
      {[](auto& c) { c.comm_r.fill(0); }, "C1: comm_r: all zero (upstream: \"Invalid all zero commitment\")"},
      {[](auto& c) { c.seed.fill(0); }, "C1: seed: all zero (upstream: \"Invalid porep challenge seed\")"},
      {[](auto& c) { c.comm_r.fill(0xff); },
       "C1: comm_r: not a field element (the little-endian value is ≥ r)"},
      {[](auto& c) { c.replica_id[31] = 0x80; },
       "C1: replica_id: not a field element (the little-endian value is ≥ r)"},
      {[](auto& c) { c.vanilla_proofs.emplace_back(); }, P + ": expected 1 partitions, got 2"},
      {[](auto& c) { c.vanilla_proofs[0].pop_back(); }, P + "[0]: expected 2 challenge proofs, got 1"},
      {[](auto& c) { c.vanilla_proofs[0][1].comm_d_proofs.base.pop_back(); },
       P + "[0][1].comm_d_proofs.Single.path: expected 6 levels, got 5"},
      {[](auto& c) { c.vanilla_proofs[0][1].comm_r_last_proof.kind = MerkleProof::Kind::sub; },
       P + "[0][1].comm_r_last_proof: expected a Single proof (8-0-0 tree), got Sub"},
      {[](auto& c) { c.vanilla_proofs[0][1].comm_r_last_proof.base[1].hashes.pop_back(); },
       P + "[0][1].comm_r_last_proof.Single.path[1].hashes: expected 7 siblings (arity 8), got 6"},
      {[](auto& c) { c.vanilla_proofs[0][0].replica_column_proofs.c_x.column.rows.pop_back(); },
       P + "[0][0].replica_column_proofs.c_x.column.rows: expected 2 rows (one per layer), got 1"},
      {[](auto& c) { c.vanilla_proofs[0][0].replica_column_proofs.drg_parents.pop_back(); },
       P + "[0][0].replica_column_proofs.drg_parents: expected 6 column proofs, got 5"},
      {[](auto& c) { c.vanilla_proofs[0][0].replica_column_proofs.exp_parents[4].column.rows[1][31] = 0xc0; },
       P + "[0][0].replica_column_proofs.exp_parents[4].column.rows[1]: not a field element (the "
           "little-endian value "
           "is ≥ r)"},
      {[](auto& c) { c.vanilla_proofs[0][0].labeling_proofs.pop_back(); },
       P + "[0][0].labeling_proofs: expected 2 (one per layer), got 1"},
      {[](auto& c) { c.vanilla_proofs[0][0].encoding_proof.parents.pop_back(); },
       P + "[0][0].encoding_proof.parents: expected 37 labels, got 36"},
      {[](auto& c) { c.vanilla_proofs[0][1].labeling_proofs[1].parents[20].fill(0xee); },
       P + "[0][1].labeling_proofs[1].parents[20]: not a field element (the little-endian value is ≥ r)"},
  };
  ASSERT_TRUE(check_c1(c1_2k()).ok());
  for (const auto& [mutate, message] : cases) {
    SealCommitPhase1Output c = c1_2k();
    mutate(c);
    EXPECT_EQ(check_c1(c).message(), message);
  }
  // The seed and ticket are bytes, not field elements.
  SealCommitPhase1Output c = c1_2k();
  c.seed.fill(0xff);
  c.ticket.fill(0xff);
  EXPECT_TRUE(check_c1(c).ok());
  // An NI-PoRep C1 has 13 partitions at 2 KiB.
  c.registered_proof = "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep";
  EXPECT_EQ(check_c1(c).message(), P + ": expected 13 partitions, got 1");
}

long status_kib(const char* field) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::strlen(field)));
  return -1;
}

// A 32 GiB C1 (10 partitions × 18 challenges): parse time and memory, logged, not asserted.
TEST(C1Json, Synthetic32GiBParseCostIsLogged) {
  const auto dir = std::filesystem::temp_directory_path() / ("cuzk_c1_big_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "c1.json";
  SealCommitPhase1Output want;
  {
    want = test::Builder(32).c1(*seal_proof(8));
    ASSERT_TRUE(write_c1_json_file(want, path).ok());
  }
  const auto bytes = std::filesystem::file_size(path);
  // Reset the peak-RSS mark (Linux: clear_refs 5), so VmHWM below is the parse's own peak.
  if (FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
    std::fputs("5", f);
    std::fclose(f);
  }
  const long rss_before = status_kib("VmRSS:");
  const auto t0 = std::chrono::steady_clock::now();
  auto got = read_c1_json_file(path);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const long rss_after = status_kib("VmRSS:"), hwm = status_kib("VmHWM:");
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_EQ(*got, want);
  EXPECT_TRUE(check_c1(*got).ok());
  std::printf(
      "32 GiB C1 JSON: %.1f MB parsed in %.3f s (%.0f MB/s); RSS %ld → %ld MiB, peak %ld MiB "
      "(the parse's peak above its start: %ld MiB, of which the file text %.1f MiB)\n",
      double(bytes) / 1e6, seconds, double(bytes) / 1e6 / seconds, rss_before / 1024, rss_after / 1024,
      hwm / 1024, (hwm - rss_before) / 1024, double(bytes) / 1048576.0);
  RecordProperty("c1_bytes", std::to_string(bytes));
  RecordProperty("parse_seconds", std::to_string(seconds));
  RecordProperty("peak_rss_increase_kib", std::to_string(hwm - rss_before));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::filecoin
