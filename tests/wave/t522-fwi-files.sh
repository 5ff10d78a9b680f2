#!/bin/sh
# rewind-fwi on files (doc/wave.md, "The file-driven workflow"), small sizes:
# - the embedded problem with a moving spread (receivers differ per shot)
#   writes its observations and models; read back from HDF5 (grid and
#   spacing from the starting model) the run prints the very lines of the
#   embedded run (the same J bits all the way);
# - observations alone: no model error, said so; the misfit still falls;
# - SEG-Y gathers (a %d pattern) and SEG-Y models on 2 ranks: the starting J
#   agrees with HDF5's to float32 rounding, the misfit and the model error fall;
# - 2 shot groups with hdf5 checkpoints (a file per group), and with a RAM
#   budget alone (RAM, hdf5 beyond it), print the lines of 1 group in memory;
# - 3D: a tiny embedded problem away from 0 (-rw_fwi_origin) lowers the
#   misfit and the model error; its HDF5 files read back on 1 rank (the
#   origin from the models) give the 2-rank run's starting J bit for bit,
#   its SEG-Y gathers and models (coordinates from the trace headers, the
#   origin from the first trace) that J to float32 rounding, and lower it;
# - SEG-Y without -rw_fwi_dim: 2D or 3D from the gathers' SourceY and GroupY;
#   SEG-Y models whose traces run y fastest and x backwards (3D) or backwards
#   (2D) lay their columns out from GroupX and GroupY: the same J bits;
# - the origin of a whole-grid model written by -rw_output (root attributes
#   origin_x, origin_y: the grid's first point) agrees with -rw_fwi_origin.
app="$top_builddir/apps/rewind-fwi"
. "$top_srcdir/tests/testlib.sh"
small="-rw_fwi_grid 61,31 -rw_fwi_shots 4 -rw_fwi_record 500 -rw_fwi_iterations 2 -rw_dt 2.4"
lines() { grep -E '^(band|final|J_start)' "$1" | sed 's/  [0-9.]* s$//'; }
final() { grep '^final:' "$1"; }
check_fall() { # file what [ratio]: the misfit falls by more than 1.05x and, if known, the model error below ratio (0.9) times its start
  awk -v l="$(final "$1")" -v w="$2" -v q="${3:-0.9}" 'BEGIN {
    if (!match(l, /factor [0-9.]+/)) { print "FAIL: " w ": no misfit factor in: " l; exit 1 }
    f = substr(l, RSTART + 7, RLENGTH - 7)
    if (match(l, /model error [0-9.]+ -> [0-9.]+/)) { split(substr(l, RSTART + 12, RLENGTH - 12), e, " -> ") } else { e[1] = 1; e[2] = 0 }
    if (!(f > 1.05 && e[2] < q * e[1])) { print "FAIL: " w ": misfit factor " f ", model error " e[1] " -> " e[2]; exit 1 }
    print "ok: " w ": misfit reduced " f "x" (e[1] == 1 ? "" : ", model error " e[1] " -> " e[2]) }'
}

run 1 $small -rw_fwi_offset_max 500 -rw_obs_write "$tmp/obs.h5" > "$tmp/emb.txt"
grep -q '^rewind-fwi: 2D, 61 x 31 x 1 physical points.*4 shots, 82 receivers in all' "$tmp/emb.txt" || { head -5 "$tmp/emb.txt"; echo "FAIL: expected 82 receivers of a moving spread"; exit 1; }
check_fall "$tmp/emb.txt" "embedded, moving spread"
for f in obs.h5 obs-shot0.sgy obs-shot3.sgy obs-start.sgy obs-true.sgy; do test -s "$tmp/$f" || { echo "FAIL: -rw_obs_write made no $f"; exit 1; }; done

# HDF5 back in: the grid, the spacing, the survey from the files; the very same lines
files="-rw_fwi_obs $tmp/obs.h5 -rw_fwi_start $tmp/obs.h5:c_start -rw_fwi_true $tmp/obs.h5:c_true -rw_fwi_iterations 2"
run 1 $files > "$tmp/h5.txt"
lines "$tmp/emb.txt" > "$tmp/emb.lines"
lines "$tmp/h5.txt" > "$tmp/h5.lines"
diff "$tmp/emb.lines" "$tmp/h5.lines" || { echo "FAIL: the run on its own files differs from the embedded run"; exit 1; }
echo "ok: HDF5 observations and models read back: the embedded run's $(wc -l < "$tmp/h5.lines") lines ($(grep J_start "$tmp/h5.lines"))"

