#include "io/snarkjs_r1cs.hpp"

#include "io/binfile.hpp"
#include "io/byte_reader.hpp"
#include "io/file.hpp"
#include "io/snarkjs_common.hpp"

namespace cuzk {

using io::ByteReader;

void SparseRows::push_row(std::span<const uint32_t> w, std::span<const Fr> c) {
  wires.insert(wires.end(), w.begin(), w.end());
  coeffs.insert(coeffs.end(), c.begin(), c.end());
  row_start.push_back(wires.size());
}

Fr SparseRows::dot(size_t k, std::span<const Fr> values) const {
  Fr acc = Fr::zero();
  for (uint64_t t = row_start[k]; t < row_start[k + 1]; ++t) acc += coeffs[t] * values[wires[t]];
  return acc;
}

Status SnarkjsR1cs::check_witness(std::span<const Fr> witness) const {
  if (witness.size() != n_wires)
    return make_error("r1cs: the witness has " + std::to_string(witness.size()) +
                      " values but the circuit has " + std::to_string(n_wires) + " wires");
  if (n_wires == 0 || !witness[0].is_one()) return make_error("r1cs: witness[0] must be 1 (the ONE wire)");
  for (size_t k = 0; k < a.rows(); ++k)
    if (a.dot(k, witness) * b.dot(k, witness) != c.dot(k, witness))
      return make_error("r1cs: the witness does not satisfy constraint " + std::to_string(k));
  return Status::Ok();
}

namespace {

constexpr uint32_t kHeader = 1, kConstraints = 2, kWireToLabel = 3, kCustomGatesList = 4,
                   kCustomGatesUses = 5;

Status read_header(std::span<const uint8_t> body, SnarkjsR1cs& cs, uint32_t& n_constraints) {
  ByteReader r(body, "r1cs header");
  CUZK_TRY_STATUS(io::expect_modulus<Fr>(r, "prime"));
  uint32_t* fields[] = {&cs.n_wires, &cs.n_pub_out, &cs.n_pub_in, &cs.n_prv_in};
  const char* names[] = {"nWires", "nPubOut", "nPubIn", "nPrvIn"};
  for (size_t i = 0; i < 4; ++i) {
    auto v = r.u32_le(names[i]);
    if (!v.ok()) return v.error();
    *fields[i] = *v;
  }
  auto labels = r.u64_le("nLabels");
  if (!labels.ok()) return labels.error();
  cs.n_labels = *labels;
  auto nc = r.u32_le("nConstraints");
  if (!nc.ok()) return nc.error();
  n_constraints = *nc;
  CUZK_TRY_STATUS(r.expect_end());
  const uint64_t named = 1ull + cs.n_pub_out + cs.n_pub_in + cs.n_prv_in;
  if (named > cs.n_wires)
    return make_error("r1cs header: ONE + " + std::to_string(cs.n_pub_out) + " outputs + " +
                      std::to_string(cs.n_pub_in) + " public inputs + " + std::to_string(cs.n_prv_in) +
                      " private inputs exceed nWires = " + std::to_string(cs.n_wires));
  return Status::Ok();
}

Status read_lc(ByteReader& r, uint32_t n_wires, SparseRows& rows, size_t k, const char* matrix) {
  auto n = r.u32_le("term count");
  if (!n.ok()) return n.error();
  auto terms = r.array(*n, 4 + Fr::BYTES, "linear combination");
  if (!terms.ok()) return terms.error();
  const uint8_t* p = terms->data();
  for (uint32_t t = 0; t < *n; ++t, p += 4 + Fr::BYTES) {
    const uint32_t wire = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    if (wire >= n_wires)
      return make_error("r1cs: constraint " + std::to_string(k) + " (" + matrix + ") uses wire " +
                        std::to_string(wire) + " but the circuit has " + std::to_string(n_wires) + " wires");
    Fr c;
    if (!c.from_bytes_le(p + 4))
      return make_error("r1cs: constraint " + std::to_string(k) + " (" + matrix + ") has a coefficient >= r");
    rows.wires.push_back(wire);
    rows.coeffs.push_back(c);
  }
  rows.row_start.push_back(rows.wires.size());
  return Status::Ok();
}

Status read_constraints(std::span<const uint8_t> body, uint32_t n_constraints, SnarkjsR1cs& cs) {
  ByteReader r(body, "r1cs constraints");
  // Every constraint takes at least three 4-byte term counts: bound the reservations by the bytes.
  if (uint64_t(n_constraints) * 12 > body.size())
    return make_error("r1cs: header claims " + std::to_string(n_constraints) +
                      " constraints but the constraint section has only " + std::to_string(body.size()) +
                      " bytes");
  for (SparseRows* m : {&cs.a, &cs.b, &cs.c}) m->row_start.reserve(size_t(n_constraints) + 1);
  for (uint32_t k = 0; k < n_constraints; ++k) {
    CUZK_TRY_STATUS(read_lc(r, cs.n_wires, cs.a, k, "A"));
    CUZK_TRY_STATUS(read_lc(r, cs.n_wires, cs.b, k, "B"));
    CUZK_TRY_STATUS(read_lc(r, cs.n_wires, cs.c, k, "C"));
  }
  return r.expect_end();
}

}  // namespace

Result<SnarkjsR1cs> parse_r1cs(std::span<const uint8_t> bytes) {
  auto file = io::parse_binfile(bytes, "r1cs", 1, 1);
  if (!file.ok()) return file.error();
  if (file->has(kCustomGatesList) || file->has(kCustomGatesUses))
    return make_error("r1cs: the circuit uses custom gates (PLONK only); Groth16 cannot prove it");
  SnarkjsR1cs cs;
  uint32_t n_constraints = 0;
  auto header = file->unique(kHeader);
  if (!header.ok()) return header.error();
  CUZK_TRY_STATUS(read_header(*header, cs, n_constraints));
  auto constraints = file->unique(kConstraints);
  if (!constraints.ok()) return constraints.error();
  CUZK_TRY_STATUS(read_constraints(*constraints, n_constraints, cs));
  if (file->has(kWireToLabel)) {
    auto map = file->unique(kWireToLabel);
    if (!map.ok()) return map.error();
    ByteReader r(*map, "r1cs wire-to-label map");
    auto ids = r.array(cs.n_wires, 8, "label ids");
    if (!ids.ok()) return ids.error();
    CUZK_TRY_STATUS(r.expect_end());
    cs.wire_to_label.resize(cs.n_wires);
    for (uint32_t i = 0; i < cs.n_wires; ++i) {
      uint64_t v = 0;
      for (size_t b = 0; b < 8; ++b) v |= uint64_t((*ids)[8 * i + b]) << (8 * b);
      cs.wire_to_label[i] = v;
    }
  }
  return cs;
}

Result<SnarkjsR1cs> read_r1cs(const std::filesystem::path& path) {
  auto m = MappedFile::open(path);
  if (!m.ok()) return m.error();
  auto cs = parse_r1cs(m->bytes());
  if (!cs.ok()) return make_error(path.string() + ": " + cs.message());
  return cs;
}

std::vector<uint8_t> serialize_r1cs(const SnarkjsR1cs& cs) {
  const bool with_map = !cs.wire_to_label.empty();
  io::BinWriter w("r1cs", 1, with_map ? 3 : 2);
  w.begin_section(kHeader);
  w.modulus<Fr>();
  for (uint32_t v : {cs.n_wires, cs.n_pub_out, cs.n_pub_in, cs.n_prv_in}) w.u32_le(v);
  w.u64_le(cs.n_labels);
  w.u32_le(cs.n_constraints());
  w.end_section();
  w.begin_section(kConstraints);
  for (size_t k = 0; k < cs.a.rows(); ++k)
    for (const SparseRows* m : {&cs.a, &cs.b, &cs.c}) {
      auto wires = m->row_wires(k);
      auto coeffs = m->row_coeffs(k);
      w.u32_le(uint32_t(wires.size()));
      for (size_t t = 0; t < wires.size(); ++t) {
        w.u32_le(wires[t]);
        w.canonical_le(coeffs[t]);
      }
    }
  w.end_section();
  if (with_map) {
    w.begin_section(kWireToLabel);
    for (uint64_t v : cs.wire_to_label) w.u64_le(v);
    w.end_section();
  }
  return w.take();
}

}  // namespace cuzk
