#!/bin/sh
# rewind-bench's compression section at its tiny size on 1 and 2 ranks:
# lossless checkpoints leave every gradient bitwise (grad_err 0) and keep
# fewer bytes (ratio > 1); zfp at 1e-6 keeps fewer still and its gradient
# error is below 1e-5 but not 0; every case times a gradient.
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
assert cases == sorted(m + s for m in models for s in (" none", " lossless", " zfp 1e-6")), cases
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
done
