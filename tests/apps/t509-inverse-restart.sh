#!/bin/sh
# Resumable inversion.  A rewind-heat-inverse run killed (SIGKILL) between
# evaluations, half way through writing a journal record, or in the middle
# of an adjoint solve, and resumed with -rw_restart, ends with the same
# recovered field and history (J, misfit, |g|, error) bit for bit as an
# uninterrupted run on the same ranks (1, 2, 3; kappa and u0; killed twice);
# a completed run leaves no journal, and a kept one extends with more
# iterations; a journal is refused, and left as it was, when the run is not
# a restart or its data or options differ; a damaged record is refused by
# name and recomputed; a resume on another rank count says where it departs
# and agrees to rounding.  The journal (src/problem/journal.c) keeps each
# experiment's record as it comes and, once an evaluation is whole, one
# record of their sum that stands for them: one record an evaluation.
app="$top_builddir/apps/rewind-heat-inverse"
. "$top_srcdir/tests/testlib.sh"

small="-da_grid_x 16 -da_grid_y 16 -rw_steps 8 -tao_max_it 5"
. "$top_srcdir/tests/apps/inverselib.sh"
full() { # full NAME NP OPTIONS...: an uninterrupted run, which must leave no journal
  name=$1 np=$2
  shift 2
  run "$np" "$@" -rw_output "$tmp/$name" > "$tmp/$name.txt"
  lines "$tmp/$name.txt" > "$tmp/$name.lines"
  test ! -e "$tmp/$name.state" || fail "$name: a completed run left its journal $tmp/$name.state"
}
killed() { # killed NAME NP OPTIONS...: a run that must die
  name=$1 np=$2
  shift 2
  if run "$np" "$@" -rw_output "$tmp/$name" > "$tmp/$name-killed.txt" 2>&1; then fail "$name: the run was not killed"; fi
  test -s "$tmp/$name.state/problem" || fail "$name: no journal survived the kill"
}
resumed() { # resumed NAME NP OPTIONS...
  name=$1 np=$2
  shift 2
  run "$np" "$@" -rw_output "$tmp/$name" -rw_restart > "$tmp/$name.txt" 2> "$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: the resumed run failed"; }
  lines "$tmp/$name.txt" > "$tmp/$name.lines"
  grep -q 'used [0-9]* journal records' "$tmp/$name.err" || { cat "$tmp/$name.err"; fail "$name: did not replay its journal"; }
  test ! -e "$tmp/$name.state" || fail "$name: the completed resumed run left its journal"
}
records() { ls "$tmp/$1.state" | grep -c '^eval-.*\.rec$' || true; }

# killed between evaluations (right after evaluation 3's records), on 1, 2 and 3 ranks
# (on 3 ranks GAMG's set-up adds in the order messages arrive, so two
# uninterrupted runs may differ in the last bit: Jacobi there)
for np in 1 2 3; do
  pc=
  test $np -lt 3 || pc="-pc_type jacobi"
  full full$np $np $small $pc
  killed between$np $np $small $pc -rw_debug_kill_at_evaluation 3
  test "$(records between$np)" = 4 || fail "between$np: $(records between$np) records after evaluation 3, expected 4 (one an evaluation)"
  resumed between$np $np $small $pc
  grep -q 'used 4 journal records; the journal ends here; solving from evaluation 4, member 0' "$tmp/between$np.err" || fail "between$np: did not replay evaluations 0-3"
  same "$tmp/full$np" "$tmp/between$np" "between$np"
  echo "ok killed after evaluation 3 on $np ranks, resumed: identical ($(grep '^data misfit' "$tmp/full$np.txt" | cut -d: -f1))"
done

# the initial state as the unknown: its gradient is the driver's dJ/du0
full u0full 1 $small -rw_invert u0
killed u0 1 $small -rw_invert u0 -rw_debug_kill_at_evaluation 2
resumed u0 1 $small -rw_invert u0
for d in u0_recovered history/J history/error; do h5diff -q "$tmp/u0full.h5" "$tmp/u0.h5" "/$d" "/$d" || fail "u0: /$d differs"; done
cmp -s "$tmp/u0full.lines" "$tmp/u0.lines" || fail "u0: the printed results differ"
echo "ok -rw_invert u0 killed after evaluation 2, resumed: identical"

