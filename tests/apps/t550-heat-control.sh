#!/bin/sh
# rewind-heat-control (issue 33) at a small size: the optimised heating beats
# both baselines (uncontrolled and the best constant power) by the factors
# below; the same lines on 1 and 3 ranks (bitwise gradients, TAO on rank 0's
# unknown); its HDF5 output parses and the RMS it prints is the one its
# trajectories give; the PNG is drawn; killed after an evaluation and resumed
# with -rw_restart, it prints the uninterrupted run's lines; -rw_adjoint_view
# gives the cost of a gradient; bad input stops with a clear error.
app="$top_builddir/apps/rewind-heat-control"
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
small="-da_grid_x 16 -da_grid_y 16 -rw_steps 200 -rw_dt 8e-4 -rw_heat_heater_width 0.08 -rw_heat_control_nodes 11 -tao_max_it 25"
lines() { grep -E '^(heat control|iter|[0-9]+ iterations|RMS)' "$1" | sed 's/ *[0-9.]* s$//'; }

run 3 $small -rw_output "$tmp/c" -rw_output_png > "$tmp/c.txt" 2>&1 || { cat "$tmp/c.txt"; fail "the run failed"; }
cat "$tmp/c.txt"
line=$(grep '^RMS tracking error' "$tmp/c.txt") || fail "no baselines line"
set -- $(echo "$line" | sed 's/^RMS tracking error \([^ ]*\) against uncontrolled \([^ ]*\) and constant power \([^ ]*\) .*/\1 \2 \3/')
awk -v x="$1" -v y="$2" -v z="$3" 'BEGIN { exit !(x > 0 && x < y / 5 && x < z / 2) }' || fail "RMS error $1 does not beat uncontrolled $2 by 5x and constant power $3 by 2x"
echo "ok RMS tracking error $1 against uncontrolled $2 and constant power $3"
test ! -e "$tmp/c.state" || fail "a completed run left its journal"
grep -q "^plot_control.py: wrote $tmp/c.png$" "$tmp/c.txt" || fail "the app did not report the PNG"
"$PYTHON" - "$tmp/c.h5" "$tmp/c.png" "$1" "$2" <<'PY'
import sys
import h5py, numpy as np
h5, png, x, y = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
assert open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "not a PNG"
with h5py.File(h5, "r") as f:
    a, t, d, ach, free = (f[k][()] for k in ("amplitudes", "times", "target", "achieved", "uncontrolled"))
    assert a.shape == (11, 6), a.shape
    assert d.shape == ach.shape == free.shape == (t.size, 4), (d.shape, ach.shape)
    assert (a >= 0).all() and (a <= 100).all(), "amplitudes outside the bounds"
    rms = lambda u: float(np.sqrt(np.mean((u - d) ** 2)))
    assert abs(rms(ach) - x) <= 1e-3 * x, (rms(ach), x)
    assert abs(rms(free) - y) <= 1e-3 * y, (rms(free), y)
    h = f["history"]
    assert "tracking" in h and "effort" in h and h["J"].size >= 2, list(h)
    for k in ("amplitudes", "amplitude_times", "times", "target", "achieved", "uncontrolled", "sensors", "rms_tracking_error"):
        assert f[k].attrs["units"] in ("1", b"1") and f[k].attrs["long_name"], (k, dict(f[k].attrs))
print("ok the output parses: amplitudes %s, trajectories %s, RMS as printed, units and long names" % (a.shape, d.shape))
PY

# the same lines on one rank, checkpointed by revolve in 5 slots: the gradients are the same bits
run 1 $small -rw_schedule_type revolve -rw_schedule_ram_slots 5 -rw_history_view ascii > "$tmp/one.txt" 2>&1 || { cat "$tmp/one.txt"; fail "the run on 1 rank failed"; }
lines "$tmp/c.txt" > "$tmp/c.lines"
lines "$tmp/one.txt" | diff "$tmp/c.lines" - || fail "1 rank with revolve and 3 ranks with the default schedule print different lines"
grep -q '^solve 0 iteration 3 J .* tracking .* effort ' "$tmp/one.txt" || fail "-rw_history_view ascii has no tracking and effort columns"
echo "ok 1 rank with revolve (5 slots) and 3 ranks: the same $(wc -l < "$tmp/c.lines") lines; the history shows tracking and effort"

# killed after evaluation 4, resumed
if run 2 $small -rw_output "$tmp/k" -rw_debug_kill_at_evaluation 4 > "$tmp/k1.txt" 2>&1; then fail "the run was not killed"; fi
test -s "$tmp/k.state/problem" || fail "no journal survived the kill"
run 2 $small -rw_output "$tmp/k" -rw_restart > "$tmp/k.txt" 2> "$tmp/k.err" || { cat "$tmp/k.err"; fail "the resumed run failed"; }
grep -q 'rewind-heat-control: -rw_restart used [0-9]* journal records' "$tmp/k.err" || { cat "$tmp/k.err"; fail "did not replay its journal"; }
lines "$tmp/k.txt" | diff "$tmp/c.lines" - || fail "the resumed run's lines differ from the uninterrupted run's"
echo "ok killed after evaluation 4 and resumed: the uninterrupted run's lines"

# the cost of a gradient
run 1 $small -tao_max_it 1 -rw_adjoint_view > "$tmp/v.txt" 2>&1 || { cat "$tmp/v.txt"; fail "-rw_adjoint_view failed"; }
grep -q 'forward sweeps), 200 reverse steps' "$tmp/v.txt" || { cat "$tmp/v.txt"; fail "-rw_adjoint_view gives no cost line"; }
echo "ok -rw_adjoint_view: $(grep -m1 'forward sweeps' "$tmp/v.txt")"

# bad input
bad() { # bad "OPTIONS" "expected message"
  if run 1 $small $1 > "$tmp/bad.txt" 2>&1; then fail "$1: accepted"; fi
  grep -q -- "$2" "$tmp/bad.txt" || { cat "$tmp/bad.txt"; fail "$1: no message \"$2\""; }
  echo "ok $1: $2"
}
bad "-rw_control_min 5 -rw_control_max 1" "-rw_control_min 5. must be below -rw_control_max 1."
bad "-rw_heat_heaters 0.5,1.5" "heater 0 has y = 1.5, outside the domain"
bad "-rw_heat_control_nodes 7" "-rw_heat_control_nodes 7 does not fit -rw_steps 200"
bad "-rw_control_levels 1,2" "2 levels for 4 sensors"
