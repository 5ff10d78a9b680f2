#!/usr/bin/env python3
"""Picture of a 4D-Var run by rewind-4dvar -rw_output PREFIX.

    plot_4dvar.py PREFIX.h5 [OUT.png]

Top: the truth, the background's run and the analysis's run of an observed
point and of an unobserved one, with the observations (/truth, /background,
/analysis at /times; /observations at /observation_times).
Bottom: the RMS error against the truth over the window, background and analysis.
Needs h5py and matplotlib (Debian: /usr/bin/python3 with python3-h5py python3-matplotlib).
"""
import sys

import h5py
import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    path = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else path.rsplit(".h5", 1)[0] + ".png"
    names = ("times", "truth", "background", "analysis", "observations", "observation_times", "observation_points", "rms_error")
    with h5py.File(path, "r") as f:
        for name in names:
            if name not in f:
                raise SystemExit("%s has no dataset %s: not a rewind-4dvar output" % (path, name))
        t, xt, xb, xa, y, ty, py, err = (f[k][()] for k in names)
    observed = int(round(py[0]))
    unobserved = next((i for i in range(xt.shape[1]) if i not in set(np.rint(py).astype(int))), None)
    fig, ax = plt.subplots(2, 2 if unobserved is not None else 1, figsize=(11, 6.5), squeeze=False)
    for col, (i, what) in enumerate([(observed, "observed"), (unobserved, "unobserved")][: ax.shape[1]]):
        a = ax[0, col]
        a.plot(t, xt[:, i], "k-", label="truth")
        a.plot(t, xb[:, i], "r--", label="background")
        a.plot(t, xa[:, i], "b-", label="analysis")
        if what == "observed":
            a.plot(ty, y[:, 0], "ko", ms=3, label="observations")
        a.set_xlabel("t")
        a.set_ylabel("x_%d" % i)
        a.set_title("point %d (%s)" % (i, what), fontsize=10)
        a.legend(fontsize=8)
    a = ax[1, 0]
    rms = lambda u: np.sqrt(np.mean((u - xt) ** 2, axis=1))
    a.plot(t, rms(xb), "r--", label="background")
    a.plot(t, rms(xa), "b-", label="analysis")
    a.set_xlabel("t")
    a.set_ylabel("RMS error")
    a.set_yscale("log")
    a.set_title("x0 error: background %.3g, analysis %.3g; window: %.3g, %.3g" % tuple(err), fontsize=9)
    a.legend(fontsize=8)
    if ax.shape[1] > 1:
        a = ax[1, 1]
        im = a.imshow((xa - xt).T, aspect="auto", origin="lower", extent=(t[0], t[-1], -0.5, xt.shape[1] - 0.5), cmap="RdBu_r")
        a.set_xlabel("t")
        a.set_ylabel("point")
        a.set_title("analysis - truth", fontsize=10)
        fig.colorbar(im, ax=a)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
