#!/bin/sh
# rewind-horizon (issue 34): the table of the gradients of Lorenz-96's time
# average against the window over an ensemble of windows on the attractor:
# one row a window; the mean |dJ/dx0| and the spread of dJ/dF grow with the
# window (past a Lyapunov time, like exp(lambda_1 T)); dJ/dF at half a time
# unit is the O(0.1) sensitivity of the long-time average (0.14-0.16, doc/chaos.md);
# the same table on 1 rank and on 3 ranks in 3 groups; bad input stops with a
# clear error.
app="$top_builddir/apps/rewind-horizon"
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
opts="-rw_horizon_windows 0.5,1,2,4 -rw_horizon_members 16"

run 1 $opts > "$tmp/one.txt" 2>&1 || { cat "$tmp/one.txt"; fail "the run failed"; }
cat "$tmp/one.txt"
grep -q '^horizon table: ' "$tmp/one.txt" || fail "no table header"
grep -E '^ +[0-9.]+ +[0-9]+ ' "$tmp/one.txt" > "$tmp/rows"
test "$(wc -l < "$tmp/rows")" = 4 || fail "expected 4 rows"
# columns: window steps dJ/dF +- error spread |dJ/dx0| +- error J
awk '{ if (NR > 1 && !($7 > x0 && $6 > sp)) bad = 1; x0 = $7; sp = $6; if (NR == 1 && !($3 > 0.12 && $3 < 0.18)) bad = 2 }
     END { exit bad }' "$tmp/rows" || fail "|dJ/dx0| and the spread of dJ/dF do not grow with the window, or dJ/dF at T = 0.5 is not near 0.15"
awk 'END { exit !($7 > 20 * first) } NR == 1 { first = $7 }' "$tmp/rows" || fail "|dJ/dx0| grows less than 20x from T = 0.5 to 4"
echo "ok the table: |dJ/dx0| $(awk '{ printf "%s ", $7 }' "$tmp/rows")grows with T = $(awk '{ printf "%s ", $1 }' "$tmp/rows")"

run 3 $opts -rw_ensemble_groups 3 > "$tmp/three.txt" 2>&1 || { cat "$tmp/three.txt"; fail "the run on 3 ranks failed"; }
diff "$tmp/one.txt" "$tmp/three.txt" || fail "3 ranks in 3 groups print another table"
echo "ok 3 ranks in 3 groups: the same table"

# the first exponents: the sum of all 40 is the Jacobian's trace, -40; about 13 are positive
run 1 -rw_horizon_windows 0.5 -rw_horizon_members 2 -rw_horizon_exponents 40 -rw_horizon_exponents_blocks 4 -rw_horizon_exponents_block 5 > "$tmp/ex.txt" 2>&1 || { cat "$tmp/ex.txt"; fail "-rw_horizon_exponents failed"; }
test "$(grep -c '^  lambda_' "$tmp/ex.txt")" = 40 || { cat "$tmp/ex.txt"; fail "not 40 exponents"; }
line=$(grep '^positive exponents: ' "$tmp/ex.txt") || fail "no summary line"
set -- $(echo "$line" | sed 's/^positive exponents: \([0-9]*\) of 40 (their sum [^)]*); the sum of all \([^;]*\); Kaplan-Yorke dimension \(.*\)$/\1 \2 \3/')
awk -v n="$1" -v s="$2" -v d="$3" 'BEGIN { exit !(n >= 10 && n <= 16 && s > -40.001 && s < -39.999 && d > 20 && d < 32) }' || fail "summary: $line"
echo "ok -rw_horizon_exponents 40: $line"

# NILSS: one line "NILSS d<J>/dF = value +- error (... cost ...)", the same on 1 and 3 ranks
nopts="-rw_horizon_windows 0.5 -rw_horizon_members 2 -rw_horizon_shadowing 14 -rw_horizon_shadowing_time 4 -rw_horizon_shadowing_runs 2"
run 1 $nopts > "$tmp/n1.txt" 2>&1 || { cat "$tmp/n1.txt"; fail "-rw_horizon_shadowing failed"; }
run 3 $nopts > "$tmp/n3.txt" 2>&1 || { cat "$tmp/n3.txt"; fail "-rw_horizon_shadowing on 3 ranks failed"; }
line=$(grep '^NILSS d<J>/dF = ' "$tmp/n1.txt") || { cat "$tmp/n1.txt"; fail "no NILSS line"; }
echo "$line" | grep -Eq '^NILSS d<J>/dF = -?[0-9.e-]+ \+- [0-9.e-]+ \(2 runs of 4\.? time units, segments of 1\.?, 14 homogeneous tangents: 15 tangent steps a forward step; [0-9]+ model steps in all\)$' || fail "NILSS line: $line"
test "$line" = "$(grep '^NILSS' "$tmp/n3.txt")" || fail "NILSS on 3 ranks: $(grep '^NILSS' "$tmp/n3.txt"), on 1: $line"
echo "ok -rw_horizon_shadowing 14, 1 and 3 ranks: $line"

bad() { # bad "OPTIONS" "expected message" [ranks]
  if run ${3:-1} $1 > "$tmp/bad.txt" 2>&1; then fail "$1: accepted"; fi
  grep -q -- "$2" "$tmp/bad.txt" || { cat "$tmp/bad.txt"; fail "$1: no message \"$2\""; }
  echo "ok $1: $2"
}
bad "-rw_steps 100" "-rw_steps is not used"
bad "-rw_horizon_windows 1,0.5" "-rw_horizon_windows must increase: 0.5 follows 1"
bad "-rw_horizon_windows 0.001" "a window of 0.001 is shorter than a step of 0.01"
bad "-rw_horizon_members 1" "-rw_horizon_members"
bad "-rw_horizon_parameter G" "parameter G is not a block of global scalars of the model; its blocks: F"
bad "-rw_horizon_windows 0.5 -rw_horizon_exponents 2 -rw_ensemble_groups 2" "-rw_horizon_exponents runs one trajectory on all ranks" 2
bad "-rw_horizon_windows 0.5 -rw_horizon_members 2 -rw_horizon_shadowing 40" "NILSS: 40 homogeneous tangents for a state of 40 values"
bad "-rw_horizon_windows 0.5 -rw_horizon_members 2 -rw_horizon_shadowing 2 -rw_horizon_shadowing_time 5 -rw_horizon_shadowing_segment 2" "NILSS: segments of 200 steps must divide the run's 500 steps"
bad "-rw_horizon_windows 0.5 -rw_horizon_members 2 -rw_horizon_shadowing 2 -rw_horizon_shadowing_runs 1" "-rw_horizon_shadowing_runs 1: expected a whole number in \[2,"
