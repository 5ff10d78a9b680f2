#!/bin/sh
# rewind-heat-design (issue 33) at a small size: the optimised layout beats
# uniform material at the same volume by the factor below and holds the
# volume; the same lines on 1 and 3 ranks (the filter and OC are
# decomposition-independent: the same bits), and with revolve on one rank;
# its HDF5 and XDMF outputs parse (the density in [0, 1] at the printed
# volume, units and long names); the PNG is drawn; killed after an evaluation
# and resumed with -rw_restart, it prints the uninterrupted run's lines;
# -rw_adjoint_view gives the cost of a gradient; bad input stops with a clear error.
app="$top_builddir/apps/rewind-heat-design"
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
small="-da_grid_x 20 -da_grid_y 20 -rw_steps 800 -rw_dt 5.5e-4 -rw_heat_heater_width 0.06 -tao_max_it 12"
lines() { grep -E '^(heat design|iter|[0-9]+ iterations|objective)' "$1" | sed 's/ *[0-9.]* s$//'; }

run 3 $small -rw_output "$tmp/d" -rw_output_png -rw_history_view ascii > "$tmp/d.txt" 2>&1 || { cat "$tmp/d.txt"; fail "the run failed"; }
cat "$tmp/d.txt"
line=$(grep '^objective .* against uniform material' "$tmp/d.txt") || fail "no baseline line"
set -- $(echo "$line" | sed 's/^objective \([^ ]*\) against uniform material \([^ ]*\) at the same volume.*/\1 \2/')
awk -v x="$1" -v y="$2" 'BEGIN { exit !(x > 0 && x < y / 1.5) }' || fail "objective $1 does not beat uniform material $2 by 1.5x"
echo "ok objective $1 against uniform material $2"
vol=$(sed -n 's/^[0-9]* iterations: volume fraction \([^ ]*\) (bound 0.3), physical .*$/\1/p' "$tmp/d.txt")
awk -v v="$vol" 'BEGIN { exit !(v <= 0.3 && v > 0.2999) }' || fail "volume fraction $vol is not at the bound 0.3"
test ! -e "$tmp/d.state" || fail "a completed run left its journal"
grep -q "^plot_design.py: wrote $tmp/d.png$" "$tmp/d.txt" || fail "the app did not report the PNG"
"$PYTHON" - "$tmp/d.h5" "$tmp/d.xmf" "$tmp/d.png" "$1" "$2" "$vol" <<'PY'
import sys
import xml.etree.ElementTree as ET
import h5py, numpy as np
h5, xmf, png, x, y, vol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
assert open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "not a PNG"
with h5py.File(h5, "r") as f:
    rho, rp, k = f["density"][()], f["density_physical"][()], f["kappa"][()]
    assert rho.shape == (20, 20) and k.shape == rho.shape, rho.shape
    assert rho.min() >= 0 and rho.max() <= 1, (rho.min(), rho.max())
    assert abs(rho.mean() - vol) <= 1e-6, (rho.mean(), vol)
    assert rho.max() - rho.min() > 0.5, "the design stayed nearly uniform"
    J = f["objective"][()]
    assert abs(J[0] - x) <= 1e-6 * x and abs(J[1] - y) <= 1e-6 * y, (J, x, y)
    assert f["heaters"][()].shape == (4, 2)
    h = f["history"]
    assert "volume" in h and "change" in h and h["J"].size >= 2, list(h)
    assert (h["volume"][()] <= 0.3 * (1 + 1e-12)).all(), h["volume"][()]
    for name in ("density", "density_filtered", "density_physical", "kappa", "objective", "heaters"):
        assert f[name].attrs["units"] in ("1", b"1") and f[name].attrs["long_name"], (name, dict(f[name].attrs))
names = [a.get("Name") for a in ET.parse(xmf).iter("Attribute")]
assert names == ["density", "density_filtered", "density_physical", "kappa"], names
print("ok the outputs parse: density %s in [0, 1] at volume %.6f, objectives as printed, XDMF %s" % (rho.shape, rho.mean(), names))
PY

# the same lines on one rank, checkpointed by revolve in 5 slots: the gradients are the same bits
run 1 $small -rw_schedule_type revolve -rw_schedule_ram_slots 5 -rw_history_view ascii > "$tmp/one.txt" 2>&1 || { cat "$tmp/one.txt"; fail "the run on 1 rank failed"; }
lines "$tmp/d.txt" > "$tmp/d.lines"
lines "$tmp/one.txt" | diff "$tmp/d.lines" - || fail "1 rank with revolve and 3 ranks with the default schedule print different lines"
rows() { grep '^solve ' "$1" | sed 's/ seconds [0-9.]*//'; } # every column to 17 digits but the seconds
rows "$tmp/d.txt" > "$tmp/d.rows"
test "$(wc -l < "$tmp/d.rows")" -ge 12 || fail "the history printed $(wc -l < "$tmp/d.rows") rows"
rows "$tmp/one.txt" | diff "$tmp/d.rows" - || fail "the history's rows (J, |g|, volume, change to 17 digits) differ between 3 ranks and 1 rank with revolve"
grep -q '^solve 0 iteration 3 J .* volume .* change ' "$tmp/one.txt" || fail "-rw_history_view ascii has no volume and change columns"
echo "ok 1 rank with revolve (5 slots) and 3 ranks: the same $(wc -l < "$tmp/d.lines") lines and $(wc -l < "$tmp/d.rows") history rows to 17 digits (the same bits)"

