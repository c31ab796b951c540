#include "groth16/keys.hpp"

#include <string>
#include <utility>

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

Result<ProvingKey> proving_key_from_bellman(BellmanParameters params) {
  ProvingKey pk;
  pk.domain_size = params.h.size() + 1;
  pk.convention = RootConvention::bellman;
  pk.h_query = HQuery::z_over_delta;
  pk.layout = QueryLayout::compacted;
  pk.num_inputs = params.vk.ic.size();
  pk.num_aux = params.l.size();
  pk.vk = std::move(params.vk);
  pk.h = std::move(params.h);
  pk.l = std::move(params.l);
  pk.a = std::move(params.a);
  pk.b_g1 = std::move(params.b_g1);
  pk.b_g2 = std::move(params.b_g2);
  CUZK_TRY_STATUS(pk.check_shape());
  return pk;
}

Result<ProvingKey> proving_key_from_zkey(SnarkjsZkey zkey) {
  ProvingKey pk;
  pk.domain_size = zkey.domain_size;
  pk.convention = RootConvention::snarkjs;
  pk.h_query = HQuery::odd_lagrange_2m;
  pk.layout = QueryLayout::per_wire;
  pk.num_inputs = size_t(zkey.n_public) + 1;
  if (zkey.n_vars < pk.num_inputs) return make_error("zkey: fewer wires than public signals");
  pk.num_aux = zkey.n_vars - pk.num_inputs;
  pk.vk.alpha_g1 = zkey.alpha_g1;
  pk.vk.beta_g1 = zkey.beta_g1;
  pk.vk.beta_g2 = zkey.beta_g2;
  pk.vk.gamma_g2 = zkey.gamma_g2;
  pk.vk.delta_g1 = zkey.delta_g1;
  pk.vk.delta_g2 = zkey.delta_g2;
  pk.vk.ic = std::move(zkey.ic);
  pk.h = std::move(zkey.h);
  pk.l = std::move(zkey.c);
  pk.a = std::move(zkey.a);
  pk.b_g1 = std::move(zkey.b_g1);
  pk.b_g2 = std::move(zkey.b_g2);
  CUZK_TRY_STATUS(pk.check_shape());
  return pk;
}

Result<BellmanParameters> to_bellman(const ProvingKey& pk) {
  if (pk.layout != QueryLayout::compacted || pk.h_query != HQuery::z_over_delta ||
      pk.convention != RootConvention::bellman)
    return make_error("proving key: only bellman-style keys can be written as .params");
  BellmanParameters p;
  p.vk = pk.vk;
  p.h = pk.h;
  p.l = pk.l;
  p.a = pk.a;
  p.b_g1 = pk.b_g1;
  p.b_g2 = pk.b_g2;
  return p;
}

}  // namespace cuzk::groth16
