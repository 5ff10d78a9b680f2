#!/bin/sh
# rewind-4dvar with multiple shooting (issue 34): a window of 5 time units
# (8.5 Lyapunov times), which one segment does not fit (t560), converges in 20
# segments of 0.25 with the matching weight's continuation 1, 10, 100: the
# analysis beats the background 2x on x0 and 10x over the window, the
# segments join (largest RMS gap < 0.1); the output parses (the joined
# analysis trajectory gives the printed errors, the history has the gap
# column and one solve per weight) and the PNG is drawn; -rw_4dvar_segments
# 1 prints today's lines; 3 ranks in 3 groups print 1 rank's lines; killed in
# the continuation's second solve and resumed, the uninterrupted run's lines;
# bad input stops with a clear error.
app="$top_builddir/apps/rewind-4dvar"
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
lines() { grep -E '^(4D-Var|Multiple|iter|[0-9]+ iterations|RMS)' "$1"; }
errors() { sed -n 's/^RMS error of x0: background \([^,]*\), analysis \([^;]*\); over the window: background \([^,]*\), analysis \(.*\)$/\1 \2 \3 \4/p' "$1"; }
gap() { sed -n 's/^Multiple shooting: .* largest RMS gap between segments \([^ ]*\) .*$/\1/p' "$1"; }

# T = 5 in 20 segments
run 1 -rw_steps 500 -rw_4dvar_segments 20 -tao_max_it 1000 -rw_output "$tmp/a" -rw_output_png > "$tmp/a.txt" 2>&1 || { cat "$tmp/a.txt"; fail "the run failed"; }
tail -3 "$tmp/a.txt"
grep -q 'iterations (TAO: CONVERGED_' "$tmp/a.txt" || fail "20 segments of a 5-time-unit window did not converge"
set -- $(errors "$tmp/a.txt")
test $# = 4 || fail "no error line"
g=$(gap "$tmp/a.txt")
awk -v b="$1" -v a="$2" -v wb="$3" -v wa="$4" -v g="$g" 'BEGIN { exit !(a > 0 && a < b / 2 && wa < wb / 10 && g != "" && g < 0.1) }' || fail "analysis errors $2 (x0), $4 (window), gap $g do not beat the background's $1, $3 by 2x and 10x with a gap under 0.1"
echo "ok T = 5 in 20 segments: x0 error $1 -> $2, over the window $3 -> $4, largest gap $g"
grep -q "^plot_4dvar.py: wrote $tmp/a.png$" "$tmp/a.txt" || fail "the app did not report the PNG"
"$PYTHON" - "$tmp/a.h5" "$@" <<'PY'
import sys
import h5py, numpy as np
printed = [float(v) for v in sys.argv[2:6]]
with h5py.File(sys.argv[1], "r") as f:
    xt, xb, xa, err = (f[k][()] for k in ("truth", "background", "analysis", "rms_error"))
    assert xt.shape == xa.shape == (501, 40), xa.shape
    rms = lambda u, v: float(np.sqrt(np.mean((u - v) ** 2)))
    mine = [rms(xb[0], xt[0]), rms(xa[0], xt[0]), rms(xb, xt), rms(xa, xt)]
    assert np.allclose(mine, err, rtol=1e-12, atol=0) and np.allclose(mine, printed, rtol=1e-3, atol=0), (mine, list(err), printed)
    h = f["history"]
    assert "gap" in h and "error" in h, list(h)
    solves = sorted(set(int(s) for s in h["solve"][()]))
    assert solves == [0, 1, 2], solves
    last = float(h["gap"][-1])
    assert last < 0.1, last
print("ok the output parses: the joined analysis gives the printed errors; history columns gap, error; solves %s; last gap %.3g" % (solves, last))
PY

