// A Filecoin proof request as storage providers hand it over — the bytes they hold and the few
// numbers beside them — turned into the partitions to prove: each partition's circuit and the
// public inputs its verifier computes (reference/filecoin-circuits.md §3, §4).
//
//   * PoRep C2: one commit-phase-1 output (bare C1 JSON, or Curio's wrapper around it); the prover
//     id and sector id, when given, are checked against its replica_id. Partitions: the seal
//     type's (10 at 32/64 GiB, 1 at the test sizes).
//   * WindowPoSt: one vanilla proof (bincode FallbackPoStSectorProof) per sector, in deadline
//     order, cut into partitions of the circuit's sector count; the first partition has index
//     `first_partition` in the deadline.
//   * WinningPoSt: one vanilla proof of 66 inclusion proofs; one partition.
//   * SnapDeals: one vanilla proof (bincode PartitionProof) per partition, with comm_r_old,
//     comm_d_new and comm_r_new.
//
// Preparing for proving checks everything a circuit would reject (the whole vanilla proof), so a
// bad input is named before any proving time is spent; preparing for verifying parses only what
// the public inputs need.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "filecoin/types/domain.hpp"
#include "filecoin/types/parameter_files.hpp"
#include "filecoin/types/proof_types.hpp"
#include "r1cs/circuits/circuit.hpp"

namespace cuzk::filecoin {

struct ProofRequest {
  ProofKind kind = ProofKind::seal;
  // The registered proof id within the kind's family (seal ids 0–19, PoSt 0–14, update 0–4). For
  // PoRep the C1 names its type; when set here too, the two must agree.
  std::optional<uint64_t> proof_id;
  // PoRep: one C1; PoSt: one per sector; SnapDeals: one per partition.
  std::vector<std::string> vanilla;
  Domain randomness{};                // PoSt; callers clear the top two bits (as filecoin-proofs-api does)
  std::optional<Domain> prover_id;    // PoRep
  std::optional<uint64_t> sector_id;  // PoRep (Curio's wrapper carries one too)
  uint64_t first_partition = 0;       // WindowPoSt
  Domain comm_r_old{}, comm_d_new{}, comm_r_new{};  // SnapDeals
};

enum class PrepareFor { proving, verifying };

// One partition ready to prove.
struct FilecoinPartition {
  std::unique_ptr<r1cs::Circuit> circuit;
  std::vector<Fr> public_inputs;  // without ONE
};

class PreparedProof {
 public:
  // Parses (and, for proving, checks) the request. Errors are input errors that name what is
  // wrong, e.g. "C1: partition 0 challenge 1: drg parent 3 column does not reach comm_c".
  static Result<PreparedProof> prepare(const ProofRequest& request, PrepareFor use = PrepareFor::proving);

  const RegisteredProof& proof_type() const;
  CircuitId circuit() const;
  size_t partitions() const;
  // Partition k's circuit and public inputs (prepared for proving only).
  Result<FilecoinPartition> partition(size_t k) const;
  // Partition k's public inputs as the verifier computes them.
  Result<std::vector<Fr>> public_inputs(size_t k) const;
  // A bound of the host bytes partition k's circuit holds of its witness while it is synthesized:
  // the part of the vanilla proofs it is built from (32 bytes a field element, 64 a vector), which
  // a caller adds to the synthesis footprint. 0 when prepared for verifying or k is no partition.
  uint64_t witness_bytes(size_t k) const;

  struct State;  // the parsed request, by kind

 private:
  explicit PreparedProof(std::shared_ptr<const State> state) : state_(std::move(state)) {}
  std::shared_ptr<const State> state_;
};

// Ok for a registered proof type cuzk proves; for one it cannot (the NI-PoRep seal types, whose
// C2 output is a SnarkPack aggregate), an input error naming the type and why. prepare() checks
// it for every request, before the vanilla proofs are read when the request names its type.
Status check_provable(const RegisteredProof& type);

// A readable name of a request's kind: "PoRep", "WindowPoSt", "WinningPoSt", "SnapDeals".
const char* proof_kind_name(ProofKind kind);

// Hex of exactly 32 bytes, byte 0 first ("0x" optional), as tickets, seeds and randomness are
// written; and back.
Result<Domain> parse_domain_hex(const std::string& hex);
std::string domain_hex(const Domain& d);

}  // namespace cuzk::filecoin
