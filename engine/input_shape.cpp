#include "engine/input_shape.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <thread>

#include "filecoin/proofs/circuit_bridge.hpp"
#include "r1cs/circuits/samples.hpp"
#include "r1cs/circuits/synthetic.hpp"
#include "r1cs/counting_system.hpp"

namespace cuzk::engine {
namespace {

constexpr uint64_t kFr = 32;

struct Counts {
  uint64_t rows = 0, variables = 0;
};

Result<Counts> count(const r1cs::SampleSpec& spec) {
  auto circuit = r1cs::make_sample_circuit(spec);
  if (!circuit) return circuit.error();
  r1cs::CountingSystem cs;
  CUZK_TRY_STATUS((*circuit)->synthesize(cs));
  return Counts{cs.num_constraints() + cs.num_inputs(), cs.num_inputs() + cs.num_aux()};
}

// Counts of `units` units of a circuit whose shape is linear in them, from counts of one and two.
struct Linear {
  Counts one, per_unit;
  Counts at(uint64_t units) const {
    return {one.rows + (units - 1) * per_unit.rows, one.variables + (units - 1) * per_unit.variables};
  }
};

Result<Linear> linear(r1cs::SampleSpec one, r1cs::SampleSpec two) {
  auto a = count(one);
  auto b = count(two);
  if (!a) return a.error();
  if (!b) return b.error();
  return Linear{*a, {b->rows - a->rows, b->variables - a->variables}};
}

// Computed once per process (a few tens of thousands of constraints counted).
Result<Linear> sample_linear(const std::string& kind) {
  static std::mutex mutex;
  static std::optional<Result<Linear>> merkle, sha256;
  std::lock_guard lock(mutex);
  r1cs::SampleSpec one, two;
  one.kind = two.kind = kind;
  if (kind == "merkle") {
    one.merkle_depth = 1, two.merkle_depth = 2;
    if (!merkle) merkle = linear(one, two);
    return *merkle;
  }
  one.message_bytes = 0, two.message_bytes = 64;  // one and two SHA-256 blocks
  if (!sha256) sha256 = linear(one, two);
  return *sha256;
}

// Synthesis into a ProvingAssignment: a, b, c and the assignment in vectors that grow by doubling,
// and the few linear combinations a gadget holds at a time (the 64 KiB).
uint64_t proving_assignment_bytes(const Counts& c) {
  return 2 * kFr * (3 * c.rows + c.variables) + (64 << 10);
}

Result<uint64_t> regular_file_size(const std::string& path, const char* what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return make_error(std::string(what) + " cannot be opened");
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  ::close(fd);
  if (!regular) return make_error(std::string(what) + " is not a regular file");
  return uint64_t(st.st_size);
}

Result<InputShape> estimate_filecoin(const FilecoinInput& in, unsigned threads, bool witness_only) {
  if (!in.request) return make_input_error("a Filecoin partition without its request");
  auto prepared = in.request->prepared();
  if (!prepared) return prepared.error();
  auto footprint = filecoin::partition_synthesis_footprint(prepared->circuit(), threads);
  if (!footprint) return footprint.error();
  // A request that names no partition stands for all of them: the largest witness.
  uint64_t witness = 0;
  if (in.partition)
    witness = prepared->witness_bytes(*in.partition);
  else
    for (size_t k = 0; k < prepared->partitions(); ++k)
      witness = std::max(witness, prepared->witness_bytes(k));
  const r1cs::ShapeCounts& whole = footprint->whole;
  const uint64_t peak = witness_only ? footprint->witness_peak_bytes() : footprint->peak_bytes();
  return InputShape{whole.rows(), whole.inputs + whole.aux, peak + witness + (64 << 10)};
}

}  // namespace

std::string format_bytes(uint64_t bytes) {
  char buf[32];
  if (bytes >= (uint64_t(1) << 30))
    std::snprintf(buf, sizeof(buf), "%.1f GiB", double(bytes) / double(uint64_t(1) << 30));
  else
    std::snprintf(buf, sizeof(buf), "%.1f MiB", double(bytes) / double(1 << 20));
  return buf;
}

Result<InputShape> estimate_input(const PartitionInput& input, unsigned threads, bool witness_only) {
  if (const auto* f = std::get_if<FilecoinInput>(&input))
    return estimate_filecoin(*f, threads ? threads : std::max(1u, std::thread::hardware_concurrency()),
                             witness_only);
  if (const auto* s = std::get_if<SampleInput>(&input)) {
    const auto& spec = s->spec;
    if (spec.kind == "synthetic") {
      if (spec.log_domain < 6 || spec.log_domain > 40)
        return make_error("synthetic: log domain out of range");
      const auto p = r1cs::SyntheticParams::benchmark_shape(spec.log_domain, spec.seed);
      const uint64_t inputs = p.num_public_inputs + 1;
      const uint64_t rows = p.num_constraints + inputs, variables = p.num_constraints + inputs;
      return InputShape{rows, variables, kFr * (3 * rows + variables)};  // written in place, no growth
    }
    if (spec.kind != "merkle" && spec.kind != "sha256")
      return make_error("unknown sample circuit \"" + spec.kind + "\"");
    auto lin = sample_linear(spec.kind);
    if (!lin) return lin.error();
    const uint64_t units = spec.kind == "merkle" ? std::max<uint64_t>(1, spec.merkle_depth)
                                                 : (uint64_t(spec.message_bytes) + 9 + 63) / 64;
    const Counts c = lin->at(units);
    return InputShape{c.rows, c.variables, proving_assignment_bytes(c)};
  }
  if (const auto* c = std::get_if<CircomInput>(&input)) {
    auto wtns = regular_file_size(c->wtns_path, "the witness file");
    if (!wtns) return wtns.error();
    uint64_t r1cs = 0;
    if (!c->r1cs_path.empty()) {
      auto size = regular_file_size(c->r1cs_path, "the circuit file");
      if (!size) return size.error();
      r1cs = *size;
    }
    // The files are read whole; each constraint of an .r1cs takes at least 12 bytes (three term
    // counts), and becomes 3 evaluations of 32 bytes; a witness value takes 32 bytes either way.
    return InputShape{0, 0, 2 * (*wtns + r1cs) + 8 * r1cs + 2 * *wtns + (64 << 10)};
  }
  return InputShape{};
}

}  // namespace cuzk::engine
