#!/usr/bin/env python3
"""Pictures of a scaling study collected by jobs/collect.

    plot_scaling.py STUDY.csv [OUT.png]

One row of panels per study and case: time, speed-up and parallel efficiency
against ranks, for the gradient and the forward sweep, with the ideal line.
The reference is the run with the fewest ranks, p0 (normally 1):
  strong:  speed-up S = p0 T(p0) / T(p),  efficiency E = S / p
  weak:    efficiency E = T(p0) / T(p),  scaled speed-up S = p E / p0
Open markers are oversubscribed runs (more ranks than cores on a node).
Needs matplotlib (Debian: python3-matplotlib).
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SERIES = [("seconds_gradient", "gradient", "C0"), ("seconds_forward", "forward", "C1")]


def groups(path):
    """{(study, case): [rows sorted by ranks]}"""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "seconds_gradient" not in rows[0]:
        sys.exit("plot_scaling: %s is not a CSV of jobs/collect" % path)
    out = {}
    for r in rows:
        out.setdefault((r["study"], r["case"]), []).append(r)
    for g in out.values():
        g.sort(key=lambda r: int(r["ranks"]))
    return out


def figures(study, rows, key):
    """ranks, times, speed-ups, efficiencies of one series"""
    p = [int(r["ranks"]) for r in rows]
    t = [float(r[key]) for r in rows]
    p0, t0 = p[0], t[0]
    if study == "weak":
        eff = [t0 / x for x in t]
        speed = [q / p0 * e for q, e in zip(p, eff)]
    else:
        speed = [t0 / x for x in t]
        eff = [s * p0 / q for s, q in zip(speed, p)]
    return p, t, speed, eff


def draw(axes, study, rows):
    over = [r["oversubscribed"] == "yes" for r in rows]
    for key, label, color in SERIES:
        p, t, speed, eff = figures(study, rows, key)
        for ax, y in zip(axes, (t, speed, eff)):
            ax.plot(p, y, "-", color=color, label=label)
            for q, v, o in zip(p, y, over):
                ax.plot(q, v, "o", color=color, markerfacecolor="white" if o else color)
    p = [int(r["ranks"]) for r in rows]
    t0 = float(rows[0]["seconds_gradient"])
    ideal_t = [t0] * len(p) if study == "weak" else [t0 * p[0] / q for q in p]
    axes[0].plot(p, ideal_t, "k:", label="ideal (gradient)")
    axes[1].plot(p, [q / p[0] for q in p], "k:", label="ideal")
    axes[2].plot(p, [1.0] * len(p), "k:", label="ideal")
    axes[0].set_ylabel("time per solve (s, log scale)")
    axes[1].set_ylabel("scaled speed-up (log scale)" if study == "weak" else "speed-up (log scale)")
    axes[2].set_ylabel("parallel efficiency (1 = ideal)")
    axes[2].set_ylim(0, 1.2)
    # rank counts double: a log axis spaces them evenly; times and speed-ups span decades too
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xlabel("MPI ranks (log scale)")
        ax.set_xticks(p)
        ax.set_xticklabels([str(q) for q in p])
        ax.minorticks_off()
        ax.grid(alpha=0.3)
    axes[0].set_yscale("log")
    axes[1].set_yscale("log")
    axes[0].legend(fontsize="small")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else src.rsplit(".", 1)[0] + ".png"
    g = groups(src)
    fig, axes = plt.subplots(len(g), 3, figsize=(13, 3.8 * len(g)), squeeze=False)
    for row, ((study, case), rows) in zip(axes, sorted(g.items())):
        draw(row, study, rows)
        r0 = rows[0]
        row[0].set_title("%s scaling, %s: %s on %s rank(s), %s steps, %s/%s" % (study, case, r0["grid"], r0["ranks"], r0["steps"], r0["schedule"], r0["store"]), loc="left", fontsize="medium")
    fig.text(0.01, 0.005, "open markers: oversubscribed (more ranks than cores)", fontsize="small")
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(out, dpi=110)
    print(out)


if __name__ == "__main__":
    main()
