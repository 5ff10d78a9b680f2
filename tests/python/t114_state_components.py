"""Problem.component(state, c): component c of a state as a writable view of
this rank's points in natural order, wherever the model's declared layout
puts it (issue 37 item 1).  The wave model's state (u_k, u_k-1) is switched
between interleaved and planes (RwModelSetStateLayout_Private(), a test's
switch: the model steps interleaved today); in both, values written through
the views are what the C library's RwModelGetStateComponent() reads, the
raw arrays differ as the layouts say, and a heat state (one component) is
its own component 0."""
import numpy as np

import rewind
from rewind._lib import ffi, lib, call
from pytest_lib import check, comm, done, raises

WAVE = "-rw_model_type wave -rw_wave_dim 2 -da_grid_x 13 -da_grid_y 11 -rw_wave_spacing 10,10 -rw_wave_nbl 2 -rw_steps 3"

p = rewind.Problem(WAVE)
u0 = p.parameter("u0")
(xs, ys, zs), (xm, ym, zm) = p.corners()
n = xm * ym * zm
check(u0.size == 2 * n, f"the wave's u0 holds two components of this rank's {n} points")
# natural-order values that say their point, component and rank
f = [1000.0 * c + 10000.0 * comm.rank + np.arange(n, dtype=np.float64) for c in (0, 1)]
raw = []
for layout, name in ((0, "interleaved"), (1, "planes")):
    call("RwModelSetStateLayout_Private", p._model, layout)
    for c in (0, 1):
        p.component(u0, c)[:] = f[c]
    raw.append(u0.copy())
    for c in (0, 1):
        fld = ffi.new("Vec *")
        call("RwModelCreateField", p._model, fld)
        call("RwModelGetStateComponent", p._model, p._u0, c, fld[0])
        a, m = ffi.new("PetscScalar **"), ffi.new("PetscInt *")
        call("VecGetLocalSize", fld[0], m)
        call("VecGetArray", fld[0], a)
        got = np.frombuffer(ffi.buffer(a[0], 8 * m[0]), dtype=np.float64).copy() if m[0] else np.empty(0)
        call("VecRestoreArray", fld[0], a)
        call("VecDestroy", fld)
        check(np.array_equal(got, f[c]), f"{name}: component {c} written through the view is what RwModelGetStateComponent() reads")
        check(np.shares_memory(p.component(u0, c), u0) or n == 0, f"{name}: component {c} is a view of u0, not a copy")
check(np.array_equal(raw[0][0::2], f[0]) and np.array_equal(raw[0][1::2], f[1]), "interleaved: u0 holds (u_k, u_k-1) at every point")
check(np.array_equal(raw[1][:n], f[0]) and np.array_equal(raw[1][n:], f[1]), "planes: u0 holds this rank's u_k block, then its u_k-1 block")
raises(rewind.RewindError, "State component 2: the state has components 0 to 1", p.component, u0, 2)
raises(ValueError, "is not a state of 2 components", p.component, u0[:-1], 0)
call("RwModelSetStateLayout_Private", p._model, 0)
p.destroy()

h = rewind.Problem("-rw_model_type heat -da_grid_x 9 -da_grid_y 7 -rw_steps 2")
v = h.parameter("u0")
check(np.shares_memory(h.component(v, 0), v) and h.component(v, 0).size == v.size, "a heat state is its own component 0")
h.destroy()
done()
