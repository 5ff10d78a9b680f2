#!/bin/sh
# rewind-heat-inverse, small: on 32 x 32 the data misfit falls by 100x and
# the kappa error decreases, on 1 and 2 ranks; outputs exist, h5dump reads
# them, the XDMF parses and the plot script draws them; -rw_invert s and u0
# reduce their misfits; the shipped example runs; malformed -rw_obs files
# stop with errors naming the dataset.
app="$top_builddir/apps/rewind-heat-inverse"
. "$top_srcdir/tests/testlib.sh"
example="$top_srcdir/doc/example-obs.h5"
# field FILE KEY: the "A -> B" numbers of a summary line, as "A B"
field() { sed -n "s/^$2[^0-9]*\([0-9.e+-]*\) -> \([0-9.e+-]*\).*/\1 \2/p" "$1"; }

small="-da_grid_x 32 -da_grid_y 32 -rw_inv_noise 1e-3 -tao_max_it 12"
for np in 1 2; do
  run $np $small -rw_output "$tmp/k$np" > "$tmp/k$np.txt"
  cat "$tmp/k$np.txt"
  set -- $(field "$tmp/k$np.txt" "data misfit")
  "$PYTHON" -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); assert b <= a / 100, ('misfit fell only', a / b)" "$1" "$2"
  set -- $(field "$tmp/k$np.txt" "relative kappa error")
  "$PYTHON" -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); assert b < a, ('kappa error did not decrease', a, b)" "$1" "$2"
  grep -q '^iter  12 ' "$tmp/k$np.txt"
done
# the output says what it is: grid, geometry, time grid, model, options, versions, date
"$PYTHON" - "$tmp/k2.h5" <<'PY'
import sys, h5py
a = h5py.File(sys.argv[1], "r").attrs
s = lambda k: a[k].decode() if isinstance(a[k], bytes) else str(a[k])
assert a["dimension"] == 2 and a["grid_x"] == 32 and a["grid_y"] == 32, dict(a)
assert abs(a["spacing_x"] - 1 / 32) < 1e-15 and abs(a["origin_x"] - 0.5 / 32) < 1e-15, (a["spacing_x"], a["origin_x"])
assert a["steps"] == 30 and abs(a["dt"] - 1e-3) < 1e-18, (a["steps"], a["dt"])
assert s("model") == "heat" and "neumann" in s("model_configuration") and "theta 1" in s("model_configuration"), s("model_configuration")
assert "-rw_inv_noise 1e-3" in s("options") and "-pc_type" not in s("options"), s("options")
assert s("rewind_version").startswith("rewind ") and "3.18" in s("petsc_version") and s("hdf5_version").startswith("HDF5 1."), dict(a)
assert len(s("date")) == 20 and s("date").endswith("Z"), s("date")
print("ok metadata:", s("model"), s("model_configuration"), "|", s("options"))
PY
# 1 and 2 ranks: the same problem, the same path to rounding (TAO's dot products differ)
"$PYTHON" - "$tmp/k1.h5" "$tmp/k2.h5" <<'PY'
import sys, h5py, numpy
a, b = (h5py.File(p, "r") for p in sys.argv[1:])
d = numpy.abs(a["kappa_recovered"][()] - b["kappa_recovered"][()]).max()
m = abs(a["history/misfit"][-1] - b["history/misfit"][-1]) / a["history/misfit"][-1]
print("1 vs 2 ranks: max |kappa difference| %.3g, relative misfit difference %.3g" % (d, m))
# GAMG and TAO reduce in rank-dependent order; linear solves stop at rtol 1e-8
assert d < 1e-4 and m < 1e-5
PY
h5dump -H "$tmp/k2.h5" | grep -q 'DATASET "kappa_recovered"'
h5dump -d /history/misfit "$tmp/k2.h5" > /dev/null
"$PYTHON" -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert len(r.findall('.//Attribute')) == 4" "$tmp/k2.xmf"
"$PYTHON" "$top_srcdir/jobs/plot_inverse.py" "$tmp/k2.h5" "$tmp/k2.png"
test -s "$tmp/k2.png"

for what in s u0; do
  run 2 -da_grid_x 32 -da_grid_y 32 -rw_invert $what -tao_max_it 8 > "$tmp/$what.txt"
  tail -2 "$tmp/$what.txt"
  set -- $(field "$tmp/$what.txt" "data misfit")
  "$PYTHON" -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); assert b <= a / 10, ('$what misfit fell only', a / b)" "$1" "$2"
done

# the shipped example: grid, steps and dt come from the file
run 2 -rw_obs "$example" -tao_max_it 3 > "$tmp/example.txt"
grep -q '^recovered kappa in 3 iterations' "$tmp/example.txt"

