#include "server/client/convert.hpp"

#include "io/proof.hpp"
#include "io/scalars.hpp"

namespace cuzk::server {

using engine::JobKind;
using engine::JobState;
using engine::Priority;

Result<JobKind> kind_from_proto(v1::JobKind kind) {
  switch (kind) {
    case v1::JOB_KIND_POREP_C2:
      return JobKind::porep_c2;
    case v1::JOB_KIND_SNAP_DEALS:
      return JobKind::snap_deals;
    case v1::JOB_KIND_WINDOW_POST:
      return JobKind::window_post;
    case v1::JOB_KIND_WINNING_POST:
      return JobKind::winning_post;
    case v1::JOB_KIND_GENERIC:
      return JobKind::generic;
    default:
      return make_error("unknown or unspecified job kind " + std::to_string(int(kind)));
  }
}

v1::JobKind kind_to_proto(JobKind kind) {
  switch (kind) {
    case JobKind::porep_c2:
      return v1::JOB_KIND_POREP_C2;
    case JobKind::snap_deals:
      return v1::JOB_KIND_SNAP_DEALS;
    case JobKind::window_post:
      return v1::JOB_KIND_WINDOW_POST;
    case JobKind::winning_post:
      return v1::JOB_KIND_WINNING_POST;
    case JobKind::generic:
      return v1::JOB_KIND_GENERIC;
  }
  return v1::JOB_KIND_UNSPECIFIED;
}

Result<std::optional<Priority>> priority_from_proto(v1::Priority p) {
  switch (p) {
    case v1::PRIORITY_DEFAULT:
      return std::optional<Priority>{};
    case v1::PRIORITY_LOW:
      return std::optional(Priority::low);
    case v1::PRIORITY_NORMAL:
      return std::optional(Priority::normal);
    case v1::PRIORITY_HIGH:
      return std::optional(Priority::high);
    case v1::PRIORITY_CRITICAL:
      return std::optional(Priority::critical);
    default:
      return make_error("unknown priority " + std::to_string(int(p)));
  }
}

v1::Priority priority_to_proto(Priority p) { return v1::Priority(int(p) + 1); }

v1::JobState state_to_proto(JobState s) { return v1::JobState(int(s) + 1); }

Result<JobState> state_from_proto(v1::JobState s) {
  if (int(s) < 1 || int(s) > 5) return make_error("unknown job state " + std::to_string(int(s)));
  return JobState(int(s) - 1);
}

void timings_to_proto(const engine::JobTimings& t, v1::Timings* out) {
  out->set_queue_wait_ms(t.queue_wait_ms);
  out->set_param_load_ms(t.param_load_ms);
  out->set_synthesis_ms(t.synthesis_ms);
  out->set_gpu_ms(t.gpu_ms);
  out->set_verify_ms(t.verify_ms);
  out->set_total_ms(t.total_ms);
}

engine::JobTimings timings_from_proto(const v1::Timings& t) {
  return {t.queue_wait_ms(), t.param_load_ms(), t.synthesis_ms(), t.gpu_ms(), t.verify_ms(), t.total_ms()};
}

std::string scalars_to_bytes(std::span<const Fr> values) {
  std::string out(values.size() * io::kScalarBytes, '\0');
  io::scalars_to_le_bytes(values, reinterpret_cast<uint8_t*>(out.data()));
  return out;
}

Result<std::vector<Fr>> scalars_from_bytes(const std::string& bytes, const std::string& what) {
  if (bytes.size() % io::kScalarBytes)
    return make_error(what + ": " + std::to_string(bytes.size()) +
                      " bytes is not a whole number of 32-byte scalars");
  return io::scalars_from_le_bytes(reinterpret_cast<const uint8_t*>(bytes.data()),
                                   bytes.size() / io::kScalarBytes, what);
}

void result_to_proto(const engine::JobResult& r, v1::JobResult* out) {
  out->set_job_id(r.id);
  out->set_kind(kind_to_proto(r.kind));
  out->set_priority(priority_to_proto(r.priority));
  out->set_state(state_to_proto(r.state));
  for (const auto& p : r.proofs) {
    const auto bytes = proof_to_bytes(p);
    out->add_proofs(std::string(bytes.begin(), bytes.end()));
  }
  for (const auto& inputs : r.public_inputs) {
    auto* pi = out->add_public_inputs();
    for (const auto& x : inputs) pi->add_values(scalars_to_bytes(std::span(&x, 1)));
  }
  out->set_error(r.error);
  timings_to_proto(r.timings, out->mutable_timings());
  out->set_partitions(r.partitions);
  out->set_partitions_proved(r.partitions_proved);
  out->set_retries(r.retries);
}

Result<engine::JobResult> result_from_proto(const v1::JobResult& m) {
  engine::JobResult r;
  r.id = m.job_id();
  auto kind = kind_from_proto(m.kind());
  if (!kind) return kind.error();
  r.kind = *kind;
  auto prio = priority_from_proto(m.priority());
  if (!prio || !*prio) return make_error("the answer has no valid priority");
  r.priority = **prio;
  auto state = state_from_proto(m.state());
  if (!state) return state.error();
  r.state = *state;
  for (int i = 0; i < m.proofs_size(); ++i) {
    const auto& b = m.proofs(i);
    auto p = proof_from_bytes(std::span(reinterpret_cast<const uint8_t*>(b.data()), b.size()));
    if (!p) return make_error("proof " + std::to_string(i) + ": " + p.message());
    r.proofs.push_back(*p);
  }
  for (int i = 0; i < m.public_inputs_size(); ++i) {
    std::vector<Fr> inputs;
    for (const auto& v : m.public_inputs(i).values()) {
      auto x = scalars_from_bytes(v, "public input of partition " + std::to_string(i));
      if (!x) return x.error();
      if (x->size() != 1) return make_error("a public input is not one 32-byte scalar");
      inputs.push_back((*x)[0]);
    }
    r.public_inputs.push_back(std::move(inputs));
  }
  r.error = m.error();
  r.timings = timings_from_proto(m.timings());
  r.partitions = m.partitions();
  r.partitions_proved = m.partitions_proved();
  r.retries = m.retries();
  return r;
}

namespace {

template <class Words>
std::vector<uint64_t> words_of(const Words& w) {
  return std::vector<uint64_t>(w.begin(), w.end());
}

Result<r1cs::DensityBitmap> bitmap(const std::vector<uint64_t>& words, size_t bits, const char* what) {
  r1cs::DensityBitmap d;
  d.resize(bits);
  if (!words.empty() && words.size() != d.words.size())
    return make_error(std::string(what) + ": " + std::to_string(words.size()) + " words for " +
                      std::to_string(bits) + " bits (want " + std::to_string(d.words.size()) + ")");
  for (size_t i = 0; i < d.words.size(); ++i) d.words[i] = words.empty() ? ~uint64_t(0) : words[i];
  if (bits % 64 && !d.words.empty()) d.words.back() &= (uint64_t(1) << (bits % 64)) - 1;
  d.recount();
  return d;
}

}  // namespace

void assignment_to_proto(const r1cs::Assignment& as, v1::SynthesizedPartition* out) {
  out->set_a(scalars_to_bytes(as.a));
  out->set_b(scalars_to_bytes(as.b));
  out->set_c(scalars_to_bytes(as.c));  // empty when left to the prover
  out->set_c_from_ab(as.c_from_ab);
  out->set_inputs(scalars_to_bytes(as.input_assignment));
  out->set_aux(scalars_to_bytes(as.aux_assignment));
  for (auto w : as.a_aux_density.words) out->add_a_aux_density(w);
  for (auto w : as.b_input_density.words) out->add_b_input_density(w);
  for (auto w : as.b_aux_density.words) out->add_b_aux_density(w);
}

Result<r1cs::Assignment> assignment_from_proto(const v1::SynthesizedPartition& p) {
  r1cs::Assignment as;
  auto a = scalars_from_bytes(p.a(), "a");
  auto b = scalars_from_bytes(p.b(), "b");
  auto c = scalars_from_bytes(p.c(), "c");
  auto in = scalars_from_bytes(p.inputs(), "inputs");
  auto aux = scalars_from_bytes(p.aux(), "aux");
  for (const auto* r : {&a, &b, &c, &in, &aux})
    if (!*r) return r->error();
  if (a->size() != b->size() || (p.c_from_ab() ? !c->empty() : a->size() != c->size()))
    return make_error(p.c_from_ab() ? "c is given but marked as left to the prover (c_from_ab)"
                                    : "a, b and c differ in length (" + std::to_string(a->size()) + ", " +
                                          std::to_string(b->size()) + ", " + std::to_string(c->size()) + ")");
  if (in->empty()) return make_error("inputs: at least ONE is needed");
  auto ad = bitmap(words_of(p.a_aux_density()), aux->size(), "a_aux_density");
  auto bid = bitmap(words_of(p.b_input_density()), in->size(), "b_input_density");
  auto bad = bitmap(words_of(p.b_aux_density()), aux->size(), "b_aux_density");
  for (const auto* r : {&ad, &bid, &bad})
    if (!*r) return r->error();
  as.a = std::move(*a);
  as.b = std::move(*b);
  as.c = std::move(*c);
  as.c_from_ab = p.c_from_ab();
  as.input_assignment = std::move(*in);
  as.aux_assignment = std::move(*aux);
  as.a_aux_density = std::move(*ad);
  as.b_input_density = std::move(*bid);
  as.b_aux_density = std::move(*bad);
  return as;
}

}  // namespace cuzk::server
