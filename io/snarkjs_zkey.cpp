#include "io/snarkjs_zkey.hpp"

#include <utility>

#include "io/binfile.hpp"
#include "io/byte_reader.hpp"
#include "io/file.hpp"
#include "io/point_codec.hpp"
#include "io/snarkjs_common.hpp"

namespace cuzk {

using io::ByteReader;

namespace {

enum Section : uint32_t {
  kProtocol = 1,
  kHeader = 2,
  kIc = 3,
  kCoefficients = 4,
  kA = 5,
  kB1 = 6,
  kB2 = 7,
  kC = 8,
  kH = 9,
  kContributions = 10,
};
constexpr uint32_t kGroth16 = 1;
constexpr size_t kCoefficientBytes = 12 + Fr::BYTES;

// The raw limbs of R^2 mod r as a field element: multiplying by it maps Montgomery m = cR to cR^2,
// the integer snarkjs stores for a coefficient c.
Fr fr_r_squared_raw() {
  Fr x;
  for (size_t i = 0; i < Fr::N; ++i) x.l[i] = field::FrParams::rr(i);
  return x;
}

template <class A>
Status read_single_point(ByteReader& r, A& out, Check check, const char* name) {
  auto b = r.bytes(io::lem_bytes<A>(), name);
  if (!b.ok()) return b.error();
  if (!io::point_from_lem(b->data(), out))
    return make_error(std::string("zkey: ") + name + " has a coordinate >= p");
  if (const char* defect = io::point_defect(out, check))
    return make_error(std::string("zkey: ") + name + " " + defect);
  if (out.is_inf()) return make_error(std::string("zkey: ") + name + " is the point at infinity");
  return Status::Ok();
}

Status read_header(std::span<const uint8_t> body, SnarkjsZkey& key, Check check) {
  ByteReader r(body, "zkey header");
  CUZK_TRY_STATUS(io::expect_modulus<Fp>(r, "q"));
  CUZK_TRY_STATUS(io::expect_modulus<Fr>(r, "r"));
  uint32_t* fields[] = {&key.n_vars, &key.n_public, &key.domain_size};
  const char* names[] = {"nVars", "nPublic", "domainSize"};
  for (size_t i = 0; i < 3; ++i) {
    auto v = r.u32_le(names[i]);
    if (!v.ok()) return v.error();
    *fields[i] = *v;
  }
  if (uint64_t(key.n_public) + 1 > key.n_vars)
    return make_error("zkey header: nPublic = " + std::to_string(key.n_public) +
                      " leaves no room for ONE in nVars = " + std::to_string(key.n_vars));
  if (key.domain_size == 0 || (key.domain_size & (key.domain_size - 1)) != 0)
    return make_error("zkey header: domainSize " + std::to_string(key.domain_size) +
                      " is not a power of two");
  CUZK_TRY_STATUS(read_single_point(r, key.alpha_g1, check, "alpha1"));
  CUZK_TRY_STATUS(read_single_point(r, key.beta_g1, check, "beta1"));
  CUZK_TRY_STATUS(read_single_point(r, key.beta_g2, check, "beta2"));
  CUZK_TRY_STATUS(read_single_point(r, key.gamma_g2, check, "gamma2"));
  CUZK_TRY_STATUS(read_single_point(r, key.delta_g1, check, "delta1"));
  CUZK_TRY_STATUS(read_single_point(r, key.delta_g2, check, "delta2"));
  return r.expect_end();
}

Status read_coefficients(std::span<const uint8_t> body, SnarkjsZkey& key) {
  ByteReader r(body, "zkey coefficients");
  auto n = r.u32_le("nCoef");
  if (!n.ok()) return n.error();
  auto raw = r.array(*n, kCoefficientBytes, "coefficients");
  if (!raw.ok()) return raw.error();
  CUZK_TRY_STATUS(r.expect_end());
  key.coefficients.resize(*n);
  const Fr raw_one{{1, 0, 0, 0}};
  auto u32_at = [](const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  };
  for (uint32_t i = 0; i < *n; ++i) {
    const uint8_t* p = raw->data() + size_t(i) * kCoefficientBytes;
    auto& c = key.coefficients[i];
    c.matrix = u32_at(p);
    c.constraint = u32_at(p + 4);
    c.signal = u32_at(p + 8);
    const std::string where = "zkey: coefficient " + std::to_string(i);
    if (c.matrix > 1)
      return make_error(where + " names matrix " + std::to_string(c.matrix) + " (only A=0, B=1 exist)");
    if (c.constraint >= key.domain_size)
      return make_error(where + " is in constraint " + std::to_string(c.constraint) +
                        ", outside the domain of " + std::to_string(key.domain_size));
    if (c.signal >= key.n_vars)
      return make_error(where + " uses signal " + std::to_string(c.signal) +
                        " but nVars = " + std::to_string(key.n_vars));
    // Stored: the canonical integer v = c * R^2 mod r. As raw limbs, v is the Montgomery form of
    // c * R; one Montgomery multiplication by raw 1 divides by R and leaves the Montgomery form of c.
    uint64_t v[Fr::N] = {};
    for (size_t l = 0; l < Fr::N; ++l)
      for (size_t b = 0; b < 8; ++b) v[l] |= uint64_t(p[12 + 8 * l + b]) << (8 * b);
    if (!Fr::is_canonical(v)) return make_error(where + " has a value >= r");
    Fr stored;
    for (size_t l = 0; l < Fr::N; ++l) stored.l[l] = v[l];
    c.value = stored * raw_one;
  }
  return Status::Ok();
}

template <class A>
Status read_points(const io::BinFile& file, uint32_t section, uint64_t count, std::vector<A>& out,
                   Check check, const char* name) {
  auto body = file.unique(section);
  if (!body.ok()) return body.error();
  uint64_t want = count * io::lem_bytes<A>();  // count < 2^33, no overflow
  if (body->size() != want)
    return make_error("zkey: section " + std::to_string(section) + " (" + name + ") should hold " +
                      std::to_string(count) + " points = " + std::to_string(want) + " bytes but has " +
                      std::to_string(body->size()));
  return io::decode_lem_array(*body, out, check, std::string("zkey: ") + name);
}

}  // namespace

uint32_t SnarkjsZkey::log2_domain() const {
  uint32_t k = 0;
  while ((uint64_t(1) << k) < domain_size) ++k;
  return k;
}

Fr SnarkjsZkey::domain_root() const { return snarkjs_root_of_unity(log2_domain()); }

Fr snarkjs_root_of_unity(uint32_t log2) {
  // t = (r - 1) / 2^32; r - 1 only clears bit 0 (r is odd), and the shift drops it anyway.
  const Fr m = Fr::modulus_limbs();
  uint64_t t[Fr::N];
  for (size_t i = 0; i < Fr::N; ++i) t[i] = (m.l[i] >> 32) | (i + 1 < Fr::N ? m.l[i + 1] << 32 : 0);
  Fr w = Fr::from_u64(5).pow(t, Fr::N);
  for (uint32_t i = log2; i < 32; ++i) w = w.sqr();
  return w;
}

Result<SnarkjsZkey> parse_zkey(std::span<const uint8_t> bytes, Check check) {
  auto file = io::parse_binfile(bytes, "zkey", 1, 1);
  if (!file.ok()) return file.error();

  auto protocol_body = file->unique(kProtocol);
  if (!protocol_body.ok()) return protocol_body.error();
  ByteReader pr(*protocol_body, "zkey protocol");
  auto protocol = pr.u32_le("protocol");
  if (!protocol.ok()) return protocol.error();
  CUZK_TRY_STATUS(pr.expect_end());
  if (*protocol != kGroth16)
    return make_error("zkey: protocol " + std::to_string(*protocol) +
                      " is not Groth16 (1); PLONK (2) and FFLONK (10) keys are not supported");

  SnarkjsZkey key;
  auto header = file->unique(kHeader);
  if (!header.ok()) return header.error();
  CUZK_TRY_STATUS(read_header(*header, key, check));

  const uint64_t n_vars = key.n_vars, n_ic = uint64_t(key.n_public) + 1;
  CUZK_TRY_STATUS(read_points(*file, kIc, n_ic, key.ic, check, "IC"));
  auto coefficients = file->unique(kCoefficients);
  if (!coefficients.ok()) return coefficients.error();
  CUZK_TRY_STATUS(read_coefficients(*coefficients, key));
  CUZK_TRY_STATUS(read_points(*file, kA, n_vars, key.a, check, "A"));
  CUZK_TRY_STATUS(read_points(*file, kB1, n_vars, key.b_g1, check, "B1"));
  CUZK_TRY_STATUS(read_points(*file, kB2, n_vars, key.b_g2, check, "B2"));
  CUZK_TRY_STATUS(read_points(*file, kC, n_vars - n_ic, key.c, check, "C"));
  CUZK_TRY_STATUS(read_points(*file, kH, key.domain_size, key.h, check, "H"));
  if (file->has(kContributions)) {
    auto contributions = file->unique(kContributions);
    if (!contributions.ok()) return contributions.error();
    key.contributions.assign(contributions->begin(), contributions->end());
  }
  return key;
}

Result<SnarkjsZkey> read_zkey(const std::filesystem::path& path, Check check) {
  auto m = MappedFile::open(path);
  if (!m.ok()) return m.error();
  auto key = parse_zkey(m->bytes(), check);
  if (!key.ok()) return make_error(path.string() + ": " + key.message());
  return key;
}

namespace {

template <class A>
void write_point(io::BinWriter& w, const A& p) {
  uint8_t b[io::lem_bytes<A>()];
  io::point_to_lem(p, b);
  w.raw(b);
}

template <class A>
void write_point_section(io::BinWriter& w, uint32_t section, const std::vector<A>& points) {
  w.begin_section(section);
  for (const A& p : points) write_point(w, p);
  w.end_section();
}

}  // namespace

std::vector<uint8_t> serialize_zkey(const SnarkjsZkey& key) {
  io::BinWriter w("zkey", 1, key.contributions.empty() ? 9 : 10);
  w.begin_section(kProtocol);
  w.u32_le(kGroth16);
  w.end_section();

  w.begin_section(kHeader);
  w.modulus<Fp>();
  w.modulus<Fr>();
  w.u32_le(key.n_vars);
  w.u32_le(key.n_public);
  w.u32_le(key.domain_size);
  write_point(w, key.alpha_g1);
  write_point(w, key.beta_g1);
  write_point(w, key.beta_g2);
  write_point(w, key.gamma_g2);
  write_point(w, key.delta_g1);
  write_point(w, key.delta_g2);
  w.end_section();

  write_point_section(w, kIc, key.ic);

  w.begin_section(kCoefficients);
  w.u32_le(uint32_t(key.coefficients.size()));
  const Fr rr = fr_r_squared_raw();
  for (const auto& c : key.coefficients) {
    w.u32_le(c.matrix);
    w.u32_le(c.constraint);
    w.u32_le(c.signal);
    const Fr stored = c.value * rr;  // raw limbs of c * R^2
    uint8_t b[Fr::BYTES];
    for (size_t l = 0; l < Fr::N; ++l)
      for (size_t i = 0; i < 8; ++i) b[8 * l + i] = uint8_t(stored.l[l] >> (8 * i));
    w.raw(b);
  }
  w.end_section();

  write_point_section(w, kA, key.a);
  write_point_section(w, kB1, key.b_g1);
  write_point_section(w, kB2, key.b_g2);
  write_point_section(w, kC, key.c);
  write_point_section(w, kH, key.h);
  if (!key.contributions.empty()) {
    w.begin_section(kContributions);
    w.raw(key.contributions);
    w.end_section();
  }
  return w.take();
}

Result<groth16::ProvingKey> proving_key_from_zkey(SnarkjsZkey zkey) {
  groth16::ProvingKey pk;
  pk.domain_size = zkey.domain_size;
  pk.convention = RootConvention::snarkjs;
  pk.h_query = groth16::HQuery::odd_lagrange_2m;
  pk.layout = groth16::QueryLayout::per_wire;
  pk.num_inputs = size_t(zkey.n_public) + 1;
  if (zkey.n_vars < pk.num_inputs) return make_error("zkey: fewer wires than public signals");
  pk.num_aux = zkey.n_vars - pk.num_inputs;
  pk.vk = zkey.verifying_key();
  pk.h = std::move(zkey.h);
  pk.l = std::move(zkey.c);
  pk.a = std::move(zkey.a);
  pk.b_g1 = std::move(zkey.b_g1);
  pk.b_g2 = std::move(zkey.b_g2);
  CUZK_TRY_STATUS(pk.check_shape());
  return pk;
}

}  // namespace cuzk
