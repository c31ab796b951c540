#include "r1cs/circuits/samples.hpp"

#include <random>

#include "r1cs/circuits/merkle_inclusion.hpp"
#include "r1cs/circuits/sha256_preimage.hpp"
#include "r1cs/circuits/synthetic.hpp"
#include "r1cs/gadgets/merkle.hpp"
#include "r1cs/gadgets/poseidon.hpp"

namespace cuzk::r1cs {
namespace {

Fr seeded_fr(std::mt19937_64& rng) {
  uint64_t v[Fr::N] = {rng(), rng(), rng(), rng() & 0x0fffffffffffffffull};  // < 2^252 < r
  return Fr::from_canonical(v);
}

}  // namespace

std::string SampleSpec::describe() const {
  if (kind == "merkle") return "merkle(depth=" + std::to_string(merkle_depth) + ")";
  if (kind == "sha256") return "sha256(bytes=" + std::to_string(message_bytes) + ")";
  if (kind == "synthetic") return "synthetic(domain=2^" + std::to_string(log_domain) + ")";
  return kind;
}

const std::vector<std::string>& sample_kinds() {
  static const std::vector<std::string> kinds = {"merkle", "sha256", "synthetic"};
  return kinds;
}

Result<std::unique_ptr<Circuit>> make_sample_circuit(const SampleSpec& spec) {
  std::mt19937_64 rng(spec.seed);
  if (spec.kind == "merkle") {
    if (spec.merkle_depth < 1 || spec.merkle_depth > 64)
      return make_error("merkle: depth must be between 1 and 64, got " + std::to_string(spec.merkle_depth));
    const Fr leaf = seeded_fr(rng);
    std::vector<Fr> siblings(spec.merkle_depth);
    for (auto& s : siblings) s = seeded_fr(rng);
    const uint64_t index = spec.merkle_depth >= 64 ? rng() : rng() & ((uint64_t(1) << spec.merkle_depth) - 1);
    auto root = merkle_root(poseidon_constants_2(), leaf, siblings, index);
    if (!root) return root.error();
    return std::unique_ptr<Circuit>(new MerkleInclusion(*root, leaf, std::move(siblings), index));
  }
  if (spec.kind == "sha256") {
    if (spec.message_bytes > (1u << 20))
      return make_error("sha256: messages above 1 MiB are not a sample, got " +
                        std::to_string(spec.message_bytes));
    std::vector<uint8_t> message(spec.message_bytes);
    for (auto& b : message) b = uint8_t(rng());
    return std::unique_ptr<Circuit>(new Sha256Preimage(std::move(message)));
  }
  if (spec.kind == "synthetic") {
    if (spec.log_domain < 6 || spec.log_domain > 28)
      return make_error("synthetic: log domain must be between 6 and 28, got " +
                        std::to_string(spec.log_domain));
    auto c = SyntheticCircuit::create(SyntheticParams::benchmark_shape(spec.log_domain, spec.seed));
    if (!c) return c.error();
    return std::unique_ptr<Circuit>(new SyntheticCircuit(std::move(*c)));
  }
  return make_error("unknown circuit '" + spec.kind + "' (known: merkle, sha256, synthetic)");
}

}  // namespace cuzk::r1cs
