#!/bin/sh
# rewind-fwi, small (61 x 31 physical points, 4 shots, 0.6 s, 5 iterations
# per band): the full-band misfit falls by more than 1.05x and the model
# error falls; on 2 ranks the run in 2 shot groups prints the very lines of
# the run in 1 group (J and gradient summed in shot order: the same bits, so
# TAO takes the same path); the starting J is the same bits on 1 rank; the
# HDF5, XDMF and observation files hold what they should, rewind-gradient
# reads the observations back (the same J as rewind-fwi's first shot
# evaluation gives is not asserted: noise and bands differ) and stops on a
# file of another sample interval; the PNGs are drawn when Python has h5py
# and matplotlib.
app="$top_builddir/apps/rewind-fwi"
. "$top_srcdir/tests/testlib.sh"
small="-rw_fwi_grid 61,31 -rw_fwi_shots 4 -rw_fwi_record 600 -rw_fwi_iterations 5 -rw_dt 2.4"

run 2 $small -rw_ensemble_groups 1 -rw_output "$tmp/g1" -rw_obs_write "$tmp/obs.h5" > "$tmp/g1.txt"
cat "$tmp/g1.txt"
run 2 $small -rw_fwi_shot_groups 2 > "$tmp/g2.txt" # the deprecated name of -rw_ensemble_groups
grep -q "rw_fwi_shot_groups is deprecated" "$tmp/g2.txt" || { echo "FAIL: -rw_fwi_shot_groups did not warn that it is deprecated"; exit 1; }
run 1 $small > "$tmp/n1.txt"
# every line but the seconds: identical for 1 and 2 shot groups
strip() { grep -E '^(band|final|rewind-fwi|J_start)' "$1" | sed 's/  [0-9.]* s$//; s/, [0-9]* ranks;/;/'; }
strip "$tmp/g1.txt" > "$tmp/g1.lines"
strip "$tmp/g2.txt" > "$tmp/g2.lines"
diff "$tmp/g1.lines" "$tmp/g2.lines" || { echo "FAIL: 1 and 2 shot groups differ"; exit 1; }
echo "ok: 2 ranks in 1 and in 2 shot groups print the same $(wc -l < "$tmp/g1.lines") lines"
# the starting model's J: bitwise the same on 1 rank (TAO's own reductions differ after)
j1=$(sed -n 's/^J_start \([0-9.e+-]*\) .*/\1/p' "$tmp/n1.txt")
j2=$(sed -n 's/^J_start \([0-9.e+-]*\) .*/\1/p' "$tmp/g1.txt")
test -n "$j1" && test "$j1" = "$j2" || { echo "FAIL: starting J $j1 on 1 rank, $j2 on 2"; exit 1; }
echo "ok: starting J $j1 on 1 and 2 ranks"
# the misfit and the model error fall
line=$(grep '^final:' "$tmp/g1.txt")
factor=$(echo "$line" | sed -n 's/.*reduced by a factor \([0-9.]*\).*/\1/p')
e0=$(echo "$line" | sed -n 's/.*model error \([0-9.]*\) -> \([0-9.]*\);.*/\1/p')
e1=$(echo "$line" | sed -n 's/.*model error \([0-9.]*\) -> \([0-9.]*\);.*/\2/p')
awk -v f="$factor" -v a="$e0" -v b="$e1" 'BEGIN { if (!(f > 1.05 && b < 0.8 * a)) { print "FAIL: misfit factor " f ", model error " a " -> " b; exit 1 } print "ok: misfit reduced " f "x, model error " a " -> " b }'
# outputs
test -s "$tmp/g1.h5" && test -s "$tmp/g1.xmf" && test -s "$tmp/g1-gather.h5" && test -s "$tmp/obs.h5"
grep -q 'c_recovered' "$tmp/g1.xmf"
if command -v h5dump > /dev/null 2>&1; then
  h5dump -H "$tmp/g1.h5" | grep -q 'GROUP "history"'
  h5dump -H "$tmp/g1.h5" | grep -q 'DATASET "gradient_norm"'
  h5dump -H "$tmp/obs.h5" | grep -q 'DATASET "data"'
