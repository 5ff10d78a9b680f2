#!/bin/sh
# The kill matrix: rewind-gradient killed with SIGKILL during the first
# forward sweep, during a recomputation and during the reverse sweep (with
# -rw_adjoint_keep_interval; also half way through a keep), on 1, 2 and 3
# ranks, under the online schedule of a run that stops at steady state, and
# with one rank killed from outside, is resumed with -rw_restart
# and gives J and every gradient bit for bit as the uninterrupted run; a file
# written on 2 ranks resumes on 1, 3 and 4.  Each line of output is one cell
# of the matrix.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"
sched="$top_builddir/apps/rewind-schedule"

base="-da_grid_x 30 -da_grid_y 24 -rw_steps 60 -rw_schedule_type revolve -rw_schedule_ram_slots 5"
keys() { grep -E '^(J|norm2_|sum_)' "$1"; }
run 2 $base > "$tmp/full.txt"
# an action that advances after the first keep (7 reversals): a recomputation
recompute=$($RW_MPIEXEC $RW_MPIEXEC_FLAGS -n 1 "$sched" $base -rw_schedule_view_actions | awk '/^reverse/ {r++} r > 7 && /^advance/ {print NR - 1; exit}')
test -n "$recompute" || { echo "FAIL: no recomputation found in the schedule"; exit 1; }

# cell NAME NP-KILLED NP-RESUMED EXPECT KILL-OPTION...: EXPECT is what the resumed run says
cell() {
  name=$1 nkill=$2 nresume=$3 expect=$4
  shift 4
  opts="$base -rw_store_type hdf5 -rw_store_hdf5_file $tmp/$name.h5 -rw_adjoint_keep_interval 7"
  if run "$nkill" $opts "$@" > "$tmp/$name-killed.txt" 2>&1; then
    echo "FAIL $name: the run was not killed"; exit 1
  fi
  test -s "$tmp/$name.h5" || { echo "FAIL $name: no checkpoint file survived the kill; the killed run said:"; tail -20 "$tmp/$name-killed.txt"; exit 1; }
  run "$nresume" $opts -rw_restart > "$tmp/$name-resumed.txt" 2> "$tmp/$name-resumed.err" || { echo "FAIL $name: the resumed run failed"; cat "$tmp/$name-resumed.err"; exit 1; }
  grep -q "$expect" "$tmp/$name-resumed.err" || { echo "FAIL $name: expected \"$expect\""; cat "$tmp/$name-resumed.err"; exit 1; }
  keys "$tmp/$name-resumed.txt" | cmp -s - "$tmp/full.txt" || { echo "FAIL $name: the resumed gradient differs"; keys "$tmp/$name-resumed.txt" | diff - "$tmp/full.txt"; exit 1; }
  test ! -e "$tmp/$name.h5" || { echo "FAIL $name: the completed resumed run left its checkpoint file"; exit 1; }
  echo "ok $name: killed on $nkill ranks ($*), resumed on $nresume: $(sed -n 's/^rewind: -rw_restart //p' "$tmp/$name-resumed.err" | head -1); identical"
}

for np in 1 2 3; do
  cell "first$np" $np $np "resumes the forward sweep at step" -rw_debug_kill_at_step 33
  cell "recompute$np" $np $np "resumes the reverse sweep after step" -rw_debug_kill_at_action "$recompute"
  cell "reverse$np" $np $np "resumes the reverse sweep after step" -rw_debug_kill_at_reverse 20
done
# online (a run that stops at steady state, -rw_steps a bound): killed in its
# first sweep, also after its spine thinned (the slot of a checkpoint it gave
# up written again), and in its reverse sweep without keeps (the forward
# sweep resumes) and with them (the keep knows where the run stopped), then
# resumed on another rank count
online="-rw_heat_dim 1 -da_grid_x 41 -rw_heat_bc dirichlet -rw_steps 2000 -rw_adjoint_stop_steady 1e-4 -rw_schedule_type online -rw_schedule_ram_slots 5"
run 2 $online > "$tmp/online-full.txt"
ocell() { # ocell NAME EXPECT KILL-OPTION...
  name=$1 expect=$2
  shift 2
  opts="$online -rw_store_type hdf5 -rw_store_hdf5_file $tmp/$name.h5"
  keep=$(echo "$*" | sed -n 's/.*\(-rw_adjoint_keep_interval [0-9]*\).*/\1/p')
  if run 2 $opts "$@" > "$tmp/$name-killed.txt" 2>&1; then echo "FAIL $name: the run was not killed"; exit 1; fi
  run 3 $opts $keep -rw_restart > "$tmp/$name-resumed.txt" 2> "$tmp/$name-resumed.err" || { echo "FAIL $name: the resumed run failed"; cat "$tmp/$name-resumed.err"; exit 1; }
  grep -q "$expect" "$tmp/$name-resumed.err" || { echo "FAIL $name: expected \"$expect\""; cat "$tmp/$name-resumed.err"; exit 1; }
  cmp -s "$tmp/$name-resumed.txt" "$tmp/online-full.txt" || { echo "FAIL $name: the resumed run differs"; diff "$tmp/$name-resumed.txt" "$tmp/online-full.txt"; exit 1; }
  echo "ok $name: online, killed on 2 ranks ($*), resumed on 3: $(sed -n 's/^rewind: -rw_restart //p' "$tmp/$name-resumed.err" | head -1); identical, stopped at the same step"
}
# the spine holds 2 powers of two and commits a write's mark with the next: at 1100 it has given 256 up and written 1024 into its slot
ocell "online-first" "resumes the forward sweep at step 512 " -rw_debug_kill_at_step 1100
ocell "online-reverse" "resumes the forward sweep at step 1024 " -rw_debug_kill_at_reverse 700
ocell "online-keep" "resumes the reverse sweep after step 700 of 1323 " -rw_adjoint_keep_interval 50 -rw_debug_kill_at_reverse 700
ocell "online-keep-refill" "resumes the reverse sweep after step 50 of 1323 " -rw_adjoint_keep_interval 50 -rw_debug_kill_at_reverse 30

