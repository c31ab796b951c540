// Compiled circuit files: a round trip maps back the same circuit (checked against an independent
// evaluation of the matrices it came from), and every damaged, truncated, foreign or hostile file
// is refused with an error naming the file, never used and never a crash.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/hex.hpp"
#include "io/checksum.hpp"
#include "io/compiled_circuit_file.hpp"
#include "io/file.hpp"
#include "tests/io/compiled_test_util.hpp"

namespace cuzk::io {
namespace {

namespace fs = std::filesystem;
using test::Rng;

constexpr size_t kSmallChunk = 4096;  // several chunks even in a small file
const std::string kKey = "porep-2k/v28-stacked-proof-of-replication-test.params inputs=3 aux=40";

struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "cuzk-compiled-file-XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::vector<uint8_t> read_all(const fs::path& p) {
  auto b = read_file_bytes(p);
  EXPECT_TRUE(b.ok()) << b.message();
  return b.ok() ? *b : std::vector<uint8_t>{};
}
void write_raw(const fs::path& p, std::span<const uint8_t> bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

template <class T>
T get(const std::vector<uint8_t>& b, size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof(T));
  return v;
}
template <class T>
void put(std::vector<uint8_t>& b, size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof(T));
}

// Recomputes the checksum of a file the test has altered, as a writer that made the change on
// purpose would: what is left to refuse it is the structure alone.
void reseal(std::vector<uint8_t>& b) {
  if (b.size() < 64) return;
  const uint64_t chunk = get<uint64_t>(b, 24);
  const std::span<const uint8_t> body = std::span(b).subspan(64);
  const auto sum = chunked_sha256(std::span(b).first(32), std::span(&body, 1), chunk);
  std::memcpy(b.data() + 32, sum.data(), 32);
}

// A written circuit of random shape, and the matrices it was compiled from.
struct Fixture {
  TempDir dir;
  fs::path file;
  r1cs::ConstraintMatrices m;
  std::vector<uint8_t> bytes;

  Fixture(Rng& rng, bool keep_c = true, uint32_t inputs = 3, uint32_t aux = 40, size_t constraints = 60) {
    m = test::random_matrices(rng, inputs, aux, constraints);
    auto c = r1cs::CompiledCircuit::from_parts(test::compile_reference(m, keep_c));
    EXPECT_TRUE(c.ok()) << c.message();
    file = dir.path / "circuit.cuzkc";
    auto st = write_compiled_circuit(file, *c, kKey, kSmallChunk);
    EXPECT_TRUE(st.ok()) << st.message();
    bytes = read_all(file);
  }
  // The section table's (offset, bytes) of section s.
  std::pair<uint64_t, uint64_t> section(size_t s) const {
    return {get<uint64_t>(bytes, 88 + 16 * s), get<uint64_t>(bytes, 88 + 16 * s + 8)};
  }
  // Opens `b` written in place of the file: refused with an error naming the file, or accepted.
  Result<r1cs::CompiledCircuit> open_bytes(std::span<const uint8_t> b) const {
    write_raw(file, b);
    return open_compiled_circuit(file, kKey);
  }
  void expect_refused(std::span<const uint8_t> b, const std::string& what,
                      const std::string& why = "") const {
    auto r = open_bytes(b);
    ASSERT_FALSE(r.ok()) << what << " was accepted";
    EXPECT_NE(r.message().find(file.string()), std::string::npos) << what << ": " << r.message();
    if (!why.empty()) {
      EXPECT_NE(r.message().find(why), std::string::npos) << what << ": " << r.message();
    }
  }
};

TEST(CompiledFile, RoundTripMapsTheSameCircuit) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  struct Shape {
    bool keep_c;
    uint32_t inputs, aux;
    size_t constraints;
  };
  for (const Shape& s : {Shape{true, 3, 40, 60}, Shape{false, 1, 200, 700}, Shape{true, 70, 1, 5},
                         Shape{true, 2, 0, 0}, Shape{true, 5, 3000, 2500}}) {
    Fixture f(rng, s.keep_c, s.inputs, s.aux, s.constraints);
    auto c = open_compiled_circuit(f.file, kKey);
    ASSERT_TRUE(c.ok()) << c.message();
    EXPECT_EQ(c->has_c(), s.keep_c);
    test::expect_same_circuit(*c, f.m, rng);
    // Every array starts at a 64-byte boundary of the file, so it is read in place.
    for (size_t i = 0; i < 13; ++i) EXPECT_EQ(f.section(i).first % 64, 0u) << "section " << i;
    EXPECT_EQ(f.bytes.size(), get<uint64_t>(f.bytes, 16));
  }
}

TEST(CompiledFile, TheCircuitOutlivesItsFileName) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  Fixture f(rng);
  auto c = open_compiled_circuit(f.file, kKey);
  ASSERT_TRUE(c.ok()) << c.message();
  fs::remove(f.file);  // the mapping stays valid
  test::expect_same_circuit(*c, f.m, rng);
}