fi
# the observation file read back by rewind-gradient (shot 2: its source and 31 receivers)
app="$top_builddir/apps/rewind-gradient"
grad="-rw_model_type wave -da_grid_x 101 -da_grid_y 71 -rw_wave_nbl 20 -rw_wave_spacing 20 -rw_dt 2.4 -rw_steps 250"
run 1 $grad -rw_obs "$tmp/obs.h5" -rw_obs_member 2 > "$tmp/grad.txt"
grep -q '^J [0-9]' "$tmp/grad.txt" && grep -q '^norm2_dJdm [1-9]' "$tmp/grad.txt"
echo "ok: rewind-gradient reads shot 2 of the observations: $(grep '^J ' "$tmp/grad.txt")"
if run 1 $grad -rw_dt 2.3 -rw_obs "$tmp/obs.h5" > "$tmp/bad.txt" 2>&1; then echo "FAIL: another sample interval was accepted"; exit 1; fi
grep -q "are sampled every dt = 2.4; the run steps -rw_dt 2.3: expected the same sample interval" "$tmp/bad.txt" || { grep 'PETSC ERROR' "$tmp/bad.txt" | head -3; exit 1; }
if run 1 $grad -rw_obs "$tmp/obs.h5" -rw_obs_shot 4 > "$tmp/bad.txt" 2>&1; then echo "FAIL: shot 4 of 4 was accepted"; exit 1; fi
grep -q "rw_obs_shot is deprecated" "$tmp/bad.txt" && grep -q "rw_obs_member 4: the observations have 4 members (0 .. 3)" "$tmp/bad.txt"
echo "ok: bad observation files stop with the file's name"
# SEG-Y: shot 2's gather read back (4-byte floats, coordinates from the headers with their scalars)
test -s "$tmp/obs-shot2.sgy"
run 1 $grad -rw_obs "$tmp/obs-shot2.sgy" > "$tmp/sgy.txt"
jh=$(sed -n 's/^J //p' "$tmp/grad.txt"); js=$(sed -n 's/^J //p' "$tmp/sgy.txt")
awk -v a="$jh" -v b="$js" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; if (!(d < 1e-5)) { print "FAIL: J from HDF5 " a ", from SEG-Y " b; exit 1 } print "ok: SEG-Y round trip: J " b " against " a " from HDF5 (relative " d ", float32 samples)" }'
if run 1 $grad -rw_dt 2.3 -rw_obs "$tmp/obs-shot2.sgy" > "$tmp/bad.txt" 2>&1; then echo "FAIL: a SEG-Y file of another sample interval was accepted"; exit 1; fi
grep -q "obs-shot2.sgy has sample interval 2400 us; expected 2300 us, the run's dt 2.3 ms" "$tmp/bad.txt"
cp "$tmp/obs-shot2.sgy" "$tmp/nohead.sgy"
"${PYTHON:-/usr/bin/python3}" - "$tmp/nohead.sgy" <<'PY'
import sys
# zero bytes 69-88 (scalars and coordinates) of every trace header
f = open(sys.argv[1], "r+b"); d = bytearray(f.read())
nt = int.from_bytes(d[3220:3222], "big"); size = 240 + 4 * nt
for t in range((len(d) - 3600) // size):
    o = 3600 + t * size
    d[o + 68:o + 88] = bytes(20)
f.seek(0); f.write(d); f.close()
PY
if run 1 $grad -rw_obs "$tmp/nohead.sgy" > "$tmp/bad.txt" 2>&1; then echo "FAIL: a SEG-Y file without coordinates was accepted"; exit 1; fi
grep -q "nohead.sgy: trace 0 has no source or receiver coordinates" "$tmp/bad.txt"
echo "ok: SEG-Y files with another dt or without coordinates stop with the file and the header named"
# pictures
py=${PYTHON:-/usr/bin/python3}
for p in "$py" /usr/bin/python3; do
  if "$p" -c 'import h5py, matplotlib' 2> /dev/null; then
    "$p" "$top_srcdir/jobs/plot_fwi.py" "$tmp/g1" "$tmp/pic"
    test -s "$tmp/pic-models.png" && test -s "$tmp/pic-gather.png" && test -s "$tmp/pic-history.png"
    echo "ok: PNG pictures drawn"
    break
  fi
done
