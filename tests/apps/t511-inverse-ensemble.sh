#!/bin/sh
# rewind-heat-inverse on an ensemble (-rw_ensemble_groups): with an explicit
# scheme the experiments solved side by side on groups of ranks give the
# recovered field and the history (J, misfit, |g|, error) bit for bit what
# one group gives (2 ranks in 2 groups; 3 ranks in 2 unequal groups and in 3,
# whose last round has one experiment); groups' hdf5 checkpoints go to files
# of their own; a run in 2 groups killed between evaluations resumes from its
# journal, in 2 groups or in 1, to the same bits.
app="$top_builddir/apps/rewind-heat-inverse"
. "$top_srcdir/tests/testlib.sh"

# dt below the explicit limit for kappa up to -rw_kappa_max 10 on this grid
small="-da_grid_x 16 -da_grid_y 16 -rw_steps 8 -tao_max_it 5 -rw_heat_scheme explicit -rw_dt 4e-5"
. "$top_srcdir/tests/apps/inverselib.sh"
full() { # full NAME NP OPTIONS...
  name=$1 np=$2
  shift 2
  run "$np" "$@" -rw_output "$tmp/$name" > "$tmp/$name.txt" 2> "$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: the run failed"; }
  lines "$tmp/$name.txt" > "$tmp/$name.lines"
  test ! -s "$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: wrote to stderr"; }
}

for np in 2 3; do
  full g1n$np $np $small
  for g in $(seq 2 $np); do
    full g${g}n$np $np $small -rw_ensemble_groups $g
    same "$tmp/g1n$np" "$tmp/g${g}n$np" "$g groups on $np ranks"
    echo "ok $np ranks: $g groups give 1 group's bits ($(grep '^data misfit' "$tmp/g1n$np.txt" | cut -d: -f1))"
  done
done

# each group's driver checkpoints to its own file (member k's name for group k)
store="-rw_schedule_type revolve -rw_schedule_ram_slots 3 -rw_store_type hdf5 -rw_store_hdf5_file $tmp/ck.h5"
full h5 2 $small $store -rw_store_keep -rw_ensemble_groups 2
same "$tmp/g1n2" "$tmp/h5" "2 groups with hdf5 checkpoints"
for k in 0 1; do test -s "$tmp/ck-m$k.h5" || fail "no checkpoint file $tmp/ck-m$k.h5 for group $k"; done
echo "ok 2 groups with hdf5 checkpoints: files ck-m0.h5 and ck-m1.h5, 1 group's bits"

# killed between evaluations in 2 groups, resumed in 2 groups and in 1
for resume in 2 1; do
  name=kill$resume
  if run 2 $small -rw_ensemble_groups 2 -rw_debug_kill_at_evaluation 3 -rw_output "$tmp/$name" > "$tmp/$name-killed.txt" 2>&1; then fail "$name: the run was not killed"; fi
  n=$(ls "$tmp/$name.state" | grep -c '^eval-.*\.rec$' || true)
  test "$n" = 4 || fail "$name: $n journal records after evaluation 3, expected 4 (one an evaluation)"
  run 2 $small -rw_ensemble_groups $resume -rw_output "$tmp/$name" -rw_restart > "$tmp/$name.txt" 2> "$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: the resumed run failed"; }
  grep -q 'used 4 journal records; the journal ends here; solving from evaluation 4, member 0' "$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: did not replay evaluations 0-3"; }
  test ! -e "$tmp/$name.state" || fail "$name: the completed resumed run left its journal"
  lines "$tmp/$name.txt" > "$tmp/$name.lines"
  same "$tmp/g1n2" "$tmp/$name" "killed in 2 groups, resumed in $resume"
  echo "ok killed after evaluation 3 in 2 groups, resumed in $resume: identical"
done
