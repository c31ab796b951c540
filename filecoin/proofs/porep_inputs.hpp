// The public inputs of a StackedDRG PoRep partition as its verifier computes them
// (reference/filecoin-circuits.md §3.1.4; rust-fil-proofs: storage-proofs-porep/src/stacked/
// circuit/proof.rs `generate_public_inputs`): [replica_id, comm_d, comm_r], then per challenge c of
// the partition [c, its 6 DRG parents, its 8 expander parents, c, c, c]. They depend only on the
// C1's envelope (proof type, replica_id, comm_d, comm_r, seed), never on its vanilla proofs.
#pragma once

#include <cstddef>
#include <vector>

#include "common/result.hpp"
#include "filecoin/types/vanilla_proofs.hpp"

namespace cuzk::filecoin {

// `replica_id`: the one the verifier derives (from prover id, sector id, ticket, comm_d and the
// porep id), or the C1's own. Errors: an unknown proof type, a partition out of range, a
// commitment that is not a field element (or an all-zero comm_r, comm_d or seed, which upstream
// refuses).
Result<std::vector<Fr>> porep_public_inputs(const SealCommitPhase1Output& c1, const Domain& replica_id,
                                            size_t partition);

}  // namespace cuzk::filecoin