# killed, resumed and killed again after evaluation 4, resumed again: the journal grows across runs
killed twice1 1 $small -rw_debug_kill_at_evaluation 1
if run 1 $small -rw_output "$tmp/twice1" -rw_restart -rw_debug_kill_at_evaluation 4 > "$tmp/twice1-killed.txt" 2>&1; then fail "twice1: the resumed run was not killed"; fi
test "$(records twice1)" = 5 || fail "twice1: $(records twice1) records after the second kill, expected 5"
resumed twice1 1 $small
grep -q 'used 5 journal records' "$tmp/twice1.err" || fail "twice1: did not replay both runs' records"
same "$tmp/full1" "$tmp/twice1" twice1
echo "ok killed after evaluation 1, resumed, killed after evaluation 4, resumed: identical"

# killed half way through writing evaluation 2's last record, the sum of its
# experiments: the torn temporary file is never read, and the sum is made
# again from the experiments' records, with no solve
killed torn2 2 $small -rw_debug_kill_at_evaluation 2 -rw_debug_kill_torn
ls -a "$tmp/torn2.state" | grep -q '^\.eval-000002-exp-04\.rec\.tmp$' || fail "torn2: no torn temporary record"
test ! -e "$tmp/torn2.state/eval-000002-exp-04.rec" || fail "torn2: the torn record has its final name"
resumed torn2 2 $small
grep -q 'used 6 journal records; the journal ends here; solving from evaluation 3, member 0' "$tmp/torn2.err" || { cat "$tmp/torn2.err"; fail "torn2: did not make the torn sum from the experiments' records"; }
same "$tmp/full2" "$tmp/torn2" torn2
echo "ok killed while writing evaluation 2's sum, resumed from its experiments' records: identical"

# a record with a flipped byte is refused by name, and its solve computed again
killed flip2 2 $small -rw_debug_kill_at_evaluation 3
rec="$tmp/flip2.state/eval-000001-exp-04.rec"
b=$(od -An -tu1 -j 500 -N1 "$rec" | tr -d ' ')
printf "\\$(printf %03o $((b ^ 16)))" | dd of="$rec" bs=1 seek=500 conv=notrunc 2> /dev/null
resumed flip2 2 $small
grep -q "refusing the journal record .*eval-000001-exp-04.rec: its checksum does not match" "$tmp/flip2.err" || { cat "$tmp/flip2.err"; fail "flip2: the damaged record was not refused"; }
same "$tmp/full2" "$tmp/flip2" flip2
echo "ok a record with a flipped byte is refused by name and recomputed: identical"

# a kept journal is refused, and left alone, unless resumed with the same problem
killed kept 1 $small -rw_debug_kill_at_evaluation 1
cp -R "$tmp/kept.state" "$tmp/kept.copy"
refused() { # refused WHAT EXPECTED OPTIONS...
  what=$1 expect=$2
  shift 2
  if run 1 "$@" -rw_output "$tmp/kept" > "$tmp/kept.out" 2>&1; then fail "$what was accepted"; fi
  grep -q "$expect" "$tmp/kept.out" || { grep 'PETSC ERROR' "$tmp/kept.out" | head -4; fail "$what: expected \"$expect\""; }
  diff -r "$tmp/kept.state" "$tmp/kept.copy" > /dev/null || fail "$what: refusing changed the journal"
  echo "ok refused $what: $(grep -o "$expect.*" "$tmp/kept.out" | head -1 | cut -c1-150)"
}
refused "a run without -rw_restart" "holds an earlier run's evaluations" $small
refused "-rw_reg_alpha 200" "belongs to a different problem: regularisers: tv(kappa),alpha=100,eps=0.5 in the file, tv(kappa),alpha=200,eps=0.5 in this run" $small -rw_restart -rw_reg_alpha 200
refused "-rw_inv_noise 0.02" "belongs to a different problem: observations: [0-9a-f]* in the file, [0-9a-f]* in this run" $small -rw_restart -rw_inv_noise 0.02
refused "-rw_kappa_max 5" "belongs to a different problem: bounds: \[0.050000000000000003,10\]/[0-9a-f]* in the file, \[0.050000000000000003,5\]" $small -rw_restart -rw_kappa_max 5
refused "-tao_type lmvm" "tao_type: blmvm in the file, lmvm in this run" $small -rw_restart -tao_type lmvm
cp -R "$tmp/kept.state" "$tmp/damaged.state"
sed 's/; grid 16 x/; grid 17 x/' "$tmp/kept.state/problem" > "$tmp/damaged.state/problem"
if run 1 $small -rw_output "$tmp/kept" -rw_journal "$tmp/damaged.state" -rw_restart > "$tmp/damaged.out" 2>&1; then fail "a damaged problem file was accepted"; fi
grep -q "damaged.state/problem is damaged (its checksum line does not match its text)" "$tmp/damaged.out" || { grep 'PETSC ERROR' "$tmp/damaged.out" | head -4; fail "a damaged problem file: wrong error"; }
echo "ok refused a journal whose problem file was edited"
# the option's old name still works, for one release, with a warning
run 1 $small -rw_output "$tmp/kept" -rw_inverse_state_overwrite > "$tmp/kept.txt" 2> "$tmp/kept.err"
grep -q 'discarding the journal' "$tmp/kept.err" || fail "-rw_inverse_state_overwrite did not say it discards the journal"
grep -q 'rw_inverse_state_overwrite is deprecated' "$tmp/kept.txt" "$tmp/kept.err" || fail "-rw_inverse_state_overwrite did not warn that it is deprecated"
lines "$tmp/kept.txt" > "$tmp/kept.lines"
same "$tmp/full1" "$tmp/kept" overwrite
echo "ok -rw_inverse_state_overwrite (deprecated for -rw_journal_overwrite, which warns) discards it and runs from the start"

