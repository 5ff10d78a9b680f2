"""rewind from Python: a whole problem (model, objective, schedule, stores)
from an options string, its exact gradient, and its run as y = F(m, u0) with
vector-Jacobian products (rewind.torch.simulate).  doc/python.md.

    import rewind
    p = rewind.Problem("-rw_model_type heat -rw_heat_dim 1 -da_grid_x 64 -rw_steps 10")
    p.parameter("kappa")[:] *= 2          # this rank's part, in place
    J, grad = p.gradient()                # grad["kappa"], grad["u0"]: views of this rank's part
"""
from mpi4py import MPI
from petsc4py import PETSc  # initialises PETSc (and MPI) before librewind is used
import numpy as np

from ._lib import ffi, lib, call, RewindError

__all__ = ["Problem", "RewindError", "Model", "Objective", "Adjoint", "Ensemble"]

if np.dtype(PETSc.IntType).itemsize != 4 or np.dtype(PETSc.ScalarType) != np.float64:
    raise ImportError("rewind's Python package needs PETSc with 32-bit indices and real double scalars (Debian's petsc-dev)")

def _name_program():
    """The script's name as PETSc's program name (petsc4py leaves it unknown): -help and the journals say it"""
    import os
    import sys
    name = ffi.new("char[256]")
    lib.PetscGetProgramName(name, 256)
    if ffi.string(name) == b"Unknown Name" and sys.argv and sys.argv[0]:
        lib.PetscSetProgramName(os.path.basename(sys.argv[0]).encode())


_name_program()

_count = [0]     # the next automatic prefix's number, agreed over each problem's communicator
_live = set()    # the prefixes of this process's problems not destroyed

from .objects import Model, Objective, Adjoint, Ensemble  # noqa: E402 (after the checks above)


def _agree(comm, problem):
    """Raises ValueError on every rank, with the first refusing rank's message,
    when any rank found a problem (a message, or None): the others would
    otherwise wait for it in the next solve"""
    if comm.allreduce(1 if problem else 0, op=MPI.MAX):
        raise ValueError(next(m for m in comm.allgather(problem) if m))


def _option_names(options):
    """The option names of an options string (a value may start with '-', as -1)"""
    return [w for w in options.split() if w.startswith("-") and len(w) > 1 and not (w[1].isdigit() or w[1] == ".")]


def _view(ptr, n):
    """n doubles at ptr as a writable numpy array, without a copy"""
    if n == 0:
        return np.empty(0)
    return np.frombuffer(ffi.buffer(ptr, 8 * n), dtype=np.float64)


