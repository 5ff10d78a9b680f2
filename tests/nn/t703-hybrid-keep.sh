#!/bin/sh
# Heat with a learned reaction through a reverse-sweep keep and a restart:
# the gradient is interrupted in the reverse sweep on 2 ranks (after keeps
# every 6 steps, hdf5 checkpoints), resumed with -rw_restart on 3 ranks, and
# J, |dJ/dtheta| and sum(dJ/dtheta) (17 digits) equal those of an
# uninterrupted run on 2 ranks.  The weight gradient is summed tile by tile
# into the exact sums every step (src/model/impls/heat/heatnn.c), so a keep
# needs nothing more than the exact sums it already saves.
app="$top_builddir/apps/rewind-gradient"
. "$top_srcdir/tests/testlib.sh"

digest() { grep -E '^(J|norm2_dJdtheta|sum_dJdtheta) ' "$1"; }
base="-rw_heat_nn -rw_nn_layers 1,6,6,1 -da_grid_x 48 -da_grid_y 40 -rw_steps 30 -rw_schedule_type revolve -rw_schedule_ram_slots 4"
keep="-rw_store_type hdf5 -rw_store_hdf5_file $tmp/ck.h5 -rw_adjoint_keep_interval 6"
run 2 $base > "$tmp/full.txt"
digest "$tmp/full.txt" > "$tmp/full.digest"
test "$(wc -l < "$tmp/full.digest")" -eq 3 || { cat "$tmp/full.txt"; echo "FAIL: expected J, norm2_dJdtheta and sum_dJdtheta"; exit 1; }
if run 2 $base $keep -rw_debug_kill_at_reverse 15 > "$tmp/killed.txt" 2>&1; then
  echo "FAIL: the run was not killed"; exit 1
fi
run 3 $base $keep -rw_restart > "$tmp/resumed.txt" 2>&1 || { cat "$tmp/resumed.txt"; echo "FAIL: the resumed run failed"; exit 1; }
grep -q "resumes the reverse sweep after step" "$tmp/resumed.txt" || { cat "$tmp/resumed.txt"; echo "FAIL: the run did not resume the reverse sweep"; exit 1; }
digest "$tmp/resumed.txt" | cmp -s - "$tmp/full.digest" || { digest "$tmp/resumed.txt" | diff - "$tmp/full.digest"; echo "FAIL: the resumed gradient differs"; exit 1; }
echo "ok: killed in the reverse sweep on 2 ranks, resumed on 3: $(tr '\n' ' ' < "$tmp/full.digest")identical"
