#include "groth16/keys.hpp"

#include <string>

namespace cuzk::groth16 {
namespace {

std::string count_error(const char* what, size_t got, size_t want) {
  return std::string("proving key: ") + what + " has " + std::to_string(got) + " points, expected " +
         std::to_string(want);
}

}  // namespace

Status ProvingKey::check_shape() const {
  if (domain_size < 2 || (domain_size & (domain_size - 1)) != 0)
    return make_error("proving key: domain size " + std::to_string(domain_size) +
                      " is not a power of two ≥ 2");
  if (num_inputs < 1) return make_error("proving key: no public wires (ONE is missing)");
  if (vk.ic.size() != num_inputs) return make_error(count_error("ic", vk.ic.size(), num_inputs));
  if (l.size() != num_aux) return make_error(count_error("l", l.size(), num_aux));
  const size_t h_want = h_query == HQuery::z_over_delta ? domain_size - 1 : domain_size;
  if (h.size() != h_want) return make_error(count_error("h", h.size(), h_want));
  const size_t wires = num_inputs + num_aux;
  if (layout == QueryLayout::per_wire) {
    if (a.size() != wires) return make_error(count_error("a", a.size(), wires));
    if (b_g1.size() != wires) return make_error(count_error("b_g1", b_g1.size(), wires));
    if (b_g2.size() != wires) return make_error(count_error("b_g2", b_g2.size(), wires));
  } else {
    if (a.size() < num_inputs || a.size() > wires)
      return make_error("proving key: a has " + std::to_string(a.size()) + " points for " +
                        std::to_string(wires) + " wires of which " + std::to_string(num_inputs) + " inputs");
    if (b_g1.size() != b_g2.size() || b_g1.size() > wires)
      return make_error("proving key: b_g1 has " + std::to_string(b_g1.size()) + " points and b_g2 " +
                        std::to_string(b_g2.size()));
  }
  if (num_inputs + num_aux == 0 || domain_size < num_inputs)
    return make_error("proving key: domain of " + std::to_string(domain_size) + " cannot hold " +
                      std::to_string(num_inputs) + " input constraints");
  return Status::Ok();
}

}  // namespace cuzk::groth16
