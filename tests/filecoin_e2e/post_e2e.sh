#!/usr/bin/env bash
# WindowPoSt and WinningPoSt of the sealed 2 KiB test sector, from its vanilla proofs: proved,
# verified against the official-name .vk, and refused with another randomness or tampered bytes.
source "$(dirname "$0")/common.sh"
r=$(sector_value post_randomness)
id=$(sector_value sector_id)
for kind in window winning; do
  type=$(sector_value "${kind}_post.proof_type")
  vanilla=$sector/$(sector_value "${kind}_post.vanilla")
  proof=$work/$kind.proof
  expect_exit 0 "$kind: prove" "$cuzk" prove-post -q --kind "$kind" --proof "$type" --randomness "$r" \
    --vanilla "$vanilla" --param-dir "$params" --proof-out "$proof"
  [ "$(stat -c %s "$proof")" -eq 192 ] || { echo "FAIL: $kind proof is not 192 bytes" >&2; exit 1; }
  expect_exit 0 "$kind: verify" "$cuzk" verify-post --kind "$kind" --proof "$type" --randomness "$r" \
    --vanilla "$vanilla" --param-dir "$params" --proof-in "$proof"
  other=$(printf '%064x' "$id")
  expect_exit 3 "$kind: verify with another randomness" "$cuzk" verify-post --kind "$kind" --proof "$type" \
    --randomness "$other" --vanilla "$vanilla" --param-dir "$params" --proof-in "$proof"
  flip_byte "$proof" "$work/tampered.proof" 100
  expect_exit 3 "$kind: verify tampered proof bytes" "$cuzk" verify-post --kind "$kind" --proof "$type" \
    --randomness "$r" --vanilla "$vanilla" --param-dir "$params" --proof-in "$work/tampered.proof"
  # The vanilla proof at another randomness is refused before proving, naming the challenge.
  expect_exit 1 "$kind: prove with another randomness" "$cuzk" prove-post -q --kind "$kind" --proof "$type" \
    --randomness "$other" --vanilla "$vanilla" --param-dir "$params" --proof-out "$work/x.proof"
  grep -q "challenge" "$work/out"
done
# Through the C ABI (examples/c/prove_filecoin.c), checked by the command line verifier (WindowPoSt:
# WinningPoSt takes the same call).
if [ -n "${CUZK_EXAMPLE_FILECOIN:-}" ]; then
  for kind in window; do
    pid=$(sector_value "${kind}_post.proof_id")
    vanilla=$sector/$(sector_value "${kind}_post.vanilla")
    expect_exit 0 "$kind: prove through the C ABI" env FIL_PROOFS_PARAMETER_CACHE="$params" \
      "$CUZK_EXAMPLE_FILECOIN" "$kind" "$work/c.proof" "$pid" "$r" "$vanilla"
    expect_exit 0 "$kind: verify the C ABI's proof" "$cuzk" verify-post --kind "$kind" --proof "$pid" \
      --randomness "$r" --vanilla "$vanilla" --param-dir "$params" --proof-in "$work/c.proof"
  done
fi
# Through the daemon: `cuzk remote-prove` uploads the vanilla proof; cuzkd finds the parameters by
# official name in its $FIL_PROOFS_PARAMETER_CACHE.
if [ -n "${CUZKD:-}" ]; then
  FIL_PROOFS_PARAMETER_CACHE="$params" "$CUZKD" --listen "unix://$work/d.sock" --journal "$work/j.db" \
    --spool-dir "$work/spool" >"$work/cuzkd.log" 2>&1 &
  daemon=$!
  trap 'kill $daemon 2>/dev/null; rm -rf "$work"' EXIT
  for _ in $(seq 100); do [ -S "$work/d.sock" ] && break; sleep 0.1; done
  type=$(sector_value window_post.proof_type)
  vanilla=$sector/$(sector_value window_post.vanilla)
  expect_exit 0 "window: prove on cuzkd" "$cuzk" remote-prove -d "unix://$work/d.sock" --kind window-post \
    --proof-type "$type" --randomness "$r" --vanilla "$vanilla" --proof "$work/d.proof"
  expect_exit 0 "window: verify cuzkd's proof" "$cuzk" verify-post --kind window --proof "$type" \
    --randomness "$r" --vanilla "$vanilla" --param-dir "$params" --proof-in "$work/d.proof"
  expect_exit 1 "window: cuzkd refuses a WinningPoSt job of a WindowPoSt proof" "$cuzk" submit \
    -d "unix://$work/d.sock" --kind winning-post --proof-type 0 --randomness "$r" --vanilla "$vanilla"
  grep -q "expected 66" "$work/out"
fi
echo "post e2e: passed"
