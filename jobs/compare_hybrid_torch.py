#!/usr/bin/env python3
"""The heat model with a learned reaction term, one gradient, rewind against
PyTorch autograd on the same grid, steps, network, weights and cores.

    /usr/bin/python3 jobs/compare_hybrid_torch.py [--grid 256] [--steps 200] [--hidden 16]
        [--threads 1] [--repeat 1] [--rewind apps/rewind-gradient] [--mpiexec "mpiexec -n 1"]
    /usr/bin/python3 jobs/compare_hybrid_torch.py --torch-only --weights theta.h5 --dt DT ...

--torch-only runs the PyTorch side alone, with the weights of an HDF5 file
(dataset theta, as RwNNWriteWeights writes it) and the given dt, and prints
one line "torch J <J> forward <s> gradient <s> cpu <s> <s>" (wall, then
processor seconds of the forward and the gradient): rewind-bench's hybrid
section runs it so both codes are timed in one run.

The problem is rewind-gradient's default heat problem with -rw_heat_nn:
du/dt = div(kappa grad u) + N_theta(u) on the periodic unit square, explicit
Euler, kappa = 1 + sin(2 pi x) cos(2 pi y) / 2, u0 and the target Gaussians,
J = h^2/2 sum (u_n - target)^2, and N_theta the MLP 1 -> H -> H -> 1 (tanh)
with the weights this script draws and gives both codes (-rw_nn_weights). The
PyTorch version is written as a user would: torch.roll for the stencil,
torch.nn for the network, float64, autograd through every step (the whole
tape). Both J values must agree to 1e-10 (the same problem), then the table
gives the seconds of a forward run and of a gradient, and their ratios.
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


def weights(h, seed):
    """Xavier-uniform weights, zero biases, in rewind's flat order W1 b1 W2 b2 W3 b3."""
    rng = numpy.random.default_rng(seed)
    x = lambda fan_in, fan_out, n: rng.uniform(-1, 1, n) * math.sqrt(6.0 / (fan_in + fan_out))
    return numpy.concatenate([x(1, h, h), numpy.zeros(h), x(h, h, h * h), numpy.zeros(h), x(h, 1, h), numpy.zeros(1)])


def rewind(args, wfile):
    cmd = shlex.split(args.mpiexec) + [args.rewind, "-rw_heat_nn", "-rw_nn_layers", "1,%d,%d,1" % (args.hidden, args.hidden),
                                        "-rw_nn_weights", wfile, "-da_grid_x", str(args.grid), "-da_grid_y", str(args.grid),
                                        "-rw_steps", str(args.steps), "-rw_dt", repr(args.dt), "-rw_adjoint_view"]
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    wall = time.perf_counter() - t0
    J = float(re.search(r"^J (\S+)", out, re.M).group(1))
    secs = re.search(r"seconds: total (\S+), forward (\S+), reverse (\S+)", out)
    return J, float(secs.group(1)), float(secs.group(2)), wall


