// The Filecoin commands of `cuzk`: test sectors (filecoin_seal.cpp), PoRep/PoSt/SnapDeals proofs from
// the files storage providers hold (filecoin_prove.cpp) and their verification (filecoin_verify.cpp),
// and `cuzk setup --filecoin` (filecoin_setup.cpp).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace cuzk::cli {

void register_filecoin_seal(CLI::App& app, int& status);
void register_filecoin_prove(CLI::App& app, int& status);
void register_filecoin_verify(CLI::App& app, int& status);

// `cuzk setup --filecoin <circuit id>`: parameters from the blank circuit, written under their
// official names into the parameter directory.
struct FilecoinSetupArgs {
  std::string circuit;  // "porep-2k", "wpost-2k", "winning-2k", "snap-2k", …
  std::string param_dir;
  std::optional<uint64_t> toxic_seed;
  unsigned threads = 0;
  bool quiet = false;
  bool force = false;  // replace existing files
  std::string backend = "auto";
  int device = 0;
};
int run_filecoin_setup(const FilecoinSetupArgs& args);

}  // namespace cuzk::cli
