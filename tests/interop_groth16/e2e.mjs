// End-to-end Groth16 interop between cuzk, snarkjs and @noble/curves on circom circuits compiled
// for BLS12-381 (fixtures: tests/data/circom/<name>/, made by tests/data/circom/make_fixtures.sh).
//
// Usage: node e2e.mjs <case> <path to cuzk> <fixture folder>
//   zkey-proof     cuzk proves from snarkjs's .zkey + .wtns (twice: fresh randomness); `snarkjs groth16
//                  verify`, noble and `cuzk verify --vk-json` accept; tampered variants are rejected by all.
//   snarkjs-proof  snarkjs's own proof.json: `cuzk verify --vk-json` and noble accept; tampered variants
//                  are rejected by cuzk (exit 3), snarkjs and noble.
//   bellman-proof  `cuzk setup --r1cs` + `cuzk prove --params --r1cs --wtns` -> a 192-byte proof that a
//                  verifier written here on @noble/curves and `cuzk verify --vk` accept; tampered rejected.
//   bad-witness    a .wtns with one value changed: `cuzk prove` (zkey and params paths) exits 1 naming the
//                  first unsatisfied constraint, which this script finds independently from the .r1cs.
// Tampered variants: a point negated or swapped (still valid points), a coordinate or bit changed
// (no longer a point of the group), a public input + 1. cuzk verify must exit 3 for each; snarkjs
// (in-process groth16.verify, the function its CLI calls) and noble must say false or refuse.
// Exits 0 when every check passes, 1 otherwise (listing the failed checks). Files go to a temporary
// folder, kept and printed on failure.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const modules = join(here, "..", "interop", "node_modules");
let bls, snarkjs;
try {
  ({ bls12_381: bls } = await import(join(modules, "@noble/curves/bls12-381.js")));
  snarkjs = await import(join(modules, "snarkjs/main.js"));
} catch (e) {
  console.error(`interop: cannot load @noble/curves or snarkjs from ${modules} (${e.code ?? e.message}).`);
  console.error("interop: the npm packages are missing; install them with: bash tools/setup.sh");
  process.exit(1);
}
const snarkjsCli = join(modules, "snarkjs", "cli.js");

const [which, cuzk, fixture] = process.argv.slice(2);
if (!which || !cuzk || !fixture) {
  console.error("usage: node e2e.mjs <zkey-proof|snarkjs-proof|bellman-proof|bad-witness> <cuzk> <fixture folder>");
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), "cuzk-e2e-"));
const fx = (f) => join(fixture, f);
const wk = (f) => join(work, f);
const readJson = (f) => JSON.parse(readFileSync(f, "utf8"));
const writeJson = (f, v) => writeFileSync(f, JSON.stringify(v, null, 1));

