"""The first example of differentiable simulation, through rewind.

A periodic 1D explicit heat step on 64 points, written in PyTorch as its users
write it,

    u + dt*alpha*(roll(u, 1) - 2u + roll(u, -1)),   dt 0.1, alpha 0.5,

from a unit spike at point 32, the sum of the result differentiated back to
u.  rewind's heat model takes the same step (kappa = alpha, its time step
dt h^2 so that dt_rewind kappa / h^2 = dt alpha) and gives the gradient by
its adjoint, checkpointed; here it is compared with PyTorch's autograd, for
that one step and for 20 steps with a loss that is not linear.

    mpiexec -n 2 python3 heat1d.py [--steps 20]
"""
import argparse

import numpy as np
import torch

import rewind
import rewind.torch as rt

N, DT, ALPHA = 64, 0.1, 0.5


def torch_heat(u, steps):
    for _ in range(steps):
        u = u + DT * ALPHA * (torch.roll(u, 1) - 2 * u + torch.roll(u, -1))
    return u


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20)
    args = ap.parse_args()
    worst = 0.0
    for steps, loss in ((1, lambda y: y.sum()), (args.steps, lambda y: (y * y * torch.cos(torch.arange(y.numel(), dtype=torch.float64))).sum())):
        # PyTorch alone: every intermediate kept by its tape
        u = torch.zeros(N, dtype=torch.float64)
        u[32] = 1
        u.requires_grad_(True)
        loss(torch_heat(u, steps)).backward()
        ref = u.grad.numpy()

        # rewind: the same step, the state and its gradient distributed
        h = 1.0 / N  # periodic: point i at i h
        p = rewind.Problem(f"-rw_model_type heat -rw_heat_dim 1 -da_grid_x {N} -rw_heat_bc periodic "
                           f"-rw_heat_scheme explicit -rw_steps {steps} -rw_dt {DT * h * h!r} "
                           "-rw_schedule_type revolve -rw_schedule_ram_slots 2")
        p.parameter("kappa")[:] = ALPHA
        for name in p.fields:
            if name != "kappa":
                p.parameter(name)[:] = 0  # no source
        (xs, _, _), (xm, _, _) = p.corners()
        u0 = torch.zeros(xm, dtype=torch.float64)
        if xs <= 32 < xs + xm:
            u0[32 - xs] = 1
        u0.requires_grad_(True)
        y = rt.simulate(p, {"u0": u0})
        # each rank's loss is its part of the whole one: the VJP sums them
        glob = torch.arange(xs, xs + xm, dtype=torch.float64)
        if steps == 1:
            part = y.sum()
        else:
            part = (y * y * torch.cos(glob)).sum()
        part.backward()
        err = np.max(np.abs(u0.grad.numpy() - ref[xs:xs + xm])) / np.max(np.abs(ref))
        err = p.comm.allreduce(err, op=max)
        worst = max(worst, err)
        if p.comm.rank == 0:
            print(f"{steps} step(s): du0 from rewind vs torch.roll autograd, max relative difference {err:.3e}")
        p.destroy()
    if p.comm.rank == 0:
        print("PASS" if worst <= 1e-13 else "FAIL", flush=True)
    raise SystemExit(0 if worst <= 1e-13 else 1)


if __name__ == "__main__":
    main()
