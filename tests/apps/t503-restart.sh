#!/bin/sh
# Forward restart: a run killed with SIGKILL during the forward sweep is
# resumed with -rw_restart from its HDF5 checkpoints and gives J and every
# gradient bit for bit as an uninterrupted run; a file from another problem
# is refused and left alone.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"

check() { # check NAME NP KILL-STEP OPTIONS...
  name=$1 np=$2 kill=$3
  shift 3
  opts="$* -rw_store_type hdf5 -rw_store_hdf5_file $tmp/$name.h5"
  run "$np" $opts > "$tmp/$name-full.txt"
  test ! -e "$tmp/$name.h5" || { echo "FAIL $name: the store left its file after a complete run"; exit 1; }
  if run "$np" $opts -rw_debug_kill_at_step "$kill" > "$tmp/$name-killed.txt" 2>&1; then
    echo "FAIL $name: the run was not killed"; exit 1
  fi
  test -s "$tmp/$name.h5" || { echo "FAIL $name: no checkpoint file survived the kill"; exit 1; }
  run "$np" $opts -rw_restart -rw_adjoint_view > "$tmp/$name-resumed.txt" 2> "$tmp/$name-resumed.err"
  grep -q 'resumes the forward sweep at step' "$tmp/$name-resumed.err" || { echo "FAIL $name: did not resume"; cat "$tmp/$name-resumed.err"; exit 1; }
  grep -E '^(J|norm2_|sum_)' "$tmp/$name-resumed.txt" > "$tmp/$name-resumed.keys"
  cmp "$tmp/$name-full.txt" "$tmp/$name-resumed.keys" || { echo "FAIL $name: the resumed gradient differs"; diff "$tmp/$name-full.txt" "$tmp/$name-resumed.keys"; exit 1; }
  echo "ok $name: killed at step $kill, $(sed -n 's/.*\(resumed at step [0-9]*\).*/\1/p' "$tmp/$name-resumed.txt"), identical: $(grep '^J ' "$tmp/$name-full.txt")"
}

check revolve2 2 41 -da_grid_x 30 -da_grid_y 24 -rw_steps 60 -rw_schedule_type revolve -rw_schedule_ram_slots 5
check storeall1 1 17 -rw_heat_dim 1 -da_grid_x 50 -rw_steps 30 -rw_schedule_type storeall
check cn3 3 20 -da_grid_x 20 -da_grid_y 18 -rw_steps 25 -rw_heat_scheme crank-nicolson -rw_schedule_type revolve -rw_schedule_ram_slots 4

# a kept file belongs to its problem only
opts="-da_grid_x 30 -da_grid_y 24 -rw_steps 60 -rw_schedule_type revolve -rw_schedule_ram_slots 5 -rw_store_type hdf5 -rw_store_hdf5_file $tmp/other.h5"
run 2 $opts -rw_debug_kill_at_step 30 > /dev/null 2>&1 || true
cp "$tmp/other.h5" "$tmp/other.copy"
for change in "-rw_heat_bc neumann" "-rw_steps 61" "-rw_heat_scheme implicit"; do
  if run 2 $opts $change -rw_restart > "$tmp/other.out" 2>&1; then
    echo "FAIL: resuming with $change was accepted"; exit 1
  fi
  grep -q 'belongs to a different problem' "$tmp/other.out" || { echo "FAIL: resuming with $change: wrong error"; grep 'PETSC ERROR' "$tmp/other.out" | head -3; exit 1; }
  cmp -s "$tmp/other.h5" "$tmp/other.copy" || { echo "FAIL: refusing the file changed it"; exit 1; }
  echo "ok refused a resume with $change"
done

# MPI-IO that cannot open the file at all (Open MPI told to use the Lustre
# component on a file system that is not Lustre): the error says none of the
# file was read, not that it is damaged, and the file is left as it was
if $RW_MPIEXEC --version 2>&1 | grep -qi -e "open mpi" -e openrte; then
  if OMPI_MCA_fs=lustre run 2 $opts -rw_restart > "$tmp/mpiio.out" 2>&1; then
    echo "FAIL: a resume whose MPI-IO cannot open the file was accepted"; exit 1
  fi
  grep -q "MPI-IO could not open checkpoint file $tmp/other.h5 (.* bytes) for a restart, so none of it was read: MPI_File_open failed" "$tmp/mpiio.out" || { echo "FAIL: MPI-IO's failure: wrong error"; grep 'PETSC ERROR' "$tmp/mpiio.out" | head -3; exit 1; }
  cmp -s "$tmp/other.h5" "$tmp/other.copy" || { echo "FAIL: MPI-IO's failure changed the file"; exit 1; }
  echo "ok MPI-IO's failure to open the file is named as such, and the file is left alone"
fi