# observations without a truth: no model error, said so
run 1 -rw_fwi_obs "$tmp/obs.h5" -rw_fwi_grid 61,31 -rw_fwi_iterations 2 > "$tmp/nt.txt"
grep -q 'no true model (-rw_fwi_true): no model error' "$tmp/nt.txt" && final "$tmp/nt.txt" | grep -q 'model error not known (no -rw_fwi_true)'
! grep -q 'model error [0-9]' "$tmp/nt.txt" || { echo "FAIL: a model error without a truth"; exit 1; }
check_fall "$tmp/nt.txt" "observations only (the embedded start)"

# SEG-Y gathers by pattern and SEG-Y models, on 2 ranks
run 2 -rw_fwi_obs "$tmp/obs-shot%d.sgy" -rw_fwi_start "$tmp/obs-start.sgy" -rw_fwi_true "$tmp/obs-true.sgy" -rw_fwi_iterations 2 > "$tmp/sgy.txt"
grep -q '4 shots, 82 receivers in all, 209 steps of dt 2.4 ms, 2 ranks' "$tmp/sgy.txt" || { head -3 "$tmp/sgy.txt"; echo "FAIL: the SEG-Y survey"; exit 1; }
grep -qE '^rewind-fwi: 2D, as every SourceY and GroupY of the SEG-Y gathers is 0\.? m' "$tmp/sgy.txt" || { head -3 "$tmp/sgy.txt"; echo "FAIL: the SEG-Y gathers' dimension, from their y"; exit 1; }
j1=$(sed -n 's/^J_start \([0-9.e+-]*\) .*/\1/p' "$tmp/h5.txt"); j2=$(sed -n 's/^J_start \([0-9.e+-]*\) .*/\1/p' "$tmp/sgy.txt")
awk -v a="$j1" -v b="$j2" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; if (!(d < 1e-5 && d > 0)) { print "FAIL: starting J " b " from SEG-Y, " a " from HDF5"; exit 1 } print "ok: SEG-Y starting J " b " against HDF5 " a " (relative " d ", float32 samples and velocities)" }'
check_fall "$tmp/sgy.txt" "SEG-Y"
# SEG-Y models in another trace order: the columns from GroupX (and GroupY)
py=${PYTHON:-/usr/bin/python3}
shuffle() { # shuffle IN OUT NX: the traces y fastest, x backwards
  "$py" - "$@" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
nt = int.from_bytes(d[3220:3222], "big"); size = 240 + 4 * nt
n = (len(d) - 3600) // size; nx = int(sys.argv[3]); ny = n // nx
tr = [d[3600 + t * size:3600 + (t + 1) * size] for t in range(n)]
open(sys.argv[2], "wb").write(d[:3600] + b"".join(tr[(nx - 1 - i) + nx * j] for i in range(nx) for j in range(ny)))
PY
}
shuffle "$tmp/obs-start.sgy" "$tmp/rev-start.sgy" 61
run 2 -rw_fwi_obs "$tmp/obs-shot%d.sgy" -rw_fwi_start "$tmp/rev-start.sgy" -rw_fwi_iterations 1 > "$tmp/rev.txt"
j3=$(sed -n 's/^J_start \([0-9.e+-]*\) .*/\1/p' "$tmp/rev.txt")
test -n "$j3" && test "$j3" = "$j2" || { echo "FAIL: starting J $j3 from a SEG-Y model with its traces backwards, $j2 in order"; exit 1; }
echo "ok: a 2D SEG-Y model with its traces backwards: starting J $j3, the ordered model's bits"

