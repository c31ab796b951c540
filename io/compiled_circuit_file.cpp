#include "io/compiled_circuit_file.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/hex.hpp"
#include "io/checksum.hpp"
#include "io/file.hpp"

namespace cuzk::io {

// The arrays are mapped as they lie in the file: the host must read them the way they were written.
static_assert(std::endian::native == std::endian::little, "compiled circuit files are little-endian");
static_assert(sizeof(Fr) == 32 && std::is_trivially_copyable_v<Fr>, "coefficients are stored as Fr's bytes");

namespace {

using r1cs::CompiledCircuit;
using r1cs::CompiledSide;
using r1cs::DensityBitmap;
using r1cs::Side;

constexpr char kMagic[8] = {'C', 'U', 'Z', 'K', 'C', 'C', 'I', 'R'};
constexpr size_t kPreambleBytes = 64;
constexpr size_t kAlign = 64;
constexpr size_t kSectionCount = 13;
constexpr size_t kTableAt = 88;
constexpr size_t kKeyAt = kTableAt + 16 * kSectionCount;
constexpr size_t kMinChunk = size_t(4) << 10, kMaxChunk = size_t(1) << 30;

// Section indices: the coefficients, three per side, then the three densities.
constexpr size_t kCoeffs = 0;
constexpr size_t side_section(size_t side, size_t what) {
  return 1 + 3 * side + what;
}  // what: 0 rows, 1 wires, 2 coeffs
constexpr size_t kDensity = 10;  // + 0 a_aux, 1 b_input, 2 b_aux

const char* const kSectionNames[kSectionCount] = {"coefficients",          "A row offsets", "A wires",
                                                  "A coefficient indices", "B row offsets", "B wires",
                                                  "B coefficient indices", "C row offsets", "C wires",
                                                  "C coefficient indices", "A aux density", "B input density",
                                                  "B aux density"};

size_t align_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
bool valid_chunk(uint64_t c) { return c >= kMinChunk && c <= kMaxChunk && std::has_single_bit(c); }

template <class T>
void put(std::vector<uint8_t>& out, size_t at, T v) {
  std::memcpy(out.data() + at, &v, sizeof(T));
}
template <class T>
T get(std::span<const uint8_t> in, size_t at) {
  T v;
  std::memcpy(&v, in.data() + at, sizeof(T));
  return v;
}

template <class T>
std::span<const uint8_t> bytes_of(std::span<const T> s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size_bytes()};
}

std::array<std::span<const uint8_t>, kSectionCount> section_bytes(const CompiledCircuit& c) {
  std::array<std::span<const uint8_t>, kSectionCount> out;
  out[kCoeffs] = bytes_of(c.coeffs());
  for (size_t s = 0; s < 3; ++s) {
    const CompiledSide& side = c.side(Side(s));
    out[side_section(s, 0)] = bytes_of(side.row_start);
    out[side_section(s, 1)] = bytes_of(side.wire);
    out[side_section(s, 2)] = bytes_of(side.coeff);
  }
  const DensityBitmap* d[3] = {&c.a_aux_density(), &c.b_input_density(), &c.b_aux_density()};
  for (size_t i = 0; i < 3; ++i) out[kDensity + i] = bytes_of(std::span<const uint64_t>(d[i]->words));
  return out;
}

// A key as it may appear in an error: printable, and not too long.
std::string printable(std::string_view key) {
  std::string out;
  for (char ch : key.substr(0, 200)) out.push_back(ch >= 0x20 && ch < 0x7f ? ch : '?');
  if (key.size() > 200) out += "...";
  return out;
}

struct Section {
  uint64_t offset = 0, bytes = 0;
};

}  // namespace

