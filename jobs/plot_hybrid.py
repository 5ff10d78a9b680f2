#!/usr/bin/env python3
"""Picture of a training run by rewind-hybrid -rw_output PREFIX.

    plot_hybrid.py PREFIX.h5 [OUT.png]

Left: the learned reaction N_theta(u) against the true rho u (1 - u) on [0, 1].
Right: the loss J and the gradient norm per epoch (the history, /history/J and
/history/gradient_norm, one dataset a column as every rewind optimisation writes it).
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
        for name in ("reaction_u", "reaction_learned", "reaction_true", "history/J", "history/gradient_norm", "theta"):
            if name not in f:
                raise SystemExit("%s has no dataset %s: not a rewind-hybrid output" % (path, name))
        u, nl, nt = f["reaction_u"][()], f["reaction_learned"][()], f["reaction_true"][()]
        J, gnorm = f["history/J"][()], f["history/gradient_norm"][()]
        layers = ",".join(str(int(v)) for v in f["theta"].attrs["layers"])
        err, g1, g2 = (float(f.attrs[k]) for k in ("reaction_max_error", "generalisation_error_T", "generalisation_error_2T"))
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    ax[0].plot(u, nt, "k-", lw=2, label="true $\\rho u(1-u)$")
    ax[0].plot(u, nl, "r--", lw=2, label="learned $N_\\theta(u)$ (%s)" % layers)
    ax[0].set_xlabel("u")
    ax[0].set_ylabel("reaction")
    ax[0].set_title("max error %.3g; generalisation %.2g (T), %.2g (2T)" % (err, g1, g2), fontsize=10)
    ax[0].legend()
    ax[1].semilogy(J, label="J")
    ax[1].semilogy(gnorm, label="|dJ/dx|")
    ax[1].set_xlabel("epoch")
    ax[1].set_title("J from %.3g to %.3g" % (J[0], J[-1]), fontsize=10)
    ax[1].legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
