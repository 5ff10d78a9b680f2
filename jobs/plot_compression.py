#!/usr/bin/env python3
"""The gradient error of lossy (zfp) checkpoints against their tolerance, from
rewind-bench's compression section.

    rewind-bench -rw_bench_sections compression -rw_bench_output bench.csv
    plot_compression.py bench.csv [OUT.png]

For each model (heat, wave): the relative 2-norm error of dJ/dm measured
against the uncompressed gradient (rows "<model> zfp <tol>", metric grad_err)
and the solve's own first-order estimate (grad_est), log-log against the
tolerance; a star marks what -rw_store_compress_tolerance auto chose for
-rw_adjoint_gradient_rtol 1e-6 (row "<model> zfp auto"), the dotted line the
rtol.  Needs matplotlib (Debian: /usr/bin/python3 with python3-matplotlib).
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    """{model: {label: {metric: value}}} of the compression section's zfp rows"""
    out = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r.get("section") != "compression" or " zfp " not in r["case"]:
                continue
            model, label = r["case"].split(" zfp ", 1)
            try:
                out.setdefault(model, {}).setdefault(label, {})[r["metric"]] = float(r["value"])
            except ValueError:
                pass
    return out


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    path = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else path.rsplit(".", 1)[0] + "-compression.png"
    rows = read(path)
    models = [m for m in rows if any("grad_est" in v and k != "auto" for k, v in rows[m].items())]
    if not models:
        raise SystemExit("%s has no zfp sweep rows with grad_est: run rewind-bench -rw_bench_sections compression" % path)
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    for i, m in enumerate(sorted(models)):
        pts = sorted((v["tolerance"], v["grad_err"], v["grad_est"]) for k, v in rows[m].items() if k != "auto" and "grad_est" in v)
        tol = [p[0] for p in pts]
        ax.loglog(tol, [p[1] for p in pts], "o-", color="C%d" % i, label="%s: measured" % m)
        ax.loglog(tol, [p[2] for p in pts], "s--", color="C%d" % i, mfc="none", label="%s: estimated by the solve" % m)
        a = rows[m].get("auto")
        if a:
            ax.loglog([a["tolerance"]], [a["grad_err"]], "*", ms=14, color="C%d" % i, label="%s: tolerance auto (measured)" % m)
    ax.axhline(1e-6, color="gray", ls=":", lw=1, label="rtol of auto (1e-6)")
    ax.set_xlabel("zfp tolerance (relative to each state's max-norm)")
    ax.set_ylabel("relative gradient error |dJ/dm - exact| / |exact|")
    ax.set_title("Lossy checkpoints: gradient error against tolerance")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main()
