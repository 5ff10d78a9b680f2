#!/bin/sh
# Damaged observation files are refused with the file, the item and what is
# wrong with it (issue 39): an HDF5 shots file whose shot 0 is cut short
# names shot 0 (the record length most shots have is the reference), not
# the first shot that disagrees with it; SEG-Y gathers with an integer
# sample format code, cut short, or with a coordinate scalar over zeroed
# coordinates are named as such (not "no traces", not a survey at 0); an
# experiments file whose sigma holds 2 values, or a subnormal 1e-310, says
# so (not garbage, not "not finite").
app="$top_builddir/apps/rewind-fwi"
. "$top_srcdir/tests/testlib.sh"
fail() { echo "FAIL $*"; exit 1; }
py=${PYTHON:-/usr/bin/python3}
fails() { # fails NAME MESSAGE NP OPTIONS...: the run exits nonzero and says MESSAGE
  name=$1 msg=$2 np=$3
  shift 3
  if run "$np" "$@" > "$tmp/$name.out" 2>&1; then fail "$name: exit status 0"; fi
  grep -qF -- "$msg" "$tmp/$name.out" || { grep 'PETSC ERROR' "$tmp/$name.out" | head -3; fail "$name: no message \"$msg\""; }
  echo "ok $name: $msg"
}

small="-rw_fwi_grid 61,31 -rw_fwi_shots 4 -rw_fwi_record 600 -rw_fwi_iterations 1 -rw_dt 2.4"
run 1 $small -rw_obs_write "$tmp/obs.h5" > /dev/null
test -s "$tmp/obs.h5" && test -s "$tmp/obs-shot2.sgy" || fail "-rw_obs_write made no files"

# shot 0 cut short (200 of 251 samples): shot 0 is named
cp "$tmp/obs.h5" "$tmp/cut.h5"
"$py" - "$tmp/cut.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    d = f["shot0/data"][:200]
    del f["shot0/data"]
    f["shot0/data"] = d
PY
fails shot0-cut "cut.h5: /shot0/data has 200 samples a trace, 3 of the 4 shots have 251" 1 -rw_fwi_obs "$tmp/cut.h5" -rw_fwi_iterations 1
# the wave model's own source option would be overwritten by each shot's: refused, naming what to give
fails wave-sources "-rw_wave_sources: rewind-fwi lays out the wave model's grid and places each shot's source itself" 1 -rw_wave_sources 600,100 -rw_fwi_obs "$tmp/obs.h5"

# SEG-Y, read by rewind-gradient as in t520
app="$top_builddir/apps/rewind-gradient"
grad="-rw_model_type wave -da_grid_x 101 -da_grid_y 71 -rw_wave_nbl 20 -rw_wave_spacing 20 -rw_dt 2.4 -rw_steps 250"
segy() { # segy NAME EDIT: a copy of shot 2's gather changed by the Python code EDIT on d (bytes), nt, size
  cp "$tmp/obs-shot2.sgy" "$tmp/$1.sgy"
  "$py" - "$tmp/$1.sgy" "$2" <<'PY'
import sys
f = open(sys.argv[1], "r+b"); d = bytearray(f.read())
nt = int.from_bytes(d[3220:3222], "big"); size = 240 + 4 * nt
exec(sys.argv[2])
f.seek(0); f.truncate(); f.write(d); f.close()
PY
}
segy format 'd[3224:3226] = (3).to_bytes(2, "big")'
fails segy-format "format.sgy: sample format code 3 (binary header byte 3225) is not one rewind reads: expected 1 (IBM float) or 5 (IEEE float)" 1 $grad -rw_obs "$tmp/format.sgy"
segy cut 'd = d[:len(d) - 100]'
fails segy-cut "cut.sgy is truncated (or has trailing bytes)" 1 $grad -rw_obs "$tmp/cut.sgy"
segy headers 'd = d[:3600]'
fails segy-headers "headers.sgy: no traces: the file ends after its 3600 bytes of headers" 1 $grad -rw_obs "$tmp/headers.sgy"
segy zeroed '
for t in range((len(d) - 3600) // size):
    o = 3600 + t * size
    d[o + 70:o + 72] = (-100).to_bytes(2, "big", signed=True)
    d[o + 72:o + 88] = bytes(16)'
fails segy-zeroed "zeroed.sgy: the traces have no positions" 1 $grad -rw_obs "$tmp/zeroed.sgy"

# sigma of an experiments file: 2 values, subnormal
app="$top_builddir/apps/rewind-heat-inverse"
run 1 -da_grid_x 16 -da_grid_y 16 -rw_steps 8 -rw_heat_scheme explicit -rw_dt 4e-5 -tao_max_it 0 -rw_obs_write "$tmp/heat.h5" -rw_journal none > /dev/null
app="$top_builddir/apps/rewind-gradient"
sigma() { # sigma NAME VALUE: a copy of heat.h5 with /experiment_0's sigma set to the Python VALUE
  cp "$tmp/heat.h5" "$tmp/$1.h5"
  "$py" -c "import sys, h5py, numpy; f = h5py.File(sys.argv[1], 'r+'); f['experiment_0'].attrs['sigma'] = $2; f.close()" "$tmp/$1.h5"
}
sigma two 'numpy.array([0.01, 0.02])'
fails sigma-two "Attribute sigma of /experiment_0 in $tmp/two.h5 holds 2 values: expected one real number" 1 -rw_obs "$tmp/two.h5" -rw_heat_scheme explicit
sigma tiny '1e-310'
fails sigma-subnormal "Attribute sigma of /experiment_0 in $tmp/tiny.h5 is 1e-310, below the smallest normal number" 1 -rw_obs "$tmp/tiny.h5" -rw_heat_scheme explicit
sigma text '"0.01"'
fails sigma-string "Attribute sigma of /experiment_0 in $tmp/text.h5 is a string: expected one real number" 1 -rw_obs "$tmp/text.h5" -rw_heat_scheme explicit
