#!/bin/sh
# doc_figures.sh: reruns the pictures of doc/ from the current code and
# keeps each run's output beside them, so that the figures the documents
# quote (times, J, errors) can be compared with what the code prints now.
#
#   make doc-figures            (from the build tree; not part of make check)
#
# Needs MPIEXEC (and MPIEXEC_FLAGS), PYTHON (h5py, matplotlib) and PVPYTHON
# from configure; the ParaView renderings run under xvfb-run when there is no
# display.  Writes doc/*.png and doc/schedule-multilevel.svg in the source
# tree and the runs' outputs in doc-figures/ of the build tree, then prints
# the lines the documents quote.  Takes a few minutes on 2 cores.
set -eu
src=$1 build=$2
np=${DOC_FIGURES_RANKS:-2}
out=$build/doc-figures
mkdir -p "$out"
mpi() { $MPIEXEC $MPIEXEC_FLAGS -n "$np" "$@"; }
render() { # render XMF FIELD PNG
  if test -z "${DISPLAY:-}"; then xvfb-run -a "$PVPYTHON" "$src/jobs/render_xdmf.py" "$@"; else "$PVPYTHON" "$src/jobs/render_xdmf.py" "$@"; fi
}

echo "doc-figures: the main job (doc/inverse-result.png, doc/inverse-result-paraview.png; README.md, doc/inverse.md)"
mpi "$build/apps/rewind-heat-inverse" -rw_output "$out/result" > "$out/inverse.log"
"$PYTHON" "$src/jobs/plot_inverse.py" "$out/result.h5" "$src/doc/inverse-result.png"
render "$out/result.xmf" kappa_recovered "$src/doc/inverse-result-paraview.png"

echo "doc-figures: rewind-fwi (doc/fwi-result.png, doc/fwi-result-paraview.png; doc/wave.md)"
mpi "$build/apps/rewind-fwi" -rw_output "$out/fwi" > "$out/fwi.log"
"$PYTHON" "$src/jobs/plot_fwi.py" "$out/fwi" "$out/fwi"
cp "$out/fwi-models.png" "$src/doc/fwi-result.png"
render "$out/fwi.xmf" c_recovered "$src/doc/fwi-result-paraview.png"

echo "doc-figures: rewind-hybrid (doc/hybrid-result.png; doc/hybrid.md)"
# the picture's run (doc/hybrid.md says so): t530's first, small
mpi "$build/apps/rewind-hybrid" -rw_hybrid_grid 12 -rw_nn_layers 1,8,8,1 -rw_hybrid_steps 20 -rw_hybrid_dt 0.05 -rw_hybrid_epochs 150 -rw_output "$out/hybrid" > "$out/hybrid.log"
"$PYTHON" "$src/jobs/plot_hybrid.py" "$out/hybrid.h5" "$src/doc/hybrid-result.png"

echo "doc-figures: rewind-schedule (doc/schedule-multilevel.svg; doc/schedules.md)"
mpi "$build/apps/rewind-schedule" -rw_steps 40 -rw_schedule_type multilevel -rw_schedule_ram_slots 3 -rw_schedule_disk_slots 2 -rw_schedule_costs 1,1,2,2 -rw_schedule_view_draw "$src/doc/schedule-multilevel.svg" > "$out/schedule.log"

echo "doc-figures: rewind-4dvar and rewind-horizon (doc/chaos-4dvar.png; doc/chaos.md)"
mpi "$build/apps/rewind-4dvar" -rw_output "$out/4dvar" > "$out/4dvar.log"
"$PYTHON" "$src/jobs/plot_4dvar.py" "$out/4dvar.h5" "$src/doc/chaos-4dvar.png"
mpi "$build/apps/rewind-horizon" -rw_horizon_windows 0.5,1,2,5,10,15,20 > "$out/horizon.log"

echo "doc-figures: what the documents quote, as the code prints it now (full outputs in $out):"
for f in inverse fwi hybrid 4dvar horizon; do
  echo "--- $f"
  tail -n 6 "$out/$f.log"
done
