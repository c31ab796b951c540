// Cross-check of cuzk against @noble/curves, an independent BLS12-381 implementation in JavaScript.
//
// Usage: node check_noble.mjs <path to interop_oracle> [cases-per-op]
// Draws a fresh seed (or takes CUZK_INTEROP_SEED, to replay a run), runs the oracle with it, and
// recomputes every case the oracle printed with @noble/curves. Passes only when every output agrees
// byte for byte; otherwise prints the first mismatches with the seed, and exits 1.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";

let bls;
try {
  ({ bls12_381: bls } = await import("@noble/curves/bls12-381.js"));
} catch (e) {
  console.error(`interop: cannot load @noble/curves (${e.code ?? e.message}).`);
  console.error("interop: the npm packages are missing; install them with: bash tools/setup.sh");
  process.exit(1);
}

const [oracle, perOp = "32"] = process.argv.slice(2);
if (!oracle) {
  console.error("usage: node check_noble.mjs <interop_oracle> [cases-per-op]");
  process.exit(2);
}
const seed = process.env.CUZK_INTEROP_SEED ?? randomBytes(8).readBigUInt64LE().toString();
console.log(`interop: seed ${seed} (replay with CUZK_INTEROP_SEED=${seed})`);

const run = spawnSync(oracle, [seed, perOp], { encoding: "utf8", maxBuffer: 1 << 30 });
if (run.error || run.status !== 0) {
  console.error(`interop: oracle failed (${run.error?.message ?? `exit ${run.status}`})\n${run.stderr}`);
  process.exit(1);
}
const cases = run.stdout.trim().split("\n").map((l) => JSON.parse(l));

// ---------------------------------------------------------------- encodings (formats.md §1)
const { Fp, Fr, Fp2, Fp12 } = bls.fields;
const { G1, G2 } = bls;
const big = (h) => BigInt("0x" + (h || "0"));
const hexN = (x, bytes) => x.toString(16).padStart(2 * bytes, "0");
const fp = { parse: big, enc: (x) => hexN(x, 48), F: Fp };
const fr = { parse: big, enc: (x) => hexN(x, 32), F: Fr };
const fp2 = {
  parse: (h) => Fp2.create({ c1: big(h.slice(0, 96)), c0: big(h.slice(96)) }),
  enc: (x) => hexN(x.c1, 48) + hexN(x.c0, 48), // c1 first, as in ZCash encodings
  F: Fp2,
};
const bytes = (h) => Uint8Array.from(Buffer.from(h, "hex"));
const hex = (u8) => Buffer.from(u8).toString("hex");
const point = (G) => ({
  parse: (h) => G.Point.fromBytes(bytes(h)), // also checks curve and subgroup membership
  // noble's arithmetic can yield infinity as any (0, Y, 0), which its encoder refuses: only its
  // ZERO constant serializes.
  enc: (P) => hex((P.is0() ? G.Point.ZERO : P).toBytes(false)),
  compress: (P) => hex((P.is0() ? G.Point.ZERO : P).toBytes(true)),
  // multiply() rejects 0 and values >= r; scalars here are canonical Fr values.
  mul: (P, k) => (k === 0n ? G.Point.ZERO : P.multiply(k)),
});
const g1 = point(G1);
const g2 = point(G2);

// Fp12 = Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - (u + 1)): twelve Fp coefficients, c0.c0.c0 first,
// each Fp2 as c0 then c1.
const fp12 = {
  enc: (x) =>
    [x.c0, x.c1].flatMap((f6) => [f6.c0, f6.c1, f6.c2].flatMap((f2) => [f2.c0, f2.c1])).map(fp.enc).join(""),
  parse: (h) => {
    const c = Array.from({ length: 12 }, (_, i) => big(h.slice(96 * i, 96 * (i + 1))));
    const f2 = (i) => Fp2.create({ c0: c[i], c1: c[i + 1] });
    const f6 = (i) => ({ c0: f2(i), c1: f2(i + 2), c2: f2(i + 4) });
    return Fp12.create({ c0: f6(0), c1: f6(6) });
  },
  F: Fp12,
};

