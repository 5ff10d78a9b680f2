#!/bin/sh
# Corruption never crashes and is never accepted.  A run killed with SIGKILL
# keeps its HDF5 checkpoint file; each trial damages a copy of it (bits
# flipped, bytes overwritten, the file truncated, anywhere or aimed at the
# attribute and object-header messages: tests/store/rwcorrupt.c) and resumes
# from it with -rw_restart.  Every trial must end one of two ways:
#
#   resumed-correct  exit 0, J and every gradient line identical to the
#                    uninterrupted run's (a damaged slot may have been passed
#                    over and recomputed, or the run started from step 0)
#   refused          a non-zero exit with a PETSc error naming the file
#
# and never
#
#   wrong            exit 0 with any other output
#   crashed          a signal (exit > 128, PETSc's "Caught signal"), the time
#                    limit, or a failure without a PETSc error naming the file
#
# RW_FUZZ_TRIALS trials (default 200; make check-fuzz runs 1000) from seed
# RW_FUZZ_SEED (default 0), RW_FUZZ_JOBS at a time (default 4: a run mostly
# waits on loading PETSc's libraries).  Trials run on one rank as MPI
# singletons, without mpiexec, whose start and error path cost seconds per
# trial (RW_FUZZ_MPIEXEC=1 launches them through it).  A failing trial is replayed with
#   cp kept.h5 ck.h5 && tests/store/rwcorrupt ck.h5 SEED && rewind-gradient ... -rw_restart
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"
corrupt="$top_builddir/tests/store/rwcorrupt"
trials=${RW_FUZZ_TRIALS:-200}
seed0=${RW_FUZZ_SEED:-0}
jobs=${RW_FUZZ_JOBS:-4}
limit=${RW_FUZZ_TIMEOUT:-60}
# RW_FUZZ_OPTIONS: more options for every run (t323 fuzzes compressed slots so)
opts="-rw_heat_dim 1 -da_grid_x 40 -rw_steps 30 -rw_schedule_type revolve -rw_schedule_ram_slots 4 -rw_store_type hdf5 ${RW_FUZZ_OPTIONS:-}"
keys='^(J|norm2_|sum_)'

run 1 $opts -rw_store_hdf5_file "$tmp/ref.h5" > "$tmp/ref.txt"
grep -E "$keys" "$tmp/ref.txt" > "$tmp/ref.keys"
test -s "$tmp/ref.keys" || { echo "FAIL: the uninterrupted run printed no J"; exit 1; }
if run 1 $opts -rw_store_hdf5_file "$tmp/ck.h5" -rw_debug_kill_at_step 20 > /dev/null 2>&1; then
  echo "FAIL: the run to kill was not killed"; exit 1
fi
test -s "$tmp/ck.h5" || { echo "FAIL: no checkpoint file survived the kill"; exit 1; }
mv "$tmp/ck.h5" "$tmp/kept.h5"

# one trial: $launch runs the app on one rank; a singleton when that works.
# Every trial's run has its own Open MPI session directory
# (OMPI_MCA_orte_tmpdir_base): isolated singletons all use jf.0/1 under
# /tmp/ompi.HOST.UID, and one that ends removes it while another's MPI-IO
# opens its shared-file-pointer file there ("mca_sharedfp_sm_file_open:
# unable to open file for mmap", then MPI_File_open fails whatever the file
# holds): a resumed kill trial failed so in 1 run of t307 in 3 under load
launch="$RW_MPIEXEC $RW_MPIEXEC_FLAGS -n 1 $app"
if test "${RW_FUZZ_MPIEXEC:-0}" = 0; then
  OMPI_MCA_ess_singleton_isolated=1
  export OMPI_MCA_ess_singleton_isolated
  cp "$tmp/kept.h5" "$tmp/intact.h5"
  if "$app" $opts -rw_store_hdf5_file "$tmp/intact.h5" -rw_restart 2> /dev/null | grep -E "$keys" | cmp -s - "$tmp/ref.keys"; then launch=$app
  else echo "note: the app does not run as an MPI singleton here; trials go through $RW_MPIEXEC"
  fi
fi

# trial SEED: damage a copy, resume, write "CLASS SEED what was done | why" to $tmp/r.SEED
trial() {
  attempt "$1"
  # a process that exits at start-up with no word from PETSc (seen
  # once in 200 under a load of 12 on 2 cores): a damage that really kills
  # the app that way does so again
  if grep -q '^crashed .*without a PETSc error naming the file: $' "$tmp/r.$1"; then attempt "$1"; fi
}
attempt() {
  d="$tmp/t$1"
  mkdir "$d"
  cp "$tmp/kept.h5" "$d/ck.h5"
  what=$("$corrupt" "$d/ck.h5" "$1") || what="rwcorrupt failed"
  rc=0
  OMPI_MCA_orte_tmpdir_base=$d timeout --kill-after=10 "$limit" $launch $opts -rw_store_hdf5_file "$d/ck.h5" -rw_restart > "$d/out" 2> "$d/err" || rc=$?
  cat "$d/out" "$d/err" | tr -d '\000' > "$d/all"
  why=$(grep 'PETSC ERROR: [^-]' "$d/all" | sed -n '2s/^.*PETSC ERROR: //p')
  if grep -q -e 'Caught signal' -e 'exited on signal' -e 'Process received signal' "$d/all"; then class=crashed
  elif test $rc -eq 0; then
    if grep -E "$keys" "$d/out" | cmp -s - "$tmp/ref.keys"; then class=resumed-correct; else class=wrong; fi
  elif test $rc -gt 128 || test $rc -eq 124; then class=crashed why="exit $rc"
  elif grep 'PETSC ERROR' "$d/all" | grep -q -F "$d/ck.h5"; then class=refused
  else class=crashed why="exit $rc without a PETSc error naming the file: $why"
    test -n "$why" || cp "$d/all" "$tmp/silent.$1" # kept for the report below
  fi
  if test $class = wrong; then why=$(grep -E "$keys" "$d/out" | diff "$tmp/ref.keys" - | grep '^>' | head -1); fi
  echo "$class $what | $why" > "$tmp/r.$1"
  rm -rf "$d"
}

