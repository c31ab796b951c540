// Filecoin jobs for the daemon client commands (`cuzk submit | remote-prove`): a PoRep C2 from a C1
// file, PoSt or SnapDeals from vanilla proof files, uploaded as one FilecoinRequest partition input
// that the daemon checks and expands to the proof type's partitions.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "cuzk/v1/prover.pb.h"
#include "engine/job.hpp"

namespace cuzk::cli {

struct FilecoinJobArgs {
  std::string c1;                    // PoRep
  std::vector<std::string> vanilla;  // PoSt: one per sector; SnapDeals: one per partition
  std::string proof_type;            // PoSt and SnapDeals: the registered type (name or id)
  std::string randomness;            // PoSt
  std::optional<uint64_t> miner_id, sector_id;
  std::string prover_id;
  uint64_t first_partition = 0;
  std::string comm_r_old, comm_d_new, comm_r_new;  // SnapDeals

  bool given() const { return !c1.empty() || !vanilla.empty(); }
};

// --c1, --vanilla, --proof-type, --randomness, --miner-id, --prover-id, --sector-id,
// --first-partition, --comm-r-old, --comm-d-new, --comm-r-new.
void add_filecoin_job_options(CLI::App* cmd, FilecoinJobArgs& args);
// Adds the job's one Filecoin partition input (the files read here) for a job of `kind`.
Status add_filecoin_partition(const FilecoinJobArgs& args, engine::JobKind kind, ::cuzk::v1::JobSpec& spec);

}  // namespace cuzk::cli
