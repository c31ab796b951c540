// Curio's envelope around a C1 output for cuzk's PoRep requests (reference/filecoin-circuits.md
// §4.3; curio: lib/ffi/cuzk_funcs.go `c1OutputWrapper`, extern/cuzk/cuzk-core/src/prover.rs
// `C1OutputWrapper`): `{"SectorNum": n, "Phase1Out": "<base64 of the C1 JSON>", "SectorSize": bytes}`,
// as Go's encoding/json writes it (standard alphabet, padded).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace cuzk::filecoin {

struct CurioC1Wrapper {
  uint64_t sector_num = 0;
  uint64_t sector_size = 0;
  std::string c1_json;  // Phase1Out, decoded
  friend bool operator==(const CurioC1Wrapper&, const CurioC1Wrapper&) = default;
};

Result<CurioC1Wrapper> parse_curio_c1_wrapper(std::string_view text);
std::string write_curio_c1_wrapper(const CurioC1Wrapper& wrapper);

// A PoRep request's vanilla_proof bytes, in either form: Curio's envelope, or a bare C1 JSON (told
// apart by the first key of the top-level object). The C1 JSON, and the envelope's numbers when it
// had one.
struct PorepVanillaInput {
  std::string c1_json;
  std::optional<uint64_t> sector_num;
  std::optional<uint64_t> sector_size;
};
Result<PorepVanillaInput> unwrap_porep_vanilla_input(std::string_view bytes);

}  // namespace cuzk::filecoin
