#!/usr/bin/env python3
"""How a rewind 3D FWI gradient would scale past one node: a model, its
calibration on this machine, and its check against a measurement.

    scaling_model.py measure [--ranks 1,2] [--grid 40] [--order 8] [--steps 30] [--out m.json]
    scaling_model.py predict [--calibration m.json] [--grid 512] [--steps 2000] [--shots 64]
                             [--pmax 4096] [--csv t.csv] [--png t.png] [network and node options]

measure runs rewind-gradient (a 3D wave gradient, revolve in --slots slots,
warm after their first use) on each rank
count and rewind-bench's stream section, and reads from -rw_adjoint_view and
-log_view: the seconds of the forward and reverse steps, the halo messages
and bytes of a step (RwForward and RwAdjoint events), and the copy bandwidth
a rank gets with 1 and with all ranks busy.  From the first rank count it
takes the fraction of copy bandwidth the kernels reach (bytes a point:
forward 56, adjoint 104, doc/benchmarks.md) and the bytes a ghost point
costs; it predicts the other rank counts from them and prints predicted
against measured gradient seconds (compared where the ranks have a core
each), and the halo messages and bytes of a step
the model counts against those -log_view counted.  It exits 1 when a time is
off by more than --factor (default 2.5) or a halo figure by more than
--halo-factor (1.15: the runs also move a few receiver values).

predict applies the same model to a cluster (the assumptions below, each an
option): a gradient on P ranks is F forward steps and n reverse steps, each
the slowest rank's compute (its block of the grid, split over the ranks as
evenly as their factors allow, at its fraction of the node's copy bandwidth
per core) plus its halo exchange (LogGP: a message costs o at each end and L
in flight; the bytes leaving a node share its network link, the bytes
staying in it move at memory speed); F is revolve's optimal forward count
for the slots the default budget gives (half the node's memory over its
ranks, less the work states), n when every state fits.  Shots run one
after the other on all ranks ("one group"), or in G groups of P/G ranks
("shot groups": the G dividing P and the shots predicted fastest, since a
smaller group has fewer slots and recomputes more), whose gradients are then
summed over the groups (a ring all-reduce).  The table starts at one full
node.  The
model has no contention, no load imbalance beyond the block sizes, no
congestion and no I/O: it is a bound to check against a cluster
(jobs/slurm/fwi3d.sbatch measures the same quantities there).
"""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys

BYTES_FORWARD, BYTES_ADJOINT = 56.0, 104.0  # a point of a wave step (doc/benchmarks.md)
STATE_BYTES = 16.0                           # u_k and u_k-1 interleaved
GHOST_BYTES = 8.0                            # a ghost point: the halo moves u_k alone (doc/stencil.md)
COEFF_BYTES = 24.0                           # ia, c1, c2 a point
WORK_STATES = 7                              # the driver's work states (doc/schedules.md)


def split_ranks(P, dim=3):
    """Processors per direction, prime factors largest first to the smallest count (rewind-bench's split)"""
    p, f = [1] * dim, P
    for q in range(P, 1, -1):
        while f % q == 0 and all(q % r for r in range(2, int(q ** 0.5) + 1)):
            d = min(range(dim), key=lambda e: p[e])
            p[d] *= q
            f //= q
    return p


def gw_forward(n, c):
    """Griewank-Walther: the fewest forward steps reversing n steps with c checkpoints"""
    if n <= 1:
        return 0
    t = 1
    while math.comb(c + t, c) < n:
        t += 1
    return t * n - math.comb(c + t, t - 1)


def forward_steps(n, slots):
    """The forward steps of a gradient with this many RAM slots (rewind's RwOptimalForwardSteps)"""
    if slots >= n - 2:
        return n
    return gw_forward(n, slots + 1) + 1


def halo(box, p, r, ghost_bytes):
    """Messages and bytes a rank sends in a step: two faces in each split direction"""
    msgs, nbytes = 0, 0.0
    for d in range(3):
        if p[d] > 1:
            face = box[(d + 1) % 3] * box[(d + 2) % 3]
            msgs += 2
            nbytes += 2 * r * face * ghost_bytes
    return msgs, nbytes


