#!/bin/sh
# Compressed slots in the hdf5 store (issue 36): with -rw_store_compress
# lossless, J and every gradient are bit for bit those of store-all without
# compression for revolve with the hdf5 store and for multilevel memory +
# hdf5 (both levels compressed, or the disk level only through
# -rw_store_disk_compress), on 1 and 3 ranks; a run killed in its forward
# sweep, in a write or in its reverse sweep with keeps resumes with
# -rw_restart bit for bit; a restart with another codec, tolerance or rank
# count is refused naming the cause and leaves the file as it is; zfp slots
# keep within their bound.  Each line of output is one case.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"

keys() { grep -E '^(J|norm2_|sum_)' "$1"; }
heat="-da_grid_x 30 -da_grid_y 24 -rw_steps 40"
wave="-rw_model_type wave -rw_wave_dim 2 -da_grid_x 31 -da_grid_y 27 -rw_steps 40"

# same NAME NP REF OPTIONS...: the run's J and gradient lines are REF's
same() {
  name=$1 np=$2 ref=$3
  shift 3
  run "$np" "$@" -rw_adjoint_view > "$tmp/$name.txt" 2> "$tmp/$name.err" || { echo "FAIL $name: the run failed"; cat "$tmp/$name.err"; exit 1; }
  keys "$tmp/$name.txt" | cmp -s - "$ref" || { echo "FAIL $name: J or a gradient differs from uncompressed store-all"; keys "$tmp/$name.txt" | diff "$ref" - | head; exit 1; }
  ratio=$(sed -n 's/.*compressed slots (\([a-z]*\)).*/\1/p' "$tmp/$name.txt" | head -1)
  test -n "$ratio" || { echo "FAIL $name: -rw_adjoint_view shows no compressed hdf5 slots"; exit 1; }
  echo "ok $name on $np ranks: identical; $(grep -E 'writes kept' "$tmp/$name.txt" | tail -1 | sed 's/^ *//')"
}

for model in heat wave; do
  eval opts=\$$model
  for np in 1 3; do
    run $np $opts -rw_schedule_type storeall > "$tmp/ref-$model-$np.txt"
    keys "$tmp/ref-$model-$np.txt" > "$tmp/ref-$model-$np.keys"
    test -s "$tmp/ref-$model-$np.keys" || { echo "FAIL: the reference run printed no J"; exit 1; }
    same "revolve-$model" $np "$tmp/ref-$model-$np.keys" $opts -rw_schedule_type revolve -rw_schedule_ram_slots 4 -rw_store_type hdf5 -rw_store_hdf5_file "$tmp/r.h5" -rw_store_compress lossless
  done
done
ml="-rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 3 -rw_schedule_costs 1,1,2,2 -rw_store_hdf5_file $tmp/m.h5"
same "multilevel-both" 3 "$tmp/ref-heat-3.keys" $heat $ml -rw_store_compress lossless
grep -q "compressed RAM slots" "$tmp/multilevel-both.txt" || { echo "FAIL multilevel-both: the RAM level was not compressed"; exit 1; }
same "multilevel-disk" 1 "$tmp/ref-heat-1.keys" $heat $ml -rw_store_disk_compress lossless
if grep -q "compressed RAM slots" "$tmp/multilevel-disk.txt"; then echo "FAIL multilevel-disk: the RAM level was compressed too"; exit 1; fi
same "multilevel-wave" 3 "$tmp/ref-wave-3.keys" $wave $ml -rw_store_compress lossless

# kills: the forward sweep, a recomputation, the reverse sweep with keeps
base="$heat -rw_schedule_type revolve -rw_schedule_ram_slots 5 -rw_store_type hdf5 -rw_store_compress lossless"
cell() { # cell NAME NP EXPECT KILL-OPTION...
  name=$1 np=$2 expect=$3
  shift 3
  opts="$base -rw_store_hdf5_file $tmp/$name.h5 -rw_adjoint_keep_interval 7"
  if run "$np" $opts "$@" > "$tmp/$name-killed.txt" 2>&1; then echo "FAIL $name: the run was not killed"; exit 1; fi
  test -s "$tmp/$name.h5" || { echo "FAIL $name: no checkpoint file survived the kill"; exit 1; }
  run "$np" $opts -rw_restart > "$tmp/$name-resumed.txt" 2> "$tmp/$name-resumed.err" || { echo "FAIL $name: the resumed run failed"; cat "$tmp/$name-resumed.err"; exit 1; }
  grep -q "$expect" "$tmp/$name-resumed.err" || { echo "FAIL $name: expected \"$expect\""; cat "$tmp/$name-resumed.err"; exit 1; }
  keys "$tmp/$name-resumed.txt" | cmp -s - "$tmp/ref-heat-$np.keys" || { echo "FAIL $name: the resumed gradient differs"; exit 1; }
  echo "ok $name: killed on $np ranks ($*), resumed: $(sed -n 's/^rewind: -rw_restart //p' "$tmp/$name-resumed.err" | head -1); identical"
}
cell "forward1" 1 "resumes the forward sweep at step" -rw_debug_kill_at_step 23
cell "inwrite3" 3 "resumes the forward sweep at step" -rw_debug_kill_in_write 4
cell "reverse3" 3 "resumes the reverse sweep after step" -rw_debug_kill_at_reverse 20

