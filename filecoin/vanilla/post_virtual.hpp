// Virtual PoSt sectors (reference/filecoin-circuits.md §3.2, §6.9): FallbackPoSt vanilla proofs for
// any sector size, 32 and 64 GiB included, that pass check_post_vanilla_proofs without a sealed
// sector. The circuit checks only that each challenged leaf's path reaches comm_r_last and that
// comm_r = Poseidon2(comm_c, comm_r_last); PoSt challenges follow from the randomness and the
// sector id alone, never from comm_r. So each sector's tree_r_last is sparse: a random default leaf
// everywhere except its challenged leaves, which hold random values; comm_c is random. The proofs
// then have exactly the rows of a real sector's, with different values.
//
// Sectors are drawn from `rng_seed` and their position, so a deadline of thousands of them is made
// in parallel and comes out the same on every run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/result.hpp"
#include "filecoin/circuits/post_vanilla.hpp"
#include "filecoin/types/vanilla_proofs.hpp"

namespace cuzk::filecoin::vanilla {

struct VirtualPostRequest {
  PostProofType type;
  size_t sectors = 1;               // WinningPoSt: 1
  uint64_t first_sector_id = 1;     // sector i has id first_sector_id + i
  uint64_t first_sector_index = 0;  // sector i's position in the deadline (challenges under 1.0.0/1.1.0)
  Domain randomness{};              // a field element (top two bits clear)
  uint64_t rng_seed = 1;
};

// One vanilla proof per sector, in order: WindowPoSt 10 inclusion proofs each, WinningPoSt (one
// sector) the 66 of its circuit sectors. Errors: a sector size no PoSt uses, zero sectors, a
// WinningPoSt request of more than one sector, a randomness that is not a field element.
Result<std::vector<FallbackPostSectorProof>> virtual_post_proofs(const VirtualPostRequest& request);

}  // namespace cuzk::filecoin::vanilla