TEST(CompiledFile, ChecksumIsChunkedSha256) {
  // FIPS 180-2's "abc".
  const std::string abc = "abc";
  EXPECT_EQ(to_hex(sha256(std::span(reinterpret_cast<const uint8_t*>(abc.data()), abc.size()))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  Rng rng;
  CUZK_SEED_TRACE(rng);
  std::vector<uint8_t> data(50000);
  for (auto& x : data) x = uint8_t(rng.u64());
  const std::vector<uint8_t> prefix = {1, 2, 3};
  // The definition, spelled out: SHA-256(prefix ‖ SHA-256 of each 4 KiB chunk).
  std::vector<uint8_t> outer = prefix;
  for (size_t at = 0; at < data.size(); at += 4096) {
    const auto d = sha256(std::span(data).subspan(at, std::min<size_t>(4096, data.size() - at)));
    outer.insert(outer.end(), d.begin(), d.end());
  }
  const auto want = sha256(outer);
  // Any split of the bytes into parts, any thread count: the same checksum.
  for (size_t threads : {1, 3, 0}) {
    const std::span<const uint8_t> whole = data;
    EXPECT_EQ(chunked_sha256(prefix, std::span(&whole, 1), 4096, threads), want);
    std::vector<std::span<const uint8_t>> parts;
    for (size_t at = 0; at < data.size();) {
      const size_t n = std::min(data.size() - at, rng.below(9000));
      parts.push_back(std::span(data).subspan(at, n));
      at += n;
    }
    EXPECT_EQ(chunked_sha256(prefix, parts, 4096, threads), want);
  }
}

TEST(CompiledFile, AByteFlippedInAnySectionIsRefused) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  Fixture f(rng, true, 3, 300, 400);
  for (size_t s = 0; s < 13; ++s) {
    const auto [offset, bytes] = f.section(s);
    ASSERT_GT(bytes, 0u) << "section " << s;
    for (uint64_t at : {offset, offset + bytes / 2, offset + bytes - 1}) {
      auto b = f.bytes;
      b[at] ^= uint8_t(1u << rng.below(8));
      f.expect_refused(b, "section " + std::to_string(s) + " byte " + std::to_string(at),
                       "checksum mismatch");
    }
  }
  // Every byte of the preamble and header, and of the padding after the header.
  const uint32_t header_bytes = get<uint32_t>(f.bytes, 12);
  for (size_t at = 0; at < f.section(0).first; ++at) {
    auto b = f.bytes;
    b[at] ^= uint8_t(1u << rng.below(8));
    f.expect_refused(b, "header byte " + std::to_string(at));
  }
  EXPECT_GE(f.section(0).first, header_bytes);
  // The original still opens.
  EXPECT_TRUE(f.open_bytes(f.bytes).ok());
}

TEST(CompiledFile, TruncatedOrExtendedFilesAreRefused) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  Fixture f(rng);
  std::vector<size_t> cuts;
  for (size_t n = 0; n < 320; n += 1 + n / 64) cuts.push_back(n);  // the preamble and header
  for (size_t s = 0; s < 13; ++s) cuts.push_back(f.section(s).first + 1);
  for (int i = 0; i < 40; ++i) cuts.push_back(rng.below(f.bytes.size()));
  cuts.push_back(f.bytes.size() - 1);
  for (size_t n : cuts) {
    if (n >= f.bytes.size()) continue;
    f.expect_refused(std::span(f.bytes).first(n), "the first " + std::to_string(n) + " bytes");
  }
  auto longer = f.bytes;
  longer.push_back(0);
  f.expect_refused(longer, "one byte more", "truncated or overwritten");
  f.expect_refused({}, "an empty file", "empty");
}

TEST(CompiledFile, WrongKeyOrVersionIsRefused) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  Fixture f(rng);
  auto r = open_compiled_circuit(f.file, "porep-8m");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("not 'porep-8m'"), std::string::npos) << r.message();
  EXPECT_NE(r.message().find(kKey), std::string::npos) << r.message();
  EXPECT_FALSE(open_compiled_circuit(f.file, kKey + " ").ok());
  EXPECT_FALSE(open_compiled_circuit(f.file, "").ok());

  auto b = f.bytes;
  put<uint32_t>(b, 8, kCompiledFormatVersion + 1);
  f.expect_refused(b, "a later version", "format version 2");
  reseal(b);
  f.expect_refused(b, "a later version with its checksum", "format version 2");
  b = f.bytes;
  b[0] = 'X';
  f.expect_refused(b, "another magic", "wrong magic");
}

TEST(CompiledFile, PathsThatAreNotFilesAreRefused) {
  TempDir dir;
  auto r = open_compiled_circuit(dir.path, kKey);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("not a regular file"), std::string::npos) << r.message();
  const fs::path fifo = dir.path / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  r = open_compiled_circuit(fifo, kKey);  // must not block waiting for a writer
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find(fifo.string()), std::string::npos) << r.message();
  r = open_compiled_circuit(dir.path / "missing", kKey);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("missing"), std::string::npos) << r.message();
}

