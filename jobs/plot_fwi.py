#!/usr/bin/env python3
"""Pictures of a full-waveform inversion by rewind-fwi -rw_output PREFIX.

    plot_fwi.py PREFIX [OUT-PREFIX]

Writes OUT-PREFIX-models.png (true | start | recovered velocity, and the
gradient of the first iteration, physical region and absorbing layers),
OUT-PREFIX-gather.png (shot 0: observed, predicted by the recovered model,
residual) and OUT-PREFIX-history.png (relative misfit and model error per
iteration).  Needs h5py and matplotlib (Debian: python3-h5py python3-matplotlib).
"""
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy  # noqa: E402


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    prefix = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else prefix
    with h5py.File(prefix + ".h5", "r") as f:
        fields = {k: f[k][()] for k in ("c_true", "c_start", "c_recovered", "gradient_first")}
        history = f["history"][()]
    fig, axes = plt.subplots(2, 2, figsize=(11, 6))
    vmin, vmax = fields["c_true"].min(), fields["c_true"].max()
    for ax, name in zip(axes.flat, ("c_true", "c_start", "c_recovered", "gradient_first")):
        a = fields[name]
        if name == "gradient_first":
            s = numpy.abs(a).max() or 1
            im = ax.imshow(a, cmap="seismic", vmin=-s, vmax=s, aspect="auto")
        else:
            im = ax.imshow(a, cmap="viridis", vmin=vmin, vmax=vmax, aspect="auto")
        ax.set_title(name.replace("_", " ") + (" (km/s)" if name != "gradient_first" else " dJ/dm"))
        fig.colorbar(im, ax=ax)
    fig.tight_layout()
    fig.savefig(out + "-models.png", dpi=90)
    with h5py.File(prefix + "-gather.h5", "r") as f:
        pred, obs = f["shot0/data"][()], f["shot1/data"][()]
    fig, axes = plt.subplots(1, 3, figsize=(12, 5), sharey=True)
    s = numpy.abs(obs).max() * 0.5 or 1
    for ax, a, t in zip(axes, (obs, pred, obs - pred), ("observed", "predicted (recovered model)", "residual")):
        ax.imshow(a, cmap="gray", vmin=-s, vmax=s, aspect="auto")
        ax.set_title("shot 0: " + t)
        ax.set_xlabel("receiver")
    axes[0].set_ylabel("time step")
    fig.tight_layout()
    fig.savefig(out + "-gather.png", dpi=90)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(history[:, 2], "o-", label="relative misfit (per band)")
    ax.plot(history[:, 3], "s-", label="model error ||c - c_true|| / ||c_true||")
    ax.set_xlabel("iteration (all bands)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out + "-history.png", dpi=90)


if __name__ == "__main__":
    main()
