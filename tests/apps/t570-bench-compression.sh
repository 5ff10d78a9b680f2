#!/bin/sh
# rewind-bench's compression section at its tiny size on 1 and 2 ranks:
# lossless checkpoints leave every gradient bitwise (grad_err 0) and keep
# fewer bytes (ratio > 1); zfp at 1e-6 keeps fewer still and its gradient
# error is below 1e-5 but not 0; every case times a gradient.  The zfp sweep
# (heat and wave, tolerances 1e-3 .. 1e-9): the measured gradient error below
# 10x the solve's estimate, the estimate below 100x the error, both falling
# with the tolerance; tolerance auto for rtol 1e-6: measured error below
# 1e-6, estimate below rtol / 3; jobs/plot_compression.py draws the sweep.
# The budget rows (heat-cn and wave, one RAM budget of about 1/50 of the
# states, revolve): lossless bitwise with at least the slots of none and at
# most its forward steps, zfp auto below 1e-5 with more slots and fewer steps;
# -rw_store_compress auto: the codec it chose (never zfp without a
# tolerance) with that codec's slots, steps and bits.
app="$top_builddir/apps/rewind-bench"
. "$top_srcdir/tests/testlib.sh"

for np in 1 2; do
  run $np -rw_bench_size tiny -rw_bench_sections compression -rw_bench_output "$tmp/c$np.csv" > "$tmp/c$np.txt"
  "$PYTHON" - "$tmp/c$np.csv" "$np" <<'PY'
import csv, sys
v = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["section"] == "compression":
        v[(r["case"], r["metric"])] = r["value"]
cases = sorted({c for c, _ in v})
models = ["heat", "heat-cn", "heat-network", "wave"]
tols = ["%g" % 10 ** -k for k in range(3, 10)]
swept = ["heat", "wave"]
budgeted = ["heat-cn", "wave"]
assert cases == sorted([m + s for m in models for s in (" none", " lossless", " zfp 1e-6")] + [m + " zfp " + t for m in swept for t in tols + ["auto"]]
                       + [m + " budget " + b for m in budgeted for b in ("none", "lossless", "zfp auto", "auto", "auto lossy")]), cases
for m in budgeted:
    b = lambda codec, k: float(v[(m + " budget " + codec, k)])
    for codec in ("none", "lossless", "zfp auto", "auto", "auto lossy"):
        assert b(codec, "budget") == b("none", "budget") and b(codec, "seconds") > 0 and b(codec, "slots") >= 1, (m, codec)
        assert abs(b(codec, "vs_none") - b(codec, "seconds") / b("none", "seconds")) <= 1e-3 * b(codec, "vs_none"), (m, codec, "vs_none")
    assert b("none", "grad_err") == 0 and b("none", "ratio") == 1 and b("none", "plan_ratio") == 1, (m, "budget uncompressed")
    # no more slots than the budget holds at the size planned (none's slots hold states uncompressed)
    for codec in ("lossless", "zfp auto"):
        assert b(codec, "slots") <= b("none", "slots") * b(codec, "plan_ratio") * 1.001, (m, codec, b(codec, "slots"), b(codec, "plan_ratio"))
    assert b("lossless", "grad_err") == 0, (m, "budget lossless changed the gradient", b("lossless", "grad_err"))
    assert b("lossless", "slots") >= b("none", "slots") and b("lossless", "fwd_steps") <= b("none", "fwd_steps"), (m, "budget lossless", b("lossless", "slots"), b("lossless", "fwd_steps"))
    assert b("zfp auto", "ratio") > b("lossless", "ratio") and 0 < b("zfp auto", "grad_err") < 1e-5, (m, "budget zfp auto", b("zfp auto", "ratio"), b("zfp auto", "grad_err"))
    assert b("zfp auto", "slots") > b("none", "slots") and b("zfp auto", "fwd_steps") < b("none", "fwd_steps"), (m, "budget zfp auto", b("zfp auto", "slots"), b("zfp auto", "fwd_steps"))
    # -rw_store_compress auto: without a tolerance never zfp, and then the slots, steps and bits of the codec it chose; vs_none reported, not asserted (a timing)
    c = v[(m + " budget auto", "codec")]
    assert c in ("none", "lossless") and b("auto", "grad_err") == 0, (m, "budget auto", c, b("auto", "grad_err"))
    assert b("auto", "slots") == b(c, "slots") and b("auto", "fwd_steps") == b(c, "fwd_steps"), (m, "budget auto", c, b("auto", "slots"), b("auto", "fwd_steps"))
    c = v[(m + " budget auto lossy", "codec")]
    assert c in ("none", "lossless", "zfp") and (c == "zfp" or b("auto lossy", "grad_err") == 0) and b("auto lossy", "grad_err") < 1e-5, (m, "budget auto lossy", c, b("auto lossy", "grad_err"))
    assert v[(m + " budget none", "codec")] == "none" and v[(m + " budget lossless", "codec")] == "lossless", (m, "codec key")
for m in swept:
    g = lambda t, k: float(v[(m + " zfp " + t, k)])
    for t in tols:
        assert g(t, "tolerance") == float(t), (m, t, g(t, "tolerance"))
        e, est = g(t, "grad_err"), g(t, "grad_est")
        assert 0 < e <= 10 * est and est <= 100 * e, (m, t, "measured", e, "estimated", est)
    assert g(tols[-1], "grad_err") < g(tols[0], "grad_err") and g(tols[-1], "grad_est") < g(tols[0], "grad_est"), (m, "error not falling with the tolerance")
    assert g("auto", "grad_err") < 1e-6 and 0 < g("auto", "grad_est") < 1e-6 / 3, (m, "auto", g("auto", "grad_err"), g("auto", "grad_est"), g("auto", "tolerance"))
for m in models:
    f = lambda codec, k: float(v[(m + " " + codec, k)])
    for codec in ("none", "lossless", "zfp 1e-6"):
        assert f(codec, "gradient") > 0, (m, codec, "no gradient time")
    assert f("none", "grad_err") == 0 and f("none", "ratio") == 1, (m, "uncompressed")
    assert f("lossless", "grad_err") == 0, (m, "lossless changed the gradient", f("lossless", "grad_err"))
    assert f("lossless", "ratio") > 1, (m, "lossless ratio", f("lossless", "ratio"))
    assert f("zfp 1e-6", "ratio") > f("lossless", "ratio"), (m, "zfp ratio", f("zfp 1e-6", "ratio"))
    assert 0 < f("zfp 1e-6", "grad_err") < 1e-5, (m, "zfp error", f("zfp 1e-6", "grad_err"))
print("ok %s ranks: %d cases" % (sys.argv[2], len(cases)))
PY
  if test $np = 1; then
    "$PYTHON" "$top_srcdir/jobs/plot_compression.py" "$tmp/c$np.csv" "$tmp/c$np.png" > /dev/null || { echo "FAIL: jobs/plot_compression.py"; exit 1; }
    test -s "$tmp/c$np.png" || { echo "FAIL: jobs/plot_compression.py drew no PNG"; exit 1; }
  fi
done
