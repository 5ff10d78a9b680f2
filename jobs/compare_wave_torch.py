#!/usr/bin/env python3
"""The acoustic wave model, one shot's gradient dJ/dm, rewind against PyTorch
autograd on the same grid, steps, dt, order, source, receivers and cores.

    /usr/bin/python3 jobs/compare_wave_torch.py [--nx 141] [--nz 91] [--nbl 20] [--h 20]
        [--order 4] [--record 1000] [--threads 1] [--repeat 3]
        [--rewind apps/rewind-gradient] [--mpiexec "mpiexec --allow-run-as-root"]

The default problem is one shot of rewind-fwi's embedded problem (doc/wave.md):
101 x 51 physical points at 20 m plus 20 absorbing points a side, space order
4, a Ricker wavelet of 10 Hz at 48 m depth in the middle, 51 receivers every
40 m at 26 m depth, 1 s at 0.8 of the stability limit for 4 km/s (whole
microseconds), and J = 1/2 sum_k sum_r r_k^2 (zero data). The velocity (1.5
km/s on top growing to 3.5 at the bottom, a 3.6 km/s body) is written to an
HDF5 file that rewind-gradient reads (-rw_wave_velocity), so both codes step
the same m. The PyTorch version is written as a user would: float64 tensors,
the Laplacian as one conv2d with zero padding (rewind's zero outside the
grid), Devito's damped update, the source added with index_put and the
receivers read by multilinear weights, autograd through every step (the
whole tape). Both J must agree to 1e-9 (the same discrete problem, summed in
a different order), then the table gives the best of --repeat runs of a
forward run and of a gradient in seconds, on --threads threads (PyTorch) and
as many MPI ranks (rewind).
Needs h5py, numpy and torch (Debian: python3-h5py python3-torch).
"""
import argparse
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

import h5py
import numpy
import torch

D2 = {2: [-2.0, 1.0], 4: [-5.0 / 2, 4.0 / 3, -1.0 / 12], 8: [-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560]}


def velocity(args):
    """c[z, x] on the whole grid (layers included), km/s: a gradient with depth and a faster body."""
    z = numpy.clip(numpy.arange(args.nz) - args.nbl, 0, args.nz - 2 * args.nbl - 1) / (args.nz - 2 * args.nbl - 1)
    x = numpy.clip(numpy.arange(args.nx) - args.nbl, 0, args.nx - 2 * args.nbl - 1) / (args.nx - 2 * args.nbl - 1)
    Z, X = numpy.meshgrid(z, x, indexing="ij")
    c = 1.5 + 2.0 * Z
    c[(X - 0.6) ** 2 / 0.02 + (Z - 0.6) ** 2 / 0.01 < 1] = 3.6
    return c


def geometry(args):
    """Sources and receivers in physical coordinates (x, z), as rewind-fwi places them."""
    X = (args.nx - 2 * args.nbl - 1) * args.h
    src = [(0.5 * X + 0.3 * args.h, 2.4 * args.h)]
    nrec = int(X / 40.0) + 1
    rec = [(min(r * 40.0 + 0.5 * args.h, X), 1.3 * args.h) for r in range(nrec)]
    return src, rec


def timestep(args, c):
    """0.8 of the stability limit 2 sqrt(min m / rho) at 4 km/s, whole microseconds (rewind-fwi's rule)."""
    w = D2[args.order]
    rho = 2 * (abs(w[0]) + 2 * sum(abs(v) for v in w[1:])) / args.h ** 2
    dt = 2 * math.sqrt((1 / 4.0 ** 2) / rho)
    return math.floor(0.8 * dt * 1000) / 1000