def halo_total(N, p, r, ghost_bytes):
    """Messages and bytes all ranks send in a step (an edge rank has one neighbour a direction)"""
    msgs, nbytes = 0, 0.0
    for d in range(3):
        if p[d] > 1:
            others = p[(d + 1) % 3] * p[(d + 2) % 3]
            face = math.ceil(N[(d + 1) % 3] / p[(d + 1) % 3]) * math.ceil(N[(d + 2) % 3] / p[(d + 2) % 3])
            msgs += 2 * (p[d] - 1) * others
            nbytes += 2 * (p[d] - 1) * others * r * face * ghost_bytes
    return msgs, nbytes


def step_seconds(box, p, a, kind, node_ranks):
    """Compute and halo seconds of one step of the slowest rank"""
    pts = box[0] * box[1] * box[2]
    compute = (BYTES_FORWARD if kind == "forward" else BYTES_ADJOINT) * pts / (a["fraction_" + kind] * a["core_bw"])
    msgs, nbytes = halo(box, p, a["radius"], a["ghost_bytes"])
    if not msgs:
        return compute, 0.0
    # the node's ranks form a block; faces on its surface leave the node and share its link
    q = split_ranks(min(node_ranks, p[0] * p[1] * p[2]))
    off = sum(2.0 / q[d] for d in range(3) if p[d] > q[d]) / max(1, sum(2 for d in range(3) if p[d] > 1))
    leaving = nbytes * off * min(node_ranks, p[0] * p[1] * p[2])
    comm = a["latency"] + 2 * a["overhead"] * msgs + leaving / a["link_bw"] + nbytes * (1 - off) / a["core_bw"]
    return compute, comm


