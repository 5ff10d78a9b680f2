#!/bin/sh
# rewind-bench at its tiny size on 1 and 2 ranks: every section runs; the
# CSV and the JSON parse, hold the same figures and every section with the
# columns doc/benchmarks.md describes; the gradient cases took the forward
# steps their schedules predict.  Bad options stop with errors naming them.
app="$top_builddir/apps/rewind-bench"
. "$top_srcdir/tests/testlib.sh"

for np in 1 2; do
  run $np -rw_bench_size tiny -rw_bench_dir "$tmp" -rw_bench_output "$tmp/b$np.csv,$tmp/b$np.json" > "$tmp/b$np.txt"
  "$PYTHON" - "$tmp/b$np.csv" "$tmp/b$np.json" "$np" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and list(rows[0]) == ["section", "case", "metric", "value", "unit"], "CSV header"
doc = json.load(open(sys.argv[2]))
names = [s["name"] for s in doc["sections"]]
assert names == ["run", "stream", "kernels", "gradient", "io", "peer", "sum", "wave", "hybrid", "compression", "targets"], names

# the same figures in both files
flat = {(r["section"], r["case"], r["metric"]): r["value"] for r in rows}
n = 0
for s in doc["sections"]:
    for r in s["rows"]:
        for k, v in r["values"].items():
            c = flat[(s["name"], r["case"], k)]
            assert (c == v) if isinstance(v, str) else (c == "nan") if v is None else float(c) == float(v), (s["name"], r["case"], k, c, v)
            n += 1
assert n == len(rows), (n, len(rows))

def section(name):
    return [r for s in doc["sections"] if s["name"] == name for r in s["rows"]]

need = {"stream": ["copy", "copy_per_rank", "triad", "triad_per_rank"],
        "kernels": ["rate", "step", "bytes", "bw", "of_copy", "halo", "moved_of_copy", "vs_forward", "cg_its"],
        "gradient": ["grid", "forward", "gradient", "ratio"],
        "io": ["state", "time", "bw", "of_plain"],
        "peer": ["rewind", "tsadjoint", "rewind_over_ts", "speedup", "relerr_dJdkappa", "relerr_dJdu0", "relerr_J"],
        "wave": [],
        "compression": ["gradient", "of_none", "ratio", "compress", "decompress", "grad_err"],
        "targets": ["measured", "goal", "verdict"]}
# the compression section's zfp sweep and auto rows ("heat zfp 1e-05", "wave zfp auto") carry the error and its estimate
sweep = ["tolerance", "grad_err", "grad_est"]
# its budget rows ("wave budget lossless") the gradient at one RAM budget
budget = ["budget", "slots", "fwd_steps", "replans", "seconds", "vs_none", "grad_err", "ratio", "plan_ratio", "codec"]
for name, keys in need.items():
    for r in section(name):
        want = keys
        if name == "compression" and " budget " in r["case"]:
            want = budget
        elif name == "compression" and " zfp " in r["case"] and not r["case"].endswith(" zfp 1e-6"):
            want = sweep
        missing = [k for k in want if k not in r["values"]]
        assert not missing, (name, r["case"], missing)

run = section("run")[0]["values"]
assert run["ranks"] == int(sys.argv[3]) and run["oversubscribed"] in ("yes", "no"), run
assert len(section("stream")) == (1 if sys.argv[3] == "1" else 2)
# a "forward portable" row after each explicit forward when the kernels run another instruction set
kern = section("kernels")
dispatched = kern[0]["values"]["isa"] != "portable"
assert len(kern) == 2 * 3 * (4 + 3) + (2 * 3 if dispatched else 0), "2 grids x 3 dims x (explicit: 3 forms + exchange, implicit: 3 forms), + the portable forwards"
for i, r in enumerate(kern):
    if r["case"].endswith("forward portable"):
        assert r["values"]["isa"] == "portable" and kern[i - 1]["case"] + " portable" == r["case"], (kern[i - 1], r)
# each case's own copy reference, timed just before it: the fraction the targets take
def near(r):
    v = r["values"]
    assert v["copy_near"] > 0 and abs(v["of_copy_near"] - v["bw"] / v["copy_near"]) <= 1e-3 * v["of_copy_near"], r
for r in kern:
    if not r["case"].endswith(" portable") and not r["case"].endswith(" exchange"):
        near(r)
