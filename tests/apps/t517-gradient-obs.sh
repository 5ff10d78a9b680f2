#!/bin/sh
# A user's own data through rewind-gradient (RwProblem, -rw_obs): the
# observation file an app writes, read back by rewind-gradient with the app's
# model and start, gives the app's first evaluation, J and gradient bit for
# bit, on 1, 2 and 3 ranks in 1 and 2 groups (explicit schemes):
#   heat: rewind-heat-inverse's experiments (sensors, sources, u0), kappa = 1,
#         and its regulariser given as options (-rw_reg_*);
#   heat with a network: rewind-hybrid's trajectories (u0, observed fields),
#         its initial weights;
#   wave: rewind-fwi's shots (sources, receivers), its starting model; the
#         app's gradient is masked (absorbing layers, water), so the two are
#         compared where it is not.
# Bad input to the new paths stops naming the file and the item.
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
heat="$top_builddir/apps/rewind-heat-inverse"
fwi="$top_builddir/apps/rewind-fwi"
grad="$top_builddir/apps/rewind-gradient"
value() { h5dump -m '%.17g' -d "$2" "$1" | sed -n 's/^ *([0-9, ]*): *\([-0-9.e+]*\).*/\1/p' | head -1; }
attr() { h5dump -m '%.17g' -a "$2" "$1" | sed -n 's/^ *(0): *\([-0-9.e+]*\).*/\1/p'; }
values() { h5dump -m '%.17g' -w 1 -d "$2" "$1" | sed -n 's/^ *([0-9, ]*): *\([-0-9.e+]*\),*$/\1/p'; }

# heat: the embedded problem's experiments, explicit
small="-da_grid_x 16 -da_grid_y 16 -rw_steps 8 -rw_heat_scheme explicit -rw_dt 4e-5"
app=$heat
run 1 $small -tao_max_it 0 -rw_obs_write "$tmp/heat.h5" -rw_journal none > /dev/null
run 1 -rw_obs "$tmp/heat.h5" -rw_heat_scheme explicit -tao_max_it 1 -rw_output "$tmp/inv" > /dev/null
j0=$(value "$tmp/inv.h5" /history/J)
app=$grad
for np in 1 2 3; do
  for g in 1 2; do
    test $g -le $np || continue
    run $np -rw_obs "$tmp/heat.h5" -rw_heat_scheme explicit -rw_heat_bc neumann -rw_parameter kappa=1 -rw_reg_type tv -rw_reg_alpha 100 -rw_reg_tv_eps 0.5 -rw_reg_parameter kappa -rw_ensemble_groups $g -rw_gradient_view "hdf5:$tmp/g$np$g.h5" > "$tmp/g$np$g.txt"
    j=$(sed -n 's/^J //p' "$tmp/g$np$g.txt")
    test "$j" = "$j0" || fail "heat, $np ranks, $g groups: J $j; rewind-heat-inverse's first evaluation $j0"
    h5diff --exclude-attribute /gradient_first "$tmp/inv.h5" "$tmp/g$np$g.h5" /gradient_first /dJdkappa > /dev/null || fail "heat, $np ranks, $g groups: dJ/dkappa differs from rewind-heat-inverse's first gradient"
    cmp -s "$tmp/g11.txt" "$tmp/g$np$g.txt" || fail "heat, $np ranks, $g groups: the printed gradients differ from 1 rank's"
  done
done
echo "ok heat: 4 experiments, J $j0 and dJ/dkappa of rewind-heat-inverse's first evaluation, bit for bit on 1-3 ranks in 1 and (2-3 ranks) 2 groups"

# heat with the network term: rewind-hybrid's trajectories and initial weights
app="$top_builddir/apps/rewind-hybrid"
hsmall="-rw_hybrid_grid 16 -rw_hybrid_steps 12 -rw_hybrid_epochs 1 -rw_hybrid_trajectories 4"
run 1 $hsmall -rw_obs_write "$tmp/hybobs.h5" -rw_output "$tmp/hyb" > /dev/null
h0=$(attr "$tmp/hyb.h5" J0)
app=$grad
for np in 1 2 3; do
  for g in 1 2; do
    test $g -le $np || continue
    run $np -rw_model_type heat -rw_heat_nn -rw_heat_scheme explicit -rw_heat_bc periodic -rw_obs "$tmp/hybobs.h5" -rw_parameter "theta=$tmp/hyb.h5:theta_initial" -rw_ensemble_groups $g -rw_gradient_view "hdf5:$tmp/h$np$g.h5" > "$tmp/h$np$g.txt"
    j=$(sed -n 's/^J //p' "$tmp/h$np$g.txt")
    test "$j" = "$h0" || fail "hybrid, $np ranks, $g groups: J $j; rewind-hybrid's first evaluation $h0"
    h5diff --exclude-attribute /gradient_first "$tmp/hyb.h5" "$tmp/h$np$g.h5" /gradient_first /dJdtheta > /dev/null || fail "hybrid, $np ranks, $g groups: dJ/dtheta differs from rewind-hybrid's first gradient"
    cmp -s "$tmp/h11.txt" "$tmp/h$np$g.txt" || fail "hybrid, $np ranks, $g groups: the printed gradients differ from 1 rank's"
  done
