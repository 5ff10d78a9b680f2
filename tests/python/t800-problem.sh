#!/bin/sh
# rewind.Problem (tests/python/t800_problem.py) against rewind-gradient with
# the same options, on 1 and 2 ranks: the gradient bit for bit, zero-copy and
# writable views, problems side by side, errors, memory over 1,000 solves
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"
. "$top_srcdir/tests/python/pylib.sh"
opts="-rw_model_type heat -rw_heat_dim 2 -da_grid_x 12 -da_grid_y 9 -rw_steps 6 -rw_heat_nn -rw_schedule_type revolve -rw_schedule_ram_slots 2"
for np in 1 2; do
  run $np $opts -rw_gradient_view "hdf5:$tmp/g$np.h5" > "$tmp/out$np"
  pyrun $np t800_problem.py "$tmp/g$np.h5" "$opts"
done