Status write_compiled_circuit(const std::filesystem::path& path, const CompiledCircuit& circuit,
                              const std::string& key, size_t chunk_bytes) {
  auto fail = [&](const std::string& what) {
    return make_error("cannot write compiled circuit " + path.string() + ": " + what);
  };
  if (key.size() > kCompiledKeyMaxBytes) return fail("its shape key is longer than 4096 bytes");
  if (!valid_chunk(chunk_bytes)) return fail("checksum chunks must be a power of two from 4 KiB to 1 GiB");
  if (circuit.coeffs().size() < 2) return fail("the circuit is empty");

  const auto body = section_bytes(circuit);
  const size_t header_bytes = align_up(kKeyAt + key.size());
  std::vector<uint8_t> header(header_bytes, 0);
  std::array<Section, kSectionCount> sections;
  size_t end = header_bytes;
  for (size_t s = 0; s < kSectionCount; ++s) {
    sections[s] = {align_up(end), body[s].size()};
    end = sections[s].offset + sections[s].bytes;
  }
  const uint64_t file_size = end;

  std::memcpy(header.data(), kMagic, sizeof(kMagic));
  put<uint32_t>(header, 8, kCompiledFormatVersion);
  put<uint32_t>(header, 12, uint32_t(header_bytes));
  put<uint64_t>(header, 16, file_size);
  put<uint64_t>(header, 24, chunk_bytes);
  put<uint32_t>(header, 64, circuit.num_inputs());
  put<uint32_t>(header, 68, circuit.num_aux());
  put<uint64_t>(header, 72, circuit.num_constraints());
  put<uint32_t>(header, 80, uint32_t(key.size()));
  put<uint32_t>(header, 84, uint32_t(kSectionCount));
  for (size_t s = 0; s < kSectionCount; ++s) {
    put<uint64_t>(header, kTableAt + 16 * s, sections[s].offset);
    put<uint64_t>(header, kTableAt + 16 * s + 8, sections[s].bytes);
  }
  std::memcpy(header.data() + kKeyAt, key.data(), key.size());

  // The bytes after the preamble, in file order: the header's rest, then padding and each section.
  static const uint8_t kZeros[kAlign] = {};
  std::vector<std::span<const uint8_t>> parts = {std::span<const uint8_t>(header).subspan(kPreambleBytes)};
  size_t at = header_bytes;
  for (size_t s = 0; s < kSectionCount; ++s) {
    parts.push_back(std::span(kZeros, sections[s].offset - at));
    parts.push_back(body[s]);
    at = sections[s].offset + sections[s].bytes;
  }
  const Sha256Digest sum = chunked_sha256(std::span(header).first(32), parts, chunk_bytes);
  std::memcpy(header.data() + 32, sum.data(), sum.size());
  parts[0] = header;  // now the whole header, checksum included

  auto w = FileWriter::create(path);
  if (!w) return fail(w.message());
  for (auto p : parts)
    if (auto st = w->write(p); !st) return fail(st.message());
  if (auto st = w->commit(); !st) return fail(st.message());
  return Status::Ok();
}

namespace {

// The header's counts and section table, checked against each other and the file's size.
struct Layout {
  uint32_t num_inputs = 0, num_aux = 0;
  uint64_t num_constraints = 0;
  std::array<Section, kSectionCount> sections;
};

Result<Layout> read_layout(std::span<const uint8_t> b, size_t header_bytes) {
  Layout l;
  l.num_inputs = get<uint32_t>(b, 64);
  l.num_aux = get<uint32_t>(b, 68);
  l.num_constraints = get<uint64_t>(b, 72);
  if (l.num_constraints > UINT32_MAX)
    return make_error("it claims " + std::to_string(l.num_constraints) + " constraints (at most 2^32 − 1)");
  uint64_t end = header_bytes;
  for (size_t s = 0; s < kSectionCount; ++s) {
    Section& x = l.sections[s];
    x.offset = get<uint64_t>(b, kTableAt + 16 * s);
    x.bytes = get<uint64_t>(b, kTableAt + 16 * s + 8);
    if (x.offset % kAlign != 0 || x.offset < end || x.offset > b.size() || x.bytes > b.size() - x.offset)
      return make_error("the " + std::string(kSectionNames[s]) + " section (offset " +
                        std::to_string(x.offset) + ", " + std::to_string(x.bytes) +
                        " bytes) lies outside the file's " + std::to_string(b.size()) +
                        " bytes or overlaps another");
    end = x.offset + x.bytes;
  }
  auto wrong_size = [&](size_t s, const std::string& want) {
    return make_error("the " + std::string(kSectionNames[s]) + " section has " +
                      std::to_string(l.sections[s].bytes) + " bytes, " + want);
  };
  if (l.sections[kCoeffs].bytes % sizeof(Fr) != 0)
    return wrong_size(kCoeffs, "not a whole number of coefficients");
  const uint64_t row_bytes = (l.num_constraints + 1) * 4;
  for (size_t s = 0; s < 3; ++s) {
    const uint64_t rows = l.sections[side_section(s, 0)].bytes;
    if (rows != 0 && rows != row_bytes)
      return wrong_size(side_section(s, 0), "not 0 or " + std::to_string(row_bytes) + " for " +
                                                std::to_string(l.num_constraints) + " constraints");
    const uint64_t wires = l.sections[side_section(s, 1)].bytes;
    if (wires % 4 != 0) return wrong_size(side_section(s, 1), "not a whole number of wires");
    if (l.sections[side_section(s, 2)].bytes != wires)
      return wrong_size(side_section(s, 2),
                        "not as many as its side's wires (" + std::to_string(wires) + ")");
  }
  const uint64_t bits[3] = {l.num_aux, l.num_inputs, l.num_aux};
  for (size_t i = 0; i < 3; ++i) {
    const uint64_t want = (bits[i] + 63) / 64 * 8;
    if (l.sections[kDensity + i].bytes != want)
      return wrong_size(kDensity + i,
                        "not " + std::to_string(want) + " for " + std::to_string(bits[i]) + " variables");
  }
  return l;
}

template <class T>
std::span<const T> view(std::span<const uint8_t> b, const Section& s) {
  return {reinterpret_cast<const T*>(b.data() + s.offset), size_t(s.bytes / sizeof(T))};
}

DensityBitmap density(std::span<const uint8_t> b, const Section& s, size_t bits) {
  DensityBitmap d;
  auto words = view<uint64_t>(b, s);
  d.words.assign(words.begin(), words.end());
  d.bit_len = bits;
  d.recount();
  return d;
}

// Magic, version, key and sizes: everything that can be refused before the checksum is read.
Result<std::pair<Layout, uint64_t>> check_header(std::span<const uint8_t> b,
                                                 const std::string& expected_key) {
  if (b.empty()) return make_error("the file is empty");
  if (b.size() < kPreambleBytes)
    return make_error("it has " + std::to_string(b.size()) +
                      " bytes, fewer than its 64-byte preamble (truncated)");
  if (std::memcmp(b.data(), kMagic, sizeof(kMagic)) != 0)
    return make_error("not a compiled circuit file (wrong magic)");
  const uint32_t version = get<uint32_t>(b, 8);
  if (version != kCompiledFormatVersion)
    return make_error("format version " + std::to_string(version) + "; this build reads version " +
                      std::to_string(kCompiledFormatVersion));
  const uint64_t header_bytes = get<uint32_t>(b, 12), file_size = get<uint64_t>(b, 16);
  if (file_size != b.size())
    return make_error("its header says " + std::to_string(file_size) + " bytes, but it has " +
                      std::to_string(b.size()) + " (truncated or overwritten)");
  if (header_bytes % kAlign != 0 || header_bytes < align_up(kKeyAt) || header_bytes > b.size())
    return make_error("its header size " + std::to_string(header_bytes) + " is invalid");
  const uint32_t key_bytes = get<uint32_t>(b, 80), count = get<uint32_t>(b, 84);
  if (count != kSectionCount)
    return make_error("it has " + std::to_string(count) + " sections, not " + std::to_string(kSectionCount));
  if (key_bytes > kCompiledKeyMaxBytes || kKeyAt + key_bytes > header_bytes)
    return make_error("its shape key of " + std::to_string(key_bytes) + " bytes does not fit its header");
  const std::string_view key(reinterpret_cast<const char*>(b.data() + kKeyAt), key_bytes);
  if (key != expected_key)
    return make_error("it is for the shape '" + printable(key) + "', not '" + printable(expected_key) + "'");
  auto layout = read_layout(b, header_bytes);
  if (!layout) return layout.error();
  const uint64_t chunk = get<uint64_t>(b, 24);
  if (!valid_chunk(chunk))
    return make_error("its checksum chunk size " + std::to_string(chunk) + " is invalid");
  return std::pair(std::move(*layout), chunk);
}

}  // namespace

