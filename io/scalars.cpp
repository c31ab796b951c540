#include "io/scalars.hpp"

#include "common/parallel_ranges.hpp"

namespace cuzk::io {

namespace {
constexpr size_t kMinChunk = size_t(1) << 16;
}

Result<std::vector<Fr>> scalars_from_le_bytes(const uint8_t* bytes, size_t n, const std::string& what) {
  if (n && !bytes) return make_error(what + ": NULL with a nonzero count");
  std::vector<Fr> out(n);
  auto st = parallel_ranges(n, kMinChunk, [&](size_t begin, size_t end) -> Status {
    for (size_t i = begin; i < end; ++i)
      if (!out[i].from_bytes_le(bytes + i * kScalarBytes))
        return make_error(what + "[" + std::to_string(i) + "] is not below the field modulus");
    return Status::Ok();
  });
  if (!st) return st.error();
  return out;
}

void scalars_to_le_bytes(std::span<const Fr> values, uint8_t* out) {
  (void)parallel_ranges(values.size(), kMinChunk, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) values[i].to_bytes_le(out + i * kScalarBytes);
    return Status::Ok();
  });
}

}  // namespace cuzk::io