# killed after evaluation 4, resumed
if run 2 $small -rw_output "$tmp/k" -rw_debug_kill_at_evaluation 4 > "$tmp/k1.txt" 2>&1; then fail "the run was not killed"; fi
test -s "$tmp/k.state/problem" || fail "no journal survived the kill"
run 2 $small -rw_output "$tmp/k" -rw_restart > "$tmp/k.txt" 2> "$tmp/k.err" || { cat "$tmp/k.err"; fail "the resumed run failed"; }
grep -q 'rewind-heat-design: -rw_restart used [0-9]* journal records' "$tmp/k.err" || { cat "$tmp/k.err"; fail "did not replay its journal"; }
lines "$tmp/k.txt" | diff "$tmp/d.lines" - || fail "the resumed run's lines differ from the uninterrupted run's"
echo "ok killed after evaluation 4 and resumed: the uninterrupted run's lines"
# a journal of another design is refused, naming what differs, and kept
if run 1 $small -rw_output "$tmp/j" -rw_debug_kill_at_evaluation 1 > "$tmp/j1.txt" 2>&1; then fail "the run was not killed"; fi
if run 1 $small -rw_output "$tmp/j" -rw_restart -rw_design_filter_radius 0.06 > "$tmp/j.txt" 2>&1; then fail "a journal of another filter radius was resumed"; fi
grep -q "belongs to a different problem: design_map: radius=0.040000000000000001,.* in the file, radius=0.059999999999999998,.* in this run" "$tmp/j.txt" || { cat "$tmp/j.txt"; fail "the refusal does not name the design map"; }
test -s "$tmp/j.state/problem" || fail "the refused journal was not kept"
echo "ok a journal of another filter radius is refused by name and kept"

# projection with continuation: beta doubled for each further solve, the solves in the history
run 2 $small -tao_max_it 3 -rw_design_projection_beta 2 -rw_design_continuation 1 -rw_history_view ascii > "$tmp/p.txt" 2>&1 || { cat "$tmp/p.txt"; fail "the continuation failed"; }
grep -q '^solve 1: projection beta 4\.$' "$tmp/p.txt" || { cat "$tmp/p.txt"; fail "no second solve at beta 4"; }
test "$(grep -c '^solve 1 iteration' "$tmp/p.txt")" = 4 || fail "the history has $(grep -c '^solve 1 iteration' "$tmp/p.txt") rows of solve 1, not 4"
grep -q '^6 iterations: volume fraction 0.3[0-9]* (bound 0.3), physical 0\.' "$tmp/p.txt" || { cat "$tmp/p.txt"; fail "no physical volume in the closing line"; }
echo "ok projection with continuation: $(grep '^solve 1:' "$tmp/p.txt"), 4 history rows of solve 1; $(grep '^6 iterations' "$tmp/p.txt")"

# the cost of a gradient
run 1 $small -tao_max_it 1 -rw_adjoint_view > "$tmp/v.txt" 2>&1 || { cat "$tmp/v.txt"; fail "-rw_adjoint_view failed"; }
grep -q 'forward sweeps), 800 reverse steps' "$tmp/v.txt" || { cat "$tmp/v.txt"; fail "-rw_adjoint_view gives no cost line"; }
echo "ok -rw_adjoint_view: $(grep -m1 'forward sweeps' "$tmp/v.txt")"

# bad input
bad() { # bad "OPTIONS" "expected message"
  if run 1 $small $1 > "$tmp/bad.txt" 2>&1; then fail "$1: accepted"; fi
  grep -q -- "$2" "$tmp/bad.txt" || { cat "$tmp/bad.txt"; fail "$1: no message \"$2\""; }
  echo "ok $1: $2"
}
bad "-rw_design_volume 1.2" "-rw_design_volume"
bad "-rw_design_volume 0" "-rw_design_volume"
bad "-rw_design_load_power -1" "-rw_design_load_power"
bad "-rw_heat_control_nodes 0" "-rw_heat_control_nodes >= 2"
bad "-rw_design_filter_radius -0.1" "-rw_design_filter_radius"
bad "-rw_heat_heaters 0.5,1.5" "heater 0 has y = 1.5, outside the domain"
bad "-rw_output_png" "-rw_output_png draws the result that -rw_output writes"
bad "-rw_design_continuation 2" "-rw_design_continuation 2 doubles the projection's sharpness: give -rw_design_projection_beta > 0 too"
