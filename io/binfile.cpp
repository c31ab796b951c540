#include "io/binfile.hpp"

#include <cstring>

#include "io/byte_reader.hpp"

namespace cuzk::io {

Result<std::span<const uint8_t>> BinFile::unique(uint32_t type) const {
  auto it = sections.find(type);
  if (it == sections.end()) return make_error(kind + ": section " + std::to_string(type) + " is missing");
  if (it->second.size() != 1)
    return make_error(kind + ": section " + std::to_string(type) + " appears " +
                      std::to_string(it->second.size()) + " times");
  return it->second.front();
}

Result<BinFile> parse_binfile(std::span<const uint8_t> bytes, const char* magic, uint32_t min_version,
                              uint32_t max_version) {
  BinFile f;
  f.kind = magic;
  ByteReader r(bytes, f.kind);
  auto m = r.bytes(4, "magic");
  if (!m.ok()) return m.error();
  if (std::memcmp(m->data(), magic, 4) != 0) {
    std::string got;
    for (uint8_t c : *m) got += (c >= 0x20 && c < 0x7f) ? char(c) : '?';
    return make_error(f.kind + ": wrong magic \"" + got + "\" (not a ." + f.kind + " file)");
  }
  auto version = r.u32_le("version");
  if (!version.ok()) return version.error();
  if (*version < min_version || *version > max_version)
    return make_error(f.kind + ": unsupported version " + std::to_string(*version) +
                      " (supported: " + std::to_string(min_version) +
                      (max_version > min_version ? ".." + std::to_string(max_version) : "") + ")");
  f.version = *version;
  auto n_sections = r.u32_le("section count");
  if (!n_sections.ok()) return n_sections.error();
  // Each section header is 12 bytes, so a count that cannot fit is rejected before the loop.
  if (uint64_t(*n_sections) * 12 > r.remaining())
    return make_error(f.kind + ": header claims " + std::to_string(*n_sections) + " sections but only " +
                      std::to_string(r.remaining()) + " bytes follow");
  for (uint32_t i = 0; i < *n_sections; ++i) {
    auto type = r.u32_le("section type");
    if (!type.ok()) return type.error();
    auto size = r.u64_le("section size");
    if (!size.ok()) return size.error();
    if (*size > r.remaining())
      return make_error(f.kind + ": section " + std::to_string(*type) + " claims " + std::to_string(*size) +
                        " bytes but the file has " + std::to_string(r.remaining()) + " bytes left");
    auto body = r.bytes(*size, "section body");
    if (!body.ok()) return body.error();
    f.sections[*type].push_back(*body);
  }
  // snarkjs ignores bytes after the last section; so do we (some tools pad files).
  return f;
}

}  // namespace cuzk::io
