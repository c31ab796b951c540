// Progress of `cuzk setup`'s parameters stage: the curve points it makes (ic, l, h, a, b in G1,
// b in G2), counted as they come out of the setup's generator hooks in chunks, with an ETA.
#pragma once

#include <memory>

#include "cli/stage_progress.hpp"
#include "groth16/setup.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::cli {

// Routes options' g1_mul_many / g2_mul_many through counting wrappers (the host's fixed-base tables
// on `pool` when none is set, as generate_parameters would use) that show the share of the points
// made on `shown`. A G2 point counts as three G1 points (its cost). No-op when `shown` is disabled.
void track_setup_progress(const groth16::SetupCircuit& m, groth16::SetupOptions& options, ThreadPool& pool,
                          std::shared_ptr<StageProgress> shown);

// groth16::generate_parameters as the "parameters" stage of `cuzk setup` (and `setup --filecoin`):
// its time, and its progress while it runs unless `quiet`.
Result<groth16::ProvingKey> generate_parameters_shown(const groth16::SetupCircuit& m,
                                                      groth16::SetupOptions& options, ThreadPool& pool,
                                                      bool quiet);

}  // namespace cuzk::cli