# a keep torn half way (its accumulators written, not lambda and x): the keep before is used
cell "torn" 2 2 "resumes the reverse sweep after step 46" -rw_debug_kill_in_keep 3
# keeps by time: at (almost) every reversal, so the kill after step 20 resumes right there
cell "seconds" 2 2 "resumes the reverse sweep after step 20 " -rw_adjoint_keep_interval 0 -rw_adjoint_keep_seconds 1e-9 -rw_debug_kill_at_reverse 20
for np2 in 1 3 4; do
  cell "forward2to$np2" 2 $np2 "resumes the forward sweep at step" -rw_debug_kill_at_step 45
  cell "reverse2to$np2" 2 $np2 "resumes the reverse sweep after step" -rw_debug_kill_at_reverse 12
done

# the wave model in pairs of steps (RwModelStepBlock()): store-all's sweep
# fuses ADVANCE, STORE, ADVANCE; kills inside that triple (actions 20-22)
# and during the reverse sweep resume from the same checkpoints, to the bit
heat="$base"
base="-rw_model_type wave -rw_wave_dim 2 -da_grid_x 61 -da_grid_y 47 -rw_steps 41 -rw_model_step_block 2 -rw_schedule_type storeall"
run 2 $base > "$tmp/full.txt"
cell "wave-pairs-store" 2 2 "resumes the forward sweep at step 9 " -rw_debug_kill_at_action 21
cell "wave-pairs-advance" 2 2 "resumes the forward sweep at step 10 " -rw_debug_kill_at_action 22
cell "wave-pairs-reverse" 2 2 "resumes the reverse sweep after step 13 " -rw_debug_kill_at_reverse 10
base="$heat"

# one rank of a longer run killed from outside, wherever the run is; a run
# that ended before the kill landed (a fast machine) is tried again sooner
long="-da_grid_x 128 -da_grid_y 128 -rw_steps 300 -rw_heat_scheme crank-nicolson -rw_schedule_type revolve -rw_schedule_ram_slots 8"
run 2 $long > "$tmp/long-full.txt"
opts="$long -rw_store_type hdf5 -rw_store_hdf5_file $tmp/long.h5 -rw_adjoint_keep_interval 10"
for delay in 0.5 0.2 0.05; do
  rm -f "$tmp/long.h5" "$tmp/long-reverse.h5" "$tmp/long-reverse-gradient.h5"
  run 2 $opts > "$tmp/long-killed.txt" 2>&1 &
  launcher=$!
  i=0
  while test ! -s "$tmp/long.h5" && test $i -lt 400; do sleep 0.05; i=$((i + 1)); done
  sleep $delay
  victim=$(pgrep -P "$launcher" | head -1 || true)
  test -n "$victim" && victim=$(pgrep -P "$victim" rewind-gradient | head -1 || true)
  test -n "$victim" || victim=$(pgrep -n -f "lt-rewind-gradient|\.libs/rewind-gradient" || true)
  test -n "$victim" && kill -9 "$victim" 2> /dev/null || true
  if wait "$launcher"; then echo "# the run ended before the kill after ${delay} s: again sooner"; continue; fi
  test -s "$tmp/long.h5" && break
  echo "# the kill after ${delay} s landed after the run removed its file: again sooner"
done
test -s "$tmp/long.h5" || { echo "FAIL long: no kill landed during the run"; exit 1; }
run 2 $opts -rw_restart > "$tmp/long-resumed.txt" 2> "$tmp/long-resumed.err" || { echo "FAIL long: the resumed run failed"; cat "$tmp/long-resumed.err"; exit 1; }
keys "$tmp/long-resumed.txt" | cmp -s - "$tmp/long-full.txt" || { echo "FAIL long: the resumed gradient differs"; exit 1; }
echo "ok one rank killed from outside after ${delay} s: $(sed -n 's/^rewind: -rw_restart //p' "$tmp/long-resumed.err" | head -1); identical"
