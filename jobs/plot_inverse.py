#!/usr/bin/env python3
"""Picture of an inversion by rewind-heat-inverse -rw_output PREFIX.

    plot_inverse.py PREFIX.h5 [OUT.png]

Draws true | initial | recovered | error of the recovered field (panels for
what the file holds) on the grid's x-y extent from the file's metadata, with
labelled colorbars and the sensors marked, and the convergence: data misfit
(against its value at the noise level), gradient norm and relative error per
iteration, on a log scale.
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


QUANTITY = {"kappa": "conductivity kappa", "s": "source s", "u0": "initial temperature u0"}


def extent(f, shape):
    """x0, x1, y0, y1 of the points, from the metadata (the unit box without it)"""
    a = f.attrs
    if "origin_x" not in a or len(shape) < 2:
        return (0, 1, 0, 1)
    x0, y0 = float(a["origin_x"]), float(a["origin_y"])
    return (x0, x0 + (shape[-1] - 1) * float(a["spacing_x"]), y0, y0 + (shape[-2] - 1) * float(a["spacing_y"]))


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
        sensors = f["sensors"][()] if "sensors" in f else None
        box = extent(f, panels[0][1].shape)
    fig = plt.figure(figsize=(4 * len(panels) + 4.5, 4))
    fields = [p for p in panels if p[0] != "error"]
    lo = min(p[1].min() for p in fields)
    hi = max(p[1].max() for p in fields)
    for i, (label, data) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels) + 1, i + 1)
        what = "%s recovered - true" % name if label == "error" else QUANTITY[name]
        if data.ndim == 1:
            ax.plot(data)
            ax.set_xlabel("grid point")
            ax.set_ylabel(what)
        else:
            img = data if data.ndim == 2 else data[data.shape[0] // 2]
            if label == "error":
                m = abs(img).max()
                im = ax.imshow(img, origin="lower", extent=box, cmap="RdBu_r", vmin=-m, vmax=m)
            else:
                im = ax.imshow(img, origin="lower", extent=box, cmap="viridis", vmin=lo, vmax=hi)
            fig.colorbar(im, ax=ax, shrink=0.8).set_label(what + " (model units)")
            if sensors is not None and sensors.ndim == 2 and sensors.shape[1] >= 2:
                ax.plot(sensors[:, 0], sensors[:, 1], "w+", ms=4, mew=0.8, label="sensors")
                if i == 0:
                    ax.legend(loc="upper right", fontsize=7, framealpha=0.5)
            ax.set_xlabel("x (unit box)")
            ax.set_ylabel("y (unit box)")
        ax.set_title("%s: %s" % (name, label))
    ax = fig.add_subplot(1, len(panels) + 1, len(panels) + 1)
    it = range(len(hist["misfit"]))
    ax.semilogy(it, hist["misfit"] / noise, "o-", ms=3, label="data misfit / its value at the noise level")
    ax.semilogy(it, hist["gradient_norm"] / hist["gradient_norm"][0], "s-", ms=3, label="|g| / |g0|")
    if hist["error"][0] >= 0:
        ax.semilogy(it, hist["error"], "^-", ms=3, label="relative error ||x - x_true|| / ||x_true||")
    ax.axhline(1, color="gray", lw=0.5)
    ax.set_xlabel("iteration")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_ylabel("ratio (log scale)")
    ax.set_title("convergence")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=80)
    print(out)


if __name__ == "__main__":
    main()