// ------------------------------------------------------------------------------------ checks
const failures = [];
function check(ok, what, detail = "") {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${!ok && detail ? `\n     ${detail.trim().replace(/\n/g, "\n     ")}` : ""}`);
  if (!ok) failures.push(what);
  return ok;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  return { status: r.status, out: (r.stdout ?? "") + (r.stderr ?? ""), line: `${cmd} ${args.join(" ")}` };
}
function cuzkRun(...args) {
  return run(cuzk, args);
}
// Runs a cuzk command that must succeed; stops the case if it does not (later checks need its files).
function cuzkOk(what, ...args) {
  const r = cuzkRun(...args);
  if (!check(r.status === 0, what, `${r.line}\nexit ${r.status}\n${r.out}`)) finish();
  return r;
}

// ------------------------------------------------------------------------------------ verifiers
const { G1, G2, fields } = bls;
const { Fp, Fp2, Fp12, Fr } = fields;

// The `snarkjs groth16 verify` command itself: true on "OK!" (exit 0), false on "Invalid proof".
function snarkjsCliVerify(vk, pub, proof) {
  const r = run(process.execPath, [snarkjsCli, "groth16", "verify", vk, pub, proof]);
  if (r.status === 0 && /OK!/.test(r.out)) return true;
  if (r.status !== 0 && /Invalid proof/.test(r.out)) return false;
  throw new Error(`unexpected snarkjs output (exit ${r.status}): ${r.out}`);
}
// The function that command calls, in-process (one curve set-up for all the tampered variants).
async function snarkjsVerify(vk, pub, proof) {
  return snarkjs.groth16.verify(vk, pub, proof, { info() {}, warn() {}, debug() {}, error() {} });
}

// Groth16 check: e(-A, B) · e(α, β) · e(Σ x_i·IC_i, γ) · e(C, δ) == 1 (formats.md §3.4, appendices A/B).
function pairingCheck(vk, A, B, C, inputs) {
  if (inputs.length + 1 !== vk.ic.length) throw new Error(`${inputs.length} inputs, IC has ${vk.ic.length} points`);
  let acc = vk.ic[0];
  inputs.forEach((x, i) => {
    if (x < 0n || x >= Fr.ORDER) throw new Error("public input out of range");
    if (x !== 0n) acc = acc.add(vk.ic[i + 1].multiply(x));
  });
  for (const P of [A, B, C]) {
    P.assertValidity();  // on the curve and in the subgroup
    if (P.is0()) throw new Error("point at infinity");
  }
  const gt = bls.pairingBatch([
    { g1: A.negate(), g2: B },
    { g1: vk.alpha, g2: vk.beta },
    { g1: acc, g2: vk.gamma },
    { g1: C, g2: vk.delta },
  ]);
  return Fp12.eql(gt, Fp12.ONE);
}

// snarkjs JSON (decimal affine coordinates, Fq2 as [c0, c1], formats.md §4.9).
const jsonG1 = (a) => G1.Point.fromAffine({ x: Fp.create(BigInt(a[0])), y: Fp.create(BigInt(a[1])) });
const jsonG2 = (a) =>
  G2.Point.fromAffine({
    x: Fp2.create({ c0: BigInt(a[0][0]), c1: BigInt(a[0][1]) }),
    y: Fp2.create({ c0: BigInt(a[1][0]), c1: BigInt(a[1][1]) }),
  });
function nobleVerifyJson(vkJson, pub, proof) {
  try {
    for (const c of [...proof.pi_a, ...proof.pi_c, ...proof.pi_b.flat()])
      if (BigInt(c) >= Fp.ORDER) throw new Error("coordinate >= p");
    const vk = {
      alpha: jsonG1(vkJson.vk_alpha_1), beta: jsonG2(vkJson.vk_beta_2),
      gamma: jsonG2(vkJson.vk_gamma_2), delta: jsonG2(vkJson.vk_delta_2), ic: vkJson.IC.map(jsonG1),
    };
    return pairingCheck(vk, jsonG1(proof.pi_a), jsonG2(proof.pi_b), jsonG1(proof.pi_c), pub.map(BigInt));
  } catch (e) {
    return `rejected: ${e.message}`;
  }
}

// bellman .vk (ZCash uncompressed points, u32 big-endian IC count, formats.md §2.1) and a 192-byte
// proof: A (G1 compressed) ‖ B (G2 compressed) ‖ C (G1 compressed) (§2.5).
function readBellmanVk(bytes) {
  let p = 0;
  const g1 = () => G1.Point.fromBytes(bytes.subarray(p, (p += 96)));
  const g2 = () => G2.Point.fromBytes(bytes.subarray(p, (p += 192)));
  const vk = { alpha: g1(), beta1: g1(), beta: g2(), gamma: g2(), delta1: g1(), delta: g2() };
  const n = bytes.readUInt32BE(p);
  p += 4;
  vk.ic = Array.from({ length: n }, g1);
  if (p !== bytes.length) throw new Error(`vk: ${bytes.length - p} trailing bytes`);
  return vk;
}
function nobleVerifyBellman(vk, proof, pub) {
  try {
    if (proof.length !== 192) throw new Error(`proof has ${proof.length} bytes`);
    const A = G1.Point.fromBytes(proof.subarray(0, 48));
    const B = G2.Point.fromBytes(proof.subarray(48, 144));
    const C = G1.Point.fromBytes(proof.subarray(144, 192));
    return pairingCheck(vk, A, B, C, pub.map(BigInt));
  } catch (e) {
    return `rejected: ${e.message}`;
  }
}

// ------------------------------------------------------------------------------------ tampering
const P = Fp.ORDER, R = Fr.ORDER;
// Proof.json variants. "negate A" and "C := A" keep valid points (only the pairing can reject
// them); "B off the curve" does not decode as a point.
function tamperedJsonProofs(proof) {
  const copy = () => JSON.parse(JSON.stringify(proof));
  const neg = copy();
  neg.pi_a[1] = (P - BigInt(neg.pi_a[1])).toString();
  const swap = copy();
  swap.pi_c = [...proof.pi_a];
  const off = copy();
  off.pi_b[0][0] = ((BigInt(off.pi_b[0][0]) + 1n) % P).toString();
  return [["pi_a negated", neg], ["pi_c replaced by pi_a", swap], ["pi_b.x + 1 (not on the curve)", off]];
}
function tamperedPublics(pub) {
  const first = [...pub];
  first[0] = ((BigInt(first[0]) + 1n) % R).toString();
  const last = [...pub];
  last[last.length - 1] = ((BigInt(last[last.length - 1]) + 1n) % R).toString();
  const out = [["public[0] + 1", first]];
  if (pub.length > 1) out.push([`public[${pub.length - 1}] + 1`, last]);
  return out;
}
// 192-byte proof variants: flipping the sort flag of A negates it (valid point); a flipped bit in
// B's or C's x coordinate gives bytes that are not a point of the subgroup.
function tamperedBellmanProofs(bytes) {
  const flip = (i, mask) => {
    const b = Buffer.from(bytes);
    b[i] ^= mask;
    return b;
  };
  return [["A's sign flag flipped (A negated)", flip(0, 0x20)], ["bit flipped in B.x (not a G2 point)", flip(100, 0x04)],
          ["bit flipped in C.x (not a G1 point)", flip(191, 0x01)]];
}

// cuzk verify must answer "invalid" (exit 3) for every tampered proof, also one whose points do not
// decode (snarkjs too calls such a proof invalid): exit 1 is for inputs that cannot be read at all.
function expectCuzkRejects(what, r) {
  check(r.status === 3, `cuzk verify rejects: ${what} (exit ${r.status}, want 3)`,
        `${r.line}\n${r.out.trimEnd()}${r.status === 1 ? "\n(exit 1 means an input error; a proof that is not a valid point is an invalid proof: 3)" : ""}`);
}

// ------------------------------------------------------------------------------------ r1cs / wtns
// iden3 container (formats.md §4.3): magic, version, sections of (u32 type, u64 size, bytes).
function sections(buf) {
  const out = new Map();
  let p = 12;
  for (let i = 0, n = buf.readUInt32LE(8); i < n; ++i) {
    const type = buf.readUInt32LE(p), size = Number(buf.readBigUInt64LE(p + 4));
    out.set(type, { start: p + 12, end: p + 12 + size });
    p += 12 + size;
  }
  return out;
}
const leBig = (b) => BigInt("0x" + (Buffer.from(b).reverse().toString("hex") || "0"));
const bigLe = (x, n) => Buffer.from(x.toString(16).padStart(2 * n, "0"), "hex").reverse();

function readWtns(buf) {
  const s = sections(buf), h = s.get(1), d = s.get(2);
  const n8 = buf.readUInt32LE(h.start), n = buf.readUInt32LE(h.start + 4 + n8);
  const at = (i) => d.start + i * n8;
  return { n8, values: Array.from({ length: n }, (_, i) => leBig(buf.subarray(at(i), at(i) + n8))), at };
}
function readR1cs(buf) {
  const s = sections(buf), h = s.get(1);
  let p = h.start;
  const n8 = buf.readUInt32LE(p);
  p += 4 + n8;
  const [nWires, nPubOut, nPubIn, nPrvIn] = [0, 1, 2, 3].map((i) => buf.readUInt32LE(p + 4 * i));
  const nConstraints = buf.readUInt32LE(p + 24);
  p = s.get(2).start;
  const lc = () => {
    const terms = [];
    for (let k = 0, n = buf.readUInt32LE((p += 4) - 4); k < n; ++k, p += 4 + n8)
      terms.push([buf.readUInt32LE(p), leBig(buf.subarray(p + 4, p + 4 + n8))]);
    return terms;
  };
  const constraints = Array.from({ length: nConstraints }, () => [lc(), lc(), lc()]);
  return { nWires, nPublic: nPubOut + nPubIn, nPrvIn, constraints };
}
function firstUnsatisfied(r1cs, w) {
  const dot = (terms) => terms.reduce((acc, [i, c]) => (acc + c * w[i]) % R, 0n);
  return r1cs.constraints.findIndex(([a, b, c]) => (dot(a) * dot(b)) % R !== dot(c));
}

// ------------------------------------------------------------------------------------ cases
async function zkeyProof() {
  const vk = fx("verification_key.json");
  const pubRef = readJson(fx("public.json"));
  const proofs = [];
  for (const k of [1, 2]) {
    cuzkOk(`cuzk prove --zkey (run ${k})`, "prove", "-q", "--zkey", fx("circuit.zkey"), "--wtns", fx("witness.wtns"),
           "--r1cs", fx("circuit.r1cs"), "--proof", wk(`proof${k}.json`), "--public", wk(`public${k}.json`));
    const pub = readJson(wk(`public${k}.json`));
    check(JSON.stringify(pub) === JSON.stringify(pubRef), `cuzk's public.json equals snarkjs's (run ${k})`,
          `${JSON.stringify(pub)} vs ${JSON.stringify(pubRef)}`);
    const proof = readJson(wk(`proof${k}.json`));
    check(proof.protocol === "groth16" && proof.curve === "bls12381", `proof.json names groth16/bls12381 (run ${k})`);
    check(snarkjsCliVerify(vk, wk(`public${k}.json`), wk(`proof${k}.json`)),
          `\`snarkjs groth16 verify\` accepts cuzk's proof (run ${k})`);
    check(nobleVerifyJson(readJson(vk), pubRef, proof) === true, `noble accepts cuzk's proof.json (run ${k})`);
    const r = cuzkRun("verify", "--vk-json", vk, "--proof", wk(`proof${k}.json`), "--public", wk(`public${k}.json`));
    check(r.status === 0, `cuzk verify --vk-json accepts cuzk's proof (run ${k})`, `${r.line}\n${r.out}`);
    proofs.push(proof);
  }
  check(JSON.stringify(proofs[0]) !== JSON.stringify(proofs[1]), "two proofs differ (fresh r, s each run)");
  await rejectTamperedJson("cuzk's proof", proofs[0], pubRef);
}