def gradient_seconds(N, n, P, a, node_ranks, slots=None):
    """One shot's gradient on P ranks: seconds, forward steps, and the parts; slots: the
    default budget's (half the node's memory over its ranks, less the work states) unless given"""
    p = split_ranks(P)
    box = [math.ceil(N[d] / p[d]) for d in range(3)]
    pts = box[0] * box[1] * box[2]
    if slots is None:
        per_rank = a["node_memory"] * 0.5 / node_ranks
        slots = int((per_rank - pts * (COEFF_BYTES + 8 + WORK_STATES * STATE_BYTES)) // (pts * STATE_BYTES))
    if slots < 1:
        return None
    F = forward_steps(n, slots)
    cf, hf = step_seconds(box, p, a, "forward", node_ranks)
    cb, hb = step_seconds(box, p, a, "adjoint", node_ranks)
    reductions = 4 * math.ceil(math.log2(max(P, 2))) * (a["latency"] + 2 * a["overhead"])
    total = F * (cf + hf) + n * (cb + hb) + reductions
    return {"p": p, "box": box, "slots": slots, "F": F, "compute": F * cf + n * cb, "halo": F * hf + n * hb, "total": total}


def shots_seconds(N, n, shots, P, a, node_ranks, G):
    """All shots' gradient in G groups of P/G ranks (G = 1: every shot on all ranks in turn),
    then each rank's part of the gradient summed with its counterparts in the other groups"""
    g = gradient_seconds(N, n, P // G, a, node_ranks)
    if g is None:
        return None
    total = math.ceil(shots / G) * g["total"]
    if G > 1:
        part = N[0] * N[1] * N[2] / (P // G) * 8.0
        total += 2 * (G - 1) / G * part * min(node_ranks, P) / a["link_bw"] + 2 * math.ceil(math.log2(G)) * (a["latency"] + 2 * a["overhead"])
    return g, total


def run(cmd):
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if out.returncode:
        sys.exit("scaling_model.py: %s failed:\n%s" % (" ".join(cmd), out.stdout[-2000:]))
    return out.stdout


def event(text, name):
    """count, seconds, messages, average message length of a -log_view event (summed over ranks)"""
    m = re.search(r"^%s\s+(\d+)\s+\S+\s+(\S+)\s+\S+\s+\S+\s+\S+\s+(\S+)\s+(\S+)" % name, text, re.M)
    if not m:
        sys.exit("scaling_model.py: no %s event in -log_view" % name)
    return int(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4))


def measure(args):
    launch = os.environ.get("RW_MPIEXEC", os.environ.get("MPIEXEC", "mpiexec")).split() + os.environ.get("RW_MPIEXEC_FLAGS", os.environ.get("MPIEXEC_FLAGS", "")).split()
    ranks = [int(x) for x in args.ranks.split(",")]
    N = [args.grid] * 3
    bw = {}
    run(launch + ["-n", str(max(ranks)), os.path.join(args.apps, "rewind-bench"), "-rw_bench_sections", "stream", "-rw_bench_size", "small", "-rw_bench_output", args.out + ".stream.csv"])
    with open(args.out + ".stream.csv") as f:
        for row in csv.DictReader(f):
            if row["section"] == "stream" and row["metric"] == "copy_per_rank":
                bw[int(row["case"].split("/")[0])] = float(row["value"]) * 1e9
    os.remove(args.out + ".stream.csv")
    runs = {}
    for P in ranks:
        text = run(launch + ["-n", str(P), os.path.join(args.apps, "rewind-gradient"), "-rw_model_type", "wave", "-rw_wave_dim", "3",
                             "-da_grid_x", str(N[0]), "-da_grid_y", str(N[1]), "-da_grid_z", str(N[2]), "-rw_wave_space_order", str(args.order),
                             "-rw_steps", str(args.steps), "-rw_schedule_type", "revolve", "-rw_schedule_ram_slots", str(args.slots), "-rw_adjoint_view", "-log_view"])
        total = float(re.search(r"seconds: total (\S+),", text).group(1))
        fc, fs, fm, fl = event(text, "RwForward")
        ac, as_, am, al = event(text, "RwAdjoint")
        runs[P] = {"total": total, "forward": fs, "adjoint": as_, "forward_steps": fc, "steps": ac, "messages": (fm + am) / (fc + ac), "length": (fm * fl + am * al) / max(fm + am, 1)}
    P0 = ranks[0]
    box0 = [math.ceil(N[d] / split_ranks(P0)[d]) for d in range(3)]
    pts0 = box0[0] * box0[1] * box0[2]
    node = args.node_ranks or max(ranks)  # one node unless told: its link is then its memory
    a = {"radius": args.order // 2, "latency": args.latency, "overhead": args.overhead, "core_bw": bw.get(P0, bw[min(bw)]),
         "link_bw": args.link_bw if max(ranks) > node else bw[max(bw)] * max(bw), "node_memory": args.node_memory}
    a["fraction_forward"] = BYTES_FORWARD * pts0 * runs[P0]["forward_steps"] / runs[P0]["forward"] / a["core_bw"]
    a["fraction_adjoint"] = BYTES_ADJOINT * pts0 * runs[P0]["steps"] / runs[P0]["adjoint"] / a["core_bw"]
    a["ghost_bytes"] = GHOST_BYTES
    for P in ranks:  # the bytes a ghost point costs, from the measured messages where there are some
        if runs[P]["messages"] > 0:
            p = split_ranks(P)
            box = [math.ceil(N[d] / p[d]) for d in range(3)]
            faces = [box[(d + 1) % 3] * box[(d + 2) % 3] for d in range(3) if p[d] > 1]
            a["ghost_bytes"] = runs[P]["length"] / (a["radius"] * sum(faces) / len(faces))
            break
    print("calibration on %d rank(s), %d^3 order %d x %d steps, revolve in %d slots: forward at %.2f, adjoint at %.2f of copy (%.3g GB/s a rank); a ghost point %.3g bytes"
          % (P0, args.grid, args.order, args.steps, args.slots, a["fraction_forward"], a["fraction_adjoint"], a["core_bw"] / 1e9, a["ghost_bytes"]))
    worst, halo_worst = 1.0, 1.0
    print("%6s %12s %12s %8s %22s %24s" % ("ranks", "predicted[s]", "measured[s]", "ratio", "messages/step pred/meas", "halo bytes/step pred/meas"))
    for P in ranks:
        b = dict(a, core_bw=bw.get(P, a["core_bw"]))
        g = gradient_seconds(N, args.steps, P, b, min(P, node), args.slots)
        ratio = g["total"] / runs[P]["total"]
        if P <= (os.cpu_count() or 1):  # oversubscribed ranks take turns on a core: nothing to model
            worst = max(worst, ratio, 1 / ratio)
        m, nb = halo_total(N, split_ranks(P), a["radius"], a["ghost_bytes"])
        mm, mb = runs[P]["messages"], runs[P]["messages"] * runs[P]["length"]
        if m or mm:
            halo_worst = max(halo_worst, (m + 1e-30) / (mm + 1e-30), (mm + 1e-30) / (m + 1e-30), (nb + 1e-30) / (mb + 1e-30), (mb + 1e-30) / (nb + 1e-30))
        print("%6d %12.4g %12.4g %8.3f %11.4g / %-10.4g %12.4g / %-11.4g" % (P, g["total"], runs[P]["total"], ratio, m, mm, nb, mb))
    with open(args.out, "w") as f:
        json.dump({"assumptions": a, "runs": runs, "grid": args.grid, "order": args.order, "steps": args.steps}, f, indent=1)
    print("worst predicted/measured ratio: time %.2f (allowed %.2f), halo messages and bytes %.3f (allowed %.2f); calibration in %s" % (worst, args.factor, halo_worst, args.halo_factor, args.out))
    return 0 if worst <= args.factor and halo_worst <= args.halo_factor else 1


def predict(args):
    a = {"fraction_forward": args.fraction_forward, "fraction_adjoint": args.fraction_adjoint, "ghost_bytes": GHOST_BYTES}
    source = "assumed"
    if args.calibration:
        with open(args.calibration) as f:
            c = json.load(f)["assumptions"]
        a.update({k: c[k] for k in ("fraction_forward", "fraction_adjoint", "ghost_bytes")})
        source = "measured (%s)" % args.calibration
    a.update({"radius": args.order // 2, "latency": args.latency, "overhead": args.overhead, "core_bw": args.node_bw / args.cores, "link_bw": args.link_bw, "node_memory": args.node_memory})
    N = [args.grid] * 3
    print("3D FWI gradient, %d^3 points, order %d, %d steps, %d shots; kernels at %.2f / %.2f of copy (%s)" % (args.grid, args.order, args.steps, args.shots, a["fraction_forward"], a["fraction_adjoint"], source))
    print("assumed cluster: %d cores and %.0f GB a node, copy %.0f GB/s a node, link %.0f GB/s, L %.2g us, o %.2g us a message end"
          % (args.cores, args.node_memory / 1e9, args.node_bw / 1e9, args.link_bw / 1e9, args.latency * 1e6, args.overhead * 1e6))
    rows, P, base = [], args.cores, {}
    while P <= args.pmax:
        one = best = None  # G = 1, and the G (a divisor of P and of the shots) predicted fastest
        for G in [g for g in range(1, min(P, args.shots) + 1) if P % g == 0 and args.shots % g == 0]:
            r = shots_seconds(N, args.steps, args.shots, P, a, args.cores, G)
            if r is None:
                continue
            if G == 1:
                one = (G, r[0], r[1])
            if best is None or r[1] < best[2]:
                best = (G, r[0], r[1])
        for key, r in (("one group", one), ("shot groups", best)):
            if r is None:
                continue
            G, g, total = r
            base.setdefault(key, (P, total))
            P0, T0 = base[key]
            rows.append({"ranks": P, "mode": key, "groups": G, "split": "x".join(map(str, g["p"])), "slots": g["slots"], "F_over_n": g["F"] / args.steps,
                         "compute_s": g["compute"], "halo_s": g["halo"], "shot_s": g["total"], "total_s": total, "efficiency": T0 * P0 / (total * P)})
        P *= 2
    cols = ["ranks", "mode", "groups", "split", "slots", "F_over_n", "compute_s", "halo_s", "shot_s", "total_s", "efficiency"]
    print(" ".join("%10s" % c for c in cols))
    for r in rows:
        print(" ".join("%10s" % (("%.4g" % r[c]) if isinstance(r[c], float) else r[c]) for c in cols))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=cols)
            w.writeheader()
            w.writerows(rows)
    if args.png:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            sys.exit("scaling_model.py: --png needs matplotlib (Debian: python3-matplotlib)")
        fig, ax = plt.subplots(figsize=(6, 4))
        for key, style in (("one group", "o-"), ("shot groups", "s-")):
            rs = [r for r in rows if r["mode"] == key]
            ax.loglog([r["ranks"] for r in rs], [r["total_s"] for r in rs], style, label=key)
            if rs:
                ax.loglog([r["ranks"] for r in rs], [rs[0]["total_s"] * rs[0]["ranks"] / r["ranks"] for r in rs], ":", color="grey")
        ax.set_xlabel("MPI ranks")
        ax.set_ylabel("seconds for all %d shots' gradient" % args.shots)
        ax.set_title("predicted: %d^3, order %d, %d steps (dotted: ideal)" % (args.grid, args.order, args.steps), fontsize=9)
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.png, dpi=110)
        print("wrote %s" % args.png)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("mode", choices=["measure", "predict"])
    ap.add_argument("--apps", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps"), help="where rewind-gradient and rewind-bench are (measure)")
    ap.add_argument("--ranks", default="1,2", help="rank counts to measure, the first calibrates (measure)")
    ap.add_argument("--grid", type=int, help="points a side (measure: 40, predict: 512)")
    ap.add_argument("--order", type=int, default=8, help="space order (2, 4, 8)")
    ap.add_argument("--steps", type=int, help="time steps (measure: 30, predict: 2000)")
    ap.add_argument("--node-ranks", type=int, help="measure: ranks a node (default: all on one node)")
    ap.add_argument("--halo-factor", type=float, default=1.15, help="measure: largest predicted/measured ratio of halo messages and bytes accepted")
    ap.add_argument("--slots", type=int, default=5, help="measure: revolve's RAM slots (warm slots: store-all would time first touches)")
    ap.add_argument("--factor", type=float, default=2.5, help="measure: largest predicted/measured ratio accepted")
    ap.add_argument("--out", default="scaling-calibration.json", help="measure: where the calibration goes")
    ap.add_argument("--calibration", help="predict: a measure run's calibration (else --fraction-*)")
    ap.add_argument("--fraction-forward", type=float, default=0.4, help="predict without calibration: forward kernel's fraction of copy bandwidth")
    ap.add_argument("--fraction-adjoint", type=float, default=0.6, help="the adjoint's")
    ap.add_argument("--shots", type=int, default=64)
    ap.add_argument("--pmax", type=int, default=4096)
    ap.add_argument("--cores", type=int, default=128, help="ranks (cores) a node: 2 x 64-core AMD EPYC")
    ap.add_argument("--node-memory", type=float, default=256e9, help="bytes a node")
    ap.add_argument("--node-bw", type=float, default=350e9, help="STREAM copy of a node, bytes/s (2 sockets x 8 DDR4-3200 channels)")
    ap.add_argument("--link-bw", type=float, default=24e9, help="a node's network link, bytes/s (InfiniBand HDR, 200 Gb/s)")
    ap.add_argument("--latency", type=float, default=1.0e-6, help="L: a message in flight, s")
    ap.add_argument("--overhead", type=float, default=0.5e-6, help="o: a message at each end, s")
    ap.add_argument("--csv", help="predict: the table as CSV")
    ap.add_argument("--png", help="predict: the picture")
    args = ap.parse_args()
    if args.mode == "measure":
        args.grid = args.grid or 40
        args.steps = args.steps or 30
        return measure(args)
    args.grid = args.grid or 512
    args.steps = args.steps or 2000
    return predict(args)


if __name__ == "__main__":
    sys.exit(main())
