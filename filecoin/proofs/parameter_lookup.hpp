// Where a Filecoin circuit's parameter files live: its official file name (parameter_files.hpp) in
// the parameter directory, so that parameters made here by `cuzk setup --filecoin <circuit id>` and
// the ones downloaded with `lotus fetch-params` are found the same way.
#pragma once

#include <filesystem>
#include <string>

#include "common/result.hpp"
#include "filecoin/types/parameter_files.hpp"
#include "filecoin/types/proof_types.hpp"

namespace cuzk::filecoin {

// The circuit a registered proof is proved with.
CircuitId circuit_of(const RegisteredProof& proof);

// `given` when not empty, else $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters/.
std::filesystem::path resolve_parameter_directory(const std::string& given);

// dir / "v28-<…>.params" (or .vk): where the file belongs, whether or not it exists.
Result<std::filesystem::path> parameter_path(CircuitId id, ParameterExt ext,
                                             const std::filesystem::path& dir);

// The same, for a file that must exist: a missing one is an error naming the path and the command
// that makes test parameters for it, e.g.
//   "no parameters for porep-2k: /p/v28-stacked-…params does not exist (make test parameters with
//    `cuzk setup --filecoin porep-2k --param-dir /p`, or fetch the official ones)".
Result<std::filesystem::path> find_parameter_file(CircuitId id, ParameterExt ext,
                                                  const std::filesystem::path& dir);

}  // namespace cuzk::filecoin
