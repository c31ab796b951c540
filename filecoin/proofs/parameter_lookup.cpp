#include "filecoin/proofs/parameter_lookup.hpp"

#include <system_error>

namespace cuzk::filecoin {

CircuitId circuit_of(const RegisteredProof& proof) { return {circuit_kind(proof.kind), proof.sector_size}; }

std::filesystem::path resolve_parameter_directory(const std::string& given) {
  return given.empty() ? parameter_directory() : std::filesystem::path(given);
}

Result<std::filesystem::path> parameter_path(CircuitId id, ParameterExt ext,
                                             const std::filesystem::path& dir) {
  auto name = parameter_file_name(id.kind, id.sector_size, ext);
  if (!name) return name.error();
  return dir / *name;
}

Result<std::filesystem::path> find_parameter_file(CircuitId id, ParameterExt ext,
                                                  const std::filesystem::path& dir) {
  auto path = parameter_path(id, ext, dir);
  if (!path) return path.error();
  std::error_code ec;
  if (std::filesystem::is_regular_file(*path, ec)) return path;
  auto circuit = circuit_id_string(id);
  const std::string name = circuit ? *circuit : std::string(to_string(id.kind));
  return make_input_error("no parameters for " + name + ": " + path->string() +
                          " does not exist (make test parameters with `cuzk setup --filecoin " + name +
                          " --param-dir " + dir.string() + "`, or fetch the official ones)");
}

}  // namespace cuzk::filecoin