def torch_problem(args, theta, dt):
    torch.set_num_threads(args.threads)
    n, h = args.grid, 1.0 / args.grid
    x = torch.arange(n, dtype=torch.float64) * h
    Y, X = torch.meshgrid(x, x, indexing="ij")  # [j, i]: y, x
    kappa = (1 + 0.5 * torch.sin(2 * math.pi * X) * torch.cos(2 * math.pi * Y)).requires_grad_(True)
    u0 = torch.exp(-((X - 0.5) ** 2 + (Y - 0.5) ** 2) / (2 * 0.1 ** 2))
    target = 0.5 * torch.exp(-((X - 0.3) ** 2 + (Y - 0.6) ** 2) / (2 * 0.15 ** 2))
    H = args.hidden
    net = torch.nn.Sequential(torch.nn.Linear(1, H), torch.nn.Tanh(), torch.nn.Linear(H, H), torch.nn.Tanh(), torch.nn.Linear(H, 1)).double()
    t = torch.tensor(theta)
    o = 0
    with torch.no_grad():
        for layer, (rows, cols) in ((net[0], (H, 1)), (net[2], (H, H)), (net[4], (1, H))):
            layer.weight.copy_(t[o:o + rows * cols].reshape(rows, cols))
            o += rows * cols
            layer.bias.copy_(t[o:o + rows])
            o += rows

    def J():
        u = u0
        for _ in range(args.steps):
            kx, ky = 0.5 * (kappa + torch.roll(kappa, -1, 1)), 0.5 * (kappa + torch.roll(kappa, -1, 0))
            ux, uy = torch.roll(u, -1, 1) - u, torch.roll(u, -1, 0) - u
            div = (kx * ux - torch.roll(kx * ux, 1, 1) + ky * uy - torch.roll(ky * uy, 1, 0)) / h ** 2
            u = u + dt * (div + net(u.reshape(-1, 1)).reshape(n, n))
        return 0.5 * h * h * ((u - target) ** 2).sum()

    def gradient():
        kappa.grad = None
        for q in net.parameters():
            q.grad = None
        J().backward()

    # best of --repeat, wall and processor seconds each, as rewind-bench takes rewind's
    tf = cf = tg = cg = math.inf
    for _ in range(args.repeat):
        with torch.no_grad():
            t0, c0 = time.perf_counter(), time.process_time()
            Jf = J().item()
            tf, cf = min(tf, time.perf_counter() - t0), min(cf, time.process_time() - c0)
        t0, c0 = time.perf_counter(), time.process_time()
        gradient()
        tg, cg = min(tg, time.perf_counter() - t0), min(cg, time.process_time() - c0)
    torch_problem.cpu = (cf, cg)  # processor seconds, for a machine shared with other jobs
    return Jf, tf, tg


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--grid", type=int, default=256)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--hidden", type=int, default=16)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--repeat", type=int, default=1, help="time PyTorch's forward and gradient this many times each and keep the best")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--rewind", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps", "rewind-gradient"))
    p.add_argument("--mpiexec", default="mpiexec --allow-run-as-root -n 1")
    p.add_argument("--torch-only", action="store_true", help="time PyTorch alone (weights from --weights, --dt)")
    p.add_argument("--weights", help="HDF5 file with dataset theta (for --torch-only)")
    p.add_argument("--dt", type=float, help="time step (default: 0.8 of the explicit limit)")
    args = p.parse_args()
    # heat's default: 0.8 of the explicit limit h^2 / (2 d max kappa), max kappa 1.5, both codes given it
    if args.dt is None:
        args.dt = 0.8 / (2 * 1.5 * 2 * args.grid ** 2)
    if args.torch_only:
        with h5py.File(args.weights, "r") as f:
            theta = f["theta"][...]
        Jt, ttf, ttg = torch_problem(args, theta, args.dt)
        print("torch J %.17g forward %.6f gradient %.6f cpu %.6f %.6f" % ((Jt, ttf, ttg) + torch_problem.cpu))
        return
    theta = weights(args.hidden, args.seed)
    with tempfile.TemporaryDirectory() as d:
        wfile = os.path.join(d, "theta.h5")
        with h5py.File(wfile, "w") as f:
            f["theta"] = theta
            f["theta"].attrs["layers"] = numpy.array([1, args.hidden, args.hidden, 1], dtype=numpy.int64)
        Jr, tr, trf, wall = rewind(args, wfile)
    dt = args.dt
    Jt, ttf, ttg = torch_problem(args, theta, dt)
    print("heat + N_theta(u), %d^2, %d steps, 1-%d-%d-1 tanh (%d weights), %d thread(s), dt %.6g"
          % (args.grid, args.steps, args.hidden, args.hidden, theta.size, args.threads, dt))
    print("J: rewind %.17g, PyTorch %.17g, relative difference %.2e" % (Jr, Jt, abs(Jr - Jt) / abs(Jt)))
    print("%-34s %10s %10s %8s" % ("", "rewind", "PyTorch", "ratio"))
    print("%-34s %10.3f %10.3f %8.2f" % ("forward run [s]", trf, ttf, ttf / trf))
    print("%-34s %10.3f %10.3f %8.2f" % ("gradient (forward + adjoint) [s]", tr, ttg, ttg / tr))
    print("%-34s %10.2f %10.2f" % ("gradient / forward", tr / trf, ttg / ttf))
    print("(rewind-gradient wall time, process start to end: %.3f s)" % wall)
    if abs(Jr - Jt) > 1e-10 * abs(Jt):
        sys.exit("J differs: the two codes do not solve the same problem")


if __name__ == "__main__":
    main()
