#include "io/snarkjs_json.hpp"

#include <algorithm>
#include <exception>
#include <nlohmann/json.hpp>

namespace cuzk {

namespace {

// Keys in the order snarkjs writes them; ordered_json keeps insertion order.
using json = nlohmann::ordered_json;

constexpr size_t kMaxDecimalDigits = 200;  // far above 116 (p has 115 digits): rejects junk early

template <class F>
std::string decimal(const F& x) {
  uint64_t v[F::N];
  x.to_canonical(v);
  // Peel 19 digits at a time: 10^19 < 2^64.
  constexpr uint64_t kChunk = 10000000000000000000ull;
  std::string out;
  for (;;) {
    bool zero = true;
    for (size_t i = 0; i < F::N; ++i) zero = zero && v[i] == 0;
    if (zero) break;
    unsigned __int128 rem = 0;
    for (size_t i = F::N; i-- > 0;) {
      const unsigned __int128 cur = (rem << 64) | v[i];
      v[i] = uint64_t(cur / kChunk);
      rem = cur % kChunk;
    }
    uint64_t r = uint64_t(rem);
    bool more = false;
    for (size_t i = 0; i < F::N; ++i) more = more || v[i] != 0;
    for (int d = 0; d < 19 && (more || r != 0); ++d) {
      out.push_back(char('0' + r % 10));
      r /= 10;
    }
  }
  if (out.empty()) out = "0";
  std::reverse(out.begin(), out.end());
  return out;
}

template <class F>
Result<F> from_decimal(std::string_view s, const char* field) {
  if (s.empty() || s.size() > kMaxDecimalDigits)
    return make_error(std::string("not a decimal ") + field + " element: \"" + std::string(s.substr(0, 40)) +
                      "\"");
  uint64_t v[F::N] = {};
  for (char ch : s) {
    if (ch < '0' || ch > '9')
      return make_error(std::string("not a decimal ") + field + " element: \"" +
                        std::string(s.substr(0, 40)) + "\"");
    unsigned __int128 carry = uint64_t(ch - '0');
    for (size_t i = 0; i < F::N; ++i) {
      carry += (unsigned __int128)v[i] * 10;
      v[i] = uint64_t(carry);
      carry >>= 64;
    }
    if (carry != 0)
      return make_error(std::string("decimal ") + field + " element is too large: " + std::string(s));
  }
  if (!F::is_canonical(v))
    return make_error(std::string("decimal ") + field +
                      " element is not below the modulus: " + std::string(s));
  return F::from_canonical(v);
}

json g1_json(const G1Affine& p) {
  if (p.is_inf()) return json::array({"0", "1", "0"});
  return json::array({to_decimal(p.x), to_decimal(p.y), "1"});
}

json fp2_json(const Fp2& x) { return json::array({to_decimal(x.c0), to_decimal(x.c1)}); }

json g2_json(const G2Affine& p) {
  if (p.is_inf())
    return json::array({json::array({"0", "0"}), json::array({"1", "0"}), json::array({"0", "0"})});
  return json::array({fp2_json(p.x), fp2_json(p.y), json::array({"1", "0"})});
}

// ---------------------------------------------------------------- reading

const json* member(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

Result<std::string> string_at(const json& j, const std::string& what) {
  if (!j.is_string()) return make_error(what + " is not a string");
  return j.get<std::string>();
}

Result<Fp> fp_at(const json& j, const std::string& what) {
  auto s = string_at(j, what);
  if (!s.ok()) return s.error();
  auto x = from_decimal<Fp>(*s, "Fp");
  if (!x.ok()) return make_error(what + ": " + x.message());
  return x;
}

// z: "1" for a finite point, "0" for infinity (ffjavascript writes affine points).
Result<bool> is_infinity_marker(const json& z, const std::string& what) {
  auto s = string_at(z, what + " z");
  if (!s.ok()) return s.error();
  if (*s == "1") return false;
  if (*s == "0") return true;
  return make_error(what + ": z = " + *s + " (only affine points, z = 1, or infinity, z = 0, are supported)");
}

template <class A>
Result<A> checked(const A& p, const std::string& what) {
  if (!p.is_on_curve()) return make_error(what + " is not on the curve");
  if (!p.is_inf() && !p.in_subgroup()) return make_error(what + " is not in the prime-order subgroup");
  return p;
}

Result<G1Affine> g1_from(const json* j, const std::string& what) {
  if (j == nullptr || !j->is_array() || j->size() != 3)
    return make_error(what + " is not a G1 point [x, y, z]");
  auto inf = is_infinity_marker((*j)[2], what);
  if (!inf.ok()) return inf.error();
  if (*inf) return G1Affine::infinity();
  auto x = fp_at((*j)[0], what + " x");
  if (!x.ok()) return x.error();
  auto y = fp_at((*j)[1], what + " y");
  if (!y.ok()) return y.error();
  return checked(G1Affine{*x, *y}, what);
}

Result<Fp2> fp2_from(const json& j, const std::string& what) {
  if (!j.is_array() || j.size() != 2) return make_error(what + " is not an Fp2 element [c0, c1]");
  auto c0 = fp_at(j[0], what + " c0");
  if (!c0.ok()) return c0.error();
  auto c1 = fp_at(j[1], what + " c1");
  if (!c1.ok()) return c1.error();
  return Fp2{*c0, *c1};
}

Result<G2Affine> g2_from(const json* j, const std::string& what) {
  if (j == nullptr || !j->is_array() || j->size() != 3 || !(*j)[2].is_array() || (*j)[2].size() != 2)
    return make_error(what + " is not a G2 point [[x0, x1], [y0, y1], [z0, z1]]");
  auto z1 = string_at((*j)[2][1], what + " z.c1");
  if (!z1.ok()) return z1.error();
  if (*z1 != "0") return make_error(what + ": z.c1 = " + *z1 + " (only affine points are supported)");
  auto inf = is_infinity_marker((*j)[2][0], what);
  if (!inf.ok()) return inf.error();
  if (*inf) return G2Affine::infinity();
  auto x = fp2_from((*j)[0], what + " x");
  if (!x.ok()) return x.error();
  auto y = fp2_from((*j)[1], what + " y");
  if (!y.ok()) return y.error();
  return checked(G2Affine{*x, *y}, what);
}

Result<json> parse(std::string_view text, const char* what) {
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return make_error(std::string(what) + ": not valid JSON");
  return j;
}

Status expect_string_member(const json& j, const char* key, const char* want, const char* what) {
  const json* m = member(j, key);
  if (m == nullptr) return make_error(std::string(what) + ": \"" + key + "\" is missing");
  if (!m->is_string() || m->get<std::string>() != want)
    return make_error(std::string(what) + ": \"" + key + "\" is " + m->dump() + ", expected \"" + want +
                      "\"");
  return Status::Ok();
}

Result<groth16::Proof> parse_proof(std::string_view text) {
  auto j = parse(text, "proof.json");
  if (!j.ok()) return j.error();
  if (const json* protocol = member(*j, "protocol"); protocol != nullptr)
    CUZK_TRY_STATUS(expect_string_member(*j, "protocol", "groth16", "proof.json"));
  if (const json* curve = member(*j, "curve"); curve != nullptr)
    CUZK_TRY_STATUS(expect_string_member(*j, "curve", "bls12381", "proof.json"));
  auto a = g1_from(member(*j, "pi_a"), "proof.json: pi_a");
  if (!a.ok()) return a.error();
  auto b = g2_from(member(*j, "pi_b"), "proof.json: pi_b");
  if (!b.ok()) return b.error();
  auto c = g1_from(member(*j, "pi_c"), "proof.json: pi_c");
  if (!c.ok()) return c.error();
  if (a->is_inf() || b->is_inf() || c->is_inf())
    return make_error("proof.json: a proof point is at infinity");
  return groth16::Proof{*a, *b, *c};
}

Result<std::vector<Fr>> parse_public(std::string_view text) {
  auto j = parse(text, "public.json");
  if (!j.ok()) return j.error();
  if (!j->is_array()) return make_error("public.json: not an array of decimal strings");
  std::vector<Fr> out;
  out.reserve(j->size());
  for (size_t i = 0; i < j->size(); ++i) {
    const std::string what = "public.json: signal " + std::to_string(i);
    auto s = string_at((*j)[i], what);
    if (!s.ok()) return s.error();
    auto x = from_decimal<Fr>(*s, "Fr");
    if (!x.ok()) return make_error(what + ": " + x.message());
    out.push_back(*x);
  }
  return out;
}

Result<groth16::VerifyingKey> parse_vk(std::string_view text) {
  constexpr const char* what = "verification_key.json";
  auto j = parse(text, what);
  if (!j.ok()) return j.error();
  CUZK_TRY_STATUS(expect_string_member(*j, "protocol", "groth16", what));
  CUZK_TRY_STATUS(expect_string_member(*j, "curve", "bls12381", what));
  groth16::VerifyingKey vk;
  auto alpha = g1_from(member(*j, "vk_alpha_1"), std::string(what) + ": vk_alpha_1");
  if (!alpha.ok()) return alpha.error();
  vk.alpha_g1 = *alpha;
  // snarkjs's JSON has no beta_g1 or delta_g1 (the verifier does not need them); they stay infinity.
  vk.beta_g1 = G1Affine::infinity();
  vk.delta_g1 = G1Affine::infinity();
  G2Affine* g2[] = {&vk.beta_g2, &vk.gamma_g2, &vk.delta_g2};
  const char* g2_names[] = {"vk_beta_2", "vk_gamma_2", "vk_delta_2"};
  for (size_t i = 0; i < 3; ++i) {
    auto p = g2_from(member(*j, g2_names[i]), std::string(what) + ": " + g2_names[i]);
    if (!p.ok()) return p.error();
    *g2[i] = *p;
  }
  const json* ic = member(*j, "IC");
  if (ic == nullptr || !ic->is_array() || ic->empty())
    return make_error(std::string(what) + ": IC is missing or empty");
  const json* n_public = member(*j, "nPublic");
  if (n_public == nullptr || !n_public->is_number_unsigned() || n_public->get<uint64_t>() + 1 != ic->size())
    return make_error(std::string(what) + ": nPublic does not match the " + std::to_string(ic->size()) +
                      " IC points");
  for (size_t i = 0; i < ic->size(); ++i) {
    auto p = g1_from(&(*ic)[i], std::string(what) + ": IC[" + std::to_string(i) + "]");
    if (!p.ok()) return p.error();
    vk.ic.push_back(*p);
  }
  return vk;
}

// nlohmann may still throw on paths we did not foresee; errors are values at this API.
template <class Fn>
auto no_throw(Fn fn, const char* what) -> decltype(fn()) {
  try {
    return fn();
  } catch (const std::exception& e) {
    return make_error(std::string(what) + ": " + e.what());
  }
}

}  // namespace

std::string to_decimal(const Fr& x) { return decimal(x); }
std::string to_decimal(const Fp& x) { return decimal(x); }
Result<Fr> fr_from_decimal(std::string_view s) { return from_decimal<Fr>(s, "Fr"); }
Result<Fp> fp_from_decimal(std::string_view s) { return from_decimal<Fp>(s, "Fp"); }

std::string snarkjs_proof_json(const groth16::Proof& proof) {
  json j;
  j["pi_a"] = g1_json(proof.a);
  j["pi_b"] = g2_json(proof.b);
  j["pi_c"] = g1_json(proof.c);
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  return j.dump(1);
}

std::string snarkjs_public_json(std::span<const Fr> public_signals) {
  json j = json::array();
  for (const Fr& x : public_signals) j.push_back(to_decimal(x));
  return j.dump(1);
}

std::string snarkjs_vk_json(const groth16::VerifyingKey& vk, const Fp12* alphabeta) {
  json j;
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  j["nPublic"] = vk.ic.empty() ? 0 : vk.ic.size() - 1;
  j["vk_alpha_1"] = g1_json(vk.alpha_g1);
  j["vk_beta_2"] = g2_json(vk.beta_g2);
  j["vk_gamma_2"] = g2_json(vk.gamma_g2);
  j["vk_delta_2"] = g2_json(vk.delta_g2);
  if (alphabeta != nullptr) {
    json gt = json::array();
    for (const Fp6* half : {&alphabeta->c0, &alphabeta->c1})
      gt.push_back(json::array({fp2_json(half->c0), fp2_json(half->c1), fp2_json(half->c2)}));
    j["vk_alphabeta_12"] = gt;
  }
  json ic = json::array();
  for (const G1Affine& p : vk.ic) ic.push_back(g1_json(p));
  j["IC"] = ic;
  return j.dump(1);
}

Result<groth16::Proof> parse_snarkjs_proof_json(std::string_view text) {
  return no_throw([&] { return parse_proof(text); }, "proof.json");
}
Result<std::vector<Fr>> parse_snarkjs_public_json(std::string_view text) {
  return no_throw([&] { return parse_public(text); }, "public.json");
}
Result<groth16::VerifyingKey> parse_snarkjs_vk_json(std::string_view text) {
  return no_throw([&] { return parse_vk(text); }, "verification_key.json");
}

}  // namespace cuzk
