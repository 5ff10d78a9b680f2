#!/bin/sh
# rewind-gradient with a stopping test: -rw_adjoint_stop_steady ends a heat
# run at steady state below the bound -rw_steps; under the online schedule
# (memory on 1 rank, hdf5 on 2) the output (J and every gradient, %.17g) is
# bitwise that of storeall run for exactly the steps it took; any other
# schedule refuses the stop test with an error naming the option to give.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"

grid="-rw_heat_dim 1 -da_grid_x 41 -rw_heat_bc dirichlet"
run 1 $grid -rw_steps 2000 -rw_adjoint_stop_steady 1e-4 -rw_schedule_type online -rw_schedule_ram_slots 4 > "$tmp/online1.txt"
K=$(sed -n 's/^stopped_at_step //p' "$tmp/online1.txt")
test -n "$K" && test "$K" -gt 1 && test "$K" -lt 2000 || { echo "FAIL: the steady test did not stop the run below 2000 steps (stopped_at_step '$K')"; cat "$tmp/online1.txt"; exit 1; }
run 2 $grid -rw_steps 2000 -rw_adjoint_stop_steady 1e-4 -rw_schedule_type online -rw_schedule_ram_slots 3 -rw_store_type hdf5 -rw_store_hdf5_file "$tmp/c.h5" > "$tmp/online2.txt"
run 1 $grid -rw_steps "$K" -rw_schedule_type storeall > "$tmp/storeall.txt"
grep -v '^stopped_at_step ' "$tmp/online1.txt" > "$tmp/o1.txt"
grep -v '^stopped_at_step ' "$tmp/online2.txt" > "$tmp/o2.txt"
cmp -s "$tmp/o1.txt" "$tmp/storeall.txt" || { echo "FAIL: online (1 rank) differs from storeall over $K steps"; diff "$tmp/o1.txt" "$tmp/storeall.txt"; exit 1; }
cmp -s "$tmp/o2.txt" "$tmp/storeall.txt" || { echo "FAIL: online (2 ranks, hdf5) differs from storeall over $K steps"; diff "$tmp/o2.txt" "$tmp/storeall.txt"; exit 1; }
grep -q "^stopped_at_step $K\$" "$tmp/online2.txt" || { echo "FAIL: 2 ranks stopped elsewhere"; exit 1; }
echo "ok steady state at step $K of at most 2000: online (memory, 1 rank; hdf5, 2 ranks) == storeall over $K steps: $(grep '^J ' "$tmp/o1.txt")"

if run 1 $grid -rw_steps 200 -rw_adjoint_stop_steady 1e-4 -rw_schedule_type revolve -rw_schedule_ram_slots 3 > "$tmp/bad.txt" 2>&1; then
  echo "FAIL: revolve accepted a stop test"
  exit 1
fi
grep -q "use -rw_schedule_type online" "$tmp/bad.txt" || { echo "FAIL: the error does not say what to use"; cat "$tmp/bad.txt"; exit 1; }
echo "ok revolve refuses a stop test"