# a completed run kept with -rw_journal_keep is extended by -rw_restart with more iterations
more="-da_grid_x 16 -da_grid_y 16 -rw_steps 8 -tao_max_it 7"
full more2 2 $more
run 2 $small -rw_output "$tmp/extended" -rw_journal_keep > /dev/null
test -s "$tmp/extended.state/problem" || fail "-rw_journal_keep did not keep the journal"
resumed extended 2 $more
same "$tmp/more2" "$tmp/extended" extended
echo "ok a kept 5-iteration run extended to 7 with -rw_restart: identical to a 7-iteration run"

# killed in the middle of an adjoint solve (the driver's restart, hdf5 store):
# evaluation 2, experiment 1 is the process's solve 9
store="-rw_schedule_type revolve -rw_schedule_ram_slots 3 -rw_store_type hdf5 -rw_store_hdf5_file $tmp/store.h5"
full mid2full 2 $small $store
killed mid2 2 $small $store -rw_debug_kill_at_step 7 -rw_debug_kill_solve 9
test -s "$tmp/store.h5" || fail "mid2: no checkpoint file survived the kill"
midrecords=$(records mid2)
resumed mid2 2 $small $store
grep -q 'resumes the forward sweep at step' "$tmp/mid2.err" || { cat "$tmp/mid2.err"; fail "mid2: the driver did not resume the interrupted solve"; }
same "$tmp/mid2full" "$tmp/mid2" mid2
same "$tmp/full2" "$tmp/mid2" "mid2 against the memory store"
echo "ok killed at step 7 of a solve after $midrecords journal records, resumed mid-solve: identical"

# another rank count: the embedded problem's data come from a forward solve
# whose last bits depend on the ranks, so resume from a data file
run 1 $small -tao_max_it 0 -rw_obs_write "$tmp/obs.h5" -rw_journal "$tmp/obs.state" > /dev/null
fromfile="-rw_obs $tmp/obs.h5 -tao_max_it 5"
full file3 3 $fromfile
killed cross 2 $fromfile -rw_debug_kill_at_evaluation 3
resumed cross 3 $fromfile
grep -q 'the resumed run departs from the interrupted one at evaluation' "$tmp/cross.err" || { cat "$tmp/cross.err"; fail "cross: no word of the departure"; }
last() { h5dump -m '%.17g' -d "/history/$2" "$1.h5" | sed -n 's/^ *([0-9]*): *\([-0-9.e+]*\),*$/\1/p' | tail -1; }
m3=$(last "$tmp/file3" misfit) mx=$(last "$tmp/cross" misfit) e3=$(last "$tmp/file3" error) ex=$(last "$tmp/cross" error)
agree=$(awk -v a="$m3" -v b="$mx" -v c="$e3" -v d="$ex" 'function abs(x) { return x < 0 ? -x : x } BEGIN {
  m = abs(a - b) / a; e = abs(c - d) / c
  printf "final misfit %.10g vs %.10g (relative difference %.1e), kappa error %.8f vs %.8f (relative difference %.1e)", a, b, m, c, d, e
  exit !(m < 1e-6 && e < 1e-6) }') || fail "cross: killed on 2 ranks, resumed on 3: $agree"
echo "ok killed on 2 ranks, resumed on 3 ($(sed -n 's/.*departs from the interrupted one at \(evaluation [0-9]*\).*/departs at \1/p' "$tmp/cross.err")), against an uninterrupted run on 3: $agree"

# last, so that everything above runs whatever the driver can do
test "$midrecords" = 3 || fail "mid2: the kill came after $midrecords journal records, not 3 (the sums of evaluations 0 and 1, experiment 0 of evaluation 2): the driver's -rw_debug_kill_solve (kill in the process's solve 9) is not there yet, so the kill hit solve 0"