wave = section("wave")
steps = [r for r in wave if " order " in r["case"] and not r["case"].endswith(" pair") and " block " not in r["case"]]
# 3D: "forward block D" rows (D = 2 .. 4 steps a pass, -rw_model_step_block), a single step's bytes, per step
blocks = [r for r in wave if " forward block " in r["case"]]
assert [(r["case"][:10], r["case"][-1]) for r in blocks] == [("3D order %d" % o, str(d)) for o in (2, 4, 8) for d in (2, 3, 4)], [r["case"] for r in blocks]
for r in blocks:
    v = r["values"]
    assert v["rate"] > 0 and v["bytes"] == 56 and v["vs_forward"] > 0, r
    near(r)
# 2D: a "forward pair" row (RwModelStepBlock()) after each forward, a single step's bytes, per step
pairs = [r for r in wave if r["case"].endswith(" forward pair")]
assert [r["case"][:10] for r in pairs] == ["2D order 2", "2D order 4", "2D order 8"], [r["case"] for r in pairs]
for r in pairs:
    v = r["values"]
    assert v["rate"] > 0 and v["bytes"] == 56 and v["vs_forward"] > 0 and v["isa"] in ("auto", "portable", "avx2", "avx512"), r
    near(r)
# every form has a "<form> <set>" row after it for each set the CPU has when the kernels run another one
# (the wave rows' isa is "auto": each form its own set, doc/wave.md)
sets = ("portable", "avx2", "avx512")
widest = sets.index(kern[0]["values"]["isa"])
assert len(steps) == 2 * 3 * 3 * (1 + (widest + 1 if dispatched else 0)), [r["case"] for r in steps]
base = None
for r in steps:
    set_ = next((s for s in sets if r["case"].endswith(" " + s)), None)
    if set_ is None:
        base = r
        assert r["values"]["isa"] == "auto", r
        near(r)
    else:
        assert r["values"]["isa"] == set_ and base["case"] + " " + set_ == r["case"], (base, r)
    v = r["values"]
    # each form counts its own bytes, in 2D and 3D alike (the ring stays in L2)
    form = next(f for f in ("forward", "tangent", "adjoint") if " %s" % f in r["case"])
    assert v["rate"] > 0 and v["bw"] > 0 and v["bytes"] == {"forward": 56, "tangent": 96, "adjoint": 104}[form], r
wg = {r["case"]: r["values"] for r in wave if r["case"].startswith("gradient")}
assert wg["gradient storeall"]["fwd_steps"] == wg["gradient storeall"]["steps"] and wg["gradient storeall"]["schedule"] == "storeall", wg
assert wg["gradient budget 1/10"]["schedule"] == "revolve" and wg["gradient budget 1/10"]["fwd_steps"] > wg["gradient budget 1/10"]["steps"], wg
# issue 37: store-all in 3D, and the 3D FWI gradient against its roofline (a lower bound of its time)
g3 = wg["gradient storeall 3D"]
assert g3["schedule"] == "storeall" and g3["fwd_steps"] == g3["steps"] and g3["ratio"] > 0 and g3["grid"] == "24x24x24", g3
f3 = [r["values"] for r in wave if r["case"] == "fwi 3D 8^3, 4 shots"]
assert len(f3) == 1, [r["case"] for r in wave]
f3 = f3[0]
assert f3["steps"] == 6 and f3["fwd_steps"] >= 6 and f3["groups"] == int(sys.argv[3]) and f3["ranks"] == int(sys.argv[3]), f3
assert abs(4 * f3["per_shot"] - f3["gradient"]) <= 1e-6 * f3["gradient"] and f3["roofline_per_shot"] > 0 and abs(f3["vs_roofline"] - f3["per_shot"] / f3["roofline_per_shot"]) <= 1e-6 * f3["vs_roofline"], f3
t37 = [r for r in section("targets") if r["case"].startswith("issue 37:")]
assert [r["case"] for r in t37] == ["issue 37: wave 3D order %d forward / copy" % o for o in (2, 4, 8)] + ["issue 37: wave 2D gradient / forward, storeall", "issue 37: wave 3D gradient / forward, storeall", "issue 37: 3D FWI gradient / roofline"], [r["case"] for r in t37]
assert all(r["values"]["verdict"] == "grid too small" for r in t37), t37
shots = [r for r in wave if r["case"].startswith("shots")]
assert len(shots) == (1 if sys.argv[3] == "1" else 3) and all(r["values"]["shots_per_s"] > 0 for r in shots), shots
for r in section("kernels"):
    v = r["values"]
    assert v["rate"] > 0 and v["bw"] > 0, r
    assert (v["cg_its"] is None) == ("explicit" in r["case"]), r
