#include "io/bellman.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include "common/parallel_ranges.hpp"
#include "io/byte_reader.hpp"

namespace cuzk {

using io::ByteReader;

namespace {

constexpr size_t kDecodeChunk = 4096;     // points per task when decoding in parallel
constexpr size_t kEncodeBatch = 1 << 16;  // points encoded (in parallel) per write

template <class A>
constexpr size_t encoded_size() {
  return std::is_same_v<A, G1Affine> ? G1_UNCOMPRESSED_BYTES : G2_UNCOMPRESSED_BYTES;
}

template <class A>
Result<A> decode_point(std::span<const uint8_t> b, Check check) {
  if constexpr (std::is_same_v<A, G1Affine>)
    return g1_decode(b, check);
  else
    return g2_decode(b, check);
}

// Decodes count points from `bytes` into out, rejecting infinity (bellperson's rule for every
// array but the fixed vk points). `what` prefixes messages: "params: h point 12: ...".
template <class A>
Status decode_array(const uint8_t* bytes, std::span<A> out, size_t first_index, Check check,
                    const std::string& what) {
  constexpr size_t size = encoded_size<A>();
  return parallel_ranges(out.size(), kDecodeChunk, [&](size_t begin, size_t end) -> Status {
    for (size_t i = begin; i < end; ++i) {
      auto p = decode_point<A>({bytes + i * size, size}, check);
      if (!p.ok()) return make_error(what + " point " + std::to_string(first_index + i) + ": " + p.message());
      if (p->is_inf())
        return make_error(what + " point " + std::to_string(first_index + i) + " is the point at infinity");
      out[i] = *p;
    }
    return Status::Ok();
  });
}

template <class A>
Status read_fixed(ByteReader& r, A& out, Check check, const char* name) {
  auto b = r.bytes(encoded_size<A>(), name);
  if (!b.ok()) return b.error();
  auto p = decode_point<A>(*b, check);
  if (!p.ok()) return make_error(r.what() + ": " + name + ": " + p.message());
  out = *p;
  return Status::Ok();
}

// Reads "u32be count ; count points" and returns the range, without decoding.
Result<std::span<const uint8_t>> read_array(ByteReader& r, size_t point_size, const char* name,
                                            size_t* count) {
  auto n = r.u32_be(name);
  if (!n.ok()) return n.error();
  *count = *n;
  return r.array(*n, point_size, name);
}

Status parse_vk(ByteReader& r, groth16::VerifyingKey& vk, Check check) {
  CUZK_TRY_STATUS(read_fixed(r, vk.alpha_g1, check, "alpha_g1"));
  CUZK_TRY_STATUS(read_fixed(r, vk.beta_g1, check, "beta_g1"));
  CUZK_TRY_STATUS(read_fixed(r, vk.beta_g2, check, "beta_g2"));
  CUZK_TRY_STATUS(read_fixed(r, vk.gamma_g2, check, "gamma_g2"));
  CUZK_TRY_STATUS(read_fixed(r, vk.delta_g1, check, "delta_g1"));
  CUZK_TRY_STATUS(read_fixed(r, vk.delta_g2, check, "delta_g2"));
  size_t n_ic = 0;
  auto ic = read_array(r, G1_UNCOMPRESSED_BYTES, "ic", &n_ic);
  if (!ic.ok()) return ic.error();
  vk.ic.resize(n_ic);
  return decode_array<G1Affine>(ic->data(), vk.ic, 0, check, r.what() + ": ic");
}

// Output of the writers: a vector or a file.
using Sink = std::function<Status(std::span<const uint8_t>)>;

Status put_u32_be(const Sink& out, size_t v) {
  const uint8_t b[4] = {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)};
  return out(b);
}

template <class A>
void encode(const A& p, uint8_t* out) {
  if constexpr (std::is_same_v<A, G1Affine>)
    g1_serialize(p, out);
  else
    g2_serialize(p, out);
}

template <class A>
Status put_point(const Sink& out, const A& p) {
  uint8_t b[encoded_size<A>()];
  encode(p, b);
  return out(b);
}

// Counts are u32 in the format: a longer array cannot be written.
template <class A>
Status put_array(const Sink& out, const std::vector<A>& points, const char* name) {
  if (points.size() > UINT32_MAX)
    return make_error(std::string("params: ") + name + " has " + std::to_string(points.size()) +
                      " points, more than the format's u32 count allows");
  CUZK_TRY_STATUS(put_u32_be(out, points.size()));
  constexpr size_t size = encoded_size<A>();
  std::vector<uint8_t> buffer(std::min(points.size(), kEncodeBatch) * size);
  for (size_t done = 0; done < points.size(); done += kEncodeBatch) {
    const size_t n = std::min(kEncodeBatch, points.size() - done);
    CUZK_TRY_STATUS(parallel_ranges(n, kDecodeChunk, [&](size_t begin, size_t end) -> Status {
      for (size_t i = begin; i < end; ++i) encode(points[done + i], buffer.data() + i * size);
      return Status::Ok();
    }));
    CUZK_TRY_STATUS(out({buffer.data(), n * size}));
  }
  return Status::Ok();
}

Status put_vk(const Sink& out, const groth16::VerifyingKey& vk) {
  CUZK_TRY_STATUS(put_point(out, vk.alpha_g1));
  CUZK_TRY_STATUS(put_point(out, vk.beta_g1));
  CUZK_TRY_STATUS(put_point(out, vk.beta_g2));
  CUZK_TRY_STATUS(put_point(out, vk.gamma_g2));
  CUZK_TRY_STATUS(put_point(out, vk.delta_g1));
  CUZK_TRY_STATUS(put_point(out, vk.delta_g2));
  return put_array(out, vk.ic, "ic");
}

Status put_params(const Sink& out, const BellmanParameters& p) {
  CUZK_TRY_STATUS(put_vk(out, p.vk));
  CUZK_TRY_STATUS(put_array(out, p.h, "h"));
  CUZK_TRY_STATUS(put_array(out, p.l, "l"));
  CUZK_TRY_STATUS(put_array(out, p.a, "a"));
  CUZK_TRY_STATUS(put_array(out, p.b_g1, "b_g1"));
  return put_array(out, p.b_g2, "b_g2");
}

Sink vector_sink(std::vector<uint8_t>& v) {
  return [&v](std::span<const uint8_t> b) {
    v.insert(v.end(), b.begin(), b.end());
    return Status::Ok();
  };
}

}  // namespace

