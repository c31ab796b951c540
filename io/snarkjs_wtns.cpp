#include "io/snarkjs_wtns.hpp"

#include "common/parallel_ranges.hpp"
#include "io/binfile.hpp"
#include "io/byte_reader.hpp"
#include "io/file.hpp"
#include "io/snarkjs_common.hpp"

namespace cuzk {

using io::ByteReader;

Result<SnarkjsWitness> parse_wtns(std::span<const uint8_t> bytes) {
  auto file = io::parse_binfile(bytes, "wtns", 1, 2);
  if (!file.ok()) return file.error();
  auto header = file->unique(1);
  if (!header.ok()) return header.error();
  ByteReader h(*header, "wtns header");
  CUZK_TRY_STATUS(io::expect_modulus<Fr>(h, "q"));
  auto n = h.u32_le("nWitness");
  if (!n.ok()) return n.error();
  CUZK_TRY_STATUS(h.expect_end());

  auto body = file->unique(2);
  if (!body.ok()) return body.error();
  ByteReader r(*body, "wtns values");
  auto raw = r.array(*n, Fr::BYTES, "witness");
  if (!raw.ok()) return raw.error();
  CUZK_TRY_STATUS(r.expect_end());

  SnarkjsWitness w;
  w.values.resize(*n);
  const uint8_t* base = raw->data();
  CUZK_TRY_STATUS(parallel_ranges(*n, 1 << 16, [&](size_t begin, size_t end) -> Status {
    for (size_t i = begin; i < end; ++i)
      if (!w.values[i].from_bytes_le(base + i * Fr::BYTES))
        return make_error("wtns: value " + std::to_string(i) + " is not below r");
    return Status::Ok();
  }));
  return w;
}

Result<SnarkjsWitness> read_wtns(const std::filesystem::path& path) {
  auto m = MappedFile::open(path);
  if (!m.ok()) return m.error();
  auto w = parse_wtns(m->bytes());
  if (!w.ok()) return make_error(path.string() + ": " + w.message());
  return w;
}

std::vector<uint8_t> serialize_wtns(std::span<const Fr> values) {
  io::BinWriter w("wtns", 2, 2);
  w.begin_section(1);
  w.modulus<Fr>();
  w.u32_le(uint32_t(values.size()));
  w.end_section();
  w.begin_section(2);
  for (const Fr& v : values) w.canonical_le(v);
  w.end_section();
  return w.take();
}

}  // namespace cuzk