TEST(CompiledFile, WritingRefusesBadArgumentsAndPaths) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  auto c = r1cs::CompiledCircuit::from_parts(test::compile_reference(test::random_matrices(rng, 2, 5, 4)));
  ASSERT_TRUE(c.ok()) << c.message();
  TempDir dir;
  EXPECT_FALSE(write_compiled_circuit(dir.path / "x", *c, std::string(5000, 'k')).ok());
  EXPECT_FALSE(write_compiled_circuit(dir.path / "x", *c, kKey, 1000).ok());  // not a power of two
  EXPECT_FALSE(write_compiled_circuit(dir.path / "x", *c, kKey, 2048).ok());  // too small
  EXPECT_FALSE(write_compiled_circuit(dir.path / "x", r1cs::CompiledCircuit{}, kKey).ok());
  auto st = write_compiled_circuit(dir.path / "no" / "such" / "folder" / "x", *c, kKey);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("folder"), std::string::npos) << st.message();
  EXPECT_FALSE(write_compiled_circuit(dir.path, *c, kKey).ok());  // a folder
  EXPECT_TRUE(fs::is_empty(dir.path)) << "a failed write leaves nothing behind";
  // The default chunk size writes a file that opens.
  ASSERT_TRUE(write_compiled_circuit(dir.path / "ok", *c, kKey).ok());
  EXPECT_TRUE(open_compiled_circuit(dir.path / "ok", kKey).ok());
}

// A file whose checksum is right but whose structure is not (a buggy or hostile writer): refused by
// the layout checks or the circuit's own.
TEST(CompiledFile, ResealedStructuralDamageIsRefused) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  Fixture f(rng);
  auto damaged = [&](const std::string& what, const std::string& why, auto&& change) {
    auto b = f.bytes;
    change(b);
    reseal(b);
    f.expect_refused(b, what, why);
  };
  damaged("overlapping sections", "overlaps",
          [&](auto& b) { put<uint64_t>(b, 88 + 16 * 2, f.section(1).first); });
  damaged("a section past the end", "outside",
          [&](auto& b) { put<uint64_t>(b, 88 + 16 * 12 + 8, 1ull << 40); });
  damaged("a misaligned section", "outside",
          [&](auto& b) { put<uint64_t>(b, 88 + 16 * 3, f.section(3).first + 4); });
  damaged("a short density", "A aux density", [&](auto& b) { put<uint32_t>(b, 68, 41 + 64); });
  damaged("huge constraint count", "constraints", [&](auto& b) { put<uint64_t>(b, 72, 1ull << 33); });
  damaged("wrong constraint count", "row offsets", [&](auto& b) { put<uint64_t>(b, 72, 59); });
  damaged("a wire out of range", "reads wire", [&](auto& b) {
    const auto [offset, bytes] = f.section(2);  // A's wires
    ASSERT_GT(bytes, 0u);
    put<uint32_t>(b, offset, 1000000);
  });
  damaged("decreasing row offsets", "row offsets", [&](auto& b) {
    put<uint32_t>(b, f.section(1).first + 4, 0xffffff);  // A's second offset
  });
  damaged("a bad coefficient table", "1 and", [&](auto& b) { b[f.section(0).first] ^= 1; });
  damaged("a section count", "sections", [&](auto& b) { put<uint32_t>(b, 84, 12); });
  damaged("a chunk size", "chunk", [&](auto& b) { put<uint64_t>(b, 24, 3000); });
  damaged("a key length", "shape key", [&](auto& b) { put<uint32_t>(b, 80, 1u << 20); });
}

// Random damage, as it comes: never accepted, never a crash; and the same damage with the checksum
// recomputed: an error or a circuit that passes every check, never a crash.
TEST(CompiledFile, FuzzedFilesAreRefused) {
  Rng rng;
  CUZK_SEED_TRACE(rng);
  Fixture f(rng, true, 4, 64, 50);
  std::vector<size_t> boundaries = {0, 8, 12, 16, 24, 32, 64, 68, 72, 80, 84};
  for (size_t s = 0; s < 13; ++s) {
    boundaries.push_back(88 + 16 * s);
    boundaries.push_back(f.section(s).first);
  }
  size_t refused = 0, resealed_accepted = 0;
  for (int i = 0; i < 200; ++i) {
    auto b = test::mutate(rng, f.bytes, boundaries);
    if (b == f.bytes) continue;
    ASSERT_FALSE(f.open_bytes(b).ok()) << "mutation " << i << " was accepted";
    ++refused;
    reseal(b);
    auto r = f.open_bytes(b);
    resealed_accepted += r.ok();
  }
  EXPECT_GT(refused, 150u);
  std::printf("resealed mutations accepted: %zu\n", resealed_accepted);
}

}  // namespace
}  // namespace cuzk::io
