#!/bin/sh
# rewind-fwi's bad input (issue 12): each case stops with a message naming
# the file, the item and what was expected (a source or receiver inside the
# absorbing layer warns and runs): points outside the grid, c <= 0 or NaN in
# a starting model, an unstable dt (from the files or -rw_dt), a SEG-Y
# gather without coordinates or with another sample interval, a 3D gather
# without y coordinates, observations whose shot count disagrees, another
# dt, dimension, grid or spacing, a SEG-Y model's columns apart, uneven or
# at several depths, a model origin that disagrees with
# -rw_fwi_origin or with another model's, an incomplete origin.
app="$top_builddir/apps/rewind-fwi"
. "$top_srcdir/tests/testlib.sh"
py=${PYTHON:-/usr/bin/python3}
# PETSc prints whole reals as "410.": compare without that dot
plain() { sed -E 's/([0-9])\.([^0-9A-Za-z]|$)/\1\2/g' "$1" > "$1.plain" && mv "$1.plain" "$1"; }
# fails NAME EXPECTED OPTIONS...: the run must stop, and its error must contain EXPECTED
fails() {
  name=$1 expect=$2
  shift 2
  if run 1 "$@" > "$tmp/bad.txt" 2>&1; then echo "FAIL: $name was accepted"; exit 1; fi
  plain "$tmp/bad.txt"
  grep -qF -- "$expect" "$tmp/bad.txt" || { echo "FAIL: $name: expected the message: $expect"; grep 'PETSC ERROR' "$tmp/bad.txt" | head -4; exit 1; }
  echo "ok: $name stops: ...$expect..."
}
run 1 -rw_fwi_grid 31,16 -rw_fwi_shots 2 -rw_fwi_record 200 -rw_dt 2.4 -rw_fwi_bands 0 -rw_fwi_iterations 1 -rw_obs_write "$tmp/obs.h5" > "$tmp/make.txt"
obs="-rw_fwi_obs $tmp/obs.h5 -rw_fwi_bands 0 -rw_fwi_iterations 1"

# points: outside the grid stops, inside the absorbing layer warns
fails "a receiver outside the grid" "obs.h5, shot 0: receiver 10 has coordinate 410 in direction x, outside the grid [-80, 380]" $obs -rw_fwi_grid 16,16 -rw_wave_nbl 4
run 1 $obs -rw_fwi_grid 26,16 > "$tmp/warn.txt" 2>&1
plain "$tmp/warn.txt"
grep -q "WARNING: Observations .*obs.h5, shot 0: receiver 13 at x = 530 lies inside the absorbing layer (the physical region is \[0, 500\])" "$tmp/warn.txt" || { head -5 "$tmp/warn.txt"; echo "FAIL: no warning for receivers in the absorbing layer"; exit 1; }
grep -q '^final:' "$tmp/warn.txt"
echo "ok: receivers in the absorbing layer warn, and the run goes on"

# velocities: c <= 0 and NaN in a SEG-Y starting model (sample 5 of trace 3)
for v in -1 nan; do
  cp "$tmp/obs-start.sgy" "$tmp/bad-$v.sgy"
  "$py" - "$tmp/bad-$v.sgy" "$v" <<'PY'
import struct, sys
f = open(sys.argv[1], "r+b"); d = bytearray(f.read())
nt = int.from_bytes(d[3220:3222], "big"); o = 3600 + 3 * (240 + 4 * nt) + 240 + 4 * 5
d[o:o + 4] = struct.pack(">f", float(sys.argv[2]))
f.seek(0); f.write(d); f.close()
PY
done
fails "c = -1 in the starting model" "bad--1.sgy: c = -1 at point (3, 5, 0) (x fastest, depth last): expected a positive, finite velocity (km/s) everywhere" $obs -rw_fwi_start "$tmp/bad--1.sgy"
fails "NaN in the starting model" "bad-nan.sgy: c = nan" $obs -rw_fwi_start "$tmp/bad-nan.sgy"
fails "NaN in a true model" "-rw_fwi_true $tmp/bad-nan.sgy: c = nan" $obs -rw_fwi_true "$tmp/bad-nan.sgy"

