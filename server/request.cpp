#include "server/request.hpp"

#include <optional>

#include "io/snarkjs_r1cs.hpp"
#include "io/snarkjs_wtns.hpp"
#include "server/client/convert.hpp"
#include "server/filecoin_request.hpp"

namespace cuzk::server {
namespace {

std::span<const uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// Bounds that keep a sample circuit request from asking the daemon for absurd work.
Status check_sample(const v1::SampleCircuit& s) {
  const auto& kinds = r1cs::sample_kinds();
  if (std::find(kinds.begin(), kinds.end(), s.kind()) == kinds.end())
    return make_error("unknown sample circuit \"" + s.kind() + "\"");
  if (s.kind() == "merkle" && (s.merkle_depth() == 0 || s.merkle_depth() > 64))
    return make_error("merkle_depth must be 1..64");
  if (s.kind() == "sha256" && s.message_bytes() > (1u << 20))
    return make_error("message_bytes must be at most 1 MiB");
  if (s.kind() == "synthetic" && (s.log_domain() < 6 || s.log_domain() > 28))
    return make_error("log_domain must be 6..28");
  return {};
}

}  // namespace

Result<engine::JobRequest> request_from_proto(const v1::JobSpec& spec, Spool::Upload& upload,
                                              const AllowedFolders& inputs) {
  engine::JobRequest r;
  auto kind = kind_from_proto(spec.kind());
  if (!kind) return kind.error();
  r.kind = *kind;
  auto prio = priority_from_proto(spec.priority());
  if (!prio) return prio.error();
  r.priority = *prio;
  const bool filecoin = spec.partitions_size() == 1 && spec.partitions(0).has_filecoin();
  if (spec.params().empty() && !filecoin) return make_error("the job names no parameter set (params)");
  r.params = spec.params();
  if (spec.has_randomness_seed()) r.randomness_seed = spec.randomness_seed();
  if (auto st = check_printable(spec.client(), "the client name"); !st) return st.error();
  r.client = spec.client();
  if (spec.partitions_size() == 0) return make_error("the job has no partitions");

  // The circuit of the circom partitions: parsed once, stored once.
  std::optional<SnarkjsR1cs> circuit;
  std::string r1cs_path;
  bool any_circom = false;
  for (const auto& p : spec.partitions()) any_circom |= p.has_circom();
  if (!spec.circom_r1cs().empty()) {
    if (!any_circom) return make_error("circom_r1cs given, but no partition is a circom witness");
    auto parsed = parse_r1cs(bytes_of(spec.circom_r1cs()));
    if (!parsed) return make_error("circom_r1cs: " + parsed.message());
    circuit = std::move(*parsed);
    auto path = upload.store(spec.circom_r1cs(), ".r1cs");
    if (!path) return path.error();
    r1cs_path = *path;
  }

  for (int i = 0; i < spec.partitions_size(); ++i) {
    const auto& p = spec.partitions(i);
    const std::string where = "partition " + std::to_string(i) + ": ";
    switch (p.input_case()) {
      case v1::PartitionInput::kSample: {
        const auto& s = p.sample();
        if (auto st = check_sample(s); !st) return make_error(where + st.message());
        engine::SampleInput in;
        in.spec.kind = s.kind();
        in.spec.merkle_depth = s.merkle_depth();
        in.spec.message_bytes = s.message_bytes();
        in.spec.log_domain = s.log_domain();
        in.spec.seed = s.seed();
        r.partitions.emplace_back(std::move(in));
        break;
      }
      case v1::PartitionInput::kCircom: {
        auto wtns = parse_wtns(bytes_of(p.circom().wtns()));
        if (!wtns) return make_error(where + "malformed witness: " + wtns.message());
        if (circuit && wtns->values.size() != circuit->n_wires)
          return make_error(where + "the witness has " + std::to_string(wtns->values.size()) +
                            " values, the circuit " + std::to_string(circuit->n_wires) + " wires");
        auto path = upload.store(p.circom().wtns(), ".wtns");
        if (!path) return path.error();
        r.partitions.emplace_back(engine::CircomInput{r1cs_path, *path});
        break;
      }
      case v1::PartitionInput::kCircomFiles: {
        if (p.circom_files().wtns_path().empty()) return make_error(where + "no wtns_path");
        auto wtns = inputs.check(p.circom_files().wtns_path());
        if (!wtns) return make_error(where + wtns.message());
        std::string r1cs;
        if (!p.circom_files().r1cs_path().empty()) {
          auto checked = inputs.check(p.circom_files().r1cs_path());
          if (!checked) return make_error(where + checked.message());
          r1cs = *checked;
        }
        r.partitions.emplace_back(engine::CircomInput{r1cs, *wtns});
        break;
      }
      case v1::PartitionInput::kSynthesized: {
        auto as = assignment_from_proto(p.synthesized());
        if (!as) return make_error(where + as.message());
        r.partitions.emplace_back(
            engine::SynthesizedInput{std::make_shared<const r1cs::Assignment>(std::move(*as))});
        break;
      }
      case v1::PartitionInput::kFilecoin: {
        auto in = filecoin_from_proto(p.filecoin(), r.kind, upload);
        if (!in) return make_error(where + in.message());
        r.partitions.emplace_back(std::move(*in));
        break;
      }
      default:
        return make_error(where + "no input (sample, circom, circom_files, synthesized or filecoin)");
    }
  }
  return r;
}

}  // namespace cuzk::server
