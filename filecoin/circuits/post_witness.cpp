#include "filecoin/circuits/post_witness.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <optional>

#include "common/parallel_ranges.hpp"
#include "common/thread_pool.hpp"
#include "r1cs/gadgets/poseidon.hpp"

#if CUZK_FILECOIN_DEVICE
#include "filecoin/device/post_witness_device.hpp"
#endif

namespace cuzk::filecoin {

namespace pw = post_witness;

namespace {

unsigned log2_of(unsigned arity) { return unsigned(std::countr_zero(arity)); }

// The path's arities, bottom up: the circuit's levels (poseidon_path_levels).
Result<std::vector<unsigned>> level_arities(const FallbackPostParams& params) {
  auto base = post_base_levels(params);
  if (!base) return base.error();
  auto levels = poseidon_path_levels(params.tree, *base);
  if (!levels) return levels.error();
  std::vector<unsigned> arities;
  for (const PathLevel& l : *levels) arities.push_back(l.arity);
  return arities;
}

// One arity's constants appended to `flat`; their offsets.
pw::TableOffsets append_table(const r1cs::PoseidonConstants& c, std::vector<Fr>& flat) {
  pw::TableOffsets t;
  t.width = uint32_t(c.width);
  t.half_full_rounds = uint32_t(c.half_full_rounds);
  t.partial_rounds = uint32_t(c.partial_rounds);
  t.variables = uint32_t(r1cs::poseidon_circuit_constraints(c));
  const auto put = [&flat](const std::vector<Fr>& v) {
    const auto at = uint32_t(flat.size());
    flat.insert(flat.end(), v.begin(), v.end());
    return at;
  };
  t.round_constants = put(c.compressed_round_constants);
  t.mds = put(c.mds);
  t.pre_sparse = put(c.pre_sparse);
  t.w_hat = uint32_t(flat.size());
  for (const auto& m : c.sparse) flat.insert(flat.end(), m.w_hat.begin(), m.w_hat.end());
  t.v_rest = uint32_t(flat.size());
  for (const auto& m : c.sparse) flat.insert(flat.end(), m.v_rest.begin(), m.v_rest.end());
  t.tag = uint32_t(flat.size());
  flat.push_back(c.merkle_tag);
  return t;
}

}  // namespace

Result<std::shared_ptr<const PostWitness>> PostWitness::create(const FallbackPostCircuit& circuit) {
  const FallbackPostParams& params = circuit.params();
  auto arities = level_arities(params);
  if (!arities) return arities.error();
  if (arities->empty() || arities->size() > pw::kMaxLevels)
    return make_error("PoSt witness: " + std::to_string(arities->size()) + " path levels (1 to " +
                      std::to_string(pw::kMaxLevels) + " are covered)");
  if (params.sector_count == 0 || params.challenge_count == 0)
    return make_error("PoSt witness: a partition of no sectors or no challenges");

  std::shared_ptr<PostWitness> w(new PostWitness());
  pw::Geometry& g = w->geometry_;
  g.levels = uint32_t(arities->size());
  g.challenge_count = uint32_t(params.challenge_count);
  g.sector_count = uint32_t(params.sector_count);
  g.tables[1] = append_table(r1cs::poseidon_constants_2(), w->tables_);
  unsigned shift = 0;
  uint64_t challenge_rows = 2;  // the packed index's row and the root's
  g.challenge_vars = 1;         // the leaf
  g.challenge_words = 1;
  for (uint32_t l = 0; l < g.levels; ++l) {
    const unsigned a = (*arities)[l];
    if (a != 2 && a != 4 && a != 8)
      return make_error("PoSt witness: a level of arity " + std::to_string(a) + " (2, 4 and 8 are covered)");
    const unsigned bits = log2_of(a);
    if (shift + bits > 64) return make_error("PoSt witness: paths of more than 64 index bits");
    g.arity[l] = uint8_t(a);
    g.index_shift[l] = uint8_t(shift);
    shift += bits;
    pw::TableOffsets& tab = g.tables[bits];
    if (tab.width == 0) {
      auto c = r1cs::poseidon_constants(a);
      if (!c) return c.error();
      tab = append_table(**c, w->tables_);
    }
    const uint64_t level_vars = bits + (a - 1) + pw::insertion_vars(a) + tab.variables;
    g.challenge_vars += level_vars;
    challenge_rows += bits + pw::insertion_vars(a) + tab.variables;  // bits, picks, hash: one row each
    g.challenge_words += a - 1;
  }
  g.header_vars = 3 + g.tables[1].variables;
  g.sector_vars = g.header_vars + g.challenge_count * g.challenge_vars;
  g.sector_words = 3 + g.challenge_count * g.challenge_words;

  // The sectors' data and path indices, and the inputs (ONE, then per sector comm_r and each
  // challenge's index): each sector's at its own offsets, on every core.
  const size_t words = g.sector_words, per_inputs = 1 + g.challenge_count;
  w->sectors_.resize(words * g.sector_count);
  w->indices_.resize(size_t(g.challenge_count) * g.sector_count);
  w->inputs_.resize(1 + per_inputs * g.sector_count);
  w->inputs_[0] = Fr::one();
  const auto pack = [&](size_t i) -> Status {
    const PostCircuitSector& s = circuit.sector(i);
    const std::string at = "PoSt witness: circuit sector " + std::to_string(i) + ": ";
    if (s.leaves.size() != g.challenge_count || s.paths.size() != g.challenge_count)
      return make_error(at + std::to_string(s.leaves.size()) + " leaves for " +
                        std::to_string(g.challenge_count) + " challenges");
    Fr* out = w->sectors_.data() + i * words;
    Fr* inputs = w->inputs_.data() + 1 + i * per_inputs;
    *out++ = s.comm_r;
    *out++ = s.comm_c;
    *out++ = s.comm_r_last;
    *inputs++ = s.comm_r;
    for (size_t c = 0; c < g.challenge_count; ++c) {
      const auto& path = s.paths[c];
      if (path.size() != g.levels)
        return make_error(at + "challenge " + std::to_string(c) + " has a path of " +
                          std::to_string(path.size()) + " levels for " + std::to_string(g.levels));
      *out++ = s.leaves[c];
      uint64_t index = 0;
      for (uint32_t l = 0; l < g.levels; ++l) {
        if (path[l].siblings.size() + 1 != g.arity[l] || path[l].index >= g.arity[l])
          return make_error(at + "challenge " + std::to_string(c) + " level " + std::to_string(l) +
                            " does not fit arity " + std::to_string(g.arity[l]));
        out = std::copy(path[l].siblings.begin(), path[l].siblings.end(), out);
        index |= uint64_t(path[l].index) << g.index_shift[l];
      }
      w->indices_[i * g.challenge_count + c] = index;
      *inputs++ = Fr::from_u64(index);
    }
    return Status::Ok();
  };
  CUZK_TRY_STATUS(parallel_ranges(g.sector_count, 16, [&](size_t begin, size_t end) -> Status {
    for (size_t i = begin; i < end; ++i) CUZK_TRY_STATUS(pack(i));
    return Status::Ok();
  }));
  // Per sector: comm_r's input row and equality, its hash; per challenge as counted; one row per input.
  const uint64_t sector_rows = 2 + g.tables[1].variables + g.challenge_count * challenge_rows;
  w->rows_ = size_t(sector_rows * g.sector_count) + w->inputs_.size();
  w->check_roots_ = circuit.checks_roots();
  return std::shared_ptr<const PostWitness>(std::move(w));
}

std::string PostWitness::describe() const {
  return "FallbackPoSt witness of " + std::to_string(geometry_.sector_count) + " sectors";
}

Status PostWitness::verdict(uint64_t first_bad) const {
  if (first_bad == UINT64_MAX) return Status::Ok();
  const uint64_t per_sector = 1 + geometry_.challenge_count;
  return make_input_error("circuit sector " + std::to_string(first_bad / per_sector) + ": challenge " +
                          std::to_string(first_bad % per_sector - 1) + "'s path does not reach comm_r_last");
}

Status PostWitness::fill_host(std::span<Fr> aux, unsigned threads) const {
  if (aux.size() != num_aux())
    return make_error(describe() + ": " + std::to_string(aux.size()) + " aux values for " +
                      std::to_string(num_aux()));
  std::optional<ThreadPool> own;
  if (threads != 0) own.emplace(threads);
  ThreadPool& pool = own ? *own : ThreadPool::shared();
  std::atomic<uint64_t> first_bad{UINT64_MAX};
  pool.for_ranges(size_t(geometry_.blocks()), 8, [&](size_t begin, size_t end) {
    for (size_t b = begin; b < end; ++b) {
      Fr comm_r_last;
      const Fr root = pw::block_vars(geometry_, tables_.data(), sectors_.data(), indices_.data(), b,
                                     aux.data(), &comm_r_last);
      if (!check_roots_ || root == comm_r_last) continue;
      uint64_t seen = first_bad.load();
      while (b < seen && !first_bad.compare_exchange_weak(seen, b)) {
      }
    }
  });
  return verdict(first_bad.load());
}

#if CUZK_FILECOIN_DEVICE
namespace {
pw::DeviceInputs device_inputs(const pw::Geometry& g, const std::vector<Fr>& tables,
                               const std::vector<Fr>& sectors, const std::vector<uint64_t>& indices,
                               bool check_roots) {
  return {&g, tables, sectors, indices, check_roots};
}
}  // namespace

bool PostWitness::has_device_form() const { return true; }

size_t PostWitness::device_scratch_bytes() const {
  return pw::device_scratch_bytes(device_inputs(geometry_, tables_, sectors_, indices_, check_roots_));
}

Status PostWitness::fill_device(Fr* aux, void* scratch, void* stream) const {
  uint64_t first_bad = UINT64_MAX;
  CUZK_TRY_STATUS(pw::fill_on_device(device_inputs(geometry_, tables_, sectors_, indices_, check_roots_), aux,
                                     scratch, stream, first_bad));
  return verdict(first_bad);
}
#else
bool PostWitness::has_device_form() const { return false; }
size_t PostWitness::device_scratch_bytes() const { return 0; }
Status PostWitness::fill_device(Fr* aux, void* scratch, void* stream) const {
  return DeferredWitness::fill_device(aux, scratch, stream);
}
#endif

Result<r1cs::Assignment> post_witness_deferred(const FallbackPostCircuit& circuit, std::vector<Fr> storage) {
  auto program = PostWitness::create(circuit);
  if (!program) return program.error();
  r1cs::Assignment as;
  as.input_assignment = (*program)->inputs();
  storage.resize((*program)->num_aux());  // adopted storage of the size is not written over
  as.aux_assignment = std::move(storage);
  as.witness_rows = (*program)->witness_rows();
  as.deferred = std::move(*program);
  return as;
}

}  // namespace cuzk::filecoin
