// Options and helpers shared by the Filecoin commands (filecoin_*.cpp): proof types by name or id,
// prover ids, hex values, whole files as bytes.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "filecoin/proofs/proof_request.hpp"
#include "filecoin/types/proof_types.hpp"

namespace cuzk::cli {

// "StackedDrg2KiBV1_1" (Rust or Go name) or the number within the family ("5").
Result<filecoin::RegisteredProof> parse_registered_proof(filecoin::ProofFamily family,
                                                         const std::string& text);

// A whole file as bytes in a string; errors name the path.
Result<std::string> read_whole_file(const std::string& path);
Status write_whole_file(const std::string& path, const std::string& bytes);

// --miner-id N | --prover-id HEX, --sector-id N: who sealed the sector. The prover id of a miner is
// its ID address payload (LEB128 of N in 32 zero bytes).
struct ProverArgs {
  std::optional<uint64_t> miner_id;
  std::string prover_id_hex;
  std::optional<uint64_t> sector_id;
};
// The inputs of each Filecoin command, with the options of `prove-*` or `verify-*` (which name the
// same proof by the same arguments).
template <class Options>
struct PorepCommandArgs {
  std::string c1_path;
  ProverArgs prover;
  Options o;
};

template <class Options>
struct PostCommandArgs {
  std::string kind, proof, randomness_hex;
  std::vector<std::string> vanilla;
  uint64_t partition = 0;
  Options o;
};

template <class Options>
struct UpdateCommandArgs {
  std::string proof, comm_r_old, comm_d_new, comm_r_new;
  std::vector<std::string> vanilla;
  Options o;
};

void add_prover_options(CLI::App* cmd, ProverArgs& args);
// Fills prover_id and sector_id of a PoRep request.
Status apply_prover_args(const ProverArgs& args, filecoin::ProofRequest& request);

// --param-dir DIR (default: $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters/).
void add_param_dir_option(CLI::App* cmd, std::string& dir);

// The requests of the commands' options: file contents read, hex parsed.
Result<filecoin::ProofRequest> porep_request(const std::string& c1_path, const ProverArgs& prover);
Result<filecoin::ProofRequest> post_request(const std::string& kind, const std::string& proof,
                                            const std::string& randomness_hex,
                                            const std::vector<std::string>& vanilla, uint64_t partition);
Result<filecoin::ProofRequest> update_request(const std::string& proof,
                                              const std::vector<std::string>& vanilla,
                                              const std::string& comm_r_old, const std::string& comm_d_new,
                                              const std::string& comm_r_new);

// --kind, --proof, --randomness, --vanilla, --partition.
void add_post_options(CLI::App* cmd, std::string& kind, std::string& proof, std::string& randomness,
                      std::vector<std::string>& vanilla, uint64_t& partition);
// --proof, --vanilla, --comm-r-old, --comm-d-new, --comm-r-new.
void add_update_options(CLI::App* cmd, std::string& proof, std::vector<std::string>& vanilla,
                        std::string& r_old, std::string& d_new, std::string& r_new);

}  // namespace cuzk::cli
