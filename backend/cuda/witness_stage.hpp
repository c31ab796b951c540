// A deferred witness (backend/deferred_witness.hpp) filled on a worker's device: the program's
// kernel writes the auxiliaries into a block of the stage cache laid out as the H stage's witness
// (inputs, then aux), the aux goes to the host's aux_assignment (the MSMs read it there), and the
// block stays on the device, named, for the sparse products of the next call (spmv_stage.cpp takes
// it back and uploads only the inputs). Planned like every stage (the block and the program's
// scratch, within what the worker's budget leaves); where that does not fit, or the program has no
// device form, the host fills it.
#pragma once

#include <span>

#include "backend/deferred_witness.hpp"
#include "common/result.hpp"
#include "field/fields.hpp"

namespace cuzk::cuda {

class WorkerDevice;

Status fill_witness(WorkerDevice& dev, const DeferredWitness& witness, std::span<const Fr> inputs,
                    std::span<Fr> aux);

}  // namespace cuzk::cuda