# 2 shot groups, hdf5 checkpoints in a file per group: 1 group's memory bits
run 2 $small -rw_ensemble_groups 1 > "$tmp/mem.txt"
run 2 $small -rw_ensemble_groups 2 -rw_schedule_type revolve -rw_schedule_ram_slots 4 -rw_store_type hdf5 -rw_store_hdf5_file "$tmp/ck.h5" -rw_store_keep > "$tmp/disk.txt"
lines "$tmp/mem.txt" > "$tmp/mem.lines"
lines "$tmp/disk.txt" | sed 's/[0-9.]* forward sweeps per gradient/X forward sweeps per gradient/' > "$tmp/disk.lines"
sed -i 's/[0-9.]* forward sweeps per gradient/X forward sweeps per gradient/' "$tmp/mem.lines"
diff "$tmp/mem.lines" "$tmp/disk.lines" || { echo "FAIL: hdf5 checkpoints in 2 groups differ from memory in 1"; exit 1; }
for k in 0 1; do test -s "$tmp/ck-m$k.h5" || { echo "FAIL: no checkpoint file ck-m$k.h5 for group $k"; exit 1; }; done
test ! -e "$tmp/ck.h5" || { echo "FAIL: the groups shared ck.h5"; exit 1; }
# a RAM budget alone: RAM, and hdf5 beyond it, in files of each group's own
run 2 $small -rw_ensemble_groups 2 -rw_checkpoint_ram 2MB -rw_store_hdf5_file "$tmp/ram.h5" -rw_store_keep > "$tmp/ram.txt"
lines "$tmp/ram.txt" | sed 's/[0-9.]* forward sweeps per gradient/X forward sweeps per gradient/' > "$tmp/ram.lines"
diff "$tmp/mem.lines" "$tmp/ram.lines" || { echo "FAIL: a 2 MB budget with hdf5 beyond it differs from memory"; exit 1; }
for k in 0 1; do test -s "$tmp/ram-m$k.h5" || { echo "FAIL: no disk-level file ram-m$k.h5 for group $k"; exit 1; }; done
echo "ok: -rw_checkpoint_ram 2MB alone: RAM and hdf5 (ram-m0.h5, ram-m1.h5), $(final "$tmp/ram.txt" | sed -n 's/.*; \([0-9.]* forward sweeps per gradient\).*/\1/p'), memory's lines"
sweeps=$(final "$tmp/disk.txt" | sed -n 's/.*; \([0-9.]*\) forward sweeps per gradient.*/\1/p')
awk -v s="$sweeps" 'BEGIN { if (!(s > 1.5)) { print "FAIL: " s " forward sweeps per gradient: the checkpoints did not recompute"; exit 1 } }'
echo "ok: 2 groups with hdf5 checkpoints (ck-m0.h5, ck-m1.h5; $sweeps forward sweeps per gradient) print 1 group's memory lines"

