#!/bin/sh
# rewind-schedule: exact actions for tiny cases worked out by hand, the
# summary keys, n = 1e9 from the prediction, -help, and the SVG drawing.
app="$top_builddir/apps/rewind-schedule"
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL: $*"; exit 1; }

# revolve, n = 4, one RAM slot (2 checkpoints with x_0): t = 2, beta(2,1) = 3;
# optimal first checkpoints j in [max(1, 4-3), min(3, 4-2)] = [1, 2]; the
# smallest, 1.  Above it no slot is left: advance to the top each time.
# Forward steps 1 + 2 + 1 + 1 (to x_4) = 5 = p(4,2) + 1 = 2*4 - 4 + 1.
"$app" -rw_steps 4 -rw_schedule_type revolve -rw_schedule_ram_slots 1 -rw_schedule_view_actions > "$tmp/rev.out"
cat > "$tmp/rev.expected" <<'END'
advance 0 1
store ram 1
advance 1 3
reverse 3
restore ram 1
advance 1 2
reverse 2
restore ram 1
free ram 1
reverse 1
restore ram 0
reverse 0
end
END
grep -v '^#' "$tmp/rev.out" | head -n 13 > "$tmp/rev.actions"
diff "$tmp/rev.expected" "$tmp/rev.actions" || fail "revolve n=4 s=1 actions"
for kv in "forward_steps 5" "reverse_steps 4" "stores_ram 1" "restores_ram 3" "stores_disk 0" "restores_disk 0" \
          "predicted_cost 9" "optimal_forward_steps 5" "recompute_ratio 1.250000"; do
  grep -qx "$kv" "$tmp/rev.out" || fail "revolve summary lacks \"$kv\""
done

# storeall, n = 3: x_1 stored on the way up, x_0 is the input
"$app" -rw_steps 3 -rw_schedule_type storeall -rw_schedule_view_actions | grep -v '^#' | head -n 10 > "$tmp/all.actions"
printf 'advance 0 1\nstore ram 1\nadvance 1 2\nreverse 2\nrestore ram 1\nfree ram 1\nreverse 1\nrestore ram 0\nreverse 0\nend\n' > "$tmp/all.expected"
diff "$tmp/all.expected" "$tmp/all.actions" || fail "storeall n=3 actions"

# two levels, n = 4, no RAM to spare, disk writes cheap and reads free: x_2 on disk
"$app" -rw_steps 4 -rw_schedule_type multilevel -rw_schedule_ram_slots 1 -rw_schedule_disk_slots 1 \
       -rw_schedule_costs 1,1,0.1,0 -rw_schedule_view_actions > "$tmp/ml.out"
grep -q '^store disk ' "$tmp/ml.out" || fail "multilevel with cheap disk stores nothing on disk"
grep -q '^# validated' "$tmp/ml.out" || fail "multilevel was not validated"

# n = 1e9 from the prediction: p(1e9, 101) + 1 forward steps
"$app" -rw_steps 1e9 -rw_schedule_ram_slots 100 > "$tmp/big.out"
grep -qx "forward_steps 5893691435" "$tmp/big.out" || fail "n=1e9: $(cat "$tmp/big.out")"
grep -qx "optimal_forward_steps 5893691435" "$tmp/big.out" || fail "n=1e9 optimal"

# -help lists the options
"$app" -help > "$tmp/help.out" 2>&1 || true
for opt in -rw_steps -rw_schedule_type -rw_schedule_ram_slots -rw_schedule_disk_slots -rw_checkpoint_ram \
           -rw_checkpoint_disk -rw_schedule_costs -rw_schedule_view_actions -rw_schedule_view_draw; do
  grep -q -- "$opt" "$tmp/help.out" || fail "-help does not list $opt"
done

# a drawing
"$app" -rw_steps 40 -rw_schedule_type multilevel -rw_schedule_ram_slots 3 -rw_schedule_disk_slots 2 \
       -rw_schedule_costs 1,1,0.5,0.5 -rw_schedule_view_draw "$tmp/s.svg" > /dev/null
head -n 1 "$tmp/s.svg" | grep -q '^<?xml' || fail "no SVG header"
grep -q '<svg' "$tmp/s.svg" && grep -q '</svg>' "$tmp/s.svg" || fail "SVG not closed"
grep -q 'store on disk' "$tmp/s.svg" || fail "SVG has no legend"
grep -q '<rect x=' "$tmp/s.svg" || fail "SVG shows no disk checkpoint"

# bad input stops with the option named
if "$app" -rw_steps 0 > "$tmp/bad.out" 2>&1; then fail "-rw_steps 0 accepted"; fi
grep -qF -- "-rw_steps 0: expected a finite number in [1, 9e+18)" "$tmp/bad.out" || fail "-rw_steps 0: $(cat "$tmp/bad.out")"
echo "rewind-schedule: all checks passed"
