// The sparse products as a step of a worker's H stage: the witness of a compiled circuit in, a, b
// (and c) out in the stage's device vectors, so that they never cross PCIe. Built into the backend
// library (it runs on a WorkerDevice: its streams, stager and block cache); spmv.hpp is the rest.
//
// Use (the H stage, once its vectors are taken and before their transforms):
//   auto p = plan_spmv(matrices, circuit != nullptr, dev.available() - h_stage_bytes);
//   evaluate_witness(dev, {circuit, matrices, inputs, aux}, *p, a, b, c);   // queued on dev.stream()
// or, where the stage has room for one vector only, evaluate_witness_to_host (the sides in turn,
// each to host memory, for the stage's lean plan).
#pragma once

#include <span>

#include "backend/cuda/spmv/spmv.hpp"

namespace cuzk::cuda {

class WorkerDevice;

struct CompiledWitness {
  const DeviceCompiledCircuit* resident = nullptr;  // the matrices on this device, if they are
  CircuitMatrices matrices;                         // the host arrays (streamed when not resident)
  std::span<const Fr> inputs, aux;                  // the witness in host memory
};

// The witness to the device (a block of dev.cache, through the stager on the copy stream, which
// the compute stream then waits for: kernels queued before it run meanwhile), then a, b (and c) by
// `plan` on dev.stream(). Returns once the host witness (and, streamed, the host matrices) have
// been read; the outputs hold the result in stream order. The witness block goes back to the cache
// in stream order.
Status evaluate_witness(WorkerDevice& dev, const CompiledWitness& w, const SpmvPlan& plan, DeviceSpan<Fr> a,
                        DeviceSpan<Fr> b, DeviceSpan<Fr> c_or_empty, const SpmvConfig& config = {});

// The same product for a stage with room for one vector beside the witness: each side of a, b
// (and c, when given: the circuit has C) formed in turn in `vec` on dev.stream() and copied to its
// host array (each of vec's length). Returns once the host arrays hold the sides. An empty `a`
// leaves a in `vec` (formed last, in stream order): the H stage's pair plan keeps it there.
Status evaluate_witness_to_host(WorkerDevice& dev, const CompiledWitness& w, const SpmvPlan& plan,
                                DeviceSpan<Fr> vec, std::span<Fr> a, std::span<Fr> b,
                                std::span<Fr> c_or_empty, const SpmvConfig& config = {});

}  // namespace cuzk::cuda