# 3D, tiny, away from 0: embedded on 2 ranks, its files on 1 (HDF5) and 2 (SEG-Y), the origin from the models
tiny3="-rw_fwi_dim 3 -rw_wave_nbl 5 -rw_fwi_record 240 -rw_fwi_iterations 2 -rw_fwi_receiver_spacing 60 -rw_fwi_smooth 60"
run 2 $tiny3 -rw_fwi_grid 13,13,11 -rw_fwi_origin 1000,2000,-40 -rw_fwi_bands 0.006,0 -rw_obs_write "$tmp/o3.h5" > "$tmp/e3.txt"
grep -q '^rewind-fwi: 3D, 13 x 13 x 11 physical points' "$tmp/e3.txt"
grep -q "wrote SEG-Y shot gathers $tmp/o3-shot0.sgy .. $tmp/o3-shot3.sgy" "$tmp/e3.txt"
check_fall "$tmp/e3.txt" "3D embedded" 0.95
run 1 $tiny3 -rw_fwi_bands 0.006,0 -rw_fwi_obs "$tmp/o3.h5" -rw_fwi_start "$tmp/o3.h5:c_start" -rw_fwi_true "$tmp/o3.h5:c_true" > "$tmp/f3.txt"
a=$(sed -n 's/^J_start \([0-9.e+-]*\) .*/\1/p' "$tmp/e3.txt"); b=$(sed -n 's/^J_start \([0-9.e+-]*\) .*/\1/p' "$tmp/f3.txt")
test -n "$a" && test "$a" = "$b" || { echo "FAIL: 3D starting J $a embedded on 2 ranks, $b from its files on 1"; exit 1; }
echo "ok: 3D files read back on 1 rank (origin 1000,2000,-40 from the models): starting J $b, the 2-rank embedded run's bits"
# SEG-Y: the headers' x, y, depth in centimetres; without the models' origin the survey would lie outside the grid
run 2 $tiny3 -rw_fwi_bands 0 -rw_fwi_grid 13,13,11 -rw_fwi_obs "$tmp/o3-shot%d.sgy" -rw_fwi_start "$tmp/o3-start.sgy" -rw_fwi_true "$tmp/o3-true.sgy" > "$tmp/s3.txt"
grep -q '^rewind-fwi: 3D, 13 x 13 x 11 physical points.*4 shots, 100 receivers in all, 120 steps of dt 2 ms, 2 ranks' "$tmp/s3.txt" || { head -3 "$tmp/s3.txt"; echo "FAIL: the 3D SEG-Y survey"; exit 1; }
c=$(sed -n 's/^J_start \([0-9.e+-]*\) .*/\1/p' "$tmp/s3.txt")
awk -v a="$a" -v b="$c" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; if (!(d < 1e-5 && d > 0)) { print "FAIL: 3D starting J " b " from SEG-Y, " a " from HDF5"; exit 1 } print "ok: 3D SEG-Y starting J " b " against HDF5 " a " (relative " d ", float32 samples and velocities)" }'
check_fall "$tmp/s3.txt" "3D SEG-Y" 0.99
# the same survey without -rw_fwi_grid: the SEG-Y start model's GroupX, GroupY lay out its 13 x 13 columns
# (and without -rw_fwi_dim: 3D from the gathers' y)
run 2 $(echo "$tiny3" | sed 's/-rw_fwi_dim 3 //') -rw_fwi_bands 0 -rw_fwi_iterations 1 -rw_fwi_obs "$tmp/o3-shot%d.sgy" -rw_fwi_start "$tmp/o3-start.sgy" -rw_fwi_true "$tmp/o3-true.sgy" > "$tmp/s3g.txt"
grep -qE '^rewind-fwi: 3D, as the SEG-Y gathers. SourceY and GroupY span 2010\.? to 2240\.? m' "$tmp/s3g.txt" || { head -3 "$tmp/s3g.txt"; echo "FAIL: the 3D SEG-Y gathers' dimension, from their y"; exit 1; }
grep -q '^rewind-fwi: 3D, 13 x 13 x 11 physical points' "$tmp/s3g.txt" || { head -3 "$tmp/s3g.txt"; echo "FAIL: the 3D SEG-Y model's grid from its trace coordinates"; exit 1; }
d=$(sed -n 's/^J_start \([0-9.e+-]*\) .*/\1/p' "$tmp/s3g.txt")
test -n "$d" && test "$d" = "$c" || { echo "FAIL: starting J $d without -rw_fwi_grid, $c with it"; exit 1; }
echo "ok: a 3D SEG-Y model lays out its columns from GroupX, GroupY: 13 x 13 x 11 and starting J $d without -rw_fwi_grid or -rw_fwi_dim"
# its traces y fastest and x backwards: the same columns, the same bits
shuffle "$tmp/o3-start.sgy" "$tmp/o3-yfast-start.sgy" 13
shuffle "$tmp/o3-true.sgy" "$tmp/o3-yfast-true.sgy" 13
run 2 $tiny3 -rw_fwi_bands 0 -rw_fwi_iterations 1 -rw_fwi_obs "$tmp/o3-shot%d.sgy" -rw_fwi_start "$tmp/o3-yfast-start.sgy" -rw_fwi_true "$tmp/o3-yfast-true.sgy" > "$tmp/s3y.txt"
e=$(sed -n 's/^J_start \([0-9.e+-]*\) .*/\1/p' "$tmp/s3y.txt")
test -n "$e" && test "$e" = "$c" && grep -q 'starting model error' "$tmp/s3y.txt" && test "$(grep -o 'starting model error [0-9.]*' "$tmp/s3y.txt")" = "$(grep -o 'starting model error [0-9.]*' "$tmp/s3g.txt")" || { echo "FAIL: starting J $e (or the model error) from SEG-Y models y fastest and x backwards, $c in order"; exit 1; }
echo "ok: 3D SEG-Y models with their traces y fastest and x backwards: starting J $e and the model error of the ordered files"

# -rw_fwi_origin moves the grid and the embedded survey together: the same J
one="-rw_fwi_grid 41,21 -rw_fwi_shots 2 -rw_fwi_record 300 -rw_dt 2.4 -rw_fwi_bands 0 -rw_fwi_iterations 1"
run 1 $one > "$tmp/o0.txt"
run 1 $one -rw_fwi_origin 1000,-50 > "$tmp/o1.txt"
a=$(grep '^J_start' "$tmp/o0.txt"); b=$(grep '^J_start' "$tmp/o1.txt")
test -n "$a" && test "$a" = "$b" || { echo "FAIL: with -rw_fwi_origin 1000,-50: $b, at 0,0: $a"; exit 1; }
echo "ok: -rw_fwi_origin 1000,-50 moves grid and survey together: $b"
# a whole-grid model of -rw_output: its root's origin_x, origin_y are the grid's first point, nbl points before the region's
run 1 $one -rw_fwi_origin 1000,-50 -rw_output "$tmp/o1" > "$tmp/o1.txt"
run 1 $one -rw_fwi_origin 1000,-50 -rw_fwi_start "$tmp/o1.h5:c_start" > "$tmp/o2.txt"
c=$(grep '^J_start' "$tmp/o2.txt")
test "$b" = "$c" || { echo "FAIL: the start from $tmp/o1.h5:c_start: $c, the embedded start: $b"; exit 1; }
echo "ok: -rw_fwi_start o1.h5:c_start (the whole grid, origin 600,-450) agrees with -rw_fwi_origin 1000,-50: the same $c"