# refusals: the file is another codec's, tolerance's or decomposition's, and is left as it is
refuse() { # refuse NAME NP EXPECT KILLED-OPTIONS RESTART-OPTIONS...: a file killed on 1 rank, restarted on NP
  name=$1 nr=$2 expect=$3 killed=$4 # not np: run() sets it
  shift 4
  rm -f "$tmp/k.h5"
  if run 1 $base $killed -rw_store_hdf5_file "$tmp/k.h5" -rw_debug_kill_at_step 23 > /dev/null 2>&1; then echo "FAIL $name: the run to refuse was not killed"; exit 1; fi
  cp "$tmp/k.h5" "$tmp/k0.h5"
  if run "$nr" $base "$@" -rw_store_hdf5_file "$tmp/k.h5" -rw_restart > "$tmp/$name.out" 2>&1; then echo "FAIL $name: the restart was not refused"; grep -v "^[ns][ou]" "$tmp/$name.out"; exit 1; fi
  grep -q -e "$expect" "$tmp/$name.out" || { echo "FAIL $name: expected \"$expect\""; cat "$tmp/$name.out"; exit 1; }
  cmp -s "$tmp/k.h5" "$tmp/k0.h5" || { echo "FAIL $name: the refused file was changed"; exit 1; }
  echo "ok $name refused: $(grep 'PETSC ERROR: [^-]' "$tmp/$name.out" | sed -n '2s/^.*PETSC ERROR: //p' | sed "s|$tmp/||g")"
}
refuse "other-codec" 1 "written with -rw_store_compress lossless, this run uses none" "" -rw_store_compress none
refuse "other-ranks" 2 "another decomposition" ""
refuse "other-tolerance" 1 "written with -rw_store_compress_tolerance 1e-06, this run uses 1e-07" "-rw_store_compress zfp" -rw_store_compress zfp -rw_store_compress_tolerance 1e-7

# zfp slots: within the bound, J unchanged (computed from states never compressed)
run 3 $heat -rw_schedule_type revolve -rw_schedule_ram_slots 4 -rw_store_type hdf5 -rw_store_hdf5_file "$tmp/z.h5" -rw_store_compress zfp -rw_store_compress_tolerance 1e-8 -rw_adjoint_view > "$tmp/zfp.txt"
grep '^J' "$tmp/zfp.txt" | cmp -s - "$(grep '^J' "$tmp/ref-heat-3.keys" > "$tmp/refJ"; echo "$tmp/refJ")" || { echo "FAIL zfp: J differs"; exit 1; }
grep -q "compressed slots (zfp)" "$tmp/zfp.txt" || { echo "FAIL zfp: no compressed hdf5 slots in the view"; exit 1; }
"${PYTHON:-python3}" - "$tmp/ref-heat-3.txt" "$tmp/zfp.txt" << 'EOF' || exit 1
import re, sys
def grads(path):
    return {m.group(1): float(m.group(2)) for m in (re.match(r'^norm2_(\S+)\s+(\S+)', l) for l in open(path)) if m}
a, b = grads(sys.argv[1]), grads(sys.argv[2])
assert a and a.keys() == b.keys(), (a, b)
worst = max(abs(a[k] - b[k]) / max(abs(a[k]), 1e-300) for k in a)
print("ok zfp 1e-8 on 3 ranks: J identical, largest relative change of a gradient's 2-norm %.2g" % worst)
if not worst < 1e-5: sys.exit("FAIL zfp: the gradient moved by %g, more than 1e-5" % worst)
EOF
