#!/bin/sh
# Files in use (src/sys/filelock.c): a run holds FILE.lock beside its
# checkpoint file, keep files, journal and outputs.  A second run on a
# checkpoint file a run is writing (stopped with SIGSTOP while it holds it)
# is refused with "in use by" that run's host and pid, also with
# -rw_store_overwrite, and the first run then completes with the J and
# gradient of a run alone; two runs started at once on one file each end
# with that gradient or with "in use", never a corruption message; a lock
# left by a killed run is taken over with a warning and the resumed run gives
# the same gradient; a journal held by another run is refused by name, and
# taken over once that run is gone.  No lock file outlives its run.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
keys() { grep -E '^(J|norm2_|sum_)' "$1"; }

long="-da_grid_x 40 -da_grid_y 40 -rw_steps 400 -rw_schedule_type revolve -rw_schedule_ram_slots 8 -rw_store_type hdf5 -rw_adjoint_keep_interval 50"
ck="$tmp/ck.h5"
run 2 $long -rw_store_hdf5_file "$tmp/alone.h5" > "$tmp/alone.txt"
keys "$tmp/alone.txt" > "$tmp/alone.keys"
test -s "$tmp/alone.keys" || fail "the run alone printed no J"
ls "$tmp"/*.lock > /dev/null 2>&1 && fail "a completed run left a lock file: $(ls "$tmp"/*.lock)"

# a second run while the first holds the file (stopped, so the test does not race it)
run 2 $long -rw_store_hdf5_file "$ck" > "$tmp/first.txt" 2> "$tmp/first.err" &
first=$!
i=0
until test -s "$ck.lock"; do
  i=$((i + 1))
  test $i -lt 500 || fail "the first run made no lock file $ck.lock"
  sleep 0.02
done
pid=$(sed -n 's/.* pid \([0-9]*\) .*/\1/p' "$ck.lock")
kill -STOP "$pid" || fail "the first run (pid $pid) ended before it could be stopped: make it longer"
for extra in "" "-rw_store_overwrite" "-rw_restart"; do
  if run 1 $long -rw_store_hdf5_file "$ck" $extra > "$tmp/second.txt" 2>&1; then kill -CONT "$pid"; fail "a second run ($extra) on a file in use ran"; fi
  grep -qF "Checkpoint file $ck (-rw_store_hdf5_file) is in use by host $(hostname) pid $pid (since" "$tmp/second.txt" || { kill -CONT "$pid"; cat "$tmp/second.txt"; fail "second run ($extra): no \"in use\" message"; }
  ! grep -qiE 'corrupt|damaged|truncated|checksum' "$tmp/second.txt" || { kill -CONT "$pid"; cat "$tmp/second.txt"; fail "second run ($extra): a corruption message"; }
  echo "ok second run ${extra:-(plain)}: refused, in use by pid $pid"
done
kill -CONT "$pid"
wait $first || { cat "$tmp/first.err"; fail "the first run failed after the second was refused"; }
keys "$tmp/first.txt" | cmp -s - "$tmp/alone.keys" || fail "the first run's gradient differs from the run alone"
test ! -e "$ck.lock" || fail "the first run left its lock file"
echo "ok first run: the gradient of the run alone, lock removed"

# both started at once: each ends with the gradient or with "in use", and one at least completes
for np in 1 2; do
  run $np $long -rw_store_hdf5_file "$ck" -rw_store_overwrite > "$tmp/a.txt" 2>&1 &
  a=$!
  run 2 $long -rw_store_hdf5_file "$ck" -rw_store_overwrite > "$tmp/b.txt" 2>&1 &
  b=$!
  done=0
  for x in a b; do
    if wait $(eval echo \$$x); then
      keys "$tmp/$x.txt" | cmp -s - "$tmp/alone.keys" || fail "at once ($x): the gradient differs"
      done=$((done + 1))
    else
      grep -q "is in use by host" "$tmp/$x.txt" || { cat "$tmp/$x.txt"; fail "at once ($x): failed without \"in use\""; }
    fi
  done
  test $done -ge 1 || fail "at once: neither run completed"
  test ! -e "$ck.lock" || fail "at once: a lock file outlived both runs"
  echo "ok started at once ($np and 2 ranks): $done completed with the gradient, $((2 - done)) refused as in use"
done

# a lock left by a killed run: taken over with a warning, the resumed gradient is the same
if run 2 $long -rw_store_hdf5_file "$ck" -rw_debug_kill_at_step 200 > "$tmp/killed.txt" 2>&1; then fail "the run was not killed"; fi
test -s "$ck.lock" || fail "the killed run left no lock file (the test needs one)"
run 2 $long -rw_store_hdf5_file "$ck" -rw_restart > "$tmp/resumed.txt" 2> "$tmp/resumed.err" || { cat "$tmp/resumed.err"; fail "the resumed run failed"; }
grep -qF "WARNING: Checkpoint file $ck (-rw_store_hdf5_file): taking over the lock file $ck.lock left by host" "$tmp/resumed.err" || { cat "$tmp/resumed.err"; fail "no warning on taking over a stale lock"; }
keys "$tmp/resumed.txt" | cmp -s - "$tmp/alone.keys" || fail "the resumed gradient differs"
test ! -e "$ck.lock" || fail "the resumed run left its lock file"
echo "ok stale lock: taken over with a warning; the resumed gradient is the same"

# a journal held by another process (util-linux flock holds the lock file)
app="$top_builddir/apps/rewind-heat-inverse"
inv="-da_grid_x 12 -da_grid_y 12 -rw_steps 4 -tao_max_it 2 -rw_output $tmp/inv -rw_journal $tmp/jr"
printf 'host elsewhere pid 4242 since 2026-12-06 08:00:00 UTC\n' > "$tmp/jr.lock"
(flock 9 && exec sleep 60) 9< "$tmp/jr.lock" &
holder=$!
i=0
while flock -n "$tmp/jr.lock" true; do # until the holder has it
  i=$((i + 1))
  test $i -lt 500 || fail "flock did not take $tmp/jr.lock"
  sleep 0.02
done
if run 1 $inv > "$tmp/jheld.txt" 2>&1; then kill $holder; fail "a run on a journal in use ran"; fi
kill $holder
grep -qF "The journal $tmp/jr (-rw_journal) is in use by host elsewhere pid 4242 (since 2026-12-06 08:00:00 UTC" "$tmp/jheld.txt" || { cat "$tmp/jheld.txt"; fail "journal in use: no message naming its holder"; }
test ! -e "$tmp/jr" || fail "the refused run touched the journal"
echo "ok journal in use: refused, naming host elsewhere pid 4242"
wait $holder 2> /dev/null || true
run 1 $inv > "$tmp/jfree.txt" 2> "$tmp/jfree.err" || { cat "$tmp/jfree.err"; fail "the run after the holder ended failed"; }
grep -qF "taking over the lock file $tmp/jr.lock left by host elsewhere pid 4242" "$tmp/jfree.err" || { cat "$tmp/jfree.err"; fail "journal: no warning on taking over"; }
test ! -e "$tmp/jr.lock" || fail "the journal's lock outlived its run"
echo "ok journal lock left by a run that is gone: taken over with a warning"
