"""rewind.torch.simulate: torch.autograd.gradcheck for heat (kappa, u0, theta)
and wave (m) under every schedule type, on one rank; on several ranks, each
rank's gradients are its part of the one-rank gradients (argv[1]: a folder
where the one-rank run leaves them); under every schedule, simulate's
backward continues its forward's run (only the reverse sweep's
recomputations) with the bits of a VJP from nothing; bad input raises on
every rank."""
import os
import sys

import numpy as np
import torch

import rewind
import rewind.torch as rt
from rewind._lib import ffi, lib
from pytest_lib import check, comm, done, raises

folder = sys.argv[1]
SCHEDULES = [
    "-rw_schedule_type storeall",
    "-rw_schedule_type periodic -rw_schedule_period 2",
    "-rw_schedule_type revolve -rw_schedule_ram_slots 2",
    "-rw_schedule_type revolve -rw_schedule_ram_slots 1 -rw_store_type hdf5",
    "-rw_schedule_type multilevel -rw_schedule_ram_slots 1 -rw_schedule_disk_slots 2",
    "-rw_schedule_type online -rw_schedule_ram_slots 2",
]
CASES = [
    ("heat", "-rw_model_type heat -rw_heat_dim 1 -da_grid_x 8 -rw_steps 5", ["kappa", "u0"]),
    ("heat-nn", "-rw_model_type heat -rw_heat_dim 1 -da_grid_x 8 -rw_steps 4 -rw_heat_nn -rw_nn_layers 1,3,1", ["theta"]),
    ("heat-2d", "-rw_model_type heat -rw_heat_dim 2 -da_grid_x 6 -da_grid_y 5 -rw_steps 4", ["kappa"]),
    ("wave", "-rw_model_type wave -rw_wave_dim 2 -da_grid_x 10 -da_grid_y 9 -rw_wave_spacing 10,10 -rw_wave_nbl 2 "
             "-rw_steps 10 -rw_wave_receivers 20,10,40,30", ["m"]),
]


def natural(p, a):
    """This rank's part of a field in natural order, cut from the whole field a (x fastest)"""
    (xs, ys, zs), (xm, ym, zm) = p.corners()
    return a[zs:zs + zm, ys:ys + ym, xs:xs + xm].ravel()


def shape3(p, n):
    """The grid's sizes (z, y, x) from the corners of every rank"""
    (xs, ys, zs), (xm, ym, zm) = p.corners()
    return tuple(comm.allreduce(v, op=__import__("mpi4py").MPI.MAX) for v in (zs + zm, ys + ym, xs + xm))


for tag, opts, names in CASES:
    for s, sched in enumerate(SCHEDULES if comm.size == 1 else SCHEDULES[2:3]):
        p = rewind.Problem(f"{opts} {sched} -rw_store_hdf5_file {folder}/ck-{tag}-{s}.h5")
        start = {n: torch.tensor(np.array(p.parameter(n)) if n not in p.blocks else
                                 np.array(comm.bcast(np.array(p.parameter(n)) if comm.rank == 0 else None)),
                                 dtype=torch.float64) for n in names}
        # a generic point: a kappa or m that varies, a u0 that is not the default
        if "u0" in start:  # a function of the natural index: the same field on any number of ranks
            nz, ny, nx = shape3(p, 0)
            bump = natural(p, np.sin(np.arange(nz * ny * nx, dtype=np.float64)).reshape(nz, ny, nx))
            start["u0"] = start["u0"] + 0.1 * torch.from_numpy(bump)
        if comm.size == 1:
            inputs = tuple(start[n].clone().requires_grad_(True) for n in names)
            fn = lambda *ts: rt.simulate(p, dict(zip(names, ts)))
            ok = torch.autograd.gradcheck(fn, inputs, eps=1e-6, atol=1e-7, rtol=1e-5, fast_mode=(tag == "wave"))
            check(ok, f"gradcheck {tag} {names} {sched}")
        # the gradients of a fixed loss, for the ranks' comparison
        inputs = {n: start[n].clone().requires_grad_(True) for n in names}
        y = rt.simulate(p, inputs)
        if p.output_size() == y.numel() and "receivers" not in opts:  # the state: weights of the natural index
            nz, ny, nx = shape3(p, 0)
            idx = natural(p, np.arange(nz * ny * nx, dtype=np.float64).reshape(nz, ny, nx))
        else:  # receivers: replicated
            idx = np.arange(y.numel(), dtype=np.float64)
        w = torch.cos(torch.from_numpy(idx))
        (w * y * y).sum().backward()
        for n in names:
            g = inputs[n].grad.numpy()
            f = f"{folder}/{tag}-{n}.npy"
            if comm.size == 1 and s == 2:
                np.save(f, g)
            elif comm.size > 1 and n in p.blocks:
                check(np.array_equal(g, np.load(f)), f"{tag}: d/d{n} (a block) on {comm.size} ranks is the one-rank gradient, bit for bit")
            elif comm.size > 1:
                whole = np.load(f).reshape(shape3(p, g.size))
                check(np.array_equal(g, natural(p, whole)), f"{tag}: d/d{n} on {comm.size} ranks is this rank's part of the one-rank gradient, bit for bit")
        p.destroy()

# the backward continues the forward's run: only the reverse sweep's
# recomputations (the model's forward step counts), the bits of a VJP from nothing


def fsteps(p):
    f = ffi.new("PetscInt64 *")
    lib.RwModelGetStepCounts(p._model, f, ffi.NULL, ffi.NULL)
    return f[0]


for s, sched in enumerate(SCHEDULES):
    p = rewind.Problem("-rw_model_type heat -rw_heat_dim 2 -da_grid_x 9 -da_grid_y 7 -rw_steps 12 " + sched)
    k = torch.tensor(np.array(p.parameter("kappa")) * 1.25, requires_grad=True)
    f0 = fsteps(p)
    y = rt.simulate(p, {"kappa": k})
    f1 = fsteps(p)
    (y * y).sum().backward()
    f2 = fsteps(p)
    p.parameter("kappa")[:] = k.detach().numpy()
    ref = np.array(p.vjp(2 * y.detach().numpy())["kappa"])  # from nothing: a whole solve
    full = fsteps(p) - f2
    check(f1 - f0 == 12 and f2 - f1 == full - 12 and np.array_equal(k.grad.numpy(), ref),
          f"{sched}: simulate's forward took {f1 - f0} steps, its backward {f2 - f1} (a VJP from nothing {full}), the same bits")
    with torch.no_grad():  # nothing stored: the VJP after it is a whole solve
        y2 = rt.simulate(p, {"kappa": k})
    f3 = fsteps(p)
    p.vjp(2 * y2.numpy())
    check(torch.equal(y, y2) and fsteps(p) - f3 == full, f"{sched}: under no_grad the same y, and no run kept for a VJP")
    p.destroy()

# bad input: every rank raises, naming it
p = rewind.Problem("-rw_model_type heat -rw_heat_dim 1 -da_grid_x 8 -rw_steps 3")
k = torch.tensor(np.array(p.parameter("kappa")))
raises(ValueError, "no parameter 'kapa'", rt.simulate, p, {"kapa": k})
raises(ValueError, "torch.float64", rt.simulate, p, {"kappa": k.float()})
bad = torch.zeros(k.numel() + (1 if comm.rank == comm.size - 1 else 0), dtype=torch.float64)
raises(ValueError, "values", rt.simulate, p, {"kappa": bad})
p.destroy()
done()
