// SHA-256 checksums of large files, computed at memory speed: the bytes are cut into fixed-size
// chunks hashed in parallel, and the checksum is SHA-256 over a caller's prefix and the chunk
// digests in order. Multi-gigabyte caches (compiled circuits) verify in the time it takes the
// cores to read them, and the result depends on the bytes and the chunk size alone, never on how
// many threads computed it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace cuzk::io {

using Sha256Digest = std::array<uint8_t, 32>;

// SHA-256 of the concatenation of `parts` (through OpenSSL, which uses the CPU's SHA extensions).
Sha256Digest sha256(std::span<const std::span<const uint8_t>> parts);
Sha256Digest sha256(std::span<const uint8_t> bytes);

// The chunked checksum of the concatenation of `parts` (chunk_bytes > 0; the last chunk may be
// shorter, and no bytes at all make no chunks):
//   SHA-256(prefix ‖ SHA-256(chunk 0) ‖ SHA-256(chunk 1) ‖ …)
// Chunks are hashed on up to `max_threads` threads (0: one per hardware thread).
Sha256Digest chunked_sha256(std::span<const uint8_t> prefix, std::span<const std::span<const uint8_t>> parts,
                            size_t chunk_bytes, size_t max_threads = 0);

}  // namespace cuzk::io
