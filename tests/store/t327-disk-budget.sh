#!/bin/sh
# A disk budget bought at the compressed size (issue 36): multilevel memory +
# hdf5 with -rw_checkpoint_disk and a compressing hdf5 disk store sizes each
# rank's part of a slot at x_0's compressed size, so the budget holds more
# disk slots.  On 1 and 3 ranks, lossless: J and every gradient are bit for
# bit those of store-all without compression, with more disk slots than
# uncompressed and fewer forward steps; a wave from rest (x_0 all zeros:
# later states compress worse) re-plans (default) or stands in
# (-rw_checkpoint_replan 0), with storeall's bits and the forward steps the
# plan accounts for; a restart with other parts is refused naming them and
# leaves the file as it is; a budget too small is refused naming the option.
# Each line of output is one case.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"

keys() { grep -E '^(J|norm2_|sum_)' "$1"; }
heat="-da_grid_x 30 -da_grid_y 24 -rw_steps 60"
wave="-rw_model_type wave -rw_wave_dim 2 -da_grid_x 31 -da_grid_y 27 -rw_steps 60"
# 8 uncompressed heat states of 30x24 doubles, 6 of the wave's (two fields)
ml="-rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_costs 1,1,2,2 -rw_store_disk_compress lossless"
heatdisk=46080
wavedisk=80352

# view NAME: the disk line's numbers: slots, uncompressed slots, forward steps, uncompressed prediction, planned
view() {
  sed -n 's/.*: \([0-9]*\) disk slots against \([0-9]*\) uncompressed.*/\1 \2/p' "$tmp/$1.txt" | head -1
}
steps() {
  sed -n 's/^ *forward steps: \([0-9]*\) against \([0-9]*\) predicted with the disk level uncompressed ([-0-9]* saved; \([0-9]*\) as planned)/\1 \2 \3/p' "$tmp/$1.txt" | head -1
}

# same NAME NP REF OPTIONS...: the run's J and gradient lines are REF's, and the disk level was planned compressed
same() {
  name=$1 np=$2 ref=$3
  shift 3
  run "$np" "$@" -rw_store_hdf5_file "$tmp/$name.h5" -rw_adjoint_view > "$tmp/$name.txt" 2> "$tmp/$name.err" || { echo "FAIL $name: the run failed"; cat "$tmp/$name.err"; exit 1; }
  keys "$tmp/$name.txt" | cmp -s - "$ref" || { echo "FAIL $name: J or a gradient differs from uncompressed store-all"; keys "$tmp/$name.txt" | diff "$ref" - | head; exit 1; }
  grep -q "disk budget at the compressed size" "$tmp/$name.txt" || { echo "FAIL $name: -rw_adjoint_view shows no disk budget at the compressed size"; cat "$tmp/$name.txt"; exit 1; }
  set -- $(steps "$name")
  test $# = 3 || { echo "FAIL $name: no forward-steps line"; cat "$tmp/$name.txt"; exit 1; }
  test "$1" = "$3" || { echo "FAIL $name: $1 forward steps, the plan accounts for $3"; exit 1; }
}