class Problem:
    """A whole problem of options, under a prefix of its own so that several
    coexist (the options are given without it: "-rw_steps 10").

    Parameters are the model's fields ("kappa", "m", ...), its blocks of global
    scalars ("theta", ...) and the initial state "u0".  Arrays are this rank's
    part in natural order (a field's local box, x fastest; a state's
    components in the layout the model declares: take component c with
    component()); a block is whole, and lives on rank 0 (its
    view is empty elsewhere; every rank gets its values at the solve).
    The vectors' storage is numpy's: a view kept after destroy() is a plain
    array of the last values, never freed memory."""

    def __init__(self, options="", comm=None, prefix=None):
        self.comm = comm if comm is not None else MPI.COMM_WORLD
        self._p = ffi.NULL
        self._g = self._gu0 = None
        self._names = []
        self._owned = []  # (Vec, the numpy array its storage is)
        words = options.split()
        helps = "-help" in words  # PETSc's -help has no prefix: this problem's options are listed, nothing is solved
        if helps:
            options = " ".join(w for w in words if w != "-help")
        self.prefix = self._agree_prefix(options, prefix)
        self._names = _option_names(options)
        _live.add(self.prefix)
        opts = PETSc.Options()
        opts.prefixPush(self.prefix)
        try:
            opts.insertString(options)
        finally:
            opts.prefixPop()
        p, stop = ffi.new("RwProblem *"), ffi.new("PetscBool *")
        if helps:
            opts.setValue("-help", None)
        try:
            call("RwProblemCreate", ffi.cast("MPI_Comm", MPI._handleof(self.comm)), p)
            self._p = p[0]
            call("RwProblemSetOptionsPrefix", self._p, self.prefix.encode())
            call("RwProblemSetFromOptions", self._p)
            call("RwProblemSetUp", self._p)
            call("RwHelpStop", ffi.cast("MPI_Comm", MPI._handleof(self.comm)), stop)
            if not stop[0]:
                self._layout()
        except RewindError:
            self.destroy()
            raise
        finally:
            if helps:
                opts.delValue("-help")
        if stop[0]:  # the same on every rank: -help, with the options listed
            self.destroy()
            raise SystemExit(0)

    def _agree_prefix(self, options, prefix):
        """The problem's prefix, the same on every rank: the automatic one
        numbered past every rank's last, so that a rank that made more problems
        before cannot put this one's options under another's; the options (and
        a given prefix) must be the same on every rank, or the ranks create
        problems in different orders, and every rank raises ValueError"""
        first = self.comm.bcast((options, prefix), root=0)
        problem = None
        if (options, prefix) != first:
            problem = (f"rewind.Problem: rank {self.comm.rank} creates a problem of options {options!r} while rank 0 creates "
                       f"one of {first[0]!r}: create problems in the same order on every rank of the communicator")
        elif prefix is not None and prefix in _live:
            problem = f"rewind.Problem: the prefix {prefix!r} is another problem's on rank {self.comm.rank}: destroy it first, or choose another"
        _agree(self.comm, problem)
        if prefix is not None:
            return prefix
        n = self.comm.allreduce(_count[0], op=MPI.MAX)
        _count[0] = n + 1
        return "rwpy%d_" % n

    # ---- the parameters' layout --------------------------------------------------
    def _layout(self):
        model = ffi.new("RwModel *")
        m, u0 = ffi.new("Vec *"), ffi.new("Vec *")
        call("RwProblemGetModel", self._p, model)
        call("RwProblemGetParameters", self._p, m, u0)
        self._model, self._m, self._u0 = model[0], m[0], u0[0]
        nf, names, nb = ffi.new("PetscInt *"), ffi.new("const char *const **"), ffi.new("PetscInt *")
        call("RwModelGetParameterInfo", self._model, nf, names, nb)
        self.fields = [ffi.string(names[0][i]).decode() for i in range(nf[0])]
        self.blocks = {}
        for b in range(nb[0]):
            name, size, per, off = ffi.new("const char **"), ffi.new("PetscInt *"), ffi.new("PetscInt *"), ffi.new("PetscInt *")
            call("RwModelGetParameterBlockInfo", self._model, b, name, size, per, off)
            self.blocks[ffi.string(name[0]).decode()] = (off[0], size[0])
        ns = ffi.new("PetscInt *")
        call("RwModelGetNumParameterScalars", self._model, ns)
        self._nscalars = ns[0]
        self._params = self._views(self._m, self._u0)

    def _array(self, v):
        a, n = ffi.new("PetscScalar **"), ffi.new("PetscInt *")
        call("VecGetLocalSize", v, n)
        call("VecGetArray", v, a)
        ptr = a[0]
        call("VecRestoreArray", v, a)  # the storage stays: the view reads and writes it
        return ptr, n[0]

    def _own(self, v):
        """v's storage moved into a numpy array (its values copied; VecPlaceArray),
        so that views of it, slices of that array, stay valid arrays after
        destroy(), holding the last values, instead of pointing at freed memory"""
        ptr, n = self._array(v)
        a = np.array(_view(ptr, n))
        call("VecPlaceArray", v, ffi.cast("PetscScalar *", a.ctypes.data))
        self._owned.append((v, a))
        return a

    @staticmethod
    def _slice(a, ptr, n):
        """The n values at ptr, inside a's storage, as a slice of a"""
        if n == 0:
            return a[:0]
        off = (int(ffi.cast("uintptr_t", ptr)) - a.ctypes.data) // 8
        assert 0 <= off and off + n <= a.size, "a view outside its vector's storage"
        return a[off:off + n]

    def _views(self, m, u0):
        """Views of a parameter vector's fields and rank 0's scalars, and of a state"""
        am, au0 = self._own(m), self._own(u0)
        views = {}
        for i, name in enumerate(self.fields):
            f = ffi.new("Vec *")
            call("RwModelGetParameterField", self._model, m, i, f)
            views[name] = self._slice(am, *self._array(f[0]))  # the field's part of m's storage
            call("RwModelRestoreParameterField", self._model, m, i, f)
        scalars = am[am.size - self._nscalars:] if self.comm.rank == 0 else np.empty(0)
        for name, (off, size) in self.blocks.items():
            views[name] = scalars[off:off + size] if self.comm.rank == 0 else np.empty(0)
        views["u0"] = au0
        return views

    def corners(self):
        """This rank's box of the grid: ((xs, ys, zs), (xm, ym, zm)), its first
        point and its sizes (1 in the directions the grid does not have)"""
        dm = ffi.new("DM *")
        c = [ffi.new("PetscInt *") for _ in range(6)]
        call("RwModelGetFieldDM", self._model, dm)
        call("DMDAGetCorners", dm[0], *c)
        return tuple(v[0] for v in c[:3]), tuple(max(v[0], 1) for v in c[3:])

    def component(self, state, c):
        """Component c of a state (parameter("u0"), a gradient's "u0") as a
        writable numpy view of this rank's points in natural order (the
        local box, x fastest), wherever the model's layout puts it:
        interleaved at every point, or in planes (a block per component)"""
        dof, stride, offset = ffi.new("PetscInt *"), ffi.new("PetscInt *"), ffi.new("PetscInt *")
        call("RwModelGetStateInfo", self._model, dof, ffi.NULL, ffi.NULL)
        if state.size % dof[0]:
            raise ValueError(f"rewind: an array of {state.size} values is not a state of {dof[0]} components")
        n = state.size // dof[0]
        call("RwModelGetStateLayout", self._model, c, n, stride, offset)
        return state[offset[0]:offset[0] + (n - 1) * stride[0] + 1:stride[0]] if n else state[:0]

    @property
    def names(self):
        """Every parameter's name: fields, blocks, then u0"""
        return self.fields + list(self.blocks) + ["u0"]

    def parameter(self, name):
        """A writable numpy view of this rank's part of parameter name (no copy)"""
        if name not in self._params:
            raise KeyError(f"rewind: no parameter {name!r}; this problem's are {', '.join(self.names)}")
        return self._params[name]

    def getParameters(self):
        """The parameters m and the initial state u0 as petsc4py Vecs: the
        storage parameter() views (writes through either are the other's)"""
        from .objects import wrap
        return wrap(self._m), wrap(self._u0)

    def getEnsemble(self):
        """The problem's rewind.Ensemble: its members on groups of the ranks
        (-rw_ensemble_groups); gradient() sums them in member order"""
        e = ffi.new("RwEnsemble *")
        call("RwProblemGetEnsemble", self._p, e)
        return Ensemble()._borrow(e[0], self.comm)

    @property
    def members(self):
        """The number of members gradient() sums"""
        n = ffi.new("PetscInt *")
        call("RwProblemGetNumMembers", self._p, n)
        return n[0]

    def getGradient(self):
        """The gradient vectors gradient() and vjp() fill, as petsc4py Vecs"""
        from .objects import wrap
        self._gradient_vectors()
        return wrap(self._g), wrap(self._gu0)

    def _touched(self):
        # writes through the views do not pass through PETSc: a get and restore of
        # the array marks m and u0 changed, so nothing PETSc cached of them is used
        a = ffi.new("PetscScalar **")
        for v in (self._m, self._u0):
            call("VecGetArray", v, a)
            call("VecRestoreArray", v, a)

    # ---- evaluations ---------------------------------------------------------------
    def _gradient_vectors(self):
        if self._g is None:
            g, gu0 = ffi.new("Vec *"), ffi.new("Vec *")
            call("RwModelCreateParameters", self._model, g)
            call("RwModelCreateState", self._model, gu0)
            self._g, self._gu0 = g[0], gu0[0]
            self._grad = self._views(self._g, self._gu0)
            self._gscalars = np.empty(self._nscalars)
        return self._g, self._gu0

    def _gradient_dict(self):
        call("RwModelGetParameterScalars", self._model, self._g, ffi.cast("PetscReal *", self._gscalars.ctypes.data))
        grad = {name: self._grad[name] for name in self.fields}
        for name, (off, size) in self.blocks.items():
            grad[name] = self._gscalars[off:off + size]  # whole, on every rank
        grad["u0"] = self._grad["u0"]
        return grad

    def gradient(self):
        """J and its gradient at the current parameters, what rewind-gradient
        computes: (J, {name: this rank's part}); fields and u0 are views of
        the problem's gradient vectors, overwritten by the next call"""
        self._touched()
        g, gu0 = self._gradient_vectors()
        J = ffi.new("PetscReal *")
        call("RwProblemComputeGradient", self._p, J, g, gu0)
        return J[0], self._gradient_dict()

    def output_size(self):
        """The number of outputs y on this rank (sensors: all, replicated; else this rank's part of the final state)"""
        n = ffi.new("PetscInt *")
        call("RwProblemGetOutputSize", self._p, n)
        return n[0]

    def outputs(self, keep=False):
        """y = F(m, u0): what the objective observes, from one forward run;
        with keep, the run's checkpoints stay, and a vjp() at the same
        parameters is then its reverse sweep alone"""
        self._touched()
        y = np.empty(self.output_size())
        call("RwProblemComputeOutputsForVJP" if keep else "RwProblemComputeOutputs", self._p, ffi.cast("PetscReal *", y.ctypes.data))
        return y

    def vjp(self, ybar):
        """The gradient of <ybar, y> with respect to every parameter, through the
        problem's schedule and stores: {name: this rank's part} as gradient()"""
        n = self.output_size()
        ybar = np.asarray(ybar)
        problem = None
        if ybar.dtype != np.float64 or ybar.size != n:
            problem = f"rewind: the cotangent has {ybar.size} values of {ybar.dtype} on rank {self.comm.rank}; expected {n} of float64"
        _agree(self.comm, problem)
        ybar = np.ascontiguousarray(ybar.reshape(-1))
        self._touched()
        g, gu0 = self._gradient_vectors()
        call("RwProblemComputeVJP", self._p, ffi.cast("const PetscReal *", ybar.ctypes.data), ffi.NULL, g, gu0)
        return self._gradient_dict()

    # ---- life cycle ----------------------------------------------------------------
    def destroy(self):
        """Frees the problem and forgets its options (collective); views of its
        vectors stay valid numpy arrays with the last values"""
        for v, _ in self._owned:
            call("VecResetArray", v)
        self._owned = []
        if self._g is not None:
            for v in (self._g, self._gu0):
                call("VecDestroy", ffi.new("Vec *", v))
            self._g = self._gu0 = None
        if self._p != ffi.NULL:
            call("RwProblemDestroy", ffi.new("RwProblem *", self._p))
            self._p = ffi.NULL
        opts = PETSc.Options()
        for name in self._names:
            opts.delValue("-" + self.prefix + name[1:])
        self._names = []
        self._params = {}
        _live.discard(self.prefix)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()
