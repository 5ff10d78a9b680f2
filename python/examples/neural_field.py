"""Hybrid learning from PyTorch: a neural field for the conductivity.

A torch.nn network maps a point's coordinates to the conductivity there
(kappa = 0.5 + 1.5 sigmoid(net(x, y))); rewind runs the 2D heat model from that
field with checkpointing (revolve, --slots states in RAM, 3); the loss is computed in
PyTorch against observations of the final temperature made with another
field, and torch.optim.Adam trains the network.  Each rank evaluates the
network on its own points; the network's gradients are summed over the ranks
(as DistributedDataParallel would) so that every rank takes the same step.

    mpiexec -n 2 python3 neural_field.py [--epochs 40] [--n 24] [--steps 30]
    python3 neural_field.py --impl torch ...    the same problem in PyTorch alone

--impl torch trains the same network on the same problem written as a
PyTorch user writes it (torch.roll for the periodic stencil, autograd through
every step, the whole tape), on one rank: the losses agree with rewind's, and
the epoch's seconds and the process's peak memory compare the two.
"""
import argparse
import resource
import time

import numpy as np
import torch

import rewind
import rewind.torch as rt
from mpi4py import MPI


def torch_heat(u, kappa, dt, steps, h):
    """rewind's explicit heat step, periodic, written with torch.roll: kappa at a face the mean of its points'"""
    kx, ky = 0.5 * (kappa + torch.roll(kappa, -1, 1)), 0.5 * (kappa + torch.roll(kappa, -1, 0))
    for _ in range(steps):
        ux, uy = torch.roll(u, -1, 1) - u, torch.roll(u, -1, 0) - u
        u = u + dt * (kx * ux - torch.roll(kx * ux, 1, 1) + ky * uy - torch.roll(ky * uy, 1, 0)) / h ** 2
    return u


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--n", type=int, default=24)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--impl", choices=["rewind", "torch"], default="rewind")
    ap.add_argument("--slots", type=int, default=3, help="revolve's checkpoints in RAM")
    args = ap.parse_args()
    torch.manual_seed(0)
    n = args.n
    dt = 1.0 / (16 * n * n)  # half the explicit limit h^2 / (4 max kappa) in 2D, kappa < 2
    p = rewind.Problem(f"-rw_model_type heat -rw_heat_dim 2 -da_grid_x {n} -da_grid_y {n} -rw_steps {args.steps} -rw_dt {dt!r} "
                       f"-rw_heat_bc periodic -rw_schedule_type revolve -rw_schedule_ram_slots {args.slots}")
    comm = p.comm
    p.parameter("s")[:] = 0  # du/dt = div(kappa grad u): no source, no decay
    p.parameter("r")[:] = 0
    (xs, ys, _), (xm, ym, _) = p.corners()
    jj, ii = np.meshgrid(np.arange(ys, ys + ym), np.arange(xs, xs + xm), indexing="ij")
    xy = torch.tensor(np.stack([ii.ravel() / n, jj.ravel() / n], axis=1), dtype=torch.float64)  # this rank's points, natural order

    # observations: the final state from a conductivity with a bump
    true = 0.5 + 1.5 * torch.exp(-((xy[:, 0] - 0.35) ** 2 + (xy[:, 1] - 0.6) ** 2) / 0.02)
    if args.impl == "torch":
        assert comm.size == 1, "--impl torch runs on one rank"
        u0 = torch.tensor(np.array(p.parameter("u0")).reshape(n, n))
        p.destroy()
        simulate = lambda kappa: torch_heat(u0, kappa.reshape(n, n), dt, args.steps, 1.0 / n).reshape(-1)
    else:
        simulate = lambda kappa: rt.simulate(p, {"kappa": kappa})
    with torch.no_grad():
        data = simulate(true)

    net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16), torch.nn.Tanh(),
                              torch.nn.Linear(16, 1)).double()
    for q in net.parameters():  # the same start on every rank
        q.data = torch.from_numpy(comm.bcast(q.data.numpy()))
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    first = last = None
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # the interpreter, torch, the data
    t0, c0 = time.perf_counter(), time.process_time()
    for epoch in range(args.epochs):
        opt.zero_grad()
        kappa = 0.5 + 1.5 * torch.sigmoid(net(xy)).reshape(-1)  # within the explicit scheme's stable range
        y = simulate(kappa)
        loss = 0.5 * ((y - data) ** 2).sum() * 1e4  # this rank's part
        loss.backward()
        for q in net.parameters():
            q.grad = torch.from_numpy(comm.allreduce(q.grad.numpy(), op=MPI.SUM))
        opt.step()
        total = comm.allreduce(loss.item())
        first = total if first is None else first
        last = total
        if comm.rank == 0 and (epoch % 10 == 0 or epoch == args.epochs - 1):
            print(f"epoch {epoch:3d} loss {total:.6e}", flush=True)
    seconds = (time.perf_counter() - t0) / args.epochs
    cpu = comm.allreduce(time.process_time() - c0, op=MPI.MAX) / args.epochs  # on a shared machine, steadier than the clock
    if args.impl == "rewind":
        p.destroy()
    ok = last < 0.5 * first
    peak = comm.allreduce(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024
    base = comm.allreduce(base) / 1024
    if comm.rank == 0:
        print(f"{args.impl}: {seconds:.4f} s an epoch ({cpu:.4f} s of CPU), peak memory {peak:.0f} MiB, {peak - base:.0f} MiB above the start (all ranks); "
              f"loss {first:.3e} -> {last:.3e} ({last!r}): {'PASS' if ok else 'FAIL'}", flush=True)
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
