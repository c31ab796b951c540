#include "cli/filecoin_partition.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "filecoin/circuits/porep_synthesis.hpp"
#include "filecoin/circuits/porep_vanilla.hpp"
#include "filecoin/circuits/post_synthesis.hpp"
#include "filecoin/circuits/post_vanilla.hpp"
#include "filecoin/circuits/update_synthesis.hpp"
#include "filecoin/circuits/update_vanilla.hpp"
#include "filecoin/formats/c1_json.hpp"
#include "filecoin/formats/vanilla_bincode.hpp"
#include "filecoin/vanilla/post_virtual.hpp"
#include "filecoin/vanilla/update.hpp"
#include "filecoin/vanilla/update_virtual.hpp"
#include "filecoin/vanilla/virtual_sector.hpp"

namespace cuzk::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A field element drawn from the seed (top two bits clear), for tickets, seeds and randomness.
filecoin::Domain seeded_domain(uint64_t seed, uint8_t salt) {
  filecoin::Domain d;
  for (size_t i = 0; i < d.size(); ++i) d[i] = uint8_t((seed >> (8 * (i % 8))) ^ (salt * 37u) ^ (i * 11u));
  d[31] &= 0x3f;
  return d;
}

// The newest registered PoSt type of the kind and size (WinningPoSt V1, WindowPoSt V1_2): its API
// version fixes the challenges.
Result<filecoin::RegisteredProof> post_type(filecoin::ProofKind kind, uint64_t sector_size) {
  std::optional<filecoin::RegisteredProof> out;
  for (const auto& p : filecoin::registered_proofs(filecoin::ProofFamily::post))
    if (p.kind == kind && p.sector_size == sector_size && (!out || p.api_version > out->api_version)) out = p;
  if (!out) return make_input_error("no PoSt type of " + std::to_string(sector_size) + " bytes");
  return *out;
}

Result<BenchPartition> post_partition(const filecoin::CircuitId& id, uint64_t seed) {
  using filecoin::PostKind;
  BenchPartition b;
  const bool winning = id.kind == filecoin::CircuitKind::winning_post;
  auto type = post_type(winning ? filecoin::ProofKind::winning_post : filecoin::ProofKind::window_post,
                        id.sector_size);
  if (!type) return type.error();
  auto t = Clock::now();
  filecoin::vanilla::VirtualPostRequest r;
  const PostKind kind = winning ? PostKind::winning : PostKind::window;
  r.type = {kind, id.sector_size, type->api_version};
  auto params = filecoin::fallback_post_params(kind, id.sector_size, r.type.api_version);
  if (!params) return params.error();
  r.sectors = kind == PostKind::winning ? 1 : params->sector_count;
  r.first_sector_id = 1000;
  r.randomness = seeded_domain(seed, 3);
  r.rng_seed = seed;
  auto proofs = filecoin::vanilla::virtual_post_proofs(r);
  if (!proofs) return proofs.error();
  b.request.emplace();
  b.request->kind = winning ? filecoin::ProofKind::winning_post : filecoin::ProofKind::window_post;
  b.request->proof_id = type->id;
  b.request->randomness = r.randomness;
  for (const auto& proof : *proofs) {
    const auto bytes = filecoin::write_post_vanilla_proof(proof);
    b.request->vanilla.emplace_back(bytes.begin(), bytes.end());
  }
  b.vanilla_s = seconds_since(t);
  b.vanilla = (kind == PostKind::winning
                   ? "one virtual sector's vanilla proof (66 challenges)"
                   : std::to_string(r.sectors) + " virtual sectors' vanilla proofs (10 challenges each)") +
              ", " + std::string(type->name);

  t = Clock::now();
  auto part = filecoin::post_partition_from_vanilla(r.type, *proofs, r.randomness);
  if (!part) return part.error();
  b.check_s = seconds_since(t);
  auto circuit = std::make_shared<const filecoin::FallbackPostCircuit>(std::move(part->circuit));
  b.public_inputs = std::move(part->public_inputs);
  b.parallel = true;
  b.synthesize_with = [circuit](unsigned threads) {
    return filecoin::synthesize_post_for_proving(*circuit, threads);
  };
  b.circuit = std::move(circuit);
  return b;
}