async function snarkjsProof() {
  const proof = readJson(fx("proof.json")), pub = readJson(fx("public.json"));
  const r = cuzkRun("verify", "--vk-json", fx("verification_key.json"), "--proof", fx("proof.json"),
                    "--public", fx("public.json"));
  check(r.status === 0 && /OK/.test(r.out), "cuzk verify --vk-json accepts snarkjs's proof", `${r.line}\n${r.out}`);
  check(nobleVerifyJson(readJson(fx("verification_key.json")), pub, proof) === true, "noble accepts snarkjs's proof");
  check(await snarkjsVerify(readJson(fx("verification_key.json")), pub, proof), "snarkjs accepts its own proof");
  await rejectTamperedJson("snarkjs's proof", proof, pub);
}

async function rejectTamperedJson(whose, proof, pub) {
  const vkJson = readJson(fx("verification_key.json"));
  const variants = [
    ...tamperedJsonProofs(proof).map(([what, p]) => [what, p, pub]),
    ...tamperedPublics(pub).map(([what, x]) => [what, proof, x]),
  ];
  for (const [what, p, x] of variants) {
    const label = `${whose}, ${what}`;
    writeJson(wk("bad_proof.json"), p);
    writeJson(wk("bad_public.json"), x);
    let verdict;
    try {
      verdict = await snarkjsVerify(vkJson, x, p);
    } catch (e) {
      verdict = `threw ${e.message}`;
    }
    check(verdict !== true, `snarkjs rejects: ${label}`);
    const noble = nobleVerifyJson(vkJson, x, p);
    check(noble !== true, `noble rejects: ${label}${noble === false ? "" : ` (${noble})`}`);
    expectCuzkRejects(label, cuzkRun("verify", "--vk-json", fx("verification_key.json"), "--proof",
                                     wk("bad_proof.json"), "--public", wk("bad_public.json")));
  }
}

