// bellman/bellperson Groth16 keys (reference/formats.md §2.1-2.3): the .vk file and the .params
// file that begins with it. Points are ZCash *uncompressed* (G1 96 B, G2 192 B), counts are u32
// big-endian, there is no magic, version or padding:
//
//   alpha_g1 beta_g1 beta_g2 gamma_g2 delta_g1 delta_g2 |ic| ic[]        (the verifying key)
//   |h| h[]  |l| l[]  |a| a[]  |b_g1| b_g1[]  |b_g2| b_g2[]                (the rest of .params)
//
// a, b_g1 and b_g2 are density-compacted (identities were dropped at setup), h has m - 1 points.
// Infinity is rejected where bellperson rejects it: in ic and in every .params array (an
// infinity there means a key that was not compacted, e.g. a raw `snarkjs zkey export bellman`).
// Bytes after b_g2 are ignored, as bellperson does (snarkjs appends an MPC transcript there).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "common/result.hpp"
#include "curve/encoding.hpp"
#include "curve/g1.hpp"
#include "curve/g2.hpp"
#include "groth16/keys.hpp"
#include "io/file.hpp"

namespace cuzk {

// Every point decoded, in memory.
struct BellmanParameters {
  groth16::VerifyingKey vk;
  std::vector<G1Affine> h, l, a, b_g1;
  std::vector<G2Affine> b_g2;
};

// Parses the verifying key at the start of `bytes`; trailing bytes are ignored so that a .params
// file is also a source of its verifying key (bellperson reads it the same way).
Result<groth16::VerifyingKey> parse_bellman_vk(std::span<const uint8_t> bytes, Check check = Check::full);
Result<groth16::VerifyingKey> read_bellman_vk(const std::filesystem::path& path, Check check = Check::full);
std::vector<uint8_t> serialize_bellman_vk(const groth16::VerifyingKey& vk);
Status write_bellman_vk(const std::filesystem::path& path, const groth16::VerifyingKey& vk);

// The arrays of a .params file after the verifying key.
enum class ParamsArray { h, l, a, b_g1, b_g2 };
const char* params_array_name(ParamsArray which);

// A .params file left encoded in memory (mapped, or bytes the caller keeps alive): open() decodes
// the verifying key and locates every array (checking that the counts fit the file), and the
// arrays are decoded on demand, on all cores, with the Check chosen at open.
class MappedBellmanParameters {
 public:
  static Result<MappedBellmanParameters> open(const std::filesystem::path& path, Check check = Check::full);
  static Result<MappedBellmanParameters> from_bytes(std::span<const uint8_t> bytes,
                                                    Check check = Check::full);

  const groth16::VerifyingKey& vk() const { return vk_; }
  Check check() const { return check_; }
  size_t count(ParamsArray which) const { return ranges_[int(which)].count; }
  // The encoded points of an array (96 or 192 bytes each), e.g. for a device-side decoder.
  std::span<const uint8_t> raw(ParamsArray which) const;

  // Decodes points [first, first + out.size()) of a G1 array (h, l, a, b_g1) or of b_g2.
  Status decode(ParamsArray which, size_t first, std::span<G1Affine> out) const;
  Status decode(size_t first, std::span<G2Affine> out) const;
  Result<std::vector<G1Affine>> decode_g1(ParamsArray which) const;
  Result<std::vector<G2Affine>> decode_b_g2() const;
  Result<BellmanParameters> decode_all() const;

 private:
  struct Range {
    size_t offset = 0;
    size_t count = 0;
  };
  static Result<MappedBellmanParameters> locate(MappedBellmanParameters p, Check check);

  MappedFile file_;  // empty when built from_bytes
  std::span<const uint8_t> bytes_;
  Check check_ = Check::full;
  groth16::VerifyingKey vk_;
  Range ranges_[5];
};

Result<BellmanParameters> parse_bellman_params(std::span<const uint8_t> bytes, Check check = Check::full);
Result<BellmanParameters> read_bellman_params(const std::filesystem::path& path, Check check = Check::full);
// Streams the file through a buffer (parameters can be many GB); the file appears under `path`
// only once complete.
Status write_bellman_params(const std::filesystem::path& path, const BellmanParameters& params);
std::vector<uint8_t> serialize_bellman_params(const BellmanParameters& params);

// A .params (already decoded) as a proving key. The wire counts come from ic (inputs) and l (aux);
// the domain from h.
Result<groth16::ProvingKey> proving_key_from_bellman(BellmanParameters params);
// The .params image of a key made by cuzk setup (compacted, z_over_delta only).
Result<BellmanParameters> to_bellman(const groth16::ProvingKey& pk);

}  // namespace cuzk
