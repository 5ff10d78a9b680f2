# inverselib.sh: what the rewind-heat-inverse tests share, sourced after
# testlib.sh.  Results are compared bit for bit: the printed lines without
# their seconds, and every data set of the output but the history's seconds.
#
#   fail WHAT...         stop the test with FAIL WHAT
#   lines FILE           the printed results of a run, seconds removed
#   same A B WHAT        A.lines = B.lines and A.h5 = B.h5 (fields, history)
fail() { echo "FAIL $*"; exit 1; }
lines() { grep -E '^(iter|recovered|data misfit|relative)' "$1" | sed 's/ *[0-9.]* s$//; s/, [0-9.]* s: /: /'; }
same() {
  cmp -s "$1.lines" "$2.lines" || { diff "$1.lines" "$2.lines"; fail "$3: the printed results differ"; }
  for d in kappa_recovered history/J history/misfit history/gradient_norm history/error; do
    h5diff -q "$1.h5" "$2.h5" "/$d" "/$d" || fail "$3: /$d differs"
  done
}
