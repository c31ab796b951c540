#!/usr/bin/env bash
# PoRep C2 of the sealed 2 KiB test sector from its C1 JSON: proved (after the vanilla check),
# verified against the official-name .vk with inputs derived from the C1 and the sector's ids; a
# tampered proof, another sector id, and a tampered C1 are refused.
source "$(dirname "$0")/common.sh"
miner=$(sector_value miner_id)
id=$(sector_value sector_id)
c1=$sector/c1.json
proof=$work/porep.proof
expect_exit 0 "prove" "$cuzk" prove-porep -q --c1 "$c1" --miner-id "$miner" --sector-id "$id" \
  --param-dir "$params" --proof-out "$proof"
[ "$(stat -c %s "$proof")" -eq 192 ] || { echo "FAIL: a 2 KiB PoRep proof is 192 bytes" >&2; exit 1; }
expect_exit 0 "verify" "$cuzk" verify-porep --c1 "$c1" --miner-id "$miner" --sector-id "$id" \
  --param-dir "$params" --proof-in "$proof"
expect_exit 0 "verify with Curio's wrapper" "$cuzk" verify-porep --c1 "$sector/c1.curio.json" \
  --miner-id "$miner" --param-dir "$params" --proof-in "$proof"
expect_exit 3 "verify as another sector" "$cuzk" verify-porep --c1 "$c1" --miner-id "$miner" \
  --sector-id $((id + 1)) --param-dir "$params" --proof-in "$proof"
expect_exit 3 "verify as another miner" "$cuzk" verify-porep --c1 "$c1" --miner-id $((miner + 1)) \
  --sector-id "$id" --param-dir "$params" --proof-in "$proof"
flip_byte "$proof" "$work/tampered.proof" 150
expect_exit 3 "verify tampered proof bytes" "$cuzk" verify-porep --c1 "$c1" --param-dir "$params" \
  --proof-in "$work/tampered.proof"
head -c 100 "$proof" > "$work/short.proof"
expect_exit 1 "verify a truncated proof file" "$cuzk" verify-porep --c1 "$c1" --param-dir "$params" \
  --proof-in "$work/short.proof"
# A C1 whose comm_r is changed: the prover refuses it, naming comm_r; the verifier's inputs change.
python3 - "$c1" "$work/tampered_c1.json" <<'PY'
import json, sys
c1 = json.load(open(sys.argv[1]))
c1["comm_r"][0] ^= 1
open(sys.argv[2], "w").write(json.dumps(c1, separators=(",", ":")))
PY
expect_exit 1 "prove a C1 with another comm_r" "$cuzk" prove-porep -q --c1 "$work/tampered_c1.json" \
  --param-dir "$params" --proof-out "$work/x.proof"
grep -q "comm_r" "$work/out"
expect_exit 3 "verify against a C1 with another comm_r" "$cuzk" verify-porep --c1 "$work/tampered_c1.json" \
  --param-dir "$params" --proof-in "$proof"
# A C1 whose first tree_d leaf is changed: refused before proving.
python3 - "$c1" "$work/tampered_leaf.json" <<'PY'
import json, sys
c1 = json.load(open(sys.argv[1]))
proofs = next(iter(c1["vanilla_proofs"].values()))
proofs[0][0]["comm_d_proofs"]["data"]["Single"]["leaf"][0] ^= 1
open(sys.argv[2], "w").write(json.dumps(c1, separators=(",", ":")))
PY
expect_exit 1 "prove a C1 with a tampered leaf" "$cuzk" prove-porep -q --c1 "$work/tampered_leaf.json" \
  --param-dir "$params" --proof-out "$work/x.proof"
expect_exit 1 "prove with missing parameters" "$cuzk" prove-porep -q --c1 "$c1" --param-dir "$work/none" \
  --proof-out "$work/x.proof"
grep -q "cuzk setup --filecoin porep-2k" "$work/out"
# Through the C ABI (examples/c/prove_filecoin.c), checked by the command line verifier.
if [ -n "${CUZK_EXAMPLE_FILECOIN:-}" ]; then
  prover=$(sector_value prover_id)
  expect_exit 0 "prove through the C ABI" env FIL_PROOFS_PARAMETER_CACHE="$params" \
    "$CUZK_EXAMPLE_FILECOIN" porep "$work/c.proof" "$c1" "$prover" "$id"
  expect_exit 0 "verify the C ABI's proof" "$cuzk" verify-porep --c1 "$c1" --prover-id "$prover" \
    --sector-id "$id" --param-dir "$params" --proof-in "$work/c.proof"
fi
echo "porep e2e: passed"