# malformed files
bad() { # bad NAME EXPECTED PYTHON-EDIT: copy the example, edit it, expect the error
  cp "$example" "$tmp/$1.h5"
  "$PYTHON" -c "import h5py, numpy; f = h5py.File('$tmp/$1.h5', 'r+'); $3; f.close()"
  if run 1 -rw_obs "$tmp/$1.h5" -tao_max_it 1 > "$tmp/$1.out" 2>&1; then
    echo "FAIL $1: a malformed file was accepted"; exit 1
  fi
  grep -q "$2" "$tmp/$1.out" || { echo "FAIL $1: expected \"$2\""; grep 'PETSC ERROR' "$tmp/$1.out" | head -5; exit 1; }
  echo "ok $1: $2"
}
bad no-times "has no dataset /times" "del f['times']"
bad data-shape "Dataset /experiment_1/data in .* has shape 30 x 99, expected 30 x 100" "d = f['experiment_1/data'][:, :99]; del f['experiment_1/data']; f['experiment_1/data'] = d"
bad sensor-outside "sensor 7 has coordinate 1.5 in direction y, outside the grid's domain \[0, 1\]" "f['sensors'][7, 1] = 1.5"
bad nan-data "Dataset /experiment_0/data in .* holds a non-finite value" "f['experiment_0/data'][3, 4] = numpy.nan"
bad source-grid "Dataset /experiment_0/source in .* has shape 16 x 16, expected 32 x 32" "del f['experiment_0/source']; f['experiment_0/source'] = numpy.zeros((16, 16))"
bad no-sigma "Group /experiment_1 in .* needs an attribute sigma > 0" "del f['experiment_1'].attrs['sigma']"
bad time-step "time 0.0015 (index 1) is not a multiple of the time step" "f['times'][1] = 0.0015"
bad no-file "Cannot open HDF5 file" "import os; os.remove('$tmp/no-file.h5')"

# the program's defaults are set on its model, not put into the options
# database: -options_view lists what the user gave, and the solver is still
# the default problem's (CG with GAMG, rtol 1e-8, backward Euler, Neumann)
run 1 -da_grid_x 16 -da_grid_y 16 -tao_max_it 1 -options_view -rw_model_view > "$tmp/defaults.out" 2>&1 || { cat "$tmp/defaults.out"; echo "FAIL defaults: the run failed"; exit 1; }
if sed -n '/^#PETSc Option Table entries/,/^#End of PETSc Option Table/p' "$tmp/defaults.out" | grep -qE '^-(pc_type|ksp_type|ksp_rtol|rw_steps|rw_dt|rw_heat_bc|rw_heat_scheme)'; then
  echo "FAIL defaults: the program's defaults went into the options database"; sed -n '/^#PETSc Option Table/,/^#End/p' "$tmp/defaults.out"; exit 1
fi
for want in "type: gamg" "relative=1e-08" "backward Euler" "x:neumann" "dt = 0.001"; do
  grep -q "$want" "$tmp/defaults.out" || { echo "FAIL defaults: expected \"$want\" in -rw_model_view"; exit 1; }
done
echo "ok defaults: -options_view lists only the user's options; the model has the default problem's settings"

# the discrepancy principle: -rw_inv_discrepancy tau stops at the first
# iteration whose misfit is at most tau times its noise-level value, and the
# last line says why in words; with 0 the run goes on to the iteration limit
run 2 -da_grid_x 32 -da_grid_y 32 -tao_max_it 12 -rw_inv_discrepancy 1.1 > "$tmp/tau.txt"
want=$(awk '/^iter/ { r = $7; sub(/^\(/, "", r); if (r + 0 <= 1.1) { print $2 + 0; exit } }' "$tmp/tau.txt")
test -n "$want" || { cat "$tmp/tau.txt"; echo "FAIL discrepancy: no iteration reached 1.1 x the noise level"; exit 1; }
grep -q "^recovered kappa in $want iterations.*reached the noise level (discrepancy principle" "$tmp/tau.txt" || { cat "$tmp/tau.txt"; echo "FAIL discrepancy: expected a stop at iteration $want, the first at 1.1 x noise"; exit 1; }
last=$(awk '/^iter/ { k = $2 } END { print k + 0 }' "$tmp/tau.txt")
test "$last" -eq "$want" || { echo "FAIL discrepancy: iterations went on to $last after the stop at $want"; exit 1; }
run 2 -da_grid_x 32 -da_grid_y 32 -tao_max_it 4 -rw_inv_discrepancy 0 > "$tmp/notau.txt"
grep -q "^recovered kappa in 4 iterations.*iteration limit" "$tmp/notau.txt" || { grep '^recovered' "$tmp/notau.txt"; echo "FAIL discrepancy: with 0 the run should stop at -tao_max_it 4 and say so"; exit 1; }
echo "ok discrepancy: tau 1.1 stops at iteration $want, the first at 1.1 x noise; tau 0 runs to the limit"
