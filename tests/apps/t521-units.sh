#!/bin/sh
# Outputs say what they hold: every dataset of the main job's (rewind-heat-
# inverse), rewind-fwi's and rewind-hybrid's outputs has units and a
# long_name, their histories name their columns, rewind-fwi's gather file
# names every shot's observed and predicted gather, and its result says
# which axis is depth (unitscheck.py, with the Python configure found).
app="$top_builddir/apps/rewind-heat-inverse"
. "$top_srcdir/tests/testlib.sh"
py=${PYTHON:-/usr/bin/python3}
run 2 -da_grid_x 24 -da_grid_y 16 -tao_max_it 1 -rw_output "$tmp/inv" > /dev/null
app="$top_builddir/apps/rewind-fwi"
run 2 -rw_fwi_grid 31,16 -rw_fwi_shots 2 -rw_fwi_record 200 -rw_dt 2.4 -rw_fwi_bands 0 -rw_fwi_iterations 1 -rw_output "$tmp/fwi" > /dev/null
app="$top_builddir/apps/rewind-hybrid"
run 2 -rw_hybrid_epochs 2 -rw_output "$tmp/hyb" > /dev/null
"$py" "$top_srcdir/tests/apps/unitscheck.py" "$tmp/inv.h5" "$tmp/fwi.h5" "$tmp/fwi-gather.h5" "$tmp/hyb.h5"
h5dump -a /depth_axis "$tmp/fwi.h5" | grep -q '"y"' || { h5dump -A "$tmp/fwi.h5" | head -40; echo "FAIL: the 2D FWI result does not name y as its depth axis"; exit 1; }
if h5dump -a /depth_axis "$tmp/inv.h5" > /dev/null 2>&1; then echo "FAIL: the heat model's result names a depth axis"; exit 1; fi
echo "ok: units, long names, column names and gathers named"
