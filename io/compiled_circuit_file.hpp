// A compiled circuit (r1cs/compiled/compiled_circuit.hpp) on disk, opened memory-mapped: its arrays
// sit at 64-byte aligned offsets so that the circuit reads them in place, and the kernel pages them
// in on demand. The file names the shape it belongs to and carries a checksum over every byte, so
// that a corrupt, truncated or foreign file is refused (and rebuilt by its cache), never used.
//
// Layout (little-endian; integers unsigned):
//   preamble, 64 bytes:
//     0  magic "CUZKCCIR"        8  u32 version (1)        12 u32 header_bytes (a multiple of 64)
//     16 u64 file_size           24 u64 chunk_bytes (power of two, 4 KiB .. 1 GiB)
//     32 checksum[32] = SHA-256(preamble[0, 32) ‖ SHA-256(chunk 0) ‖ SHA-256(chunk 1) ‖ …), the chunks
//        being bytes [64, file_size) cut every chunk_bytes (io/checksum.hpp)
//   header, from 64:
//     64 u32 num_inputs          68 u32 num_aux            72 u64 num_constraints
//     80 u32 key_bytes           84 u32 section_count (13)
//     88 section table: section_count × {u64 offset, u64 bytes}, in the order
//          coefficients (Fr, Montgomery form, 32 bytes each),
//          A row offsets, A wires, A coefficient indices (u32 each), the same for B, then C,
//          A aux density, B input density, B aux density (u64 words, bit i of word i / 64)
//     88 + 16 · section_count: the shape key (key_bytes of text), zero padding to header_bytes
//   sections: each at a 64-byte aligned offset at or after header_bytes, in table order, zero
//   padding between them.
// An absent side C has zero-byte sections. A density's bit count is the count of its variables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "common/result.hpp"
#include "r1cs/compiled/compiled_circuit.hpp"

namespace cuzk::io {

inline constexpr uint32_t kCompiledFormatVersion = 1;
inline constexpr size_t kCompiledKeyMaxBytes = 4096;
// Chunks of 16 MiB: a 5 GB file makes ~300 of them, enough to keep every core busy.
inline constexpr size_t kCompiledChunkBytes = size_t(16) << 20;

// Writes `circuit` for the shape named `key` (at most kCompiledKeyMaxBytes) to `path` through a
// temporary file renamed into place (io/file.hpp's FileWriter): a crash or a full disk never
// leaves a partial file under the name. `chunk_bytes` is the checksum's chunk size (a power of two,
// 4 KiB .. 1 GiB).
Status write_compiled_circuit(const std::filesystem::path& path, const r1cs::CompiledCircuit& circuit,
                              const std::string& key, size_t chunk_bytes = kCompiledChunkBytes);

// Maps `path` and checks, in order: magic, version, that it is for `expected_key`, the sizes of the
// header and every section against the counts and the file's size, the checksum, then the
// circuit's own checks. The circuit reads the mapping, which it keeps alive. Every failure is an
// error naming the file and what is wrong with it.
Result<r1cs::CompiledCircuit> open_compiled_circuit(const std::filesystem::path& path,
                                                    const std::string& expected_key);

}  // namespace cuzk::io
