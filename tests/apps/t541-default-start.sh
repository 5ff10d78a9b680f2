#!/bin/sh
# The default checkpointing does not stall the start and is not slower than
# revolve.  Here every state fits in the default budget (400 states of
# 0.5 MiB), so store-all is the default unless the first solve's timings (a
# forward step, a state written into untouched and into used memory) predict
# revolve with some slots faster: the view says which and why, and the
# gradient is the same bits either way.  Store-all's set-up, a -log_view
# event of its own (RwStoreSetUp), takes less than two forward steps
# (RwForward) or 2% of the solve, as slots are touched when first stored, not all up front; and
# the progress monitor's first line estimates the solve's time within 3x of
# the time it took.  Only ratios within one run are compared.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"
unset PETSC_OPTIONS
fail() { echo "FAIL $*"; exit 1; }
opts="-da_grid_x 256 -da_grid_y 256 -rw_steps 400 -rw_adjoint_view -rw_adjoint_monitor -rw_adjoint_monitor_seconds 0.1 -log_view"

# the default: chosen by predicted time, and its reasons consistent with its choice
run 1 $opts > "$tmp/default"
choice=$(grep 'default schedule by predicted time:' "$tmp/default") || fail "the view does not say how the default schedule was chosen"
echo "$choice"
type=$(sed -n 's/^ *type: \(storeall\|revolve\)$/\1/p' "$tmp/default" | head -1)
echo "$choice" | awk -v t="$type" '{
  chose = ($6 == "revolve") ? "revolve" : ($6 == "store-all" ? "storeall" : "?")
  for (i = 1; i <= NF; i++) { if ($i == "sweeps") rv = $(i + 1); if ($i == "store-all;") sa = $(i - 3) }
  printf "chose %s (the schedule is %s): revolve %s s, store-all %s s predicted\n", chose, t, rv, sa
  exit !(chose == t && rv > 0 && sa > 0 && ((chose == "revolve") == (1.25 * rv < sa)))
}' || fail "the default's choice does not follow from its own prediction: $choice"

# store-all chosen: the same bits, and a set-up that does not stall
run 1 $opts -rw_schedule_type storeall > "$tmp/out"
grep -q 'type: storeall' "$tmp/out" || fail "-rw_schedule_type storeall did not give store-all"
grep -q 'default schedule by predicted time' "$tmp/out" && fail "a chosen store-all was replaced by the default's choice"
grep '^J \|^norm2_\|^sum_' "$tmp/default" > "$tmp/g1"
grep '^J \|^norm2_\|^sum_' "$tmp/out" > "$tmp/g2"
test -s "$tmp/g1" && cmp "$tmp/g1" "$tmp/g2" || fail "the default's J and gradient differ from store-all's: $(diff "$tmp/g1" "$tmp/g2")"
# the set-up against two forward steps of the same run (steps that first-touch
# their slots: tens of them on this VM) or, where first touches cost little, 2%
# of the solve: the better of two runs, as a set-up of milliseconds (one
# allocation, a vector header a slot) can lose a time slice to the test beside
# it (make -j2 check)
run 1 $opts -rw_schedule_type storeall > "$tmp/out2"
best=""
for f in "$tmp/out" "$tmp/out2"; do
  grep '^RwStoreSetUp\|^RwForward' "$f"
  setup=$(awk '$1 == "RwStoreSetUp" { print $4 }' "$f")
  step=$(awk '$1 == "RwForward" { print $4 / $2 }' "$f")
  test -n "$setup" || fail "-log_view has no RwStoreSetUp event"
  total=$(sed -n 's/^rewind: solve 0 done: [0-9]* steps in \([0-9.e+-]*\) s$/\1/p' "$f")
  r=$(awk -v s="$setup" -v f="$step" -v t="$total" 'BEGIN { printf "%.4g", (s / f < 100 * s / t) ? s / f : 100 * s / t }')
  echo "store set-up $setup s, a forward step $step s, the solve $total s: $r (the smaller of steps and percent of the solve)"
  best=$(awk -v a="$r" -v b="${best:-1e30}" 'BEGIN { print (a < b) ? a : b }')
done
awk -v r="$best" 'BEGIN { exit !(r < 2) }' || fail "store-all's set-up took longer than two forward steps and 2% of the solve in both runs (the better: $best)"
for f in "$tmp/default" "$tmp/out"; do
  first=$(grep -m1 '^rewind: solve 0, ' "$f")
  total=$(sed -n 's/^rewind: solve 0 done: [0-9]* steps in \([0-9.e+-]*\) s$/\1/p' "$f")
  el=$(echo "$first" | sed -n 's/.*, \([0-9.e+-]*\) s elapsed, about \([0-9.e+-]*\) s to go$/\1/p')
  go=$(echo "$first" | sed -n 's/.*, \([0-9.e+-]*\) s elapsed, about \([0-9.e+-]*\) s to go$/\2/p')
  test -n "$el" && test -n "$go" && test -n "$total" || fail "no progress lines in $f"
  awk -v e="$el" -v g="$go" -v t="$total" 'BEGIN { r = (e + g) / t; printf "first progress line: %s + %s s, the solve took %s s: %.2f x\n", e, g, t, r; exit !(r > 1.0 / 3 && r < 3) }' ||
    fail "the first progress line's estimate is not within 3x of the solve's time"
done
echo "ok: the default is chosen by predicted time, starts at once, gives store-all's bits, and its first estimate is within 3x"
