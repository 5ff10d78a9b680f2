#!/bin/sh
# Resumable training (the library's journal, doc/problem.md).  rewind-hybrid
# killed (SIGKILL) right after an evaluation (-rw_debug_kill_at_evaluation)
# or inside a trajectory's adjoint solve (-rw_debug_kill_at_step, hdf5
# checkpoints), and resumed with -rw_restart, prints the uninterrupted run's
# lines (every epoch's J and |g|, the report) and writes its theta,
# gradient_first and history J bit for bit, and leaves no journal: TAO on 2
# ranks in 2 groups, Adam on 1 rank, TAO learning kappa too on 2 ranks.
app="$top_builddir/apps/rewind-hybrid"
. "$top_srcdir/tests/testlib.sh"

small="-rw_hybrid_grid 12 -rw_nn_layers 1,6,1 -rw_hybrid_steps 12 -rw_hybrid_dt 0.05 -rw_hybrid_epochs 5"
fail() { echo "FAIL $*"; exit 1; }
lines() { grep -E '^(Fisher|epoch|J0|reaction|kappa|generalisation)' "$1" | sed 's/ seconds [0-9.]*$//'; }
full() { # full NAME NP OPTIONS...: the uninterrupted run, which must leave no journal
  name=$1 np=$2
  shift 2
  run "$np" $small "$@" -rw_output "$tmp/$name" > "$tmp/$name.txt"
  lines "$tmp/$name.txt" > "$tmp/$name.lines"
  test ! -e "$tmp/$name.state" || fail "$name: a completed run left its journal $tmp/$name.state"
}
# case_ NAME FULL NP "RUN OPTIONS" KILL-OPTIONS...: killed, then resumed with
# -rw_restart and the run options: FULL's lines, theta, gradient_first and history J
case_() {
  name=$1 ref=$2 np=$3 opts=$4
  shift 4
  if run "$np" $small $opts "$@" -rw_output "$tmp/$name" > "$tmp/$name-killed.txt" 2>&1; then fail "$name: the run was not killed"; fi
  test -s "$tmp/$name.state/problem" || fail "$name: no journal survived the kill"
  run "$np" $small $opts -rw_output "$tmp/$name" -rw_restart > "$tmp/$name.txt" 2> "$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: the resumed run failed"; }
  grep -q 'rewind-hybrid: -rw_restart used [0-9]* journal records' "$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: did not replay its journal"; }
  lines "$tmp/$name.txt" | diff "$tmp/$ref.lines" - > "$tmp/$name.diff" || { cat "$tmp/$name.diff"; fail "$name: the resumed run's lines differ from the uninterrupted run's"; }
  for d in theta gradient_first history/J; do
    h5diff -q "$tmp/$ref.h5" "$tmp/$name.h5" "/$d" "/$d" || fail "$name: /$d differs from the uninterrupted run's"
  done
  test ! -e "$tmp/$name.state" || fail "$name: the completed resumed run left its journal"
  echo "ok $name: killed ($*), resumed: the uninterrupted run's $(wc -l < "$tmp/$ref.lines") lines, theta, gradient_first and history J bit for bit ($(sed -n 's/^rewind-hybrid: -rw_restart used \([0-9]*\) journal records.*/\1 journal records/p' "$tmp/$name.err" | head -1))"
}

# between iterations: right after evaluation 3's records
full tao 2 -rw_ensemble_groups 2
case_ taobetween tao 2 "-rw_ensemble_groups 2" -rw_debug_kill_at_evaluation 3
full adam 1 -rw_hybrid_optimizer adam -rw_hybrid_lr 0.02
case_ adambetween adam 1 "-rw_hybrid_optimizer adam -rw_hybrid_lr 0.02" -rw_debug_kill_at_evaluation 2

# inside a trajectory's adjoint solve, checkpoints in hdf5: 4 trajectories an
# evaluation on 1 group, so the process's solve 9 is evaluation 2's trajectory 1
# (the journal keeps each evaluation's sum and the trajectories of the one under way)
store="-rw_schedule_type revolve -rw_schedule_ram_slots 3 -rw_store_type hdf5 -rw_store_hdf5_file $tmp/ck.h5"
kappa="-rw_hybrid_train_kappa -rw_hybrid_kappa 5e-3 -rw_hybrid_kappa0 1e-2"
full kappa 2 $kappa
case_ kappainsolve kappa 2 "$kappa $store" -rw_debug_kill_at_step 7 -rw_debug_kill_solve 9
grep -q 'rewind-hybrid: -rw_restart used 3 journal records; the journal ends here; solving from evaluation 2, member 1' "$tmp/kappainsolve.err" || { cat "$tmp/kappainsolve.err"; fail "kappainsolve: expected the replay to end at evaluation 2, trajectory 1"; }
grep -q 'rewind: -rw_restart resumes the forward sweep at step [0-9]* of 12 from a kept checkpoint' "$tmp/kappainsolve.err" || { cat "$tmp/kappainsolve.err"; fail "kappainsolve: the killed trajectory's solve did not resume from its checkpoints"; }
case_ adaminsolve adam 1 "-rw_hybrid_optimizer adam -rw_hybrid_lr 0.02 $store" -rw_debug_kill_at_step 7 -rw_debug_kill_solve 6
grep -q 'resumes the forward sweep at step' "$tmp/adaminsolve.err" || { cat "$tmp/adaminsolve.err"; fail "adaminsolve: the killed trajectory's solve did not resume from its checkpoints"; }
