#!/bin/sh
# With the Python configure found (h5py, matplotlib): jobs/plot_fwi.py draws
# the models (with sources and receivers), shot 0's gather and the history
# of a tiny 2D run (drawn by the app itself, -rw_output_png) and a tiny 3D
# run (PNG files of the expected size); and
# HDF5 observation files made wrong by h5py stop rewind-fwi with the file and
# the dataset named: a shot whose data has another receiver count than its
# receivers, a NaN in a starting model.
app="$top_builddir/apps/rewind-fwi"
. "$top_srcdir/tests/testlib.sh"
py=${PYTHON:-/usr/bin/python3}
run 1 -rw_fwi_grid 31,16 -rw_fwi_shots 2 -rw_fwi_record 200 -rw_dt 2.4 -rw_fwi_bands 0 -rw_fwi_iterations 1 -rw_obs_write "$tmp/obs.h5" -rw_output "$tmp/d2" -rw_output_png > "$tmp/d2.txt"
grep -q "^plot_fwi.py: wrote $tmp/d2-models.png" "$tmp/d2.txt" || { cat "$tmp/d2.txt"; echo "FAIL: -rw_output_png did not report its pictures"; exit 1; }
run 2 -rw_fwi_dim 3 -rw_fwi_grid 9,9,9 -rw_wave_nbl 4 -rw_fwi_record 100 -rw_fwi_receiver_spacing 60 -rw_fwi_smooth 40 -rw_fwi_bands 0 -rw_fwi_iterations 1 -rw_output "$tmp/d3" > "$tmp/d3.txt"
"$py" "$top_srcdir/jobs/plot_fwi.py" "$tmp/d3" "$tmp/d3" > /dev/null
for d in d2 d3; do
  "$py" - "$tmp/$d" <<'PY'
import sys
import matplotlib.image as im
for part, w in (("models", 1080), ("gather", 1170), ("history", 540)):
    a = im.imread(sys.argv[1] + "-" + part + ".png")
    assert a.shape[1] == w and a.shape[0] > 300 and a.std() > 0.01, (part, a.shape, a.std())
PY
  echo "ok: $d: models, gather and history PNGs drawn"
done

# bad HDF5 files
"$py" - "$tmp/obs.h5" "$tmp/rec.h5" "$tmp/nan.h5" <<'PY'
import shutil, sys
import h5py
shutil.copy(sys.argv[1], sys.argv[2]); shutil.copy(sys.argv[1], sys.argv[3])
with h5py.File(sys.argv[2], "r+") as f:  # shot 1: one receiver fewer than its data's columns
    r = f["shot1/receivers"][()]
    del f["shot1/receivers"]
    f["shot1/receivers"] = r[:-1]
with h5py.File(sys.argv[3], "r+") as f:
    c = f["c_start"][()]
    c[4, 7] = float("nan")
    f["c_start"][...] = c
PY
fails() {
  if run 1 "$@" > "$tmp/bad.txt" 2>&1; then echo "FAIL: accepted: $*"; exit 1; fi
}
fails -rw_fwi_obs "$tmp/rec.h5" -rw_fwi_bands 0 -rw_fwi_iterations 1
grep -q "shot1/data in .*rec.h5 has shape" "$tmp/bad.txt" || grep -q "shot1/data.*rec.h5" "$tmp/bad.txt" || { grep 'PETSC ERROR' "$tmp/bad.txt" | head -4; echo "FAIL: the receiver count mismatch is not named"; exit 1; }
echo "ok: a shot with data for another receiver count stops: $(grep -m1 'shot1/data' "$tmp/bad.txt" | sed 's/.*PETSC ERROR: //')"
fails -rw_fwi_obs "$tmp/nan.h5" -rw_fwi_start "$tmp/nan.h5:c_start" -rw_fwi_bands 0 -rw_fwi_iterations 1
grep -q "Dataset c_start in .*nan.h5 holds a non-finite value" "$tmp/bad.txt" || { grep 'PETSC ERROR' "$tmp/bad.txt" | head -4; echo "FAIL: NaN in an HDF5 model"; exit 1; }
echo "ok: NaN in an HDF5 starting model stops: $(grep -m1 'non-finite' "$tmp/bad.txt" | sed 's/.*PETSC ERROR: //')"