i=0
while test $i -lt "$trials"; do
  trial $((seed0 + i)) &
  i=$((i + 1))
  if test $((i % jobs)) -eq 0; then wait; fi
done
wait

cat "$tmp"/r.* > "$tmp/results"
count() { grep -c "^$1 " "$tmp/results" || true; }
ok=$(count resumed-correct) refused=$(count refused) wrong=$(count wrong) crashed=$(count crashed)
echo "$trials trials from seed $seed0: $refused refused, $ok resumed-correct, $wrong wrong, $crashed crashed"
echo "refusals by reason:"
grep '^refused ' "$tmp/results" | sed 's/^[^|]*| //; s/\/[^ ]*ck\.h5/ck.h5/g; s/[0-9][0-9]*/N/g' | sort | uniq -c | sort -rn | head -12
test $((ok + refused + wrong + crashed)) -eq "$trials" || { echo "FAIL: $((ok + refused + wrong + crashed)) of $trials trials reported"; exit 1; }
if test "$wrong" -ne 0 || test "$crashed" -ne 0; then
  echo "FAIL: corruption was accepted or crashed (replay a seed with tests/store/rwcorrupt):"
  grep -E '^(wrong|crashed) ' "$tmp/results"
  for f in "$tmp"/silent.*; do test -f "$f" && { echo "--- what $f's run printed:"; head -20 "$f"; }; done
  exit 1
fi
echo "ok: no trial crashed and none gave a wrong result"

# ---- kills inside asynchronous writes ---------------------------------------
kills=${RW_FUZZ_KILLS:-8}
writes=$(run 1 $opts -rw_store_hdf5_file "$tmp/count.h5" -rw_adjoint_view | sed -n 's/^ *written: \([0-9][0-9]*\) checkpoints.*/\1/p' | head -1)
test -n "$writes" && test "$writes" -gt 1 || { echo "FAIL: cannot tell how many checkpoints the run writes"; exit 1; }
valid="$top_srcdir/tests/store/rwvalid.py"
if test -z "${PYTHON:-}"; then echo "note: no Python with h5py (configure --disable-plots): the kept files are checked by resuming only"; fi
# killtrial NP I: kill trial I on NP ranks; appends "ok ..." or "FAIL ..." to $tmp/kills
killtrial() {
  np=$1 i=$2
  k=$(( (seed0 * 7919 + i * 104729) % writes + 1 ))
  if test $((i / 2 % 2)) -eq 0; then how="-rw_debug_kill_in_write $k"; else how="-rw_debug_kill_before_mark $k"; fi
  d="$tmp/k$i"
  mkdir "$d"
  if test "$np" = 1; then on=$launch; else on="$RW_MPIEXEC $RW_MPIEXEC_FLAGS -n $np $app"; fi
  if OMPI_MCA_orte_tmpdir_base=$d $on $opts -rw_store_hdf5_file "$d/ck.h5" $how > "$d/out" 2>&1; then
    echo "FAIL kill $i ($how on $np ranks): the run was not killed" >> "$tmp/kills"; return
  fi
  if test -n "${PYTHON:-}"; then
    if ! "$PYTHON" "$valid" "$d/ck.h5" > "$d/valid" 2>&1; then
      echo "FAIL kill $i ($how on $np ranks): a slot marked valid holds other data: $(tr '\n' ';' < "$d/valid")" >> "$tmp/kills"; return
    fi
    gen=$(sed -n 's/^generation //p' "$d/valid")
    if test "$gen" != $((k - 1)); then
      echo "FAIL kill $i ($how on $np ranks): the root's generation is $gen, expected the $((k - 1)) writes before the one killed" >> "$tmp/kills"; return
    fi
  fi
  if ! OMPI_MCA_orte_tmpdir_base=$d $on $opts -rw_store_hdf5_file "$d/ck.h5" -rw_restart > "$d/resumed" 2> "$d/err"; then
    echo "FAIL kill $i ($how on $np ranks): the resumed run failed: $(grep 'PETSC ERROR: [^-]' "$d/err" | sed -n 2p)" >> "$tmp/kills"; return
  fi
  if ! grep -E "$keys" "$d/resumed" | cmp -s - "$tmp/ref.keys"; then
    echo "FAIL kill $i ($how on $np ranks): the resumed J or gradient differs" >> "$tmp/kills"; return
  fi
  echo "ok kill $i: $how of $writes writes on $np ranks, generation ${gen:-?}: $(sed -n 's/^rewind: -rw_restart //p' "$d/err" | head -1)" >> "$tmp/kills"
  rm -rf "$d"
}
: > "$tmp/kills"
i=0
while test $i -lt "$kills"; do
  killtrial 1 $i &
  i=$((i + 1))
  if test $((i % jobs)) -eq 0; then wait; fi
done
wait
killtrial 2 "$kills"
cat "$tmp/kills"
if grep -q '^FAIL' "$tmp/kills"; then exit 1; fi
echo "ok: $((kills + 1)) runs killed inside asynchronous writes left only valid slots with their data and resumed bit for bit"