async function bellmanProof() {
  cuzkOk("cuzk setup --r1cs", "setup", "-q", "--r1cs", fx("circuit.r1cs"), "--params", wk("c.params"), "--vk", wk("c.vk"));
  cuzkOk("cuzk prove --params --r1cs --wtns", "prove", "-q", "--params", wk("c.params"), "--r1cs", fx("circuit.r1cs"),
         "--wtns", fx("witness.wtns"), "--proof", wk("proof.bin"), "--public", wk("public.json"));
  const proof = readFileSync(wk("proof.bin"));
  const pub = readJson(wk("public.json"));
  check(proof.length === 192, `bellman proof is 192 bytes (${proof.length})`);
  check(JSON.stringify(pub) === JSON.stringify(readJson(fx("public.json"))), "public inputs equal snarkjs's public.json");
  const vk = readBellmanVk(readFileSync(wk("c.vk")));
  check(vk.ic.length === pub.length + 1, `vk has ${vk.ic.length} IC points for ${pub.length} public inputs`);
  const ok = nobleVerifyBellman(vk, proof, pub);
  check(ok === true, "noble accepts cuzk's bellman proof", String(ok));
  let r = cuzkRun("verify", "--vk", wk("c.vk"), "--proof", wk("proof.bin"), "--public", wk("public.json"));
  check(r.status === 0, "cuzk verify --vk accepts it", `${r.line}\n${r.out}`);
  r = cuzkRun("verify", "--params", wk("c.params"), "--proof", wk("proof.bin"), "--public", wk("public.json"));
  check(r.status === 0, "cuzk verify --params accepts it", `${r.line}\n${r.out}`);

  const variants = [
    ...tamperedBellmanProofs(proof).map(([what, p]) => [what, p, pub]),
    ...tamperedPublics(pub).map(([what, x]) => [what, proof, x]),
  ];
  for (const [what, p, x] of variants) {
    writeFileSync(wk("bad_proof.bin"), p);
    writeJson(wk("bad_public.json"), x);
    const noble = nobleVerifyBellman(vk, p, x);
    check(noble !== true, `noble rejects: ${what}${noble === false ? "" : ` (${noble})`}`);
    expectCuzkRejects(what, cuzkRun("verify", "--vk", wk("c.vk"), "--proof", wk("bad_proof.bin"), "--public",
                                    wk("bad_public.json")));
  }
}

