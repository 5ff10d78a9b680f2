#!/usr/bin/env python3
"""Pictures of a full-waveform inversion by rewind-fwi -rw_output PREFIX.

    plot_fwi.py PREFIX [OUT-PREFIX]

Writes OUT-PREFIX-models.png (true, start and recovered velocity and the
gradient of the first iteration over the whole grid, the physical region
outlined, the sources and shot 0's receivers marked; in 3D the vertical
slice through shot 0), OUT-PREFIX-gather.png (shot 0: observed, predicted by
the recovered model, residual) and OUT-PREFIX-history.png (the misfit's total reduction over all
bands, band changes marked, and, when a true model was known, the model
error per iteration).  Needs h5py
and matplotlib (Debian: python3-h5py python3-matplotlib).
"""
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy  # noqa: E402


def geometry(f):
    """dimension, per axis (points, origin, spacing), x first, and the absorbing width"""
    dim = int(f.attrs["dimension"])
    axes = [(int(f.attrs["grid_" + a]), float(f.attrs["origin_" + a]), float(f.attrs["spacing_" + a])) for a in "xyz"[:dim]]
    return dim, axes, int(f.attrs["nbl"])


def section(a, dim, axes, y):
    """the vertical x-depth section of a field; in 3D the y plane nearest y"""
    if dim == 2:
        return a
    n, o, h = axes[1]
    j = min(max(int(round((y - o) / h)), 0), n - 1)
    return a[:, j, :]


def plot_models(prefix, out):
    with h5py.File(prefix + ".h5", "r") as f:
        dim, axes, nbl = geometry(f)
        src, rec = f["sources"][()], f["receivers_shot0"][()]
        names = [k for k in ("c_true", "c_start", "c_recovered", "gradient_first") if k in f]
        y = src[0, 1] if dim == 3 else 0
        fields = {k: section(f[k][()], dim, axes, y) for k in names}
    (nx, x0, hx), (nz, z0, hz) = axes[0], axes[dim - 1]
    extent = [x0, x0 + (nx - 1) * hx, z0 + (nz - 1) * hz, z0]
    vel = [fields[k] for k in names if k != "gradient_first"]
    vmin, vmax = min(a.min() for a in vel), max(a.max() for a in vel)
    fig, axs = plt.subplots(2, 2, figsize=(12, 7))
    for ax, name in zip(axs.flat, names):
        a = fields[name]
        if name == "gradient_first":
            s = numpy.abs(a).max() or 1
            im = ax.imshow(a, cmap="seismic", vmin=-s, vmax=s, extent=extent, aspect="auto")
            label = "dJ/dm (per (ms/m)^2)"
        else:
            im = ax.imshow(a, cmap="viridis", vmin=vmin, vmax=vmax, extent=extent, aspect="auto")
            label = "velocity (km/s)"
        fig.colorbar(im, ax=ax, label=label)
        px0, px1 = x0 + nbl * hx, x0 + (nx - 1 - nbl) * hx
        pz0, pz1 = z0 + nbl * hz, z0 + (nz - 1 - nbl) * hz
        ax.plot([px0, px1, px1, px0, px0], [pz0, pz0, pz1, pz1, pz0], "w--", lw=0.8, label="physical region")
        ax.plot(rec[:, 0], rec[:, dim - 1], "v", color="white", ms=3, mec="black", mew=0.3, label="receivers (shot 0)")
        ax.plot(src[:, 0], src[:, dim - 1], "*", color="red", ms=9, mec="black", mew=0.5, label="sources")
        ax.set_xlabel("x (m)")
        ax.set_ylabel("depth (m)")
        ax.set_title(name.replace("_", " ") + (" (y = %.0f m)" % y if dim == 3 else ""))
    axs.flat[0].legend(loc="lower left", fontsize=7, framealpha=0.7)
    for ax in list(axs.flat)[len(names):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(out + "-models.png", dpi=90)
    plt.close(fig)


def plot_gather(prefix, out):
    with h5py.File(prefix + "-gather.h5", "r") as f:  # shot<i>/observed, shot<i>/predicted
        pred, obs, dt = f["shot0/predicted"][()], f["shot0/observed"][()], float(f.attrs["dt"])
        rec = f["shot0/receivers"][()]
    t1 = (obs.shape[0] - 1) * dt
    if rec.shape[1] == 2:  # a line: the receivers' x
        extent, xlabel = [rec[0, 0], rec[-1, 0], t1, 0], "receiver x (m)"
    else:
        extent, xlabel = [0, rec.shape[0] - 1, t1, 0], "receiver (x fastest)"
    fig, axs = plt.subplots(1, 3, figsize=(13, 5), sharey=True)
    s = numpy.abs(obs).max() * 0.5 or 1
    for ax, a, t in zip(axs, (obs, pred, obs - pred), ("observed", "predicted (recovered)", "residual (obs. - pred.)")):
        im = ax.imshow(a, cmap="gray", vmin=-s, vmax=s, extent=extent, aspect="auto")
        ax.set_title(t)
        ax.set_xlabel(xlabel)
    axs[0].set_ylabel("time (ms)")
    fig.suptitle("shot 0 gather, one colour scale")
    fig.colorbar(im, ax=list(axs), label="pressure (source units)")
    fig.savefig(out + "-gather.png", dpi=90)
    plt.close(fig)


def plot_history(prefix, out):
    # the library's history (RwProblemHistoryView): a dataset a column, named
    # by the attribute "columns"; a band is a solve.  J is each band's own
    # (low-passed) misfit, so the curve is J over the first J of its band,
    # chained across bands: the product of the bands' reductions, the total
    with h5py.File(prefix + ".h5", "r") as f:
        g = f["history"]
        columns = g.attrs["columns"]
        columns = (columns.decode() if isinstance(columns, bytes) else columns).split()
        h = {k: g[k][()] for k in ("solve", "J", "error") if k in columns}
    solve, J = h["solve"], h["J"]
    total, scale, start = [], 1.0, {}
    for i, (s, j) in enumerate(zip(solve, J)):
        if s not in start:
            if i:  # the new band starts where the last one ended
                scale = total[-1]
            start[s] = (i, j)
        total.append(scale * j / start[s][1])
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.semilogy(total, "o-", ms=3, label="misfit reduction, all bands (J / J(band start), chained)")
    if "error" in h and (h["error"] >= 0).all():
        ax.semilogy(h["error"] / h["error"][0], "s-", ms=3, label="model error / its start")
    for s, (i, _) in sorted(start.items()):
        if i:
            ax.axvline(i - 0.5, color="gray", ls=":", lw=1)
        ax.annotate("band %d" % s, (i, 1), xycoords=("data", "axes fraction"), xytext=(2, -12), textcoords="offset points", fontsize=8, color="gray")
    ax.set_title("total reduction %.3g x in %d iterations, %d bands" % (1 / total[-1], len(total) - len(start), len(start)), fontsize=10)
    ax.set_xlabel("iteration (all bands; dotted: a new band)")
    ax.set_ylabel("ratio to the start (log)")
    ax.legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    fig.savefig(out + "-history.png", dpi=90)
    plt.close(fig)


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    prefix = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else prefix
    plot_models(prefix, out)
    plot_gather(prefix, out)
    plot_history(prefix, out)
    print("wrote %s-models.png %s-gather.png %s-history.png" % (out, out, out))


if __name__ == "__main__":
    main()
