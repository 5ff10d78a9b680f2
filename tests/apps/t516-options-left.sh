#!/bin/sh
# The options database holds what the user gave and nothing else: rewind's
# objects pass their set-up through setters and prefixes, never by writing
# options for one another.  rewind-gradient (1 and 2 ranks; observations of
# 2 members on 2 groups with hdf5 checkpoints, whose groups write files of
# their own) and rewind-bench (its smallest section, and the options case in
# weak scaling), and rewind-heat-inverse, rewind-hybrid and rewind-fwi (2
# groups with hdf5 checkpoints) run with -options_view and -options_left: the table lists
# exactly the options given (no -rw_store_hdf5_file, -m0_..., -da_grid_x
# that the user did not give) and none of them is left unused.
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
unset PETSC_OPTIONS

# pairs OPTIONS...: the options of a command line, "-name value" or "-name" a line
pairs() {
  while [ $# -gt 0 ]; do
    case $1 in
      -[a-z]*)
        o=$1
        shift
        if [ $# -gt 0 ] && ! expr "x$1" : 'x-[a-z]' > /dev/null; then
          o="$o $1"
          shift
        fi
        echo "$o" ;;
      *) shift ;;
    esac
  done
}

# check NAME APP NP OPTIONS...: APP on NP ranks; the option table is the
# options given with the values given, and all of them were used
check() {
  name=$1 app=$2 np=$3
  shift 3
  run "$np" "$@" -options_view -options_left > "$tmp/$name.out" 2>&1 || { tail -20 "$tmp/$name.out"; fail "$name: the run failed"; }
  pairs "$@" -options_view -options_left | sort -u > "$tmp/$name.given"
  sed -n '/^#PETSc Option Table entries:/,/^#End of PETSc Option Table entries/p' "$tmp/$name.out" | grep '^-' | sort -u > "$tmp/$name.table"
  extra=$(comm -13 "$tmp/$name.given" "$tmp/$name.table" | tr '\n' ' ')
  missing=$(comm -23 "$tmp/$name.given" "$tmp/$name.table" | tr '\n' ' ')
  test -s "$tmp/$name.table" || { cat "$tmp/$name.out"; fail "$name: no option table (-options_view)"; }
  test -z "$extra" || fail "$name: options (or values) the user did not give are in the database: $extra"
  test -z "$missing" || fail "$name: options given are missing from the table, or have other values: $missing"
  grep -q '^There are no unused options' "$tmp/$name.out" || { grep -A20 'unused database option' "$tmp/$name.out"; fail "$name: options given were left unused"; }
  echo "ok $name: the database holds the $(wc -l < "$tmp/$name.given") options given, all used"
}

grad="$top_builddir/apps/rewind-gradient"
small="-da_grid_x 16 -da_grid_y 12 -rw_steps 6"
# shellcheck disable=SC2086 # $small holds several options
for np in 1 2; do
  check gradient-np$np "$grad" $np $small -rw_schedule_type revolve -rw_schedule_ram_slots 2
done

# observations of 2 members (the grid, steps and dt are the file's; its dt
# needs rewind-heat-inverse's implicit scheme), on 2 groups with hdf5
# checkpoints: each group writes the file of its member
app="$top_builddir/apps/rewind-heat-inverse"
run 1 -da_grid_x 16 -da_grid_y 16 -rw_steps 8 -tao_max_it 0 -rw_obs_write "$tmp/obs.h5" -rw_journal none > "$tmp/obs.txt" 2>&1 ||
  { tail -20 "$tmp/obs.txt"; fail "rewind-heat-inverse did not write the observations"; }
check gradient-obs "$grad" 2 -rw_obs "$tmp/obs.h5" -rw_heat_scheme implicit -rw_ensemble_groups 2 -rw_store_type hdf5 -rw_store_hdf5_file "$tmp/ck.h5" -rw_store_keep
for k in 0 1; do test -s "$tmp/ck-m$k.h5" || fail "gradient-obs: no checkpoint file ck-m$k.h5 for group $k"; done
test ! -e "$tmp/ck.h5" || fail "gradient-obs: a group wrote the shared file ck.h5"
echo "ok gradient-obs: groups 0 and 1 checkpointed to ck-m0.h5 and ck-m1.h5"
# and with the default memory store: no default file name made explicit either
check gradient-obs-memory "$grad" 2 -rw_obs "$tmp/obs.h5" -rw_heat_scheme implicit -rw_ensemble_groups 2

bench="$top_builddir/apps/rewind-bench"
check bench-sum "$bench" 1 -rw_bench_sections sum -rw_bench_size tiny
check bench-weak "$bench" 2 -rw_bench_sections gradient -rw_bench_gradient_cases options -rw_bench_weak_grid 12,12 -rw_steps 4 \
  -rw_store_type hdf5 -rw_store_hdf5_file "$tmp/bench.h5" -rw_bench_repeat 1 -rw_bench_seconds 0
grep -q '^  options (weak)  *24x12 ' "$tmp/bench-weak.out" || { cat "$tmp/bench-weak.out"; fail "bench-weak: no options (weak) row of a 24x12 grid"; }
echo "ok bench-weak: a 12x12 block per rank without -da_grid_x or -da_processors_x in the database"

# the inversion programs, on 2 groups with hdf5 checkpoints: each group's
# driver gets its file through its tag, not through a written option
check heat-inverse "$top_builddir/apps/rewind-heat-inverse" 2 -rw_obs "$tmp/obs.h5" -rw_heat_scheme implicit -tao_max_it 1 -rw_ensemble_groups 2 \
  -rw_store_type hdf5 -rw_store_hdf5_file "$tmp/hi.h5" -rw_output "$tmp/hi-out" -rw_journal none
check hybrid "$top_builddir/apps/rewind-hybrid" 2 -rw_hybrid_grid 16 -rw_hybrid_steps 8 -rw_hybrid_epochs 1 -rw_hybrid_trajectories 2 -rw_ensemble_groups 2 \
  -rw_store_type hdf5 -rw_store_hdf5_file "$tmp/hy.h5" -rw_output "$tmp/hy-out"
check fwi "$top_builddir/apps/rewind-fwi" 2 -rw_fwi_grid 41,21 -rw_fwi_shots 2 -rw_fwi_record 200 -rw_dt 2.4 -rw_fwi_iterations 1 -rw_ensemble_groups 2 \
  -rw_store_type hdf5 -rw_store_hdf5_file "$tmp/fw.h5" -rw_store_keep -rw_output "$tmp/fw-out"
for k in 0 1; do test -s "$tmp/fw-m$k.h5" || fail "fwi: no checkpoint file fw-m$k.h5 for group $k"; done
echo "ok heat-inverse, hybrid, fwi: 2 groups with hdf5 checkpoints, nothing written to the database"