Result<CompiledCircuit> open_compiled_circuit(const std::filesystem::path& path,
                                              const std::string& expected_key) {
  auto fail = [&](const std::string& what) {
    return make_error("compiled circuit " + path.string() + ": " + what);
  };
  auto mapped = MappedFile::open(path);
  if (!mapped) return make_error("compiled circuit: " + mapped.message());
  auto file = std::make_shared<MappedFile>(std::move(*mapped));
  const std::span<const uint8_t> b = file->bytes();

  auto header = check_header(b, expected_key);
  if (!header) return fail(header.message());
  const auto& [layout, chunk] = *header;
  const std::span<const uint8_t> covered = b.subspan(kPreambleBytes);
  const Sha256Digest sum = chunked_sha256(b.first(32), std::span(&covered, 1), chunk);
  if (std::memcmp(sum.data(), b.data() + 32, sum.size()) != 0)
    return fail("checksum mismatch (the file is corrupt): stored " + to_hex(b.subspan(32, 32)) +
                ", computed " + to_hex(sum));

  CompiledCircuit::Views v;
  v.num_inputs = layout.num_inputs;
  v.num_aux = layout.num_aux;
  v.num_constraints = layout.num_constraints;
  v.coeffs = view<Fr>(b, layout.sections[kCoeffs]);
  for (size_t s = 0; s < 3; ++s)
    v.sides[s] = {view<uint32_t>(b, layout.sections[side_section(s, 0)]),
                  view<uint32_t>(b, layout.sections[side_section(s, 1)]),
                  view<uint32_t>(b, layout.sections[side_section(s, 2)])};
  v.a_aux_density = density(b, layout.sections[kDensity + 0], layout.num_aux);
  v.b_input_density = density(b, layout.sections[kDensity + 1], layout.num_inputs);
  v.b_aux_density = density(b, layout.sections[kDensity + 2], layout.num_aux);
  auto circuit = CompiledCircuit::from_views(std::move(v), std::move(file));
  if (!circuit) return fail(circuit.message());
  return circuit;
}

}  // namespace cuzk::io