async function badWitness() {
  const r1cs = readR1cs(readFileSync(fx("circuit.r1cs")));
  const buf = Buffer.from(readFileSync(fx("witness.wtns")));
  const wtns = readWtns(buf);
  check(wtns.values.length === r1cs.nWires, `witness has ${wtns.values.length} values for ${r1cs.nWires} wires`);
  check(firstUnsatisfied(r1cs, wtns.values) === -1, "the fixture's witness satisfies every constraint (checked here)");
  // One private wire changed by one: the last one whose change breaks a constraint other than the
  // first (so that a message naming constraint 0 by accident fails), else the first private input.
  const bump = (i) => {
    const w = [...wtns.values];
    w[i] = (w[i] + 1n) % R;
    return w;
  };
  let wire = r1cs.nPublic + 1;
  for (let i = r1cs.nWires - 1; i > r1cs.nPublic; --i)
    if (firstUnsatisfied(r1cs, bump(i)) > 0) {
      wire = i;
      break;
    }
  const w = bump(wire);
  bigLe(w[wire], wtns.n8).copy(buf, wtns.at(wire));
  writeFileSync(wk("bad.wtns"), buf);
  check(JSON.stringify(readWtns(buf).values.map(String)) === JSON.stringify(w.map(String)), "bad.wtns holds the changed witness");
  const bad = firstUnsatisfied(r1cs, w);
  check(bad >= 0, `wire ${wire} + 1 breaks constraint ${bad} (checked here)`);
  if (bad < 0) finish();
  const names = new RegExp(`does not satisfy constraint ${bad}\\b`);

  let r = cuzkRun("prove", "-q", "--zkey", fx("circuit.zkey"), "--r1cs", fx("circuit.r1cs"), "--wtns", wk("bad.wtns"),
                  "--proof", wk("p.json"));
  check(r.status === 1 && names.test(r.out), `cuzk prove --zkey --r1cs: exit 1 naming constraint ${bad}`,
        `${r.line}\nexit ${r.status}\n${r.out}`);
  r = cuzkRun("prove", "-q", "--zkey", fx("circuit.zkey"), "--wtns", wk("bad.wtns"), "--proof", wk("p.json"));
  check(r.status === 1 && /does not satisfy/.test(r.out), "cuzk prove --zkey (no --r1cs): exit 1, witness does not satisfy",
        `${r.line}\nexit ${r.status}\n${r.out}`);
  cuzkOk("cuzk setup --r1cs", "setup", "-q", "--r1cs", fx("circuit.r1cs"), "--params", wk("c.params"));
  r = cuzkRun("prove", "-q", "--params", wk("c.params"), "--r1cs", fx("circuit.r1cs"), "--wtns", wk("bad.wtns"),
              "--proof", wk("p.bin"));
  check(r.status === 1 && names.test(r.out), `cuzk prove --params --r1cs: exit 1 naming constraint ${bad}`,
        `${r.line}\nexit ${r.status}\n${r.out}`);
}

function finish() {
  if (failures.length) {
    console.log(`\n${failures.length} check(s) failed in ${which} (${fixture}); files kept in ${work}`);
    process.exit(1);
  }
  rmSync(work, { recursive: true, force: true });
  console.log(`\n${which} (${fixture}): all checks passed`);
  process.exit(0);  // also ends snarkjs's curve worker threads
}

const cases = { "zkey-proof": zkeyProof, "snarkjs-proof": snarkjsProof, "bellman-proof": bellmanProof,
                "bad-witness": badWitness };
if (!cases[which]) {
  console.error(`unknown case ${which}; one of: ${Object.keys(cases).join(", ")}`);
  process.exit(2);
}
try {
  await cases[which]();
} catch (e) {
  check(false, `${which}: ${e.stack ?? e}`);
}
finish();