# one segment: today's lines
run 1 > "$tmp/one.txt" 2>&1 || { cat "$tmp/one.txt"; fail "the default run failed"; }
run 1 -rw_4dvar_segments 1 -rw_4dvar_matching_weight 5 > "$tmp/seg1.txt" 2>&1 || { cat "$tmp/seg1.txt"; fail "-rw_4dvar_segments 1 failed"; }
lines "$tmp/one.txt" > "$tmp/one.lines"
lines "$tmp/seg1.txt" | diff "$tmp/one.lines" - || fail "-rw_4dvar_segments 1 prints other lines than the default"
echo "ok -rw_4dvar_segments 1: the default's $(wc -l < "$tmp/one.lines") lines"

# 3 ranks in 3 groups: 1 rank's lines (T = 2.5 in 10 segments, 8 iterations a weight)
short="-rw_steps 250 -rw_4dvar_segments 10 -tao_max_it 8"
run 1 $short > "$tmp/s1.txt" 2>&1 || { cat "$tmp/s1.txt"; fail "the short run on 1 rank failed"; }
run 3 $short -rw_ensemble_groups 3 > "$tmp/s3.txt" 2>&1 || { cat "$tmp/s3.txt"; fail "the short run on 3 ranks in 3 groups failed"; }
lines "$tmp/s1.txt" > "$tmp/s1.lines"
lines "$tmp/s3.txt" | diff "$tmp/s1.lines" - || fail "1 rank and 3 ranks in 3 groups print different lines"
echo "ok 1 rank and 3 ranks in 3 groups: the same $(wc -l < "$tmp/s1.lines") lines"

# killed in the continuation's second solve (8 iterations a weight: evaluation 12), resumed
if run 1 $short -rw_output "$tmp/k" -rw_debug_kill_at_evaluation 12 > "$tmp/k1.txt" 2>&1; then fail "the run was not killed"; fi
grep -q 'matching weight 10$' "$tmp/k1.txt" || fail "the kill was not in the second solve"
run 1 $short -rw_output "$tmp/k" -rw_restart > "$tmp/k.txt" 2> "$tmp/k.err" || { cat "$tmp/k.err"; fail "the resumed run failed"; }
grep -q 'rewind-4dvar: -rw_restart used [0-9]* journal records' "$tmp/k.err" || { cat "$tmp/k.err"; fail "did not replay its journal"; }
lines "$tmp/k.txt" | diff "$tmp/s1.lines" - || fail "the resumed run's lines differ from the uninterrupted run's"
echo "ok killed in the second solve and resumed: the uninterrupted run's lines"
if run 1 $short -rw_4dvar_matching_weight 1,20 -rw_output "$tmp/k" -rw_debug_kill_at_evaluation 3 > "$tmp/k2.txt" 2>&1; then fail "the run was not killed"; fi
if run 1 $short -rw_4dvar_matching_weight 1,30 -rw_output "$tmp/k" -rw_restart > "$tmp/k3.txt" 2>&1; then fail "a journal of other matching weights was used"; fi
grep -q "matching_weights" "$tmp/k3.txt" || { cat "$tmp/k3.txt"; fail "the refusal does not name the matching weights"; }
echo "ok a journal of other matching weights is refused by name"

# bad input
bad() { # bad "OPTIONS" "expected message"
  if run 1 $1 > "$tmp/bad.txt" 2>&1; then fail "$1: accepted"; fi
  grep -q -- "$2" "$tmp/bad.txt" || { cat "$tmp/bad.txt"; fail "$1: no message \"$2\""; }
  echo "ok $1: $2"
}
bad "-rw_4dvar_segments 3" "-rw_4dvar_segments 3 does not divide the window's 50 steps"
bad "-rw_4dvar_segments 25" "a segment of 2 steps is not a multiple of -rw_4dvar_obs_every 5"
bad "-rw_4dvar_segments 0" "-rw_4dvar_segments 0"
bad "-rw_4dvar_segments 2 -rw_4dvar_matching_weight 1,0" "-rw_4dvar_matching_weight"
