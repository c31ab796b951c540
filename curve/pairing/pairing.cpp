// Optimal ate pairing of BLS12-381.
//
// Miller loop. G2 lives on the M-type sextic twist E': y^2 = x^3 + b', b' = 4 xi, xi = u + 1,
// with the untwisting map psi(x, y) = (x / w^2, y / w^3) into E(Fp12) (w^6 = xi). The line
// through points of psi(E'), evaluated at P = (xP, yP) and multiplied by w^3 (an element of the
// subfield Fp4, which the final exponentiation kills), is
//     l = (lambda x_T - y_T) + (-lambda xP) w^2 + yP w^3
// where lambda is the slope on E': a sparse Fp12 value with coefficients at 1, w^2, w^3, the
// "014" slots of Fp12::mul_by_014. T runs in homogeneous projective coordinates
// (x = X/Z, y = Y/Z) so that the loop needs no inversion; each line is scaled by the denominator
// of its slope, an Fp2 factor that the final exponentiation also kills.
//
// Final exponentiation. Easy part f^((p^6 - 1)(p^2 + 1)) by a conjugation, one inversion and a
// Frobenius map; it lands in the cyclotomic subgroup, where inverses are conjugates and squaring
// has the cheap Granger-Scott form. Hard part: Hayashida, Hayasaka and Teruya (ePrint 2020/875)
// write 3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p) (x^2 + p^2 - 1) + 3, which costs five
// exponentiations by x (63 cyclotomic squarings and 5 multiplications each) plus a few Frobenius
// maps. tests/pairing checks the identity with exact integers.
#include "curve/pairing/pairing.hpp"

#include <cstdint>
#include <vector>

#include "curve/point.hpp"