# an unstable dt: the files' or -rw_dt
fails "an unstable sample interval" "Time step 2.4 ms (the sample interval dt of the observations $tmp/obs.h5) is above the stability limit of this grid (spacing 20 m, space order -rw_wave_space_order) for velocities up to -rw_fwi_cmax 6 km/s: expected dt <=" $obs -rw_fwi_cmax 6
fails "an unstable -rw_dt" "Time step 3.5 ms (-rw_dt) is above the stability limit" -rw_fwi_grid 31,16 -rw_dt 3.5

# SEG-Y gathers: without coordinates, another sample interval, a missing shot, a 3D run on a 2D line (no y)
cp "$tmp/obs-shot1.sgy" "$tmp/nohead.sgy"
cp "$tmp/obs-shot1.sgy" "$tmp/dt2.sgy"
"$py" - "$tmp/nohead.sgy" "$tmp/dt2.sgy" <<'PY'
import sys
f = open(sys.argv[1], "r+b"); d = bytearray(f.read())
nt = int.from_bytes(d[3220:3222], "big"); size = 240 + 4 * nt
for t in range((len(d) - 3600) // size):
    d[3600 + t * size + 68:3600 + t * size + 88] = bytes(20)  # scalars and coordinates
f.seek(0); f.write(d); f.close()
f = open(sys.argv[2], "r+b"); d = bytearray(f.read())
d[3216:3218] = (2000).to_bytes(2, "big")  # the binary header's sample interval, us
f.seek(0); f.write(d); f.close()
PY
sgy="-rw_fwi_bands 0 -rw_fwi_iterations 1 -rw_fwi_grid 31,16"
fails "a SEG-Y gather without coordinates" "nohead.sgy: trace 0 has no source or receiver coordinates (SourceX byte 73, GroupX byte 81, scalar byte 71 all 0)" $sgy -rw_fwi_obs "$tmp/obs-shot0.sgy,$tmp/nohead.sgy"
fails "a SEG-Y gather of another sample interval" "dt2.sgy has sample interval 2000 us; expected 2400 us, the run's dt 2.4 ms (-rw_dt, or the first gather's)" $sgy -rw_fwi_obs "$tmp/obs-shot0.sgy,$tmp/dt2.sgy"
fails "a missing SEG-Y shot" "no file $tmp/obs-shot2.sgy for shot 2: -rw_fwi_shots 3 expects shots 0 to 2" $sgy -rw_fwi_obs "$tmp/obs-shot%d.sgy" -rw_fwi_shots 3
fails "a 3D SEG-Y gather without y" "SEG-Y $tmp/obs-shot0.sgy: trace 0 has no y coordinates (SourceY byte 77 and GroupY byte 85 are 0 in all 16 traces): a 3D gather needs them" -rw_fwi_dim 3 -rw_fwi_obs "$tmp/obs-shot0.sgy"

# SEG-Y models whose columns (GroupX, byte 81; depth: minus byte 41) lie off the grid: 21 m apart, one 50 cm off, one starting 5 m deeper
for c in wide uneven deep; do cp "$tmp/obs-start.sgy" "$tmp/$c.sgy"; done
"$py" - "$tmp" <<'PY'
import struct, sys
def edit(name, fn):
    f = open(sys.argv[1] + "/" + name, "r+b"); d = bytearray(f.read())
    nt = int.from_bytes(d[3220:3222], "big"); size = 240 + 4 * nt
    for t in range((len(d) - 3600) // size):
        h = 3600 + t * size
        x, z = struct.unpack(">i", d[h + 80:h + 84])[0], struct.unpack(">i", d[h + 40:h + 44])[0]
        x, z = fn(t, x, z)
        d[h + 80:h + 84], d[h + 40:h + 44] = struct.pack(">i", x), struct.pack(">i", z)
    f.seek(0); f.write(d); f.close()
edit("wide.sgy", lambda t, x, z: (t * 2100, z))          # centimetres
edit("uneven.sgy", lambda t, x, z: (x + 50 * (t == 3), z))
edit("deep.sgy", lambda t, x, z: (x, z - 500 * (t == 5))) # an elevation: 5 m lower
PY
fails "a SEG-Y model of another column spacing" "wide.sgy: its columns are 21 m apart along x (GroupX); the grid's spacing is 20 m (the sample interval, -rw_fwi_spacing or the starting model): expected the same" $sgy -rw_fwi_obs "$tmp/obs.h5" -rw_fwi_start "$tmp/wide.sgy"
fails "a SEG-Y model with uneven columns" "uneven.sgy: the columns' GroupX (byte 81) are not evenly spaced: column 3 of 31 at 60.5 m, expected 60 m (20 m apart from 0 to 600 m)" $sgy -rw_fwi_obs "$tmp/obs.h5" -rw_fwi_start "$tmp/uneven.sgy"
fails "a SEG-Y model with a column starting deeper" "deep.sgy: trace 5 starts at depth 5 m, trace 0 at 0 m (minus ReceiverGroupElevation, byte 41): expected every column to start at one depth" $sgy -rw_fwi_obs "$tmp/obs.h5" -rw_fwi_start "$tmp/deep.sgy"

# HDF5 observations against the run: shots, dt, dimension; models against the grid
fails "another shot count" "obs.h5 hold 2 shots (attribute nshots); -rw_fwi_shots 3 expected that many" $obs -rw_fwi_shots 3
fails "another dt" "are sampled every dt = 2.4; the run steps -rw_dt 2.3: expected the same sample interval" $obs -rw_dt 2.3
fails "another dimension" "obs.h5 are 2D (attribute dim); -rw_fwi_dim 3 expected 3D" $obs -rw_fwi_dim 3
fails "a starting model of another grid" "obs.h5:c_start: a model of 31 x 16 x 1 points (x fastest); the grid has 25 x 16 x 1 physical points (-rw_fwi_grid, or the starting model), 65 x 56 x 1 with the absorbing layers: expected one of these" $obs -rw_fwi_grid 25,16 -rw_fwi_start "$tmp/obs.h5:c_start"
fails "a starting model of another spacing" "obs.h5:c_start: spacing 20 m; the grid's is 25 m (-rw_fwi_spacing, or the starting model): expected the same" $obs -rw_fwi_spacing 25 -rw_fwi_start "$tmp/obs.h5:c_start"
fails "a starting model without a dataset" "-rw_fwi_start $tmp/obs.h5: expected file.h5:dataset or a SEG-Y file (.sgy)" $obs -rw_fwi_start "$tmp/obs.h5"

# origins: a model's (its first point) against -rw_fwi_origin, and another model's; all of origin_x, origin_y or none
fails "-rw_fwi_origin against an HDF5 model's" "-rw_fwi_start $tmp/obs.h5:c_start puts the physical region's first point at (0, 0) m; -rw_fwi_origin at (100, 0) m: expected the same origin" $obs -rw_fwi_start "$tmp/obs.h5:c_start" -rw_fwi_origin 100,0
fails "-rw_fwi_origin against a SEG-Y model's" "-rw_fwi_start $tmp/obs-start.sgy puts the physical region's first point at (0, 0) m; -rw_fwi_origin at (0, 10) m: expected the same origin" $obs -rw_fwi_start "$tmp/obs-start.sgy" -rw_fwi_origin 0,10
cp "$tmp/obs.h5" "$tmp/moved.h5"
cp "$tmp/obs.h5" "$tmp/half.h5"
"$py" - "$tmp/moved.h5" "$tmp/half.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f: f["c_true"].attrs["origin_x"] = 40.0
with h5py.File(sys.argv[2], "r+") as f: del f["c_start"].attrs["origin_y"]
PY
fails "two models of different origins" "-rw_fwi_true $tmp/moved.h5:c_true puts the physical region's first point at (40, 0) m; -rw_fwi_start $tmp/moved.h5:c_start at (0, 0) m: expected the same origin" $obs -rw_fwi_start "$tmp/moved.h5:c_start" -rw_fwi_true "$tmp/moved.h5:c_true"
fails "an incomplete origin" "-rw_fwi_start $tmp/half.h5:c_start: 1 of the attributes origin_x, origin_y on c_start: expected all or none" $obs -rw_fwi_start "$tmp/half.h5:c_start"
