#include "cli/backend_select.hpp"

#include <cstdio>

#include "engine/device_set.hpp"

namespace cuzk::cli {

Result<size_t> parse_bytes(const std::string& text) {
  if (text.empty()) return size_t(0);
  size_t pos = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &pos);
  } catch (...) {
    return make_error("'" + text + "' is not a size (e.g. 8G, 512M)");
  }
  const std::string unit = text.substr(pos);
  const int shift = unit.empty() ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : -1;
  if (shift < 0) return make_error("unknown unit '" + unit + "' in '" + text + "' (K, M or G)");
  return size_t(v) << shift;
}

Result<SelectedBackend> make_backend(const std::string& which, int device, const std::string& vram_budget,
                                     ThreadPool& pool, unsigned msm_pass_log, double resident_fraction) {
  if (msm_pass_log > 30) return make_error("--msm-pass-log: at most 30");
  if (resident_fraction < 0 || resident_fraction > 1) return make_error("--resident-fraction: from 0 to 1");
  auto budget = parse_bytes(vram_budget);
  if (!budget) return make_error("--vram-budget: " + budget.message());
  // One device of one worker: the whole budget is that worker's, no store is shared, and no worker
  // is an express one.
  engine::DeviceSetOptions o;
  o.backend = which;
  o.cpu.devices = engine::logical_devices(1, 1, *budget);
  o.cpu.shared_pool = &pool;
  o.cuda.indices = {uint32_t(device)};  // a negative index is one that no host has
  o.cuda.workers = 1;
  o.cuda.express_workers = 0;
  o.cuda.vram_budget = *budget;
  o.cuda.margin = size_t(512) << 20;
  o.cuda.resident_pass_points = msm_pass_log ? size_t(1) << msm_pass_log : 0;
  o.cuda.own_resident_fraction = resident_fraction;
  auto chosen = engine::make_device_set(o);
  if (!chosen) return chosen.error();
  SelectedBackend selected;
  auto backend = chosen->set.factory(chosen->set.devices.front(), 0);
  if (!backend) return backend.error();
  selected.backend = std::move(*backend);
  selected.pin_host = std::move(chosen->set.pin_host);
  return selected;
}

DeviceReport take_device_report(ComputeBackend& backend) {
  DeviceReport r;
  for (const auto& p : backend.take_stage_log()) {
    char line[320];
    std::snprintf(line, sizeof line, "%-24s %-44s %8zu MiB %9.1f ms", p.stage.c_str(), p.choice.c_str(),
                  (p.bytes + (1u << 20) - 1) >> 20, p.ms);
    r.stages.emplace_back(line);
  }
  r.peak_bytes = backend.peak_planned_bytes();
  r.budget = backend.memory_budget();
  return r;
}

namespace {

std::vector<std::shared_ptr<void>> pin_ranges_for(const SelectedBackend& selected,
                                                  const std::vector<engine::HostRange>& ranges) {
  std::vector<std::shared_ptr<void>> pins;
  if (!selected.pin_host) return pins;
  for (const auto& range : ranges) {
    if (range.bytes == 0) continue;
    auto r = selected.pin_host(range.data, range.bytes);
    if (r)
      pins.push_back(std::move(*r));
    else
      std::fprintf(stderr, "  warning: %s (these copies are staged instead)\n", r.message().c_str());
  }
  return pins;
}

}  // namespace

std::vector<std::shared_ptr<void>> pin_key_for(const SelectedBackend& selected,
                                               const groth16::ProvingKey& key) {
  std::vector<engine::HostRange> ranges;
  for (const auto& r : key.point_arrays()) ranges.push_back({r.data, r.bytes});
  return pin_ranges_for(selected, ranges);
}

std::vector<std::shared_ptr<void>> pin_assignment_for(const SelectedBackend& selected,
                                                      const r1cs::Assignment& as) {
  std::vector<engine::HostRange> ranges;
  for (const auto* v : {&as.a, &as.b, &as.c, &as.aux_assignment})
    ranges.push_back({v->data(), v->capacity() * sizeof(Fr)});
  return pin_ranges_for(selected, ranges);
}

}  // namespace cuzk::cli
