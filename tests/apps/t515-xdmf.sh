#!/bin/sh
# The XDMF files the apps write, opened by each of ParaView's XDMF readers
# (pvpython: the legacy XDMF Reader, Xdmf3 S and T): a 1D, 2D and 3D
# gradient, an inversion's result, a 2D and a 3D full-waveform inversion's
# result and a time series of states (-rw_adjoint_monitor_solution) span
# x, y, z as the model's grid does (a 2D grid in the x-y plane, not edge on in
# y-z; the wave model's depth drawn downwards), with the HDF5 value of every
# point in natural order, and the series at step x dt (xdmfcheck.py).  The
# FWI result is also opened by a relative path from another directory.
# The states a sweep writes are the same on 1 and 2 ranks, bit for bit.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"
if test -z "${PVPYTHON:-}"; then
  echo "SKIP: ParaView's pvpython was not found by configure: install the Debian packages paraview python3-paraview (./bootstrap does, as root) and configure again"
  exit 77
fi
check() { # check FILE.xmf DIM [NTIMES]
  "$PVPYTHON" "$top_srcdir/tests/apps/xdmfcheck.py" "$@" 2>"$tmp/pv.err" || { cat "$tmp/pv.err"; exit 1; }
}

run 2 -rw_heat_dim 1 -da_grid_x 21 -rw_steps 5 -rw_gradient_view "hdf5:$tmp/g1.h5" > /dev/null
check "$tmp/g1.xmf" 1
run 2 -da_grid_x 17 -da_grid_y 13 -rw_steps 5 -rw_gradient_view "hdf5:$tmp/g2.h5" > /dev/null
check "$tmp/g2.xmf" 2
run 2 -rw_heat_dim 3 -da_grid_x 9 -da_grid_y 8 -da_grid_z 7 -rw_steps 5 -rw_gradient_view "hdf5:$tmp/g3.h5" > /dev/null
check "$tmp/g3.xmf" 3

# states every 7 steps and the last: 7, 14, 20
for np in 1 2; do
  run $np -da_grid_x 20 -da_grid_y 15 -rw_steps 20 -rw_adjoint_monitor_solution "hdf5:$tmp/states$np.h5" -rw_adjoint_monitor_solution_every 7 > /dev/null
done
check "$tmp/states2.xmf" 2 3
for k in 00000007 00000014 00000020; do
  h5diff -q "$tmp/states1.h5" "$tmp/states2.h5" "/step_$k/u" "/step_$k/u" || { echo "FAIL: state $k differs on 1 and 2 ranks"; exit 1; }
done
h5dump -a /dt "$tmp/states2.h5" > /dev/null || { echo "FAIL: the states file has no metadata (dt)"; exit 1; }

# a viewer that is not HDF5 is refused by name
if run 1 -rw_steps 2 -rw_adjoint_monitor_solution "ascii:$tmp/bad.txt" > "$tmp/bad.out" 2>&1; then echo "FAIL: -rw_adjoint_monitor_solution ascii:file was accepted"; exit 1; fi
grep -q "rw_adjoint_monitor_solution: expected an HDF5 viewer" "$tmp/bad.out" || { cat "$tmp/bad.out"; echo "FAIL: no clear error for a non-HDF5 viewer"; exit 1; }

app="$top_builddir/apps/rewind-heat-inverse"
run 2 -da_grid_x 24 -da_grid_y 16 -tao_max_it 1 -rw_output "$tmp/inv" > /dev/null
check "$tmp/inv.xmf" 2
app="$top_builddir/apps/rewind-fwi"
run 2 -rw_fwi_grid 31,16 -rw_fwi_shots 2 -rw_fwi_record 200 -rw_dt 2.4 -rw_fwi_bands 0 -rw_fwi_iterations 1 -rw_output "$tmp/fwi" > /dev/null
check "$tmp/fwi.xmf" 2
grep -q 'Dimensions="1 56 71" NumberType' "$tmp/fwi.xmf" || { cat "$tmp/fwi.xmf"; echo "FAIL: the attributes' Dimensions are not the topology's"; exit 1; }
mkdir "$tmp/elsewhere"
(cd "$tmp/elsewhere" && check ../fwi.xmf 2)
# rendering without a display is refused with the way out, not a crash
if env -u DISPLAY "$PVPYTHON" "$top_srcdir/jobs/render_xdmf.py" "$tmp/fwi.xmf" c_true "$tmp/fwi.png" > "$tmp/render.out" 2>&1; then echo "FAIL: render_xdmf.py without a display succeeded"; exit 1; fi
grep -q "xvfb-run -a pvpython" "$tmp/render.out" || { cat "$tmp/render.out"; echo "FAIL: render_xdmf.py without a display does not suggest xvfb-run"; exit 1; }
run 2 -rw_fwi_dim 3 -rw_fwi_grid 9,9,9 -rw_wave_nbl 4 -rw_fwi_record 100 -rw_fwi_receiver_spacing 60 -rw_fwi_smooth 40 -rw_fwi_bands 0 -rw_fwi_iterations 1 -rw_output "$tmp/fwi3" > /dev/null
check "$tmp/fwi3.xmf" 3
echo "ok: ParaView reads every XDMF file as the grids were written"
