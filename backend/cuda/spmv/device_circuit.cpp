#include "backend/cuda/spmv/device_circuit.hpp"

#include <utility>
#include <vector>

#include "backend/cuda/runtime/staging.hpp"

namespace cuzk::cuda {
namespace {

constexpr size_t kAlign = 256;

size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// Where each array goes in the block, in order: the table, then per present side its offsets,
// wires and coefficient indices.
struct Piece {
  const void* host;
  size_t bytes;
  size_t offset;
};

std::vector<Piece> layout(const CircuitMatrices& m, size_t* total) {
  std::vector<Piece> pieces;
  size_t at = 0;
  const auto add = [&](const void* p, size_t bytes) {
    pieces.push_back({p, bytes, at});
    at += aligned(bytes);
  };
  add(m.coeffs.data(), m.coeffs.size_bytes());
  for (const SparseSide& s : m.sides) {
    if (!s.present()) continue;
    add(s.row_start.data(), s.row_start.size_bytes());
    add(s.wire.data(), s.wire.size_bytes());
    add(s.coeff.data(), s.coeff.size_bytes());
  }
  *total = at;
  return pieces;
}

}  // namespace

size_t DeviceCompiledCircuit::bytes_for(const CircuitMatrices& m) {
  size_t total = 0;
  layout(m, &total);
  return total;
}

Result<DeviceCompiledCircuit> DeviceCompiledCircuit::upload(const CircuitMatrices& m, HostStager* stager,
                                                            const Stream& s) {
  if (const std::string why = circuit_shape_error(m); !why.empty())
    return make_error("device compiled circuit: " + why);
  if (stager && stager->device() != s.device())
    return make_error("device compiled circuit: the stager belongs to another device");
  size_t total = 0;
  const std::vector<Piece> pieces = layout(m, &total);
  auto block = DeviceBuffer<unsigned char>::alloc(s.device(), total);
  if (!block) return block.error();
  for (const Piece& p : pieces) {
    if (p.bytes == 0) continue;
    unsigned char* dst = block->data() + p.offset;
    if (stager) {
      CUZK_TRY_STATUS(stager->to_device(dst, p.host, p.bytes, s));
    } else {
      CUZK_TRY_STATUS(detail::copy_async(dst, p.host, p.bytes, cudaMemcpyHostToDevice, s));
    }
  }
  CUZK_TRY_STATUS(s.synchronize());  // complete before another stream reads it

  DeviceCompiledCircuit out;
  out.num_inputs_ = m.num_inputs;
  out.num_aux_ = m.num_aux;
  out.num_constraints_ = size_t(m.num_constraints);
  out.num_coeffs_ = m.coeffs.size();
  const auto at = [&](size_t k) { return block->data() + pieces[k].offset; };
  out.coeffs_ = reinterpret_cast<const Fr*>(at(0));
  for (size_t side = 0, k = 1; side < 3; ++side) {
    if (!m.sides[side].present()) continue;
    out.sides_[side] = DeviceSparseRows{reinterpret_cast<const uint32_t*>(at(k)),
                                        reinterpret_cast<const uint32_t*>(at(k + 1)),
                                        reinterpret_cast<const uint32_t*>(at(k + 2)), m.sides[side].nnz()};
    k += 3;
  }
  out.block_ = std::move(*block);
  return out;
}

}  // namespace cuzk::cuda
