// The iden3 binary container shared by snarkjs's .r1cs, .wtns, .zkey and .ptau files
// (reference/formats.md §4.3):
//   magic[4] ; u32le version ; u32le nSections ; nSections x (u32le type ; u64le size ; bytes[size])
// Sections may come in any order. This layer only splits the file into sections; each format
// then parses the sections it needs with a ByteReader.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "common/result.hpp"

namespace cuzk::io {

struct BinFile {
  std::string kind;  // "r1cs", "wtns", "zkey": used in error messages
  uint32_t version = 0;
  std::map<uint32_t, std::vector<std::span<const uint8_t>>> sections;  // type -> every section of that type

  // The one section of this type: an error when it is missing or appears twice (snarkjs rejects
  // duplicates of the sections it reads, and we cannot know which copy is meant).
  Result<std::span<const uint8_t>> unique(uint32_t type) const;
  bool has(uint32_t type) const { return sections.count(type) != 0; }
};

// Splits `bytes` (which must outlive the result) into sections. `magic` is the 4-character file
// kind; versions outside [min_version, max_version] are rejected.
Result<BinFile> parse_binfile(std::span<const uint8_t> bytes, const char* magic, uint32_t min_version,
                              uint32_t max_version);

}  // namespace cuzk::io
