// The two prime fields of BLS12-381.
#pragma once

#include "field/mont.hpp"
#include "field/params_bls12_381.hpp"

namespace cuzk {

using Fp = field::mont_t<field::FpParams>;  // base field, 381 bits
using Fr = field::mont_t<field::FrParams>;  // scalar field, 255 bits

}  // namespace cuzk