// ------------------------------------------------------------------ verifying key

Result<groth16::VerifyingKey> parse_bellman_vk(std::span<const uint8_t> bytes, Check check) {
  ByteReader r(bytes, "vk");
  groth16::VerifyingKey vk;
  CUZK_TRY_STATUS(parse_vk(r, vk, check));
  return vk;
}

Result<groth16::VerifyingKey> read_bellman_vk(const std::filesystem::path& path, Check check) {
  auto m = MappedFile::open(path);
  if (!m.ok()) return m.error();
  auto vk = parse_bellman_vk(m->bytes(), check);
  if (!vk.ok()) return make_error(path.string() + ": " + vk.message());
  return vk;
}

std::vector<uint8_t> serialize_bellman_vk(const groth16::VerifyingKey& vk) {
  std::vector<uint8_t> out;
  (void)put_vk(vector_sink(out), vk);  // a vector sink cannot fail; only > 2^32 IC points could
  return out;
}

Status write_bellman_vk(const std::filesystem::path& path, const groth16::VerifyingKey& vk) {
  auto w = FileWriter::create(path);
  if (!w.ok()) return w.error();
  FileWriter& file = *w;
  CUZK_TRY_STATUS(put_vk([&file](std::span<const uint8_t> b) { return file.write(b); }, vk));
  return file.commit();
}

// ------------------------------------------------------------------ parameters

const char* params_array_name(ParamsArray which) {
  switch (which) {
    case ParamsArray::h:
      return "h";
    case ParamsArray::l:
      return "l";
    case ParamsArray::a:
      return "a";
    case ParamsArray::b_g1:
      return "b_g1";
    case ParamsArray::b_g2:
      return "b_g2";
  }
  return "?";
}

Result<MappedBellmanParameters> MappedBellmanParameters::locate(MappedBellmanParameters p, Check check) {
  p.check_ = check;
  ByteReader r(p.bytes_, "params");
  CUZK_TRY_STATUS(parse_vk(r, p.vk_, check));
  for (ParamsArray which :
       {ParamsArray::h, ParamsArray::l, ParamsArray::a, ParamsArray::b_g1, ParamsArray::b_g2}) {
    const size_t size = which == ParamsArray::b_g2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
    Range& range = p.ranges_[int(which)];
    auto bytes = read_array(r, size, params_array_name(which), &range.count);
    if (!bytes.ok()) return bytes.error();
    range.offset = size_t(bytes->data() - p.bytes_.data());
  }
  return p;
}

Result<MappedBellmanParameters> MappedBellmanParameters::open(const std::filesystem::path& path,
                                                              Check check) {
  auto m = MappedFile::open(path);
  if (!m.ok()) return m.error();
  m->advise_sequential();
  MappedBellmanParameters p;
  p.file_ = std::move(*m);
  p.bytes_ = p.file_.bytes();
  auto located = locate(std::move(p), check);
  if (!located.ok()) return make_error(path.string() + ": " + located.message());
  return located;
}