Result<BenchPartition> update_partition(const filecoin::CircuitId& id, uint64_t seed) {
  BenchPartition b;
  auto t = Clock::now();
  auto shape = filecoin::vanilla::update_shape(id.sector_size);
  if (!shape) return shape.error();
  auto sector = filecoin::vanilla::virtual_update(id.sector_size, shape->h_default(), seed);
  if (!sector) return sector.error();
  auto proof = filecoin::vanilla::update_partition_proof(sector->view(), 0);
  if (!proof) return proof.error();
  b.vanilla_s = seconds_since(t);
  b.partitions = shape->partitions;
  b.vanilla = "virtual updated sector, partition 0 of " + std::to_string(shape->partitions);

  t = Clock::now();
  auto part = filecoin::update_partition_from_vanilla(*shape, *proof, sector->public_inputs(0));
  if (!part) return part.error();
  b.check_s = seconds_since(t);
  auto circuit = std::make_shared<const filecoin::UpdateCircuit>(std::move(part->circuit));
  b.public_inputs = std::move(part->public_inputs);
  b.parallel = true;
  b.synthesize_with = [circuit](unsigned threads) {
    return filecoin::synthesize_update_for_proving(*circuit, threads);
  };
  b.circuit = std::move(circuit);
  return b;
}

// The interactive seal type of the size whose C1 a provider would hand over today (V1_1).
Result<filecoin::RegisteredProof> porep_seal_type(uint64_t sector_size) {
  for (const auto& p : filecoin::registered_proofs(filecoin::ProofFamily::seal))
    if (p.sector_size == sector_size && p.api_version == filecoin::ApiVersion::v1_1_0 && !p.synthetic &&
        !p.non_interactive)
      return p;
  return make_input_error("no V1_1 seal type of " + std::to_string(sector_size) + " bytes");
}

Result<BenchPartition> porep_partition(const filecoin::CircuitId& id, uint64_t seed) {
  BenchPartition b;
  auto type = porep_seal_type(id.sector_size);
  if (!type) return type.error();
  auto t = Clock::now();
  auto c1 = filecoin::vanilla::virtual_commit_phase1(type->id, seeded_domain(seed, 1), 1,
                                                     seeded_domain(seed, 2), seeded_domain(seed, 4), seed);
  if (!c1) return c1.error();
  b.vanilla_s = seconds_since(t);
  b.partitions = c1->vanilla_proofs.size();
  b.vanilla = "virtual C1 (" + std::string(type->name) + "), partition 0 of " + std::to_string(b.partitions);
  b.request.emplace();
  b.request->kind = filecoin::ProofKind::seal;
  b.request->vanilla.push_back(filecoin::write_c1_json(*c1));

  t = Clock::now();
  auto part = filecoin::porep_partition_from_c1(*c1, 0);
  if (!part) return part.error();
  b.check_s = seconds_since(t);
  auto circuit = std::make_shared<const filecoin::PorepCircuit>(std::move(part->circuit));
  b.public_inputs = std::move(part->public_inputs);
  b.parallel = true;
  b.synthesize_with = [circuit](unsigned threads) {
    return filecoin::synthesize_porep_for_proving(*circuit, threads);
  };
  b.circuit = std::move(circuit);
  return b;
}

}  // namespace

Result<r1cs::Assignment> BenchPartition::synthesize(unsigned threads) const {
  auto as = synthesize_with(threads);
  if (!as) return as.error();
  if (as->input_assignment.size() != 1 + public_inputs.size())
    return make_error(name + ": synthesis made " + std::to_string(as->input_assignment.size()) +
                      " inputs, the verifier has " + std::to_string(1 + public_inputs.size()));
  for (size_t i = 0; i < public_inputs.size(); ++i)
    if (as->input_assignment[1 + i] != public_inputs[i])
      return make_error(name + ": input " + std::to_string(i) + " is not the verifier's");
  return as;
}

Result<BenchPartition> make_bench_partition(const filecoin::CircuitId& id, uint64_t seed) {
  auto name = filecoin::circuit_id_string(id);
  if (!name) return name.error();
  Result<BenchPartition> b = make_error("");
  switch (id.kind) {
    case filecoin::CircuitKind::porep:
      b = porep_partition(id, seed);
      break;
    case filecoin::CircuitKind::window_post:
    case filecoin::CircuitKind::winning_post:
      b = post_partition(id, seed);
      break;
    case filecoin::CircuitKind::update:
      b = update_partition(id, seed);
      break;
    default:
      return make_input_error(*name + ": no benchmark for this circuit");
  }
  if (!b) return make_error(*name + ": " + b.message());
  b->id = id;
  b->name = *name;
  return b;
}

}  // namespace cuzk::cli
