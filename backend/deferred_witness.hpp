// Auxiliaries computed where they are used: a witness handed to the prover as a program and its
// compact inputs instead of values.
//
// Some circuits' witnesses are cheap to describe and costly to compute on a host: a FallbackPoSt
// partition is 127 M variables, almost all Poseidon's intermediate states, from 53 MB of paths.
// Synthesis then hands the prover an Assignment whose `deferred` is set and whose aux_assignment
// is storage of the right size with its values pending; the backend fills it (on its device where
// the witness has a device form) before anything reads it. fill_host is the reference every other
// form is checked against, and what a backend without a device form runs.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "common/result.hpp"
#include "field/fields.hpp"

namespace cuzk {

class DeferredWitness {
 public:
  virtual ~DeferredWitness() = default;

  // The auxiliaries it fills, all of them.
  virtual size_t num_aux() const = 0;
  // What it is, for logs and errors ("FallbackPoSt witness of 2349 sectors").
  virtual std::string describe() const = 0;

  // The values into `aux` (num_aux of them) on up to `threads` threads (0: the hardware's). An
  // error (an input error for a witness that contradicts the circuit's data) leaves aux unspecified.
  virtual Status fill_host(std::span<Fr> aux, unsigned threads) const = 0;

  // Whether fill_device can run in this build.
  virtual bool has_device_form() const { return false; }
  // Device memory fill_device needs besides the output, in bytes.
  virtual size_t device_scratch_bytes() const { return 0; }
  // The values into device memory `aux` (num_aux of them), using `scratch` (device_scratch_bytes),
  // in order on `stream` (a cudaStream_t of the current device). Returns once they are written.
  virtual Status fill_device(Fr* aux, void* scratch, void* stream) const {
    (void)aux, (void)scratch, (void)stream;
    return make_error(describe() + ": no device form in this build");
  }
};

}  // namespace cuzk
