#include "filecoin/types/prover_id.hpp"

#include <cstddef>

namespace cuzk::filecoin {

ProverId prover_id_from_actor_id(uint64_t actor_id) {
  ProverId out{};
  std::size_t i = 0;
  do {
    uint8_t b = uint8_t(actor_id & 0x7f);
    actor_id >>= 7;
    if (actor_id) b |= 0x80;
    out[i++] = b;
  } while (actor_id);
  return out;
}

}  // namespace cuzk::filecoin