// ---------------------------------------------------------------- the recomputations
// Each returns the expected hex, or null for "no result", from the case's inputs.
const noRoot = (F, a) => {
  try {
    return F.sqrt(a);
  } catch {
    return null; // noble throws on non-squares
  }
};
function fieldOps(t, name) {
  const F = t.F;
  return {
    [`${name}_add`]: ([a, b]) => t.enc(F.add(t.parse(a), t.parse(b))),
    [`${name}_sub`]: ([a, b]) => t.enc(F.sub(t.parse(a), t.parse(b))),
    [`${name}_mul`]: ([a, b]) => t.enc(F.mul(t.parse(a), t.parse(b))),
    [`${name}_sqr`]: ([a]) => t.enc(F.sqr(t.parse(a))),
    [`${name}_neg`]: ([a]) => t.enc(F.neg(t.parse(a))),
    [`${name}_inv`]: ([a]) => t.enc(F.inv(t.parse(a))),
    // Either root is right: accept cuzk's if it is one of noble's two.
    [`${name}_sqrt`]: ([a], got) => {
      const r = noRoot(F, t.parse(a));
      if (r === null) return null;
      const [r1, r2] = [t.enc(r), t.enc(F.neg(r))];
      return got === r2 ? r2 : r1;
    },
  };
}
function pointOps(t, name, G) {
  return {
    [`${name}_add`]: ([a, b]) => t.enc(t.parse(a).add(t.parse(b))),
    [`${name}_add_mixed`]: ([a, b]) => t.enc(t.parse(a).add(t.parse(b))),
    [`${name}_dbl`]: ([a]) => t.enc(t.parse(a).double()),
    [`${name}_neg`]: ([a]) => t.enc(t.parse(a).negate()),
    [`${name}_mul`]: ([a, k]) => t.enc(t.mul(t.parse(a), big(k))),
    [`${name}_compress`]: ([k]) => t.compress(t.mul(G.Point.BASE, big(k))),
    [`${name}_serialize`]: ([k]) => t.enc(t.mul(G.Point.BASE, big(k))),
    [`${name}_decode`]: ([b]) => {
      try {
        return t.enc(G.Point.fromBytes(bytes(b)));
      } catch {
        return null;
      }
    },
  };
}
const ops = {
  ...fieldOps(fp, "fp"),
  ...fieldOps(fr, "fr"),
  ...fieldOps(fp2, "fp2"),
  ...pointOps(g1, "g1", G1),
  ...pointOps(g2, "g2", G2),
  ...fieldOps(fp12, "fp12"),
  fp12_frobenius: ([a, k]) => fp12.enc(Fp12.frobeniusMap(fp12.parse(a), Number(big(k)))),
  // noble refuses infinity in pairings; by definition such a pair contributes one.
  pairing: ([a, b]) => {
    const [P, Q] = [g1.parse(a), g2.parse(b)];
    return fp12.enc(P.is0() || Q.is0() ? Fp12.ONE : bls.pairing(P, Q));
  },
  multi_pairing: (ins) => {
    const pairs = [];
    for (let i = 0; i < ins.length; i += 2) pairs.push({ g1: g1.parse(ins[i]), g2: g2.parse(ins[i + 1]) });
    const live = pairs.filter(({ g1: P, g2: Q }) => !P.is0() && !Q.is0());
    return fp12.enc(live.length ? bls.pairingBatch(live) : Fp12.ONE);
  },
};

// ---------------------------------------------------------------- compare
const counts = new Map();
const mismatches = [];
for (const c of cases) {
  const f = ops[c.op];
  let want;
  if (!f) want = `<unknown op ${c.op}>`;
  else {
    try {
      want = f(c.in, c.out);
    } catch (e) {
      want = `<noble threw: ${e.message}>`;
    }
  }
  const n = counts.get(c.op) ?? { pass: 0, fail: 0, none: 0 };
  if (c.out === null) n.none++;
  if (want === c.out) n.pass++;
  else {
    n.fail++;
    mismatches.push({ ...c, want });
  }
  counts.set(c.op, n);
}

let pass = 0;
let fail = 0;
for (const [op, n] of counts) {
  // "none": cases where the answer is "no result" (no square root, encoding rejected).
  const none = n.none ? ` (${n.none} none)` : "";
  console.log(`  ${op.padEnd(14)} ${String(n.pass).padStart(4)} agree${none}${n.fail ? `, ${n.fail} DIFFER` : ""}`);
  pass += n.pass;
  fail += n.fail;
}
for (const m of mismatches.slice(0, 5)) {
  console.log(`\nMISMATCH ${m.op} (seed ${seed})`);
  m.in.forEach((x, i) => console.log(`  in[${i}]  ${x}`));
  console.log(`  cuzk   ${m.out}`);
  console.log(`  noble  ${m.want}`);
}
console.log(`\ninterop: ${pass} passed, ${fail} failed`);
if (cases.length === 0 || fail) {
  if (fail) console.log(`interop: FAILED; replay with CUZK_INTEROP_SEED=${seed}`);
  else console.log("interop: FAILED: the oracle printed no cases");
  process.exit(1);
}
