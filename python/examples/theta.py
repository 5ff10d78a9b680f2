"""The network inside the physics, trained from PyTorch.

rewind's heat model with a learned pointwise reaction N_theta(u)
(-rw_heat_nn: a small network whose weights are the block "theta") is the
physics; theta is a torch.nn.Parameter; the loss, a torch loss against
observations made with other weights, and the optimiser, torch.optim.Adam,
are PyTorch's.  Every rank holds theta whole; its gradient comes back summed
over the ranks exactly (the same bits everywhere), so the ranks stay in step.

    mpiexec -n 2 python3 theta.py [--epochs 30]
"""
import argparse

import numpy as np
import torch

import rewind
import rewind.torch as rt

OPTS = ("-rw_model_type heat -rw_heat_dim 1 -da_grid_x 48 -rw_heat_bc periodic -rw_steps 40 -rw_heat_nn "
        "-rw_nn_layers 1,4,1 -rw_schedule_type revolve -rw_schedule_ram_slots 4")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    args = ap.parse_args()
    p = rewind.Problem(OPTS)
    comm = p.comm
    ntheta = p.blocks["theta"][1]
    # the observations: the run with the weights the problem starts from, made non-trivial
    true = torch.tensor(comm.bcast(np.array(p.parameter("theta")) if comm.rank == 0 else None), dtype=torch.float64)
    true = true + 0.3 * torch.sin(torch.arange(ntheta, dtype=torch.float64))
    with torch.no_grad():
        data = rt.simulate(p, {"theta": true})
    theta = torch.nn.Parameter(true + 0.2 * torch.cos(1.7 * torch.arange(ntheta, dtype=torch.float64)))
    opt = torch.optim.Adam([theta], lr=0.02)
    first = last = None
    for epoch in range(args.epochs):
        opt.zero_grad()
        y = rt.simulate(p, {"theta": theta})
        loss = 0.5 * ((y - data) ** 2).sum()  # this rank's part of the misfit
        loss.backward()
        opt.step()
        total = comm.allreduce(loss.item())
        first = total if first is None else first
        last = total
        if comm.rank == 0 and (epoch % 10 == 0 or epoch == args.epochs - 1):
            print(f"epoch {epoch:3d} loss {total:.6e}", flush=True)
    p.destroy()
    ok = last < 0.5 * first
    if comm.rank == 0:
        print(f"loss {first:.3e} -> {last:.3e}: {'PASS' if ok else 'FAIL'}", flush=True)
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
