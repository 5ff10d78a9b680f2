#!/bin/sh
# Writes doc/example-obs.h5: the embedded conductivity problem of
# rewind-heat-inverse on a 32 x 32 grid (two experiments), in the -rw_obs
# schema of doc/inverse.md.  Run from the build tree:
#   jobs/make_example_obs.sh [path/to/rewind-heat-inverse] [output.h5]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
app=${1:-apps/rewind-heat-inverse}
out=${2:-$here/doc/example-obs.h5}
"$app" -da_grid_x 32 -da_grid_y 32 -rw_inv_experiments 2 -rw_obs_write "$out" -tao_max_it 0 > /dev/null
echo "$out"