done
echo "ok heat with a network: 4 trajectories, J $h0 and dJ/dtheta of rewind-hybrid's first evaluation, bit for bit on 1-3 ranks in 1 and (2-3 ranks) 2 groups"

# wave: rewind-fwi's shots and starting model, one full band, explicit
app=$fwi
wsmall="-rw_fwi_grid 41,21 -rw_fwi_shots 4 -rw_fwi_record 300 -rw_dt 2.4"
run 1 $wsmall -rw_fwi_iterations 0 -rw_obs_write "$tmp/wave.h5" > /dev/null
run 1 -rw_fwi_obs "$tmp/wave.h5" -rw_fwi_start "$tmp/wave.h5:c_start" -rw_fwi_bands 0 -rw_fwi_iterations 1 -rw_output "$tmp/fwi" > "$tmp/fwi.txt"
w0=$(sed -n 's/^J_start \([-0-9.e+]*\) .*/\1/p' "$tmp/fwi.txt")
values "$tmp/fwi.h5" /gradient_first > "$tmp/fwi.g"
app=$grad
wave="-rw_model_type wave -da_grid_x 81 -da_grid_y 61 -rw_wave_nbl 20 -rw_wave_spacing 20 -rw_wave_velocity $tmp/wave.h5:c_start"
for np in 1 2 3; do
  for g in 1 2; do
    test $g -le $np || continue
    run $np $wave -rw_obs "$tmp/wave.h5" -rw_ensemble_groups $g -rw_gradient_view "hdf5:$tmp/w$np$g.h5" > "$tmp/w$np$g.txt"
    j=$(sed -n 's/^J //p' "$tmp/w$np$g.txt")
    test "$j" = "$w0" || fail "wave, $np ranks, $g groups: J $j; rewind-fwi's J_start $w0"
    values "$tmp/w$np$g.h5" /dJdm > "$tmp/w.g"
    n=$(paste "$tmp/fwi.g" "$tmp/w.g" | awk '$1 != 0 { if ($1 != $2) { print "FAIL at " NR ": " $1 " " $2; bad = 1; exit } n++ } END { if (!bad) print n }')
    case $n in FAIL*) fail "wave, $np ranks, $g groups: dJ/dm differs from rewind-fwi's first gradient where it is not held: $n" ;; esac
    test "$n" -gt 500 || fail "wave: only $n points compared"
    cmp -s "$tmp/w11.txt" "$tmp/w$np$g.txt" || fail "wave, $np ranks, $g groups: the printed gradients differ from 1 rank's"
  done
done
echo "ok wave: 4 shots, J $w0 and dJ/dm of rewind-fwi's first evaluation ($n free points), bit for bit on 1-3 ranks in 1 and (2-3 ranks) 2 groups"

# bad input to the new paths
bad() { # bad WHAT EXPECTED OPTIONS...
  what=$1 expect=$2
  shift 2
  if run 1 "$@" > "$tmp/bad.txt" 2>&1; then fail "$what was accepted"; fi
  grep -q -e "$expect" "$tmp/bad.txt" || { grep 'PETSC ERROR' "$tmp/bad.txt" | head -4; fail "$what: expected \"$expect\""; }
  echo "ok refused $what: $(grep -o -e "$expect.*" "$tmp/bad.txt" | head -1 | cut -c1-160)"
}
bad "a 2D file for a 3D model" "Observations .*heat.h5 are 2D; the model is 3D" -rw_obs "$tmp/heat.h5" -rw_heat_dim 3
bad "a parameter the model lacks" "-rw_parameter \"m\": the model has no such parameter; its parameters are kappa, s, r, u0" -rw_obs "$tmp/heat.h5" -rw_parameter m=1
bad "a parameter of no value" "-rw_parameter kappa=one: \"one\" is not a finite number" -rw_obs "$tmp/heat.h5" -rw_parameter kappa=one
bad "shots for a heat model" "are shots of the wave model's schema (sources, receivers): they need -rw_model_type wave" -rw_obs "$tmp/wave.h5" -rw_steps 125
bad "a member that is not there" "-rw_obs_member 4: the observations have 4 members (0 .. 3)" -rw_obs "$tmp/heat.h5" -rw_obs_member 4
bad "a file of neither schema" "no root attribute experiments (the experiments schema: sensors, fields) or nshots" -rw_obs "$tmp/g11.h5"
