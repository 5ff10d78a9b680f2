#!/bin/sh
# An ensemble problem from Python (tests/python/t804_ensemble.py): the four
# experiments rewind-heat-inverse writes (-rw_obs), summed by
# rewind.Problem.gradient() on 1 and 2 ranks in 1 and 2 groups, equal
# rewind-gradient's J and gradient with the same options bit for bit;
# rewind.Ensemble mirrors the problem's split
. "$top_srcdir/tests/testlib.sh"
. "$top_srcdir/tests/python/pylib.sh"
app="$top_builddir/apps/rewind-heat-inverse"
run 1 -da_grid_x 16 -da_grid_y 16 -rw_steps 8 -rw_heat_scheme explicit -rw_dt 4e-5 -tao_max_it 0 -rw_obs_write "$tmp/obs.h5" -rw_journal none > /dev/null
app="$top_builddir/apps/rewind-gradient"
for np in 1 2; do
  for g in 1 2; do
    test $g -le $np || continue
    opts="-rw_obs $tmp/obs.h5 -rw_heat_scheme explicit -rw_parameter kappa=1 -rw_schedule_type revolve -rw_schedule_ram_slots 2 -rw_ensemble_groups $g"
    run $np $opts -rw_gradient_view "hdf5:$tmp/g$np$g.h5" > "$tmp/out$np$g"
    pyrun $np t804_ensemble.py "$tmp/g$np$g.h5" "$opts" $g
  done
done
