#!/bin/sh
# A resumable rewind-fwi (the library's journal, src/problem/journal.c; doc/problem.md): a run killed
# (SIGKILL) right after an evaluation, half way through writing a journal
# record, or inside a shot's adjoint solve, and resumed with -rw_restart,
# prints the uninterrupted run's lines (J at every iteration of every band,
# the model error, J_start and J_final) and writes its recovered model,
# first gradient and history, bit for bit; killed with 1 shot group, it
# resumes with 2, and the other way round; a shot killed in its solve with
# hdf5 checkpoints resumes from them.  A completed run leaves no journal; a journal is refused,
# and left as it was, without -rw_restart or for another problem (other
# bands); -rw_journal_overwrite discards it, and the deprecated
# -rw_fwi_state_overwrite and -rw_fwi_shot_groups still work with a warning.
app="$top_builddir/apps/rewind-fwi"
. "$top_srcdir/tests/testlib.sh"
small="-rw_fwi_grid 41,21 -rw_fwi_shots 4 -rw_fwi_record 300 -rw_fwi_iterations 3 -rw_dt 2.4"
fail() { echo "FAIL: $*"; exit 1; }
lines() { grep -E '^(band|final|J_start)' "$1" | sed 's/  [0-9.]* s$//; s/; [0-9.]* forward sweeps per gradient.*//'; }
same_files() { # same_files A B: the recovered model, the first gradient and the history (all but its seconds), bit for bit
  for d in c_recovered gradient_first history/J history/gradient_norm history/error history/iteration history/solve; do
    h5diff "$tmp/$1.h5" "$tmp/$2.h5" "/$d" "/$d" > /dev/null || fail "$2.h5: /$d differs from $1.h5's"
  done
}

run 2 $small -rw_output "$tmp/plain" > "$tmp/plain.txt"
lines "$tmp/plain.txt" > "$tmp/plain.lines"
test ! -e "$tmp/plain.state" || fail "a completed run left its journal $tmp/plain.state"
test "$(grep -c '^band' "$tmp/plain.lines")" -ge 8 || fail "expected two bands of iterations in: $(cat "$tmp/plain.lines")"

# case_ NAME KILL-OPTIONS...: killed, then resumed with -rw_restart and $resume (not the kill options): the plain run's lines and files
resume=""
case_() {
  name=$1
  shift
  if run 2 $small -rw_output "$tmp/$name" "$@" > "$tmp/$name-killed.txt" 2>&1; then fail "$name: the run was not killed"; fi
  test -s "$tmp/$name.state/problem" || fail "$name: no journal survived the kill"
  kept=$(ls "$tmp/$name.state" | grep -c '^eval-.*\.rec$' || true)
  # without -rw_restart the journal is refused and left alone
  if run 2 $small -rw_output "$tmp/$name" > "$tmp/$name-again.txt" 2>&1; then fail "$name: a run without -rw_restart overwrote the journal"; fi
  grep -q "The journal $tmp/$name.state (-rw_journal) holds an earlier run's evaluations: resume it with -rw_restart" "$tmp/$name-again.txt" || fail "$name: expected the refusal, got: $(grep 'PETSC ERROR' "$tmp/$name-again.txt" | head -2)"
  test "$(ls "$tmp/$name.state" | grep -c '^eval-.*\.rec$' || true)" = "$kept" || fail "$name: the refused run changed the journal"
  run 2 $small -rw_output "$tmp/$name" -rw_restart $resume > "$tmp/$name.txt" 2> "$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: the resumed run failed"; }
  grep -q "rewind-fwi: -rw_restart used $kept journal records" "$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: expected $kept journal records replayed"; }
  lines "$tmp/$name.txt" | diff "$tmp/plain.lines" - > "$tmp/$name.diff" || { cat "$tmp/$name.diff"; fail "$name: the resumed run's lines differ from the plain run's"; }
  same_files plain "$name"
  # the final line counts the shot gradients it computed and those it took from the journal: the plain run's all
  c=$(sed -n 's/^final: .*(\([0-9]*\) shot gradients, \([0-9]*\) more from the journal)$/\1 \2/p' "$tmp/$name.txt")
  test -n "$c" && test $(echo $c | awk '{print $1 + $2}') = "$(sed -n 's/^final: .*(\([0-9]*\) shot gradients)$/\1/p' "$tmp/plain.txt")" || fail "$name: shot gradients computed and replayed ($c) do not add up to the plain run's: $(grep '^final' "$tmp/$name.txt")"
  test ! -e "$tmp/$name.state" || fail "$name: the completed resumed run left its journal"
  echo "ok $name: killed ($*), resumed ($resume) from $kept journal records: the plain run's $(wc -l < "$tmp/plain.lines") lines, c_recovered, gradient_first and history bit for bit; shot gradients computed, replayed: $c"
}
# right after evaluation 5 (in band 0); 2 ranks run 2 shot groups by
# default: killed with 1 group and resumed with 2, and the other way round
case_ between -rw_debug_kill_at_evaluation 5
case_ groups -rw_ensemble_groups 1 -rw_debug_kill_at_evaluation 6
resume="-rw_ensemble_groups 1"
case_ groups2 -rw_debug_kill_at_evaluation 3
resume=""
# half way through writing evaluation 7's record: only its temporary file is written
case_ torn -rw_debug_kill_at_evaluation 7 -rw_debug_kill_torn
# inside a shot's adjoint solve (each group's solve 10 from 0: evaluation 5, shots 0 and 2, at step 100 of 125)
case_ insolve -rw_debug_kill_at_step 100 -rw_debug_kill_solve 10

