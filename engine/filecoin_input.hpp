// Filecoin partitions in the engine: a PoRep C2, WindowPoSt, WinningPoSt or SnapDeals request as the
// caller hands it over (filecoin/proofs/proof_request.hpp), shared by the job's partitions, and the
// partition each one proves. At submit the request is checked (the whole vanilla proof: a bad input
// is refused before it is queued), expanded to the proof type's partition count (PoRep: 10 at
// 32/64 GiB, 1 at the test sizes; SnapDeals: 16 at 512 MiB and up; WindowPoSt: one per
// circuit-sized group of sectors) and given the parameter file of its official name when the job
// names none. Synthesis builds the partition's circuit and checks that its public inputs are the
// verifier's.
//
// The bytes are journaled with the job (base64), or only the paths they were read from when the
// request names files: either way the job survives a restart.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "engine/compiled_cache.hpp"
#include "filecoin/proofs/proof_request.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::engine {

// The request, shared by every partition of its job; prepared (parsed and checked) once.
class FilecoinRequest {
 public:
  // `vanilla_paths`: when not empty, the files request.vanilla is read from (one per entry), which
  // the journal then stores instead of the bytes.
  FilecoinRequest(filecoin::ProofRequest request, std::vector<std::string> vanilla_paths = {})
      : request_(std::move(request)), paths_(std::move(vanilla_paths)) {}

  const filecoin::ProofRequest& request() const { return request_; }
  const std::vector<std::string>& vanilla_paths() const { return paths_; }
  // Parsed and checked on first use (reading the files when the bytes are not held), then kept.
  Result<filecoin::PreparedProof> prepared() const;

 private:
  filecoin::ProofRequest request_;
  std::vector<std::string> paths_;
  mutable std::once_flag once_;
  mutable std::optional<Result<filecoin::PreparedProof>> prepared_;
};

struct FilecoinInput {
  std::shared_ptr<const FilecoinRequest> request;
  // Which partition; unset in a request as submitted, which stands for all of them.
  std::optional<uint32_t> partition;
};

struct JobRequest;
// For normalize(): when the request's partitions are Filecoin inputs, checks the request, expands
// it to every partition and names the parameter file (by its official name in
// filecoin::parameter_directory()) when `params` is empty. True when it did (the job kind's fixed
// partition count then does not apply: the proof type's does).
Result<bool> expand_filecoin_request(JobRequest& request);

// Synthesis of one Filecoin partition: the circuit's assignment, whose public inputs are checked to
// be the verifier's, synthesized on `threads` threads (filecoin::synthesize_partition). With
// `compiled`, the witness alone, attached to the proof type's compiled circuit (built on first
// use, with C left out: the prover forms c = a∘b), written into `storage` (pooled buffers). With
// `defer_witness` too, a FallbackPoSt partition's auxiliaries are left to the prover's backend
// (filecoin/circuits/post_witness.hpp): `storage` sized for them, their values pending.
Result<r1cs::Assignment> synthesize_filecoin(const FilecoinInput& input, unsigned threads,
                                             CompiledCache* compiled = nullptr, std::vector<Fr> storage = {},
                                             bool defer_witness = false);

// The key the compiled circuit of a Filecoin circuit is kept under: its parameter file name and the
// compiler's version.
Result<std::string> compiled_circuit_key(const filecoin::CircuitId& id);

// The circuit whose official parameter file `path` names (its file name, in any folder); nothing
// for any other name.
std::optional<filecoin::CircuitId> circuit_of_parameter_file(const std::string& path);

// Starts loading or building the compiled circuit of `id` in the background (CompiledCache::prefetch),
// as its first partition would, on `threads` threads.
void prefetch_compiled_circuit(CompiledCache& compiled, const filecoin::CircuitId& id, unsigned threads);

}  // namespace cuzk::engine