for np in 1 3; do
  for model in heat wave; do
    eval opts=\$$model
    run $np $opts -rw_schedule_type storeall > "$tmp/ref-$model-$np.txt"
    keys "$tmp/ref-$model-$np.txt" > "$tmp/ref-$model-$np.keys"
    test -s "$tmp/ref-$model-$np.keys" || { echo "FAIL: the reference run printed no J"; exit 1; }
  done
  # heat: later states compress a little worse than x_0: the first solve
  # re-plans, the solves after it (the Taylor test's) keep the parts measured:
  # more disk slots than uncompressed, fewer forward steps, no re-plan
  same "heat-$np" $np "$tmp/ref-heat-$np.keys" $heat $ml -rw_checkpoint_disk $heatdisk -rw_verify taylor
  grep -q "verify_taylor_min_order1 .* PASS" "$tmp/heat-$np.txt" || { echo "FAIL heat-$np: the Taylor test failed"; exit 1; }
  sed -n '/disk budget at the compressed size/,/last solve:/p' "$tmp/heat-$np.txt" | awk '/disk budget at/{n++} n==2' > "$tmp/heat2-$np.txt"
  set -- $(view "heat2-$np") $(steps "heat2-$np")
  test $# = 5 || { echo "FAIL heat-$np: no second solve's disk lines"; cat "$tmp/heat-$np.txt"; exit 1; }
  test "$1" -gt "$2" || { echo "FAIL heat-$np: $1 disk slots, not more than $2 uncompressed"; exit 1; }
  test "$3" -lt "$4" && test "$3" = "$5" || { echo "FAIL heat-$np: $3 forward steps, not fewer than $4 uncompressed or not the plan's $5"; exit 1; }
  grep -q "re-planned\|larger than their disk part" "$tmp/heat2-$np.txt" && { echo "FAIL heat-$np: the second solve re-planned or stood in"; exit 1; }
  echo "ok heat lossless on $np ranks: identical; the second solve $1 disk slots against $2, $3 forward steps against $4"
  # a wave from rest: x_0 compresses best; re-plan, then stand-ins
  same "wave-replan-$np" $np "$tmp/ref-wave-$np.keys" $wave $ml -rw_checkpoint_disk $wavedisk
  grep -q "disk re-planned" "$tmp/wave-replan-$np.txt" || { echo "FAIL wave-replan-$np: no re-plan"; cat "$tmp/wave-replan-$np.txt"; exit 1; }
  echo "ok wave from rest on $np ranks re-planned: identical, $(steps wave-replan-$np | cut -d' ' -f1) forward steps as planned"
  same "wave-standin-$np" $np "$tmp/ref-wave-$np.keys" $wave $ml -rw_checkpoint_disk $wavedisk -rw_checkpoint_replan 0
  grep -q "larger than their disk part: recomputed" "$tmp/wave-standin-$np.txt" || { echo "FAIL wave-standin-$np: no stand-in"; cat "$tmp/wave-standin-$np.txt"; exit 1; }
  echo "ok wave from rest on $np ranks stood in: identical, $(steps wave-standin-$np | cut -d' ' -f1) forward steps as planned"
done

# a file written with planned parts, killed, restarted (full parts: -rw_restart keeps them): refused, the file left as it is
rm -f "$tmp/k.h5"
if run 1 $heat $ml -rw_checkpoint_disk $heatdisk -rw_store_hdf5_file "$tmp/k.h5" -rw_debug_kill_at_step 45 > /dev/null 2>&1; then echo "FAIL restart: the run was not killed"; exit 1; fi
test -s "$tmp/k.h5" || { echo "FAIL restart: no file survived the kill"; exit 1; }
cp "$tmp/k.h5" "$tmp/k0.h5"
if run 1 $heat $ml -rw_checkpoint_disk $heatdisk -rw_store_hdf5_file "$tmp/k.h5" -rw_restart > "$tmp/restart.out" 2>&1; then echo "FAIL restart: not refused"; exit 1; fi
grep -q "was written with compressed parts of [0-9]* bytes a rank, this run plans full capacity" "$tmp/restart.out" || { echo "FAIL restart: expected the parts named"; cat "$tmp/restart.out"; exit 1; }
cmp -s "$tmp/k.h5" "$tmp/k0.h5" || { echo "FAIL restart: the refused file was changed"; exit 1; }
echo "ok restart with other parts refused: $(grep 'PETSC ERROR: [^-]' "$tmp/restart.out" | sed -n '2s/^.*PETSC ERROR: //p' | sed "s|$tmp/||g")"

# bad input: a budget that holds no state
if run 1 $heat $ml -rw_checkpoint_disk 1000 -rw_store_hdf5_file "$tmp/b.h5" > "$tmp/bad.out" 2>&1; then echo "FAIL bad: a 1000-byte disk budget was accepted"; exit 1; fi
grep -q "rw_checkpoint_disk = 1000 bytes holds no" "$tmp/bad.out" || { echo "FAIL bad: the option is not named"; cat "$tmp/bad.out"; exit 1; }
echo "ok bad input refused: $(grep -o "rw_checkpoint_disk = 1000 bytes holds no[^:]*" "$tmp/bad.out" | head -1)"