def rewind(args, vfile, dt, steps, src, rec):
    flat = lambda pts: ",".join("%.17g,%.17g" % p for p in pts)
    cmd = shlex.split(args.mpiexec) + ["-n", str(args.threads), args.rewind, "-rw_model_type", "wave", "-rw_wave_dim", "2",
                                        "-rw_wave_space_order", str(args.order), "-da_grid_x", str(args.nx), "-da_grid_y", str(args.nz),
                                        "-rw_wave_nbl", str(args.nbl), "-rw_wave_spacing", repr(args.h), "-rw_wave_f0", repr(args.f0),
                                        "-rw_wave_velocity", vfile + ":c", "-rw_wave_sources", flat(src), "-rw_wave_receivers", flat(rec),
                                        "-rw_dt", repr(dt), "-rw_steps", str(steps), "-rw_schedule_type", "storeall", "-rw_adjoint_view"]
    best = None
    for _ in range(args.repeat):
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        J = float(re.search(r"^J (\S+)", out, re.M).group(1))
        secs = re.search(r"seconds: total (\S+), forward (\S+), reverse (\S+)", out)
        t = (float(secs.group(1)), float(secs.group(2)), float(secs.group(2)) + float(secs.group(3)))
        best = t if best is None else tuple(min(a, b) for a, b in zip(best, t))
    isa = re.search(r"kernels: (\S+)", subprocess.run(cmd + ["-rw_model_view", "-rw_steps", "2"], capture_output=True, text=True, check=True).stdout)
    return J, best[0], best[1], best[2], isa.group(1) if isa else "?"


def corners(args, pts):
    """Multilinear weights of points at the grid's corners: base index floor((x - grid origin) / h)."""
    iz, ix, w = [], [], []
    for x, z in pts:
        fx, fz = (x + args.nbl * args.h) / args.h, (z + args.nbl * args.h) / args.h
        i0, j0 = math.floor(fx), math.floor(fz)
        ax, az = fx - i0, fz - j0
        for dj, wz in ((0, 1 - az), (1, az)):
            for di, wx in ((0, 1 - ax), (1, ax)):
                iz.append(j0 + dj)
                ix.append(i0 + di)
                w.append(wz * wx)
    return torch.tensor(iz), torch.tensor(ix), torch.tensor(w, dtype=torch.float64)


def damping(args):
    """eta on the grid: the absorbing layers' profile, the axes added (doc/wave.md)."""
    a = 1.5 * math.log(1000.0) / args.nbl

    def axis(n):
        e = numpy.zeros(n)
        for i in range(n):
            pos = (args.nbl - i + 1) / args.nbl if i < args.nbl else (args.nbl - (n - 1 - i) + 1) / args.nbl if i >= n - args.nbl else -1
            if pos >= 0:
                e[i] = a * (pos - math.sin(2 * math.pi * pos) / (2 * math.pi)) / args.h
        return e

    return torch.tensor(axis(args.nz)[:, None] + axis(args.nx)[None, :])


