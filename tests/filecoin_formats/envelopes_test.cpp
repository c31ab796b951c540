// Base64 (RFC 4648's vectors and strictness), Curio's C1 envelope in both directions and the
// sniffing of bare C1 JSON, and the 192-byte partition proof concatenation.
#include <gtest/gtest.h>

#include "filecoin/formats/base64.hpp"
#include "filecoin/formats/c1_json.hpp"
#include "filecoin/formats/curio_c1.hpp"
#include "filecoin/formats/proof_bytes.hpp"
#include "test_util.hpp"

namespace cuzk::filecoin {
namespace {

std::span<const uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(Base64, Rfc4648Vectors) {
  const std::pair<const char*, const char*> v[] = {{"", ""},
                                                   {"f", "Zg=="},
                                                   {"fo", "Zm8="},
                                                   {"foo", "Zm9v"},
                                                   {"foob", "Zm9vYg=="},
                                                   {"fooba", "Zm9vYmE="},
                                                   {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : v) {
    EXPECT_EQ(base64_encode(bytes_of(plain)), encoded);
    auto d = base64_decode(encoded);
    ASSERT_TRUE(d.ok()) << d.message();
    EXPECT_EQ(std::string(d->begin(), d->end()), plain);
  }
  // Every byte value, both alphabet extremes ('+' and '/').
  std::vector<uint8_t> all(256);
  for (int i = 0; i < 256; ++i) all[size_t(i)] = uint8_t(i);
  EXPECT_EQ(*base64_decode(base64_encode(all)), all);
  EXPECT_EQ(base64_encode(std::vector<uint8_t>{0xfb, 0xff}), "+/8=");
}

TEST(Base64, StrictDecoding) {
  const std::pair<const char*, const char*> bad[] = {
      {"Zg=", "base64: length 3 is not a multiple of 4 (padded standard encoding)"},
      {"Zg", "base64: length 2 is not a multiple of 4 (padded standard encoding)"},
      {"Zm9v Zg==", "base64: length 9 is not a multiple of 4 (padded standard encoding)"},
      {"Zm9vZ g=", "base64: ' ' at offset 5 is not in the standard alphabet"},
      {"Zm-v", "base64: '-' at offset 2 is not in the standard alphabet"},
      {"Zm_v", "base64: '_' at offset 2 is not in the standard alphabet"},
      {"Zg==Zg==", "base64: '=' at offset 2 is padding before the end"},
      {"Z===", "base64: '=' at offset 1 is padding before the end"},
      {"====", "base64: '=' at offset 0 is padding before the end"},
      {"Zh==", "base64: non-zero bits after the data in the quantum at offset 0 (not a canonical encoding)"},
      {"Zm9=", "base64: non-zero bits after the data in the quantum at offset 0 (not a canonical encoding)"},
      {"Zm\n9v", "base64: length 5 is not a multiple of 4 (padded standard encoding)"},
      {"Zm\x01v", "base64: byte 0x01 at offset 2 is not in the standard alphabet"},
  };
  for (const auto& [text, message] : bad) {
    auto d = base64_decode(text);
    ASSERT_FALSE(d.ok()) << text;
    EXPECT_EQ(d.message(), message);
  }
}

TEST(CurioWrapper, RoundTripAndSniffing) {
  const SealCommitPhase1Output c1 = test::Builder(9).c1(*seal_proof(5));
  const std::string bare = write_c1_json(c1);
  CurioC1Wrapper w{234, 2048, bare};
  const std::string wrapped = write_curio_c1_wrapper(w);
  EXPECT_EQ(wrapped.rfind("{\"SectorNum\":234,\"Phase1Out\":\"eyJyZWdpc3RlcmVkX3Byb29mIjoi", 0), 0u);
  auto back = parse_curio_c1_wrapper(wrapped);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(*back, w);

  auto in = unwrap_porep_vanilla_input(wrapped);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(in->c1_json, bare);
  EXPECT_EQ(in->sector_num, 234u);
  EXPECT_EQ(in->sector_size, 2048u);
  auto parsed = parse_c1_json(in->c1_json);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, c1);

  in = unwrap_porep_vanilla_input(bare);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(in->c1_json, bare);
  EXPECT_FALSE(in->sector_num.has_value());

  // Key order and whitespace do not matter; the envelope is recognised by any of its keys.
  const std::string reordered = "  {\n \"SectorSize\": 2048, \"SectorNum\": 1, \"Phase1Out\": \"" +
                                base64_encode(bytes_of(bare)) + "\"}";
  in = unwrap_porep_vanilla_input(reordered);
  ASSERT_TRUE(in.ok()) << in.message();
  EXPECT_EQ(in->c1_json, bare);
  EXPECT_EQ(in->sector_num, 1u);
}

TEST(CurioWrapper, Errors) {
  const std::pair<const char*, const char*> bad[] = {
      {R"({"SectorNum":1,"Phase1Out":"Zg=","SectorSize":2048})",
       "Curio C1 wrapper: Phase1Out: base64: length 3 is not a multiple of 4 (padded standard encoding)"},
      {R"({"SectorNum":1,"Phase1Out":null,"SectorSize":2048})",
       "Curio C1 wrapper: Phase1Out: expected a base64 string, got null"},
      {R"({"SectorNum":-1,"Phase1Out":"","SectorSize":2048})",
       "Curio C1 wrapper: SectorNum: expected an unsigned 64-bit integer, got -1"},
      {R"({"SectorNum":1,"Phase1Out":""})", "Curio C1 wrapper: missing field `SectorSize`"},
      {R"({"SectorNum":1,"Phase1Out":"","SectorSize":"2048"})",
       "Curio C1 wrapper: SectorSize: expected an unsigned 64-bit integer, got \"2048\""},
  };
  for (const auto& [text, message] : bad) EXPECT_EQ(unwrap_porep_vanilla_input(text).message(), message);
  auto trunc = unwrap_porep_vanilla_input(R"({"SectorNum":1,"Phase1Out":"Zm9v)");
  EXPECT_NE(trunc.message().find("Curio C1 wrapper: Phase1Out: JSON parse error at line 1, column"),
            std::string::npos)
      << trunc.message();
}

TEST(ProofBytes, SplitAndJoin) {
  std::vector<PartitionProofBytes> proofs(10);
  for (size_t k = 0; k < proofs.size(); ++k)
    for (size_t i = 0; i < kPartitionProofBytes; ++i) proofs[k][i] = uint8_t(k * 31 + i);
  const auto joined = join_partition_proofs(proofs);
  ASSERT_EQ(joined.size(), 1920u);
  EXPECT_EQ(joined[192], proofs[1][0]);
  auto split = split_partition_proofs(joined, 10);
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(*split, proofs);
  EXPECT_EQ(split_partition_proofs(std::span(joined).first(1919)).message(),
            "proof bytes: length 1919 is not a positive multiple of 192 (one Groth16 proof per partition)");
  EXPECT_EQ(split_partition_proofs({}).message(),
            "proof bytes: length 0 is not a positive multiple of 192 (one Groth16 proof per partition)");
  EXPECT_EQ(split_partition_proofs(joined, 16).message(), "proof bytes: 10 partition proofs, expected 16");
}

}  // namespace
}  // namespace cuzk::filecoin