# with checkpoints in hdf5 (a file per group): killed inside shot 1 of
# evaluation 5 (1 group: solve 21), the resumed run replays shot 0's record
# and resumes shot 1's own solve from its kept checkpoints
plain="$small"
small="$small -rw_ensemble_groups 1 -rw_schedule_type revolve -rw_schedule_ram_slots 10 -rw_store_type hdf5 -rw_store_hdf5_file $tmp/ck.h5"
case_ hdf5 -rw_debug_kill_at_step 100 -rw_debug_kill_solve 21
grep -q "rewind-fwi: -rw_restart used 6 journal records; the journal ends here; solving from evaluation 5, member 1" "$tmp/hdf5.err" || { cat "$tmp/hdf5.err"; fail "hdf5: expected the replay to end at evaluation 5, shot 1"; }
grep -q "rewind: -rw_restart resumes the forward sweep at step [0-9]* of 125 from a kept checkpoint" "$tmp/hdf5.err" || { cat "$tmp/hdf5.err"; fail "hdf5: the killed shot's solve did not resume from its checkpoints"; }
test ! -e "$tmp/ck.h5" || fail "hdf5: the completed run left its checkpoint file"
echo "ok hdf5: the killed shot's own solve resumed from its kept checkpoints ($(sed -n 's/^rewind: -rw_restart //p' "$tmp/hdf5.err"))"
small="$plain"

# a journal of another problem (other bands) is refused and kept; -rw_journal_overwrite (here by its
# deprecated name, which warns) discards it
if run 2 $small -rw_output "$tmp/other" -rw_debug_kill_at_evaluation 2 > /dev/null 2>&1; then fail "other: the run was not killed"; fi
if run 2 $small -rw_output "$tmp/other" -rw_fwi_bands 0.005,0 -rw_restart > "$tmp/other.txt" 2>&1; then fail "a journal of other bands was resumed"; fi
grep -q "The journal $tmp/other.state (-rw_journal) belongs to a different problem: bands: 0.0040000000000000001,0 in the file, 0.0050000000000000001,0 in this run" "$tmp/other.txt" || fail "expected the journal refused naming the bands, got: $(grep 'PETSC ERROR' "$tmp/other.txt" | head -2)"
test -s "$tmp/other.state/problem" || fail "the refused journal was not kept"
run 2 $small -rw_output "$tmp/other" -rw_fwi_bands 0.005,0 -rw_restart -rw_fwi_state_overwrite > "$tmp/other.txt" 2> "$tmp/other.err"
grep -q "rewind-fwi: -rw_journal_overwrite: discarding the journal" "$tmp/other.err" || fail "-rw_fwi_state_overwrite did not say it discards the journal"
grep -q "rw_fwi_state_overwrite is deprecated" "$tmp/other.txt" "$tmp/other.err" || fail "-rw_fwi_state_overwrite did not warn that it is deprecated"
test ! -e "$tmp/other.state" || fail "the overwritten run left its journal"
echo "ok: a journal of other bands is refused and kept; -rw_fwi_state_overwrite (deprecated, warns) discards it"

# no -rw_output and no -rw_journal: no journal
run 1 $small -rw_fwi_iterations 1 -rw_journal_keep > "$tmp/none.txt" 2>&1
! ls -d ./*.state 2> /dev/null | grep -q rewind-fwi || fail "a run without -rw_output wrote a journal"
echo "ok: without -rw_output or -rw_journal, no journal"
