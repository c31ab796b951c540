#include "filecoin/types/domain.hpp"

namespace cuzk::filecoin {

std::optional<Fr> domain_to_fr(const Domain& d) {
  Fr x;
  if (!x.from_bytes_le(d.data())) return std::nullopt;
  return x;
}

Domain fr_to_domain(const Fr& x) {
  Domain d;
  x.to_bytes_le(d.data());
  return d;
}

}  // namespace cuzk::filecoin
