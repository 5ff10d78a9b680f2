"""The C classes the petsc4py way (rewind.Model, Objective, Adjoint): a solve
of their own equals rewind.Problem's gradient bit for bit; Vecs are
petsc4py's, sharing memory with the problem's numpy views; misuse raises."""
import numpy as np
from petsc4py import PETSc

import rewind
from pytest_lib import check, comm, done, raises

OPTS = "-rw_model_type heat -rw_heat_dim 2 -da_grid_x 12 -da_grid_y 9 -rw_steps 6 -rw_schedule_type revolve -rw_schedule_ram_slots 2"
o = PETSc.Options()
o.prefixPush("t803_")
o.insertString(OPTS)
o.prefixPop()

model = rewind.Model().create().setOptionsPrefix("t803_").setFromOptions().setUp()
obj = rewind.Objective().create(model).setOptionsPrefix("t803_")
adj = rewind.Adjoint().create(model, obj).setOptionsPrefix("t803_").setFromOptions()  # -rw_steps: before the terms
obj.setFromOptions()
adj.setUp()
m, u0 = model.getDefaults()
g, gu0 = model.createParameters(), model.createState()
J = adj.solve(m, u0, g, gu0)
check(isinstance(g, PETSc.Vec) and isinstance(m, PETSc.Vec), "parameters, states and gradients are petsc4py Vecs")

p = rewind.Problem(OPTS)
Jp, grad = p.gradient()
check(J == Jp, f"Adjoint.solve's J {J!r} is rewind.Problem's {Jp!r}")
check(np.array_equal(gu0.getArray(), grad["u0"]), "and its dJ/du0, bit for bit")
pm, pu0 = p.getParameters()
pg, pgu0 = p.getGradient()
check(np.array_equal(g.getArray(), pg.getArray()), "and its dJ/dm, bit for bit")
check(np.shares_memory(pu0.getArray(), p.parameter("u0")) and np.shares_memory(pg.getArray(), grad["kappa"]),
      "the problem's numpy views share memory with its petsc4py Vecs")
pu0.set(0.25)
check(np.all(p.parameter("u0") == 0.25), "a write through the petsc4py Vec shows in the view")
raises(ValueError, "call create() first", rewind.Adjoint().setFromOptions)
o.setValue("-bad_rw_heat_dim", 9)
bad = rewind.Model().create().setOptionsPrefix("bad_")
raises(rewind.RewindError, "rw_heat_dim 9", bad.setFromOptions)
bad.destroy()
o.delValue("-bad_rw_heat_dim")
for x in (adj, obj, model):
    x.destroy()
    x.destroy()  # NULL-safe, as the C Destroy
p.destroy()
done()
