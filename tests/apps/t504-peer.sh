#!/bin/sh
# The TSAdjoint peer of rewind-bench solves rewind's 2D explicit problem:
# its J, dJ/dkappa and dJ/du0 agree with rewind's to 1e-12 relative on 1, 2
# and 3 ranks (same DMDA, dt, kappa, u0, target and objective).
app="$top_builddir/apps/rewind-bench"
. "$top_srcdir/tests/testlib.sh"
for np in 1 2 3; do
  run "$np" -rw_bench_sections peer -rw_bench_peer_grid 33 -rw_bench_peer_steps 40 \
    -rw_bench_repeat 1 -rw_bench_seconds 0 -rw_bench_output "$tmp/p$np.csv" > "$tmp/p$np.txt"
  "$PYTHON" - "$tmp/p$np.csv" "$np" <<'PY'
import csv, sys
v = {r["metric"]: r["value"] for r in csv.DictReader(open(sys.argv[1])) if r["section"] == "peer"}
errs = {k: float(v[k]) for k in ("relerr_dJdkappa", "relerr_dJdu0", "relerr_J")}
assert max(errs.values()) <= 1e-12, errs
print("ok %s ranks: TSAdjoint agrees with rewind: %s" % (sys.argv[2], ", ".join("%s %.2e" % kv for kv in errs.items())))
PY
done
