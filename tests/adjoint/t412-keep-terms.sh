#!/bin/sh
# A reverse sweep whose gradient is not all on the model's grids: heat's
# per-step amplitude gradient (exact sums in the model, RwModelAddScalarGradient)
# and two objective terms with a direct dJ/dm (field accumulators of the
# objective, scalar shares in the model's sums).  Killed in the reverse sweep
# after a keep, and resumed with -rw_restart on 2 and on 3 ranks: J and every
# part of the gradient must be the uninterrupted run's bits.
app="$top_builddir/tests/adjoint/t412-keepterms"
. "$top_srcdir/tests/testlib.sh"

digest() { grep -E '^(J|dJdm) ' "$1"; }
base="-rw_schedule_type revolve -rw_schedule_ram_slots 4"
export RW_T412_OPTIONS="$base"
run 2 > "$tmp/full.txt" || { cat "$tmp/full.txt"; echo "FAIL: the uninterrupted run failed"; exit 1; }
digest "$tmp/full.txt" > "$tmp/full.digest"
test "$(wc -l < "$tmp/full.digest")" -ge 44 || { cat "$tmp/full.txt"; echo "FAIL: expected J, 2 fields and 41 scalars"; exit 1; }
for nres in 2 3; do  # not np: run() sets np
  opts="$base -rw_store_type hdf5 -rw_store_hdf5_file $tmp/ck$nres.h5 -rw_adjoint_keep_interval 6"
  RW_T412_OPTIONS="$opts -rw_debug_kill_at_reverse 15"
  if run 2 > "$tmp/killed$nres.txt" 2>&1; then
    echo "FAIL: the run was not killed"; exit 1
  fi
  RW_T412_OPTIONS="$opts -rw_restart"
  run "$nres" > "$tmp/resumed$nres.txt" 2>&1 || { cat "$tmp/resumed$nres.txt"; echo "FAIL: the resumed run failed"; exit 1; }
  grep -q "resumes the reverse sweep after step" "$tmp/resumed$nres.txt" || { cat "$tmp/resumed$nres.txt"; echo "FAIL: the run on $nres ranks did not resume the reverse sweep"; exit 1; }
  digest "$tmp/resumed$nres.txt" | cmp -s - "$tmp/full.digest" || { digest "$tmp/resumed$nres.txt" | diff - "$tmp/full.digest"; echo "FAIL: the resumed gradient on $nres ranks differs"; exit 1; }
  echo "ok: killed in the reverse sweep on 2 ranks, resumed on $nres: $(sed -n 's/^rewind: -rw_restart //p' "$tmp/resumed$nres.txt" | head -1); J and all $(digest "$tmp/full.txt" | wc -l) digests identical"
done
