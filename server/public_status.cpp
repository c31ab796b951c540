#include "server/public_status.hpp"

#include <filesystem>

namespace cuzk::server {

engine::EngineStatus public_status(engine::EngineStatus s) {
  for (auto& p : s.params) p.name = std::filesystem::path(p.name).filename().string();
  for (auto& d : s.devices)
    if (!d.last_error.empty()) d.last_error = kPublicDeviceError;
  if (!s.journal_error.empty()) s.journal_error = kPublicJournalError;
  return s;
}

std::string public_status_json(const engine::EngineStatus& status, bool draining) {
  auto json = engine::status_to_json(public_status(status));
  // The engine's object, with the daemon's own fields in front.
  const auto brace = json.find('{');
  if (brace != std::string::npos)
    json.insert(brace + 1, std::string("\"draining\":") + (draining ? "true" : "false") + ",");
  return json;
}

Status public_health(const engine::EngineStatus& s, bool draining) {
  if (draining) return make_error("draining: the daemon is shutting down");
  if (!s.journal_error.empty())
    return make_error(std::string("the journal ") + kPublicJournalError + "; " +
                      std::to_string(s.journal_backlog) + " writes held, no new jobs");
  for (const auto& dev : s.devices)
    if (!dev.quarantined) return {};
  return make_error("no device is in service");
}

}  // namespace cuzk::server