Result<MappedBellmanParameters> MappedBellmanParameters::from_bytes(std::span<const uint8_t> bytes,
                                                                    Check check) {
  MappedBellmanParameters p;
  p.bytes_ = bytes;
  return locate(std::move(p), check);
}

std::span<const uint8_t> MappedBellmanParameters::raw(ParamsArray which) const {
  const Range& r = ranges_[int(which)];
  const size_t size = which == ParamsArray::b_g2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
  return bytes_.subspan(r.offset, r.count * size);
}

Status MappedBellmanParameters::decode(ParamsArray which, size_t first, std::span<G1Affine> out) const {
  const std::string what = std::string("params: ") + params_array_name(which);
  if (which == ParamsArray::b_g2) return make_error(what + " holds G2 points; decode it into G2Affine");
  const Range& r = ranges_[int(which)];
  if (first > r.count || out.size() > r.count - first)
    return make_error(what + ": points [" + std::to_string(first) + ", " +
                      std::to_string(first + out.size()) + ") asked for, but the array has " +
                      std::to_string(r.count));
  return decode_array<G1Affine>(bytes_.data() + r.offset + first * G1_UNCOMPRESSED_BYTES, out, first, check_,
                                what);
}

Status MappedBellmanParameters::decode(size_t first, std::span<G2Affine> out) const {
  const Range& r = ranges_[int(ParamsArray::b_g2)];
  if (first > r.count || out.size() > r.count - first)
    return make_error("params: b_g2: points [" + std::to_string(first) + ", " +
                      std::to_string(first + out.size()) + ") asked for, but the array has " +
                      std::to_string(r.count));
  return decode_array<G2Affine>(bytes_.data() + r.offset + first * G2_UNCOMPRESSED_BYTES, out, first, check_,
                                "params: b_g2");
}

Result<std::vector<G1Affine>> MappedBellmanParameters::decode_g1(ParamsArray which) const {
  std::vector<G1Affine> out(which == ParamsArray::b_g2 ? 0 : count(which));
  CUZK_TRY_STATUS(decode(which, 0, out));
  return out;
}

Result<std::vector<G2Affine>> MappedBellmanParameters::decode_b_g2() const {
  std::vector<G2Affine> out(count(ParamsArray::b_g2));
  CUZK_TRY_STATUS(decode(0, out));
  return out;
}

Result<BellmanParameters> MappedBellmanParameters::decode_all() const {
  BellmanParameters p;
  p.vk = vk_;
  std::vector<G1Affine>* g1[] = {&p.h, &p.l, &p.a, &p.b_g1};
  const ParamsArray which[] = {ParamsArray::h, ParamsArray::l, ParamsArray::a, ParamsArray::b_g1};
  for (size_t i = 0; i < 4; ++i) {
    auto v = decode_g1(which[i]);
    if (!v.ok()) return v.error();
    *g1[i] = std::move(*v);
  }
  auto b2 = decode_b_g2();
  if (!b2.ok()) return b2.error();
  p.b_g2 = std::move(*b2);
  return p;
}

Result<BellmanParameters> parse_bellman_params(std::span<const uint8_t> bytes, Check check) {
  auto m = MappedBellmanParameters::from_bytes(bytes, check);
  if (!m.ok()) return m.error();
  return m->decode_all();
}

Result<BellmanParameters> read_bellman_params(const std::filesystem::path& path, Check check) {
  auto m = MappedBellmanParameters::open(path, check);
  if (!m.ok()) return m.error();
  auto p = m->decode_all();
  if (!p.ok()) return make_error(path.string() + ": " + p.message());
  return p;
}

Status write_bellman_params(const std::filesystem::path& path, const BellmanParameters& params) {
  auto w = FileWriter::create(path);
  if (!w.ok()) return w.error();
  FileWriter& file = *w;
  CUZK_TRY_STATUS(put_params([&file](std::span<const uint8_t> b) { return file.write(b); }, params));
  return file.commit();
}

std::vector<uint8_t> serialize_bellman_params(const BellmanParameters& params) {
  std::vector<uint8_t> out;
  (void)put_params(vector_sink(out), params);
  return out;
}

// ------------------------------------------------------------------ proving keys

Result<groth16::ProvingKey> proving_key_from_bellman(BellmanParameters params) {
  groth16::ProvingKey pk;
  pk.domain_size = params.h.size() + 1;
  pk.convention = RootConvention::bellman;
  pk.h_query = groth16::HQuery::z_over_delta;
  pk.layout = groth16::QueryLayout::compacted;
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

Result<BellmanParameters> to_bellman(const groth16::ProvingKey& pk) {
  if (pk.layout != groth16::QueryLayout::compacted || pk.h_query != groth16::HQuery::z_over_delta ||
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

}  // namespace cuzk
