#include "cli/filecoin_test_key.hpp"

#include <cstdio>

#include "cli/options.hpp"
#include "cli/setup_progress.hpp"
#include "engine/device_set.hpp"
#include "filecoin/proofs/compiled_circuits.hpp"
#include "groth16/setup.hpp"

namespace cuzk::cli {
Result<groth16::ProvingKey> make_filecoin_test_key(const filecoin::CircuitId& id,
                                                   const TestKeyOptions& options, ThreadPool& pool) {
  const auto id_string = filecoin::circuit_id_string(id);
  const std::string name = id_string ? *id_string : "the circuit";
  // The blank circuit compiled (C kept): a 32 GiB PoRep's 722 M terms take 6.9 GiB this way, where
  // ConstraintMatrices' rows of (wire, coefficient) pairs would take some 45 GiB.
  Result<r1cs::CompiledCircuit> circuit = make_error("not compiled");
  {
    Stage stage("shape of the circuit", options.quiet);
    circuit =
        filecoin::compile_blank_circuit(id, unsigned(pool.size()), r1cs::CompileOptions{.keep_c = true});
    if (!circuit) return make_error(name + ": " + circuit.message());
    stage.done();
  }
  groth16::SetupOptions setup;
  setup.seed = options.toxic_seed;
  auto on = engine::attach_setup_device(options.backend, options.device, setup);
  if (!on) return on.error();
  if (!options.quiet)
    std::fprintf(stderr, "  %s: %zu constraints; generator multiples on %s\n", name.c_str(),
                 circuit->num_constraints(), on->c_str());
  return generate_parameters_shown(groth16::setup_circuit(*circuit), setup, pool, options.quiet);
}

}  // namespace cuzk::cli