np = int(sys.argv[3])
weak = ["weak %d/%d ranks" % (p, np) for p in ([1, 2] if np == 2 else [1])]
grad = section("gradient")
assert [r["case"] for r in grad] == ["storeall/memory", "revolve/memory s=3", "revolve/memory s=6", "revolve/hdf5 s=3", "multilevel ram=3 disk=inf", "revolve/hdf5 s=3 keep=2", "default"] + weak, [r["case"] for r in grad]
for r in grad[-len(weak):]:
    v = r["values"]
    assert v["efficiency_gradient"] > 0 and v["efficiency_forward"] > 0, r
grad = grad[:-len(weak)]
for r in grad:
    assert all(k in r["values"] for k in ("steps", "schedule", "store", "fwd_steps", "predicted", "disk_writes")), r
    v = r["values"]
    assert v["fwd_steps"] == v["predicted"] and v["gradient"] > 0, r
assert grad[0]["values"]["fwd_steps"] == 20 and grad[3]["values"]["disk_writes"] > 0
assert grad[6]["values"]["schedule"] == "storeall" and all(r["values"]["first"] > 0 for r in grad), grad[6]  # tiny states: the default keeps them all
peer = section("peer")[0]["values"]
assert max(peer["relerr_dJdkappa"], peer["relerr_dJdu0"]) <= 1e-12, peer
print("ok %s ranks: %d figures in %d sections" % (sys.argv[3], len(rows), len(names)))
PY
done
! ls "$tmp"/*.h5 "$tmp"/*.bin 2> /dev/null || { echo "FAIL: checkpoint or plain files left behind"; exit 1; }

# the options case solves what rewind-gradient would: a wave model with its
# receivers (once a crash on the state-shaped target, then receivers unused)
run 2 -rw_bench_sections gradient -rw_bench_gradient_cases options -rw_model_type wave -da_grid_x 48 -da_grid_y 40 -rw_wave_nbl 4 \
  -rw_steps 30 -rw_schedule_type storeall -rw_wave_receivers 100,60,250,200 -rw_bench_repeat 1 -rw_bench_seconds 0 > "$tmp/wave.txt" 2>&1 ||
  { echo "FAIL: the options case on a wave model"; grep 'PETSC ERROR' "$tmp/wave.txt" | head -5; exit 1; }
grep -q '^  options  *48x40  *30  *storeall' "$tmp/wave.txt" || { echo "FAIL: no options row for the wave model"; cat "$tmp/wave.txt"; exit 1; }
! grep -q 'rw_wave_receivers was given but never used' "$tmp/wave.txt" || { echo "FAIL: the options case ignored -rw_wave_receivers"; exit 1; }
echo "ok the options case on a wave model with receivers"

# bad options name themselves
bad() { # bad EXPECTED OPTIONS...
  expected=$1
  shift
  if run 1 -rw_bench_size tiny "$@" > "$tmp/bad.out" 2>&1; then
    echo "FAIL: accepted $*"; exit 1
  fi
  grep -q -- "$expected" "$tmp/bad.out" || { echo "FAIL: $* did not say \"$expected\""; grep 'PETSC ERROR' "$tmp/bad.out" | head -5; exit 1; }
  echo "ok bad input: $expected"
}
bad '-rw_bench_sections: unknown "bogus"; use any of stream, kernels, gradient, io, peer, sum, wave, hybrid, compression, targets' -rw_bench_sections stream,bogus
bad '-rw_bench_wave_orders: 6 is not 2, 4 or 8' -rw_bench_sections wave -rw_bench_wave_orders 2,6
bad '-rw_bench_output: "out.txt" must end in .csv or .json' -rw_bench_output out.txt
bad '-rw_bench_wave_fwi3d_grid 5: expected 0 (none) or at least 8 physical points a side' -rw_bench_sections wave -rw_bench_wave_fwi3d_grid 5
bad '-rw_bench_wave_gradient_grid3 3: expected 0 (none) or at least 8 points a side' -rw_bench_sections wave -rw_bench_wave_gradient_grid3 3
bad '-rw_bench_gradient_cases: unknown "nope"' -rw_bench_sections gradient -rw_bench_gradient_cases storeall,nope
bad '-rw_bench_kernel_schemes: unknown "leapfrog"' -rw_bench_kernel_schemes explicit,leapfrog
bad '-rw_bench_weak needs the grid of one rank: give -rw_bench_weak_grid' -rw_bench_sections gradient -rw_bench_gradient_cases options -rw_bench_weak
bad '-da_grid_x or -da_processors_x override the weak grid' -rw_bench_sections gradient -rw_bench_gradient_cases options -rw_bench_weak_grid 12,12 -da_grid_x 30 -rw_steps 2
bad '-rw_bench_peer_grid 2: the peer needs at least 3 points' -rw_bench_sections peer -rw_bench_peer_grid 2
