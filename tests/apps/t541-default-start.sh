#!/bin/sh
# The default checkpoint budget (store-all here: 400 states of 0.5 MiB fit)
# does not stall the start: its set-up, a -log_view event of its own
# (RwStoreSetUp), takes less than two forward steps (RwForward), as slots
# are touched when first stored, not all up front; and the progress
# monitor's first line estimates the solve's time within 3x of the time it
# took.  Only ratios within one run are compared.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"
unset PETSC_OPTIONS
fail() { echo "FAIL $*"; exit 1; }
run 1 -da_grid_x 256 -da_grid_y 256 -rw_steps 400 -rw_adjoint_view -rw_adjoint_monitor -rw_adjoint_monitor_seconds 0.1 -log_view > "$tmp/out"
grep -q 'type: storeall' "$tmp/out" || fail "the default schedule of this run is not storeall: $(grep 'type:' "$tmp/out")"
grep '^RwStoreSetUp\|^RwForward\|^rewind: solve' "$tmp/out" | sed -n '1,2p;$p'
grep '^RwStoreSetUp\|^RwForward' "$tmp/out"
setup=$(awk '$1 == "RwStoreSetUp" { print $4 }' "$tmp/out")
step=$(awk '$1 == "RwForward" { print $4 / $2 }' "$tmp/out")
test -n "$setup" || fail "-log_view has no RwStoreSetUp event"
awk -v s="$setup" -v f="$step" 'BEGIN { printf "store set-up %.3g s, a forward step %.3g s: %.2f steps\n", s, f, s / f; exit !(s < 2 * f) }' ||
  fail "the default budget's set-up took longer than two forward steps"
first=$(grep -m1 '^rewind: solve 0, ' "$tmp/out")
total=$(sed -n 's/^rewind: solve 0 done: [0-9]* steps in \([0-9.e+-]*\) s$/\1/p' "$tmp/out")
el=$(echo "$first" | sed -n 's/.*, \([0-9.e+-]*\) s elapsed, about \([0-9.e+-]*\) s to go$/\1/p')
go=$(echo "$first" | sed -n 's/.*, \([0-9.e+-]*\) s elapsed, about \([0-9.e+-]*\) s to go$/\2/p')
test -n "$el" && test -n "$go" && test -n "$total" || fail "no progress lines"
awk -v e="$el" -v g="$go" -v t="$total" 'BEGIN { r = (e + g) / t; printf "first progress line: %s + %s s, the solve took %s s: %.2f x\n", e, g, t, r; exit !(r > 1.0 / 3 && r < 3) }' ||
  fail "the first progress line's estimate is not within 3x of the solve's time"
echo "ok: the default budget starts at once and its first estimate is within 3x"