namespace cuzk {
namespace {

constexpr uint64_t kXAbs = curve::bls_x_abs;  // |x|; x itself is negative

// 3 b' = 12 (u + 1).
Fp2 mul_by_3b(const Fp2& a) {
  const Fp2 t = a.mul_by_nonresidue();  // (u + 1) a
  const Fp2 t4 = t.dbl().dbl();
  return t4 + t4 + t4;
}

struct G2Projective {
  Fp2 X, Y, Z;
};

// The line coefficients for Fp12::mul_by_014.
struct Line {
  Fp2 l0, l1, l4;
};

// P, precomputed for the line evaluations: -3 xP for tangents, -xP for chords.
struct G1Prepared {
  Fp neg_3x, neg_x, y;
};

G1Prepared prepare(const G1Affine& p) {
  const Fp neg_x = -p.x;
  return {neg_x + neg_x + neg_x, neg_x, p.y};
}

// T <- 2T and the tangent at T. With the slope 3X^2 / (2YZ):
//   l = (Y^2 - 3b'Z^2) + (-3X^2 xP) w^2 + (2YZ yP) w^3       (times 2YZ)
//   2T = (2XY (Y^2 - 9b'Z^2), (Y^2 + 9b'Z^2)^2 - 108 b'^2 Z^4, 8 Y^3 Z)
// which is the usual doubling scaled by 4, so that no halving is needed.
Line double_step(G2Projective& T, const G1Prepared& p) {
  const Fp2 B = T.Y.sqr();
  const Fp2 C = T.Z.sqr();
  const Fp2 E = mul_by_3b(C);               // 3b'Z^2
  const Fp2 F = E + E + E;                  // 9b'Z^2
  const Fp2 H = (T.Y + T.Z).sqr() - B - C;  // 2YZ
  const Fp2 J = T.X.sqr();
  const Fp2 E2 = E.sqr();
  const Fp2 E2x3 = E2 + E2 + E2;
  const Line line{B - E, J * p.neg_3x, H * p.y};
  T.X = (T.X * T.Y * (B - F)).dbl();
  T.Y = (B + F).sqr() - E2x3.dbl().dbl();
  T.Z = (B * H).dbl().dbl();
  return line;
}

// T <- T + Q and the chord through T and Q (Q affine). With theta = Y - yQ Z, lambda = X - xQ Z
// (the slope is theta / lambda):
//   l = (theta xQ - lambda yQ) + (-theta xP) w^2 + (lambda yP) w^3       (times lambda)
// In the loop T = [k]Q with 1 < k < |x| < r, so T is never +-Q or infinity and the chord formula
// needs no special cases.
Line add_step(G2Projective& T, const G2Affine& q, const G1Prepared& p) {
  const Fp2 theta = T.Y - q.y * T.Z;
  const Fp2 lambda = T.X - q.x * T.Z;
  const Fp2 C = theta.sqr();
  const Fp2 D = lambda.sqr();
  const Fp2 E = lambda * D;
  const Fp2 F = T.Z * C;
  const Fp2 G = T.X * D;
  const Fp2 H = E + F - G.dbl();
  const Line line{theta * q.x - lambda * q.y, theta * p.neg_x, lambda * p.y};
  T.X = lambda * H;
  T.Y = theta * (G - H) - E * T.Y;
  T.Z = T.Z * E;
  return line;
}

// g^x for g in the cyclotomic subgroup: g^|x| by square-and-multiply, conjugated for the sign.
Fp12 cyclotomic_exp_by_x(const Fp12& g) {
  Fp12 r = g;
  for (int b = 62; b >= 0; --b) {
    r = r.cyclotomic_sqr();
    if ((kXAbs >> b) & 1) r *= g;
  }
  return r.conjugate();
}

}  // namespace

Fp12 multi_miller_loop(std::span<const PairingInput> pairs) {
  struct State {
    G1Prepared p;
    G2Affine q;
    G2Projective T;
  };
  std::vector<State> states;
  states.reserve(pairs.size());
  for (const auto& [p, q] : pairs) {
    if (p.is_inf() || q.is_inf()) continue;
    states.push_back({prepare(p), q, {q.x, q.y, Fp2::one()}});
  }
  Fp12 f = Fp12::one();
  if (states.empty()) return f;
  // Bits of |x| below the leading one, most significant first; the square of f = 1 is skipped.
  for (int b = 62; b >= 0; --b) {
    if (b != 62) f = f.sqr();
    for (State& s : states) {
      const Line l = double_step(s.T, s.p);
      f = f.mul_by_014(l.l0, l.l1, l.l4);
    }
    if ((kXAbs >> b) & 1) {
      for (State& s : states) {
        const Line l = add_step(s.T, s.q, s.p);
        f = f.mul_by_014(l.l0, l.l1, l.l4);
      }
    }
  }
  // f_{x,Q} = 1 / f_{|x|,Q} up to a vertical line; 1/f and its conjugate f^(p^6) agree after the
  // easy part of the final exponentiation.
  return f.conjugate();
}

Fp12 miller_loop(const G1Affine& p, const G2Affine& q) {
  const PairingInput pair{p, q};
  return multi_miller_loop(std::span<const PairingInput>(&pair, 1));
}

Fp12 final_exponentiation(const Fp12& f) {
  // Easy part: f^((p^6 - 1)(p^2 + 1)).
  Fp12 t = f.conjugate() * f.inverse();
  const Fp12 g = t.frobenius_map(2) * t;
  // Hard part: g^((x - 1)^2 (x + p) (x^2 + p^2 - 1) + 3).
  Fp12 a = cyclotomic_exp_by_x(g) * g.conjugate();  // g^(x - 1)
  a = cyclotomic_exp_by_x(a) * a.conjugate();       // g^((x - 1)^2)
  const Fp12 b = cyclotomic_exp_by_x(a) * a.frobenius_map(1);
  const Fp12 c = cyclotomic_exp_by_x(cyclotomic_exp_by_x(b)) * b.frobenius_map(2) * b.conjugate();
  return c * g.cyclotomic_sqr() * g;
}

Fp12 pairing(const G1Affine& p, const G2Affine& q) { return final_exponentiation(miller_loop(p, q)); }

Fp12 multi_pairing(std::span<const PairingInput> pairs) {
  return final_exponentiation(multi_miller_loop(pairs));
}

bool pairing_product_is_one(std::span<const PairingInput> pairs) { return multi_pairing(pairs).is_one(); }

}  // namespace cuzk
