#include "engine/job.hpp"

#include <array>

namespace cuzk::engine {
namespace {

constexpr std::array<const char*, 4> kPriorityNames = {"low", "normal", "high", "critical"};
constexpr std::array<const char*, 5> kKindNames = {"porep_c2", "snap_deals", "window_post", "winning_post",
                                                   "generic"};
constexpr std::array<const char*, 5> kStateNames = {"queued", "running", "done", "failed", "cancelled"};

template <class Enum, size_t N>
Result<Enum> parse_enum(const std::string& text, const std::array<const char*, N>& names, const char* what) {
  for (size_t i = 0; i < N; ++i)
    if (text == names[i]) return Enum(i);
  std::string known;
  for (const char* n : names) known += std::string(known.empty() ? "" : ", ") + n;
  return make_error("unknown " + std::string(what) + " '" + text + "' (known: " + known + ")");
}

}  // namespace

const char* to_string(Priority p) { return kPriorityNames.at(size_t(p)); }
const char* to_string(JobKind k) { return kKindNames.at(size_t(k)); }
const char* to_string(JobState s) { return kStateNames.at(size_t(s)); }
Result<Priority> parse_priority(const std::string& t) {
  return parse_enum<Priority>(t, kPriorityNames, "priority");
}
Result<JobKind> parse_job_kind(const std::string& t) {
  return parse_enum<JobKind>(t, kKindNames, "job kind");
}
Result<JobState> parse_job_state(const std::string& t) {
  return parse_enum<JobState>(t, kStateNames, "job state");
}

bool is_terminal(JobState s) {
  return s == JobState::done || s == JobState::failed || s == JobState::cancelled;
}

Priority default_priority(JobKind kind) {
  switch (kind) {
    case JobKind::winning_post:
      return Priority::critical;
    case JobKind::window_post:
      return Priority::high;
    default:
      return Priority::normal;
  }
}

std::optional<size_t> required_partitions(JobKind kind) {
  switch (kind) {
    case JobKind::porep_c2:
      return 10;
    case JobKind::snap_deals:
      return 16;
    case JobKind::winning_post:
      return 1;
    default:
      return std::nullopt;
  }
}

Result<JobRequest> normalize(JobRequest request) {
  if (size_t(request.kind) >= kKindNames.size()) return make_error("unknown job kind");
  if (request.priority && size_t(*request.priority) >= kPriorityNames.size())
    return make_error("unknown priority");
  if (!request.priority) request.priority = default_priority(request.kind);
  // Filecoin requests: checked, expanded to the proof type's partitions, parameters by official name.
  auto filecoin = expand_filecoin_request(request);
  if (!filecoin) return filecoin.error();
  if (request.params.empty()) return make_error("the request names no parameter set");
  if (request.partitions.empty()) return make_error("the request has no partitions");
  if (request.partitions.size() > 4096)
    return make_error("the request has " + std::to_string(request.partitions.size()) +
                      " partitions; at most 4096 are accepted");
  if (const auto want = required_partitions(request.kind); want && !*filecoin) {
    if (request.partitions.size() == 1 && *want > 1) request.partitions.resize(*want, request.partitions[0]);
    if (request.partitions.size() != *want)
      return make_error(std::string(to_string(request.kind)) + " takes " + std::to_string(*want) +
                        " partitions, the request has " + std::to_string(request.partitions.size()));
  }
  for (size_t i = 0; i < request.partitions.size(); ++i) {
    const auto& p = request.partitions[i];
    const std::string where = "partition " + std::to_string(i) + ": ";
    if (const auto* s = std::get_if<SynthesizedInput>(&p); s && !s->assignment)
      return make_error(where + "no assignment");
    if (const auto* c = std::get_if<CircomInput>(&p); c && c->wtns_path.empty())
      return make_error(where + "no witness file");
  }
  return request;
}

}  // namespace cuzk::engine
