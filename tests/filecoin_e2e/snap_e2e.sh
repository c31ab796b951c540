#!/usr/bin/env bash
# SnapDeals of the sealed 2 KiB test sector, updated with new data: proved from its vanilla
# partition proofs, verified against the official-name .vk with the three commitments; another
# comm_r_new, tampered proof bytes and a tampered vanilla proof are refused.
source "$(dirname "$0")/common.sh"
type=$(sector_value update.proof_type)
old=$(sector_value update.comm_r_old)
d_new=$(sector_value update.comm_d_new)
r_new=$(sector_value update.comm_r_new)
vanilla=()
for f in $(python3 -c "import json,sys; print(' '.join(json.load(open(sys.argv[1]))['update']['vanilla']))" \
  "$sector/sector.json"); do
  vanilla+=("$sector/$f")
done
proof=$work/update.proof
expect_exit 0 "prove" "$cuzk" prove-update -q --proof "$type" --vanilla "${vanilla[@]}" --comm-r-old "$old" \
  --comm-d-new "$d_new" --comm-r-new "$r_new" --param-dir "$params" --proof-out "$proof"
expect_exit 0 "verify" "$cuzk" verify-update --proof "$type" --vanilla "${vanilla[@]}" --comm-r-old "$old" \
  --comm-d-new "$d_new" --comm-r-new "$r_new" --param-dir "$params" --proof-in "$proof"
expect_exit 3 "verify with another comm_r_new" "$cuzk" verify-update --proof "$type" --vanilla "${vanilla[@]}" \
  --comm-r-old "$old" --comm-d-new "$d_new" --comm-r-new "$old" --param-dir "$params" --proof-in "$proof"
flip_byte "$proof" "$work/tampered.proof" 60
expect_exit 3 "verify tampered proof bytes" "$cuzk" verify-update --proof "$type" --vanilla "${vanilla[@]}" \
  --comm-r-old "$old" --comm-d-new "$d_new" --comm-r-new "$r_new" --param-dir "$params" \
  --proof-in "$work/tampered.proof"
# An apex leaf changed (bytes 32 + 8: after comm_c and the count): refused before proving.
flip_byte "${vanilla[0]}" "$work/tampered.vproof" 40
expect_exit 1 "prove a tampered vanilla proof" "$cuzk" prove-update -q --proof "$type" \
  --vanilla "$work/tampered.vproof" --comm-r-old "$old" --comm-d-new "$d_new" --comm-r-new "$r_new" \
  --param-dir "$params" --proof-out "$work/x.proof"
echo "snap e2e: passed"
