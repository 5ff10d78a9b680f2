#!/usr/bin/env python3
"""Picture of a control run by rewind-heat-control -rw_output PREFIX.

    plot_control.py PREFIX.h5 [OUT.png]

Left: every actuator's amplitude a_j(t) (/amplitudes at /amplitude_times).
Right: the sensors' temperatures: the target (dashed), the controlled run
(solid) and the uncontrolled one (dotted), /target, /achieved, /uncontrolled at /times.
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
        for name in ("amplitudes", "amplitude_times", "times", "target", "achieved", "uncontrolled", "rms_tracking_error"):
            if name not in f:
                raise SystemExit("%s has no dataset %s: not a rewind-heat-control output" % (path, name))
        a, ta = f["amplitudes"][()], f["amplitude_times"][()]
        t, d, y, y0 = f["times"][()], f["target"][()], f["achieved"][()], f["uncontrolled"][()]
        rms = f["rms_tracking_error"][()]
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    for j in range(a.shape[1]):
        ax[0].plot(ta, a[:, j], label="actuator %d" % j)
    ax[0].set_xlabel("t")
    ax[0].set_ylabel("amplitude (power)")
    ax[0].set_title("optimal amplitudes", fontsize=10)
    ax[0].legend(fontsize=8)
    for s in range(d.shape[1]):
        c = "C%d" % s
        ax[1].plot(t, d[:, s], "--", color=c)
        ax[1].plot(t, y[:, s], "-", color=c, label="sensor %d" % s)
        ax[1].plot(t, y0[:, s], ":", color=c)
    ax[1].set_xlabel("t")
    ax[1].set_ylabel("temperature")
    ax[1].set_title("target (dashed), controlled (solid), uncontrolled (dotted)\nRMS error %.3g, uncontrolled %.3g, constant power %.3g" % tuple(rms), fontsize=9)
    ax[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
