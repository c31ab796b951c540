// cuzk_bench_update_synthesis: one SnapDeals partition of a virtual sector, any size up to 64 GiB,
// from vanilla proof to the prover's assignment, timed stage by stage.
//
//   cuzk_bench_update_synthesis [--size 2KiB|8MiB|512MiB|32GiB|64GiB] [--partition K] [--h H]
//                               [--count-only] [--check]
//
// Stages: the virtual sector (sparse trees), the partition's vanilla proof, the pre-proving check
// and witness (update_partition_from_vanilla), counting the blank circuit, and synthesis for
// the prover into a ProvingAssignment reserved to the counted size. --check then verifies
// a·b = c on every row. A 32 GiB partition's assignment takes about 81 M × 96 B + 81 M × 32 B,
// some 10.4 GB; --count-only stops before it.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "filecoin/circuits/update_vanilla.hpp"
#include "filecoin/vanilla/update_virtual.hpp"
#include "r1cs/counting_system.hpp"
#include "r1cs/proving_assignment.hpp"

namespace {

using namespace cuzk;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

uint64_t parse_size(const std::string& s) {
  const std::pair<const char*, uint64_t> sizes[] = {{"2KiB", 2048},
                                                    {"8MiB", 8ull << 20},
                                                    {"512MiB", 512ull << 20},
                                                    {"32GiB", 32ull << 30},
                                                    {"64GiB", 64ull << 30}};
  for (const auto& [name, bytes] : sizes)
    if (s == name) return bytes;
  return 0;
}

int fail(const std::string& what) {
  std::fprintf(stderr, "cuzk_bench_update_synthesis: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string size_name = "32GiB";
  uint64_t k = 0;
  unsigned h = 0;
  bool count_only = false, check = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--size" && i + 1 < argc)
      size_name = argv[++i];
    else if (a == "--partition" && i + 1 < argc)
      k = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--h" && i + 1 < argc)
      h = unsigned(std::strtoul(argv[++i], nullptr, 10));
    else if (a == "--count-only")
      count_only = true;
    else if (a == "--check")
      check = true;
    else
      return fail("unknown argument " + a);
  }
  const uint64_t size = parse_size(size_name);
  if (!size) return fail("unknown size " + size_name);
  auto shape = filecoin::vanilla::update_shape(size);
  if (!shape) return fail(shape.message());
  if (!h) h = shape->h_default();

  auto t0 = Clock::now();
  auto sector = filecoin::vanilla::virtual_update(size, h, 1);
  if (!sector) return fail(sector.message());
  std::printf("virtual sector      %8.2f s\n", since(t0));
  t0 = Clock::now();
  auto proof = filecoin::vanilla::update_partition_proof(sector->view(), k);
  if (!proof) return fail(proof.message());
  std::printf("vanilla proof       %8.2f s\n", since(t0));
  t0 = Clock::now();
  auto part = filecoin::update_partition_from_vanilla(*shape, *proof, sector->public_inputs(k));
  if (!part) return fail(part.message());
  std::printf("check and witness   %8.2f s\n", since(t0));

  t0 = Clock::now();
  r1cs::CountingSystem counter;
  if (Status s = part->circuit.synthesize(counter); !s) return fail(s.message());
  std::printf("count               %8.2f s  %zu constraints, %zu inputs, %zu aux\n", since(t0),
              counter.num_constraints(), counter.num_inputs(), counter.num_aux());
  if (count_only) return 0;

  t0 = Clock::now();
  r1cs::ProvingAssignment pa;
  pa.reserve(counter.num_constraints(), counter.num_aux(), counter.num_inputs());
  if (Status s = part->circuit.synthesize(pa); !s) return fail(s.message());
  auto as = pa.finish();
  if (!as) return fail(as.message());
  std::printf("synthesis (prover)  %8.2f s  %zu rows\n", since(t0), as->num_constraints());
  if (check) {
    t0 = Clock::now();
    std::vector<Fr> scratch;
    const std::vector<Fr>& c = r1cs::c_values(*as, scratch);
    for (size_t j = 0; j < as->num_constraints(); ++j)
      if (as->a[j] * as->b[j] != c[j]) return fail("row " + std::to_string(j) + " does not hold");
    std::printf("check a·b = c       %8.2f s  every row holds\n", since(t0));
  }
  return 0;
}
