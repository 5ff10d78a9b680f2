#!/bin/sh
# jobs/local/scaling at a tiny size: strong on 1 and 2 ranks, weak on 1, 2
# and 3; jobs/collect's CSV has the documented columns, a line per run, the
# weak grids grow with the ranks, runs with more ranks than cores are marked
# oversubscribed; jobs/plot_scaling.py draws a PNG of each study.
. "$top_srcdir/tests/testlib.sh"
REWIND_BENCH="$top_builddir/apps/rewind-bench"
MPIEXEC=$RW_MPIEXEC
MPIEXEC_FLAGS=$RW_MPIEXEC_FLAGS
export REWIND_BENCH MPIEXEC MPIEXEC_FLAGS PYTHON
tiny="-rw_steps 4 -rw_bench_repeat 1 -rw_bench_seconds 0"
# shellcheck disable=SC2086 # $tiny holds several options
"$top_srcdir/jobs/local/scaling" -n 2 -o "$tmp/s" strong -- -da_grid_x 24 -da_grid_y 24 $tiny
# shellcheck disable=SC2086
"$top_srcdir/jobs/local/scaling" -n 3 -o "$tmp/w" weak "$top_srcdir/jobs/options/weak.opts" -- -rw_bench_weak_grid 24,24 $tiny
"$PYTHON" - "$tmp/s/strong.csv" "$tmp/w/weak.csv" "$(getconf _NPROCESSORS_ONLN)" <<'PY'
import csv, sys
columns = ["study", "ranks", "nodes", "ranks_per_node", "cores_per_node", "oversubscribed", "load_before", "case", "grid", "steps",
           "schedule", "store", "seconds_forward", "seconds_gradient", "gradient_over_forward", "forward_steps",
           "predicted_steps", "spread_percent", "source"]
cores = int(sys.argv[3])
for path, study, ranks, grids in ((sys.argv[1], "strong", [1, 2], ["24x24", "24x24"]),
                                  (sys.argv[2], "weak", [1, 2, 3], ["24x24", "48x24", "72x24"])):
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        assert r.fieldnames == columns, r.fieldnames
        lines = list(r)
    assert [l["study"] for l in lines] == [study] * len(ranks), lines
    assert [int(l["ranks"]) for l in lines] == ranks
    assert [l["grid"] for l in lines] == grids, [l["grid"] for l in lines]
    for l in lines:
        assert l["oversubscribed"] == ("yes" if int(l["ranks"]) > cores else "no"), l
        assert float(l["seconds_gradient"]) > 0 and float(l["seconds_forward"]) > 0, l
        assert l["steps"] == "4" and l["forward_steps"] == l["predicted_steps"] == "4", l
        assert l["schedule"] == "storeall" and l["store"] == "memory", l
    print("ok %s: %d runs, columns as documented" % (study, len(lines)))
PY
for png in "$tmp/s/strong.png" "$tmp/w/weak.png"; do
  "$PYTHON" -c "import sys; assert open(sys.argv[1], 'rb').read(8) == b'\x89PNG\r\n\x1a\n', 'not a PNG'" "$png"
done
ls "$tmp/s"
echo "ok PNG of both studies"
