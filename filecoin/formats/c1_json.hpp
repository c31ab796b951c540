// The commit-phase-1 output (C1) as lotus and Curio hold it: serde_json of
// rust-filecoin-proofs-api's SealCommitPhase1Output (reference/filecoin-circuits.md §4.2). Every
// 32-byte value is an array of 32 integers, MerkleProofs are `{"data": {"Single"|"Sub"|"Top": …}}`,
// InclusionPaths `{"path": [{"hashes": […], "index": n} …]}`, columns carry `"_h": null`.
//
// The reader streams (no DOM; a 32 GiB C1 of ~50 MB costs its parsed structures), accepts what
// serde's derived Deserialize accepts (every field required, duplicates refused, unknown fields
// skipped) and names the JSON path of every error. It checks the encoding and that
// `registered_proof` is a seal type; c1_check.hpp checks the content against the sector's shape.
// The writer produces serde_json's compact output byte for byte: fields in declaration order, no
// whitespace.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "common/result.hpp"
#include "filecoin/types/vanilla_proofs.hpp"

namespace cuzk::filecoin {

// `what` starts every error message, e.g. a file path.
Result<SealCommitPhase1Output> parse_c1_json(std::string_view text, const std::string& what = "C1 JSON");
Result<SealCommitPhase1Output> read_c1_json_file(const std::filesystem::path& path);

std::string write_c1_json(const SealCommitPhase1Output& c1);
Status write_c1_json_file(const SealCommitPhase1Output& c1, const std::filesystem::path& path);

}  // namespace cuzk::filecoin
