"""A Python-built problem's life: -help lists its options and raises
SystemExit(0) on every rank without solving; views outlive destroy() as
arrays of the last values; ranks that create problems in different orders
are told so on every rank; a problem on some ranks only does not move the
others' prefixes apart."""
import numpy as np
from mpi4py import MPI
from petsc4py import PETSc

import rewind
from pytest_lib import check, comm, done, raises

OPTS = "-rw_model_type heat -rw_heat_dim 2 -da_grid_x 10 -da_grid_y 7 -rw_steps 4 -rw_schedule_type revolve -rw_schedule_ram_slots 1"

# -help: SystemExit(0) everywhere, nothing solved, -help forgotten after
code = None
try:
    rewind.Problem(OPTS + " -help")
except SystemExit as e:
    code = e.code
check(code == 0, f"a problem with -help raises SystemExit(0) (got {code!r})")
check(not PETSc.Options().hasName("help"), "-help is not left in PETSc's options")

# views after destroy: the last values, writable, no freed memory
p = rewind.Problem(OPTS)
k = p.parameter("kappa")
k[:] = 1.5
J, g = p.gradient()
gk, keep = g["kappa"], g["kappa"].copy()
p.destroy()
check(np.all(k == 1.5) and np.array_equal(gk, keep) and np.any(keep != 0),
      "views kept after destroy() hold the last parameter and gradient values")
k[:] = 2.0
gk += 1
check(np.all(k == 2.0) and np.array_equal(gk, keep + 1), "and can be written (plain numpy arrays now)")
raises(ValueError, "another problem's", lambda: [rewind.Problem(OPTS, prefix="own_"), rewind.Problem(OPTS, prefix="own_")])

# a problem on rank 0 alone moves its counter; the next problem on every rank still agrees on one prefix
if comm.rank == 0:
    s = rewind.Problem(OPTS, comm=MPI.COMM_SELF)
    s.destroy()
q = rewind.Problem(OPTS)
Jq, _ = q.gradient()
check(len(set(comm.allgather(q.prefix))) == 1, f"every rank's problem has the prefix {q.prefix!r}")
q.destroy()

# different orders on different ranks: a ValueError on every rank, naming the cause
if comm.size > 1:
    mine = OPTS if comm.rank == 0 else OPTS + " -rw_steps 5"
    raises(ValueError, "in the same order on every rank", rewind.Problem, mine)
r = rewind.Problem(OPTS)
Jr, _ = r.gradient()
check(Jr == Jq, "after a refused problem, the next one solves as before")
r.destroy()
done()
