// Command-line errors that do not repeat what was typed: an unknown flag is named, but the words
// around it (often the value of a mistyped --token or a path) are not echoed to a terminal or a log.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace cuzk::server {

inline std::string flag_failure_message(const CLI::App* app, const CLI::Error& e) {
  if (dynamic_cast<const CLI::ExtrasError*>(&e) == nullptr) return CLI::FailureMessage::simple(app, e);
  std::string names;
  for (const auto& a : app->remaining(true))
    if (a.size() > 1 && a[0] == '-') names += " " + a.substr(0, a.find('='));
  return "unknown argument(s):" + (names.empty() ? std::string(" a value with no option") : names) +
         " (values are not repeated here); see --help\n";
}

}  // namespace cuzk::server
