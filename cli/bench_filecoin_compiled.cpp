#include "cli/bench_filecoin_compiled.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "cli/bench_util.hpp"
#include "cli/host_memory.hpp"
#include "filecoin/proofs/compiled_circuits.hpp"
#include "r1cs/compiled/evaluate.hpp"

namespace cuzk::cli {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Peak resident memory of one phase (the peak reset at its start where the kernel allows it).
struct Phase {
  Clock::time_point start = (reset_peak_rss(), Clock::now());
  double seconds() const { return seconds_since(start); }
  uint64_t peak() const { return peak_rss_bytes(); }
};

// Where the compiled path's assignment differs from full synthesis' ("" when nowhere).
std::string first_difference(const r1cs::Assignment& x, const r1cs::Assignment& y) {
  if (x.input_assignment != y.input_assignment) return "input assignment";
  if (x.aux_assignment != y.aux_assignment) return "aux assignment";
  if (x.a != y.a) return "a";
  if (x.b != y.b) return "b";
  std::vector<Fr> sx, sy;
  if (r1cs::c_values(x, sx) != r1cs::c_values(y, sy)) return "c";
  if (!(x.a_aux_density == y.a_aux_density)) return "A aux density";
  if (!(x.b_input_density == y.b_input_density)) return "B input density";
  if (!(x.b_aux_density == y.b_aux_density)) return "B aux density";
  return "";
}

}  // namespace

int bench_filecoin_compiled(const BenchPartition& part, const CompiledBenchOptions& options) {
  const unsigned threads = options.threads;
  // The blank circuit of the partition's id, compiled as an engine compiles it once per shape.
  Phase phase;
  auto compiled = filecoin::compile_blank_circuit(part.id, threads);
  if (!compiled) return fail("compile: " + compiled.message());
  const double compile_s = phase.seconds();
  const uint64_t compile_rss = phase.peak();
  const auto cc = std::make_shared<const r1cs::CompiledCircuit>(std::move(*compiled));
  const size_t nnz[3] = {cc->side(r1cs::Side::a).nnz(), cc->side(r1cs::Side::b).nnz(),
                         cc->side(r1cs::Side::c).nnz()};
  std::fprintf(
      stderr,
      "  compiled the blank circuit in %.3f s: %zu constraints, terms A %zu, B %zu, C %zu, %zu distinct "
      "coefficients, %s\n",
      compile_s, cc->num_constraints(), nnz[0], nnz[1], nnz[2], cc->coeffs().size(),
      gib(cc->bytes()).c_str());

  phase = Phase();
  auto witness = filecoin::synthesize_partition_witness(*part.circuit, threads);
  if (!witness) return fail("witness-only synthesis: " + witness.message());
  const double witness_s = phase.seconds();
  const uint64_t witness_rss = phase.peak();
  if (witness->input_assignment.size() != 1 + part.public_inputs.size() ||
      !std::equal(part.public_inputs.begin(), part.public_inputs.end(),
                  witness->input_assignment.begin() + 1))
    return fail(part.name + ": the witness's inputs are not the verifier's");
  std::fprintf(stderr, "  witness-only synthesis in %.3f s: %zu inputs, %zu aux\n", witness_s,
               witness->input_assignment.size(), witness->aux_assignment.size());

  phase = Phase();
  r1cs::Assignment as = std::move(*witness);
  if (Status s = r1cs::attach_compiled(as, cc); !s) return fail(s.message());
  if (Status s = r1cs::materialize(as, threads); !s) return fail("evaluation: " + s.message());
  const double eval_s = phase.seconds();
  const uint64_t eval_rss = phase.peak();
  std::fprintf(stderr, "  a, b, c evaluated on the CPU in %.3f s (%u threads)\n", eval_s, threads);

  double full_s = 0;
  uint64_t full_rss = 0;
  std::string difference;
  if (options.full_synthesis) {
    phase = Phase();
    auto full = part.synthesize(threads);
    if (!full) return fail("full synthesis: " + full.message());
    full_s = phase.seconds();
    full_rss = phase.peak();
    difference = first_difference(as, *full);
    std::fprintf(stderr, "  full synthesis in %.3f s; the compiled path %s\n", full_s,
                 difference.empty() ? "matches it bit for bit" : ("differs in " + difference).c_str());
  }

  std::printf("%-12s %12s %11s %11s %11s %7s %10s %9s %9s %9s %9s\n", "circuit", "constraints", "terms A",
              "terms B", "terms C", "coeffs", "compiled", "compile s", "full s", "witness s", "eval s");
  std::printf("%-12s %12zu %11zu %11zu %11zu %7zu %10s %9.3f %9.3f %9.3f %9.3f\n", part.name.c_str(),
              cc->num_constraints(), nnz[0], nnz[1], nnz[2], cc->coeffs().size(), gib(cc->bytes()).c_str(),
              compile_s, full_s, witness_s, eval_s);
  if (!difference.empty())
    return fail(part.name + ": the compiled path differs from full synthesis in " + difference);
  return write_json(
      options.json_path,
      {{"bench", "filecoin"},
       {"mode", "witness-only"},
       {"circuit", part.name},
       {"vanilla", part.vanilla},
       {"threads", threads},
       {"parallel_pieces", part.parallel},
       {"constraints", cc->num_constraints()},
       {"inputs", cc->num_inputs()},
       {"aux", cc->num_aux()},
       {"nnz", {{"a", nnz[0]}, {"b", nnz[1]}, {"c", nnz[2]}}},
       {"distinct_coefficients", cc->coeffs().size()},
       {"compiled_bytes", cc->bytes()},
       {"compile_s", compile_s},
       {"witness_s", witness_s},
       {"evaluate_s", eval_s},
       {"full_synthesis_s", full_s},
       {"compared", options.full_synthesis},
       {"matches", options.full_synthesis && difference.empty()},
       {"peak_rss_phase_bytes",
        {{"compile", compile_rss}, {"witness", witness_rss}, {"evaluate", eval_rss}, {"full", full_rss}}},
       {"machine", {{"threads", std::thread::hardware_concurrency()}}}});
}

}  // namespace cuzk::cli
