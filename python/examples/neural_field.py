"""Hybrid learning from PyTorch: a neural field for the conductivity.

A torch.nn network maps a point's coordinates to the conductivity there
(kappa = 0.5 + 1.5 sigmoid(net(x, y))); rewind runs the 2D heat model from that
field with checkpointing (revolve, 3 slots in RAM); the loss is computed in
PyTorch against observations of the final temperature made with another
field, and torch.optim.Adam trains the network.  Each rank evaluates the
network on its own points; the network's gradients are summed over the ranks
(as DistributedDataParallel would) so that every rank takes the same step.

    mpiexec -n 2 python3 neural_field.py [--epochs 40] [--n 24]
"""
import argparse
import time

import numpy as np
import torch

import rewind
import rewind.torch as rt
from mpi4py import MPI


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--n", type=int, default=24)
    ap.add_argument("--steps", type=int, default=30)
    args = ap.parse_args()
    torch.manual_seed(0)
    n = args.n
    p = rewind.Problem(f"-rw_model_type heat -rw_heat_dim 2 -da_grid_x {n} -da_grid_y {n} -rw_steps {args.steps} -rw_dt 1e-4 "
                       "-rw_schedule_type revolve -rw_schedule_ram_slots 3")
    comm = p.comm
    (xs, ys, _), (xm, ym, _) = p.corners()
    jj, ii = np.meshgrid(np.arange(ys, ys + ym), np.arange(xs, xs + xm), indexing="ij")
    xy = torch.tensor(np.stack([ii.ravel() / n, jj.ravel() / n], axis=1), dtype=torch.float64)  # this rank's points, natural order

    # observations: the final state from a conductivity with a bump
    true = 0.5 + 1.5 * torch.exp(-((xy[:, 0] - 0.35) ** 2 + (xy[:, 1] - 0.6) ** 2) / 0.02)
    with torch.no_grad():
        data = rt.simulate(p, {"kappa": true})

    net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16), torch.nn.Tanh(),
                              torch.nn.Linear(16, 1)).double()
    for q in net.parameters():  # the same start on every rank
        q.data = torch.from_numpy(comm.bcast(q.data.numpy()))
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    first = last = None
    t0 = time.perf_counter()
    for epoch in range(args.epochs):
        opt.zero_grad()
        kappa = 0.5 + 1.5 * torch.sigmoid(net(xy)).reshape(-1)  # within the explicit scheme's stable range
        y = rt.simulate(p, {"kappa": kappa})
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
    p.destroy()
    ok = last < 0.5 * first
    if comm.rank == 0:
        print(f"loss {first:.3e} -> {last:.3e} ({seconds:.3f} s an epoch): {'PASS' if ok else 'FAIL'}", flush=True)
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
