#!/usr/bin/env python3
"""Picture of an inversion by rewind-heat-inverse -rw_output PREFIX.

    plot_inverse.py PREFIX.h5 [OUT.png]

Draws true | initial | recovered | error of the recovered field (panels for
what the file holds), and the convergence: data misfit (against its value at
the noise level), gradient norm and relative error per iteration.
Needs h5py and matplotlib (Debian: python3-h5py python3-matplotlib).
"""
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def field_name(f):
    for name in ("kappa", "s", "u0"):
        if name + "_recovered" in f:
            return name
    raise SystemExit("no <field>_recovered dataset in %s: not a rewind-heat-inverse output" % f.filename)


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    path = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else path.rsplit(".", 1)[0] + ".png"
    with h5py.File(path, "r") as f:
        name = field_name(f)
        panels = [(k, f[name + "_" + k][()]) for k in ("true", "initial", "recovered", "error") if name + "_" + k in f]
        hist = {k: f["history"][k][()] for k in f["history"]}
        noise = f["history"].attrs["misfit_at_noise_level"]
    fig = plt.figure(figsize=(4 * len(panels) + 4.5, 4))
    fields = [p for p in panels if p[0] != "error"]
    lo = min(p[1].min() for p in fields)
    hi = max(p[1].max() for p in fields)
    for i, (label, data) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels) + 1, i + 1)
        if data.ndim == 1:
            ax.plot(data)
        else:
            img = data if data.ndim == 2 else data[data.shape[0] // 2]
            if label == "error":
                m = abs(img).max()
                im = ax.imshow(img, origin="lower", extent=(0, 1, 0, 1), cmap="RdBu_r", vmin=-m, vmax=m)
            else:
                im = ax.imshow(img, origin="lower", extent=(0, 1, 0, 1), cmap="viridis", vmin=lo, vmax=hi)
            fig.colorbar(im, ax=ax, shrink=0.8)
        ax.set_title("%s %s" % (name, label))
        ax.set_xticks([])
        ax.set_yticks([])
    ax = fig.add_subplot(1, len(panels) + 1, len(panels) + 1)
    it = range(len(hist["misfit"]))
    ax.semilogy(it, hist["misfit"] / noise, label="misfit / noise level")
    ax.semilogy(it, hist["gradient_norm"] / hist["gradient_norm"][0], label="|g| / |g0|")
    if hist["error"][0] >= 0:
        ax.semilogy(it, hist["error"], label="relative error")
    ax.axhline(1, color="gray", lw=0.5)
    ax.set_xlabel("iteration")
    ax.set_title("convergence")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=80)
    print(out)


if __name__ == "__main__":
    main()
