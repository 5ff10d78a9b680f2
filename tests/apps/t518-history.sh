#!/bin/sh
# One history for every program (RwProblem, doc/problem.md): rewind-heat-inverse,
# rewind-fwi and rewind-hybrid write the same group /history into their
# outputs and with -rw_history_view hdf5:file: a dataset a column, the
# columns named in order by the attribute "columns" (solve, iteration, J,
# misfit, [regularizer], gradient_norm, seconds, then the program's own),
# one row an iteration; -rw_history_view ascii prints the same rows, every
# value to every bit; the rows of the file and of the output are the same.
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
columns() { h5dump -a /history/columns "$1" | sed -n 's/^ *(0): *"\(.*\)"$/\1/p'; }
values() { h5dump -m '%.17g' -w 1 -d "/history/$2" "$1" | sed -n 's/^ *([0-9]*): *\([-0-9.e+]*\),*$/\1/p'; }

check() { # check NAME EXPECTED-COLUMNS ROWS: the output's /history and -rw_history_view's, alike
  name=$1 want=$2 rows=$3
  got=$(columns "$tmp/$name.h5")
  test "$got" = "$want" || fail "$name: /history columns \"$got\", expected \"$want\""
  test "$(columns "$tmp/$name-view.h5")" = "$want" || fail "$name: -rw_history_view's columns \"$(columns "$tmp/$name-view.h5")\""
  for c in $want; do
    test "$(values "$tmp/$name.h5" $c | wc -l)" = "$rows" || fail "$name: /history/$c has $(values "$tmp/$name.h5" $c | wc -l) rows, expected $rows"
    test "$c" = seconds || test "$(values "$tmp/$name.h5" $c)" = "$(values "$tmp/$name-view.h5" $c)" || fail "$name: /history/$c differs between the output and -rw_history_view"
  done
  test "$(grep -c '^solve [0-9]* iteration [0-9]* J ' "$tmp/$name.txt")" = "$rows" || fail "$name: -rw_history_view ascii printed $(grep -c '^solve ' "$tmp/$name.txt") rows, expected $rows"
  j=$(grep '^solve 0 iteration 1 J ' "$tmp/$name.txt" | sed 's/.* J \([-0-9.e+]*\) .*/\1/')
  test "$j" = "$(values "$tmp/$name.h5" J | sed -n 2p)" || fail "$name: the printed J of iteration 1 ($j) is not the file's"
  echo "ok $name: /history \"$want\", $rows rows, in its output and -rw_history_view hdf5 alike; ascii rows the same"
}

app="$top_builddir/apps/rewind-heat-inverse"
run 2 -da_grid_x 16 -da_grid_y 16 -rw_steps 8 -tao_max_it 3 -rw_output "$tmp/inv" -rw_history_view ascii > "$tmp/inv.txt"
run 2 -da_grid_x 16 -da_grid_y 16 -rw_steps 8 -tao_max_it 3 -rw_history_view "hdf5:$tmp/inv-view.h5" -rw_journal none > /dev/null
check inv "solve iteration J misfit regularizer gradient_norm seconds error" 4

app="$top_builddir/apps/rewind-fwi"
fsmall="-rw_fwi_grid 31,16 -rw_fwi_shots 2 -rw_fwi_record 200 -rw_dt 2.4 -rw_fwi_iterations 2"
run 2 $fsmall -rw_output "$tmp/fwi" -rw_history_view ascii > "$tmp/fwi.txt"
run 2 $fsmall -rw_history_view "hdf5:$tmp/fwi-view.h5" > /dev/null
check fwi "solve iteration J misfit gradient_norm seconds error" 6
test "$(values "$tmp/fwi.h5" solve | sort -u | tr '\n' ' ')" = "0 1 " || fail "fwi: the bands are not the solves 0 and 1"

app="$top_builddir/apps/rewind-hybrid"
hsmall="-rw_hybrid_grid 16 -rw_hybrid_steps 12 -rw_hybrid_epochs 3"
run 2 $hsmall -rw_output "$tmp/hyb" -rw_history_view ascii > "$tmp/hyb.txt"
run 2 $hsmall -rw_history_view "hdf5:$tmp/hyb-view.h5" > /dev/null
check hyb "solve iteration J misfit gradient_norm seconds" 4
