#!/usr/bin/env python3
"""Picture of a design run by rewind-heat-design -rw_output PREFIX.

    plot_design.py PREFIX.h5 [OUT.png]

Left: the physical density (filtered and projected, /density_physical) with the
heaters (/heaters) and the sinks (the left and right edges, held at 0).
Right: the objective and the volume fraction at every iteration (/history),
with uniform material's objective (/objective[1]) for comparison.
Needs h5py and matplotlib (Debian: /usr/bin/python3 with python3-h5py python3-matplotlib).
"""
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    path = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else path.rsplit(".h5", 1)[0] + ".png"
    with h5py.File(path, "r") as f:
        for name in ("density_physical", "objective", "heaters", "history"):
            if name not in f:
                raise SystemExit("%s has no dataset %s: not a rewind-heat-design output" % (path, name))
        rho = f["density_physical"][()]
        J = f["objective"][()]
        heaters = f["heaters"][()]
        hist = {k: f["history"][k][()] for k in ("iteration", "J", "volume")}
    if rho.ndim != 2:
        raise SystemExit("%s: a %d-dimensional density; this picture draws 2D designs" % (path, rho.ndim))
    fig, ax = plt.subplots(1, 2, figsize=(10.5, 4.3))
    im = ax[0].imshow(rho, origin="lower", extent=(0, 1, 0, 1), cmap="gray_r", vmin=0, vmax=1)
    fig.colorbar(im, ax=ax[0], shrink=0.8).set_label("physical density")
    ax[0].plot(heaters[:, 0], heaters[:, 1], "o", mfc="none", mec="C3", ms=9, label="heaters (hot spot moves round)")
    for x in (0, 1):
        ax[0].axvline(x, color="C0", lw=4)
    ax[0].set_title("design (sinks: left and right edges)", fontsize=10)
    ax[0].legend(loc="upper center", fontsize=7, framealpha=0.6)
    ax[0].set_xlabel("x")
    ax[0].set_ylabel("y")
    it = hist["iteration"]
    ax[1].plot(it, hist["J"], "C0-", label="design")
    ax[1].axhline(J[1], color="C1", ls="--", label="uniform material, same volume")
    ax[1].set_xlabel("iteration")
    ax[1].set_ylabel("time-averaged mean temperature")
    ax[1].set_title("objective %.4g against uniform %.4g" % (J[0], J[1]), fontsize=10)
    ax[1].legend(fontsize=8)
    ax2 = ax[1].twinx()
    ax2.plot(it, hist["volume"], "C2:", label="volume fraction")
    ax2.set_ylim(0, 1)
    ax2.set_ylabel("volume fraction", color="C2")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
