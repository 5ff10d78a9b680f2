"""rewind.Problem: the gradient is rewind-gradient's bit for bit (its file,
argv[1], written with the same options); views are zero-copy and writable;
several problems coexist; errors are exceptions on every rank; many solves
keep the memory flat."""
import resource
import sys

import h5py
import numpy as np

import rewind
from rewind._lib import ffi, lib
from pytest_lib import check, comm, done, raises

OPTS = sys.argv[2]
ref = h5py.File(sys.argv[1], "r")


def local(name, p):
    """This rank's part of a dataset of rewind-gradient's file, in natural order"""
    d = ref[name]
    (xs, ys, zs), (xm, ym, zm) = p.corners()
    a = d[()]
    if a.ndim == 1:
        return a[xs:xs + xm]
    if a.ndim == 2:
        return a[ys:ys + ym, xs:xs + xm].ravel()
    return a[zs:zs + zm, ys:ys + ym, xs:xs + xm].ravel()


p = rewind.Problem(OPTS)
J, grad = p.gradient()
check(J == ref.attrs["J"], f"J {J!r} equals rewind-gradient's {ref.attrs['J']!r}")
check(sorted(grad) == sorted(p.names), f"the gradient has every parameter: {sorted(grad)}")
for name in p.fields + ["u0"]:
    check(np.array_equal(grad[name], local("dJd" + name, p)), f"dJd{name} equals rewind-gradient's bit for bit")
for name, (off, size) in p.blocks.items():
    want = ref.attrs["dJd" + name] if size == 1 else ref["dJd" + name][()]
    check(np.array_equal(grad[name], np.ravel(want)), f"dJd{name} (a block, whole on every rank) equals rewind-gradient's")

# zero copy: the arrays are the Vecs' storage
m, u0 = ffi.new("Vec *"), ffi.new("Vec *")
lib.RwProblemGetParameters(p._p, m, u0)
a = ffi.new("PetscScalar **")
lib.VecGetArray(u0[0], a)
addr = int(ffi.cast("uintptr_t", a[0]))
lib.VecRestoreArray(u0[0], a)
check(p.parameter("u0").ctypes.data == addr, "parameter('u0') is the Vec's own storage")
J2, grad2 = p.gradient()
check(np.shares_memory(grad["kappa"], grad2["kappa"]) and np.shares_memory(grad["u0"], grad2["u0"]),
      "gradient() returns views of the same vectors each time")

# writable: u0 set through the view gives what -rw_parameter u0=0.25 gives
p.parameter("u0")[:] = 0.25
J3, grad3 = p.gradient()
q = rewind.Problem(OPTS + " -rw_parameter u0=0.25")
Jq, gradq = q.gradient()
check(J3 == Jq and J3 != J, f"J after writing u0 through the view is that of -rw_parameter u0=0.25 ({J3!r}, {Jq!r})")
check(all(np.array_equal(grad3[n], gradq[n]) for n in p.names), "and so is every gradient, bit for bit")
q.destroy()

# two problems side by side, each under its own prefix
r = rewind.Problem(OPTS + " -rw_steps 3")
Jr, _ = r.gradient()
Jp, _ = p.gradient()
check(Jr != Jp and Jp == J3, f"two problems coexist: {Jp!r} and {Jr!r}")
r.destroy()

# errors: Python exceptions carrying PETSc's message, on every rank
raises(rewind.RewindError, "rw_heat_dim 7: expected a whole number in [1, 3]", rewind.Problem, OPTS + " -rw_heat_dim 7")
raises(KeyError, "no parameter 'kapa'", p.parameter, "kapa")
n = p.output_size()
raises(ValueError, "cotangent", p.vjp, np.zeros(n + (1 if comm.rank == comm.size - 1 else 0)))
raises(ValueError, "float64", p.vjp, np.zeros(n, dtype=np.float32))

# many solves: the memory stays flat (no Vec or object left behind)
s = rewind.Problem("-rw_model_type heat -rw_heat_dim 1 -da_grid_x 16 -rw_steps 3 -rw_schedule_type revolve -rw_schedule_ram_slots 1")


def rss():
    """This process's resident memory now, KiB"""
    return int(open("/proc/self/statm").read().split()[1]) * resource.getpagesize() // 1024


for i in range(300):  # MPI's and the allocator's pools fill first
    s.gradient()
    s.vjp(np.ones(s.output_size()))
rss0 = rss()
for i in range(1000):
    s.gradient()
    s.vjp(np.ones(s.output_size()))
rss1 = rss()
check(rss1 - rss0 < 1024, f"1,000 more gradients and VJPs: resident memory {rss0} KiB -> {rss1} KiB")
s.destroy()
p.destroy()
done()