def torch_problem(args, c, dt, steps, src, rec):
    torch.set_num_threads(args.threads)
    w, r = D2[args.order], args.order // 2
    K = torch.zeros(1, 1, 2 * r + 1, 2 * r + 1, dtype=torch.float64)
    K[0, 0, r, r] = 2 * w[0] / args.h ** 2
    for j in range(1, r + 1):
        for s in (-j, j):
            K[0, 0, r + s, r] += w[j] / args.h ** 2
            K[0, 0, r, r + s] += w[j] / args.h ** 2
    eta = damping(args)
    siz, six, sw = corners(args, src)
    riz, rix, rw = corners(args, rec)
    t = numpy.arange(steps) * dt - 1 / args.f0
    a2 = (math.pi * args.f0 * t) ** 2
    f = torch.tensor((1 - 2 * a2) * numpy.exp(-a2))
    m0 = torch.tensor(1 / c ** 2)

    def J(m):
        ia, c1, c2 = 1 / (m / dt ** 2 + eta / dt), m / dt ** 2, eta / dt
        q = dt ** 2 * sw / m[siz, six]
        u = torch.zeros_like(m)
        up = torch.zeros_like(m)
        total = torch.zeros((), dtype=torch.float64)
        for k in range(steps):
            Lu = torch.nn.functional.conv2d(u[None, None], K, padding=r)[0, 0]
            un = ia * (Lu + c1 * (2 * u - up) + c2 * u)
            un = un.index_put((siz, six), f[k] * q, accumulate=True)
            up, u = u, un
            rk = (u[riz, rix] * rw).reshape(-1, 4).sum(1)
            total = total + 0.5 * (rk ** 2).sum()
        return total

    tf = tg = math.inf
    for _ in range(args.repeat):
        with torch.no_grad():
            t0 = time.perf_counter()
            Jf = J(m0).item()
            tf = min(tf, time.perf_counter() - t0)
        m = m0.clone().requires_grad_(True)
        t0 = time.perf_counter()
        Jg = J(m)
        Jg.backward()
        tg = min(tg, time.perf_counter() - t0)
    return Jf, tf, tg, m.grad


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--nx", type=int, default=141, help="grid points along x, layers included")
    p.add_argument("--nz", type=int, default=91, help="grid points along z, layers included")
    p.add_argument("--nbl", type=int, default=20)
    p.add_argument("--h", type=float, default=20.0)
    p.add_argument("--order", type=int, default=4, choices=(2, 4, 8))
    p.add_argument("--f0", type=float, default=0.01, help="Ricker peak frequency, kHz")
    p.add_argument("--record", type=float, default=1000.0, help="ms")
    p.add_argument("--threads", type=int, default=1, help="PyTorch threads and rewind's MPI ranks")
    p.add_argument("--repeat", type=int, default=3, help="runs of each code; the best time is kept")
    p.add_argument("--rewind", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps", "rewind-gradient"))
    p.add_argument("--mpiexec", default="mpiexec --allow-run-as-root --oversubscribe")
    args = p.parse_args()
    c = velocity(args)
    dt = timestep(args, c)
    steps = int(math.ceil(args.record / dt))
    src, rec = geometry(args)
    with tempfile.TemporaryDirectory() as d:
        vfile = os.path.join(d, "velocity.h5")
        with h5py.File(vfile, "w") as fh:
            fh["c"] = c
        Jr, tr, trf, trs, isa = rewind(args, vfile, dt, steps, src, rec)
    Jt, ttf, ttg, g = torch_problem(args, c, dt, steps, src, rec)
    print("wave 2D order %d, %dx%d points (nbl %d, h %g m), %d steps of dt %g ms, 1 source, %d receivers, %d thread(s); rewind kernels: %s"
          % (args.order, args.nx, args.nz, args.nbl, args.h, steps, dt, len(rec), args.threads, isa))
    print("J: rewind %.17g, PyTorch %.17g, relative difference %.2e; PyTorch |dJ/dm| %.6g" % (Jr, Jt, abs(Jr - Jt) / abs(Jt), g.norm().item()))
    print("%-34s %10s %10s %8s" % ("best of %d" % args.repeat, "rewind", "PyTorch", "PyTorch/rewind"))
    print("%-34s %10.4f %10.4f %8.2f" % ("forward run [s]", trf, ttf, ttf / trf))
    print("%-34s %10.4f %10.4f %8.2f" % ("gradient (forward + adjoint) [s]", tr, ttg, ttg / tr))
    print("%-34s %10.2f %10.2f" % ("gradient / forward", tr / trf, ttg / ttf))
    print("(rewind's forward: the forward sweep of its gradient, states stored, from -rw_adjoint_view; PyTorch's: under no_grad;")
    print(" rewind's gradient is the whole solve of a fresh process; its forward + reverse sweeps alone took %.4f s, the rest is the" % trs)
    print(" solve's first-call set-up: the store's slots allocated and first touched)")
    if abs(Jr - Jt) > 1e-9 * abs(Jt):
        sys.exit("J differs: the two codes do not solve the same problem")


if __name__ == "__main__":
    main()
