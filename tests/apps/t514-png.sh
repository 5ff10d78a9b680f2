#!/bin/sh
# rewind-heat-inverse -rw_output_png draws prefix.png itself, with the Python
# configure found: a PNG whose panels have their axes and colorbars labelled
# (checked on the figure jobs/plot_inverse.py builds) and the sensors marked;
# without -rw_output it stops and says why.
app="$top_builddir/apps/rewind-heat-inverse"
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
run 2 -da_grid_x 24 -da_grid_y 24 -tao_max_it 2 -rw_output "$tmp/r" -rw_output_png > "$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; fail "the run failed"; }
grep -q "^plot_inverse.py: $tmp/r.png$" "$tmp/out.txt" || { cat "$tmp/out.txt"; fail "the app did not report the PNG"; }
"$PYTHON" - "$tmp/r.png" "$tmp/r.h5" "$top_srcdir/jobs/plot_inverse.py" <<'PY'
import runpy, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
png, h5, script = sys.argv[1:]
assert open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "not a PNG"
saved = []
plt.Figure.savefig = lambda fig, *a, **k: saved.append(fig)  # keep the figure the script draws
sys.argv = [script, h5, png + ".again"]
runpy.run_path(script, run_name="__main__")
fig = saved[0]
fields = [a for a in fig.axes if a.get_title().startswith("kappa:")]
bars = [a for a in fig.axes if a.get_label() == "<colorbar>"]
assert len(fields) == 4, [a.get_title() for a in fig.axes]
for a in fields:
    assert a.get_xlabel().startswith("x") and a.get_ylabel().startswith("y"), (a.get_title(), a.get_xlabel())
    assert any(l.get_label() == "sensors" and len(l.get_xdata()) == 100 for l in a.lines), a.get_title()
assert len(bars) == 4 and all(b.get_ylabel() for b in bars), [b.get_ylabel() for b in bars]
conv = [a for a in fig.axes if a.get_title() == "convergence"][0]
assert conv.get_yscale() == "log" and conv.get_xlabel() == "iteration" and conv.get_ylabel()
print("ok PNG: 4 field panels with x/y labels, 100 sensors marked, 4 labelled colorbars, log convergence")
PY
if run 1 -da_grid_x 16 -da_grid_y 16 -tao_max_it 1 -rw_output_png > "$tmp/bad.txt" 2>&1; then fail "-rw_output_png without -rw_output was accepted"; fi
grep -q "give -rw_output prefix too" "$tmp/bad.txt" || { cat "$tmp/bad.txt"; fail "no clear error without -rw_output"; }
echo "ok -rw_output_png without -rw_output stops with a clear error"
# rewind-hybrid draws name.png the same way (jobs/plot_hybrid.py)
hyb="$top_builddir/apps/rewind-hybrid"
$RW_MPIEXEC $RW_MPIEXEC_FLAGS -n 1 "$hyb" -rw_hybrid_grid 8 -rw_nn_layers 1,4,1 -rw_hybrid_steps 4 -rw_hybrid_epochs 2 -rw_output "$tmp/h" -rw_output_png > "$tmp/h.txt" 2>&1 || { cat "$tmp/h.txt"; fail "rewind-hybrid -rw_output_png failed"; }
grep -q "^plot_hybrid.py: wrote $tmp/h.png$" "$tmp/h.txt" || { cat "$tmp/h.txt"; fail "rewind-hybrid did not report its PNG"; }
"$PYTHON" -c "import sys; assert open(sys.argv[1], 'rb').read(8) == b'\x89PNG\r\n\x1a\n'" "$tmp/h.png" || fail "rewind-hybrid's PNG is not a PNG"
echo "ok rewind-hybrid -rw_output_png drew $tmp/h.png"
