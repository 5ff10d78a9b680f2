#!/bin/sh
# -help as users read it: the same text on 1 and 2 ranks (rewind-bench, whose
# schedules live on each rank's own communicator); the time step the run will
# use, once the grid is built, equal to the one the model reports
# (-rw_model_view); integer options with their range; the testing options
# (-rw_debug_*) hidden unless -help_debug.
app="$top_builddir/apps/rewind-bench"
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
run 1 -help > "$tmp/b1.txt" 2>&1
for i in 1 2 3; do
  run 2 -help > "$tmp/b2.txt" 2>&1
  cmp -s "$tmp/b1.txt" "$tmp/b2.txt" || { diff "$tmp/b1.txt" "$tmp/b2.txt" | head -20; fail "rewind-bench -help on 2 ranks differs from 1 rank (try $i)"; }
done
echo "ok rewind-bench -help: the same $(wc -l < "$tmp/b1.txt") lines on 1 and 2 ranks"

app="$top_builddir/apps/rewind-gradient"
run 2 -help -da_grid_x 32 -da_grid_y 24 -rw_steps 2 -rw_model_view > "$tmp/g.txt" 2>&1
used=$(sed -n 's/^  -rw_dt <\([^>]*\)>: time step used (the model type.s default for this grid)$/\1/p' "$tmp/g.txt")
viewed=$(sed -n 's/^ *time step dt = \([^ ]*\) (default)$/\1/p' "$tmp/g.txt")
test -n "$used" || { grep -n "rw_dt" "$tmp/g.txt"; fail "-help does not print the default time step used"; }
test "$used" = "$viewed" || fail "-help says dt $used, the model uses $viewed"
test "$used" != 0 && test "$used" != "0." || fail "-help prints dt 0"
grep -q -- "-rw_heat_dim <now 2 : formerly 2>: .*(whole number in \[1, 3\])" "$tmp/g.txt" || fail "-rw_heat_dim without its range"
grep -q -- "-rw_steps <now 2 : formerly [0-9]*>: .*(whole number >= 1)" "$tmp/g.txt" || fail "-rw_steps without its range"
echo "ok rewind-gradient -help: dt used $used (the model's default for 32 x 24), ranges shown"

app="$top_builddir/apps/rewind-heat-inverse"
run 2 -help -da_grid_x 16 -da_grid_y 16 -tao_max_it 1 > "$tmp/i.txt" 2>&1
! grep -q -- "-rw_debug_" "$tmp/i.txt" || { grep -- "-rw_debug_" "$tmp/i.txt"; fail "-help lists testing options"; }
run 2 -help -help_debug -da_grid_x 16 -da_grid_y 16 -tao_max_it 1 > "$tmp/d.txt" 2>&1
n=$(grep -c -- "^ *-rw_debug_" "$tmp/d.txt" || true)
test "$n" -ge 7 || fail "-help -help_debug lists $n testing options, expected 7"
! grep -q "WARNING.*help_debug" "$tmp/d.txt" || fail "-help_debug is reported as unused"
echo "ok rewind-heat-inverse -help hides the $n testing options that -help -help_debug lists"
