"""The C classes the petsc4py way: Model, Objective, Adjoint, with create,
setFromOptions, setUp, solve, view, destroy; Vecs are petsc4py.PETSc.Vec.

    model = rewind.Model().create().setOptionsPrefix("a_").setFromOptions().setUp()
    obj = rewind.Objective().create(model).setOptionsPrefix("a_")
    adj = rewind.Adjoint().create(model, obj).setOptionsPrefix("a_").setFromOptions()  # -rw_steps
    obj.setFromOptions()                         # its terms, once the steps are known
    m, u0 = model.getDefaults()
    g, gu0 = model.createParameters(), model.createState()
    J = adj.solve(m, u0, g, gu0)

rewind.Problem is the whole problem in one object; these are its parts."""
import ctypes

from mpi4py import MPI
from petsc4py import PETSc

from ._lib import ffi, lib, call

__all__ = ["Model", "Objective", "Adjoint", "Ensemble"]

# petsc4py's own constructor of a Vec from a C handle (it takes a reference of its own)
ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_vec_new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p)(
    ctypes.pythonapi.PyCapsule_GetPointer(PETSc.__pyx_capi__["PyPetscVec_New"], b"PyObject *(Vec)"))


def wrap(cvec):
    """A petsc4py Vec of a C Vec, with a reference of its own (the caller keeps its one)"""
    return _vec_new(int(ffi.cast("uintptr_t", cvec)))


def _vec(cvec):
    """A petsc4py Vec of a C Vec whose reference this call gives away"""
    v = wrap(cvec)
    call("VecDestroy", ffi.new("Vec *", cvec))  # petsc4py holds its own now
    return v


def _h(obj, ctype):
    """The C handle of a petsc4py object (None: NULL)"""
    return ffi.NULL if obj is None else ffi.cast(ctype, obj.handle)


def _viewer(viewer, comm):
    return viewer if viewer is not None else PETSc.Viewer.STDOUT(comm)


class _Object:
    _type = None

    def __init__(self):
        self._p = ffi.NULL

    def _check(self):
        if self._p == ffi.NULL:
            raise ValueError(f"rewind.{type(self).__name__}: call create() first")

    def setOptionsPrefix(self, prefix):
        self._check()
        call(f"Rw{self._type}SetOptionsPrefix", self._p, prefix.encode())
        return self

    def view(self, viewer=None):
        self._check()
        call(f"Rw{self._type}View", self._p, _h(_viewer(viewer, self.comm), "PetscViewer"))

    def destroy(self):
        if self._p != ffi.NULL:
            call(f"Rw{self._type}Destroy", ffi.new(f"Rw{self._type} *", self._p))
            self._p = ffi.NULL
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()


class Model(_Object):
    """RwModel: the physics on a distributed grid"""
    _type = "Model"

    def create(self, comm=None, type="heat"):
        self.comm = comm if comm is not None else MPI.COMM_WORLD
        p = ffi.new("RwModel *")
        call("RwModelCreate", ffi.cast("MPI_Comm", MPI._handleof(self.comm)), p)
        self._p = p[0]
        call("RwModelSetType", self._p, type.encode())
        return self

    def setType(self, type):
        self._check()
        call("RwModelSetType", self._p, type.encode())
        return self

    def setFromOptions(self):
        self._check()
        call("RwModelSetFromOptions", self._p)
        return self

    def setUp(self):
        self._check()
        call("RwModelSetUp", self._p)
        return self

    def createParameters(self):
        v = ffi.new("Vec *")
        call("RwModelCreateParameters", self._p, v)
        return _vec(v[0])

    def createState(self):
        v = ffi.new("Vec *")
        call("RwModelCreateState", self._p, v)
        return _vec(v[0])

    def getDefaults(self, m=None, u0=None):
        """The type's default parameters and initial state, into m and u0 (made when None)"""
        m = m if m is not None else self.createParameters()
        u0 = u0 if u0 is not None else self.createState()
        call("RwModelGetDefaults", self._p, _h(m, "Vec"), _h(u0, "Vec"), ffi.NULL)
        return m, u0


class Objective(_Object):
    """RwObjective: the terms of J over one run's states"""
    _type = "Objective"

    def create(self, model):
        model._check()
        self.comm, self.model = model.comm, model
        p = ffi.new("RwObjective *")
        call("RwObjectiveCreate", model._p, p)
        self._p = p[0]
        return self

    def setFromOptions(self):
        """The options' terms (the model's default misfit without any); after the driver has the steps"""
        self._check()
        call("RwObjectiveSetFromOptions", self._p)
        return self

    def addOutputs(self, observed):
        """Linear terms <ybar, y> of what observed observes (RwObjectiveAddOutputs); returns how many"""
        n = ffi.new("PetscInt *")
        call("RwObjectiveAddOutputs", self._p, observed._p, n)
        return n[0]


class Adjoint(_Object):
    """RwAdjoint: the driver, J and its gradient through a checkpoint schedule"""
    _type = "Adjoint"

    def create(self, model, objective):
        model._check()
        objective._check()
        self.comm, self.model, self.objective = model.comm, model, objective
        p = ffi.new("RwAdjoint *")
        call("RwAdjointCreate", model._p, objective._p, p)
        self._p = p[0]
        return self

    def setFromOptions(self):
        self._check()
        call("RwAdjointSetFromOptions", self._p)
        return self

    def setUp(self):
        self._check()
        call("RwAdjointSetUp", self._p)
        return self

    def solve(self, m, u0, g=None, gu0=None):
        """J at (m, u0), and its gradient into g and gu0 (petsc4py Vecs, may be None)"""
        self._check()
        J = ffi.new("PetscReal *")
        g = g if g is not None else self.model.createParameters()
        call("RwAdjointSolve", self._p, _h(m, "Vec"), _h(u0, "Vec"), J, _h(g, "Vec"), _h(gu0, "Vec"))
        return J[0]


class Ensemble(_Object):
    """RwEnsemble: the members of a sum (shots, experiments) on groups of the
    ranks (-rw_ensemble_groups), summed in member order so that the sum has
    the same bits for any split.  A problem's is Problem.getEnsemble(); its
    gradient() is the ensemble's solve"""
    _type = "Ensemble"

    def create(self, comm=None):
        self.comm = comm if comm is not None else MPI.COMM_WORLD
        p = ffi.new("RwEnsemble *")
        call("RwEnsembleCreate", ffi.cast("MPI_Comm", MPI._handleof(self.comm)), p)
        self._p = p[0]
        return self

    def _borrow(self, handle, comm):
        """The ensemble handle of another object, with a reference of its own"""
        call("PetscObjectReference", handle)
        self._p, self.comm = handle, comm
        return self

    def setOptionsPrefix(self, prefix):
        self._check()
        call("PetscObjectSetOptionsPrefix", self._p, prefix.encode())
        return self

    def setSize(self, n):
        self._check()
        call("RwEnsembleSetSize", self._p, n)
        return self

    def setGroups(self, ngroups):
        self._check()
        call("RwEnsembleSetGroups", self._p, ngroups)
        return self

    def setFromOptions(self):
        """-rw_ensemble_groups"""
        self._check()
        call("RwEnsembleSetFromOptions", self._p)
        return self

    def setUp(self):
        """Splits the ranks into the groups and gives each its members"""
        self._check()
        call("RwEnsembleSetUp", self._p)
        return self

    def getGroup(self):
        """(this rank's group, the number of groups)"""
        self._check()
        g, n = ffi.new("PetscInt *"), ffi.new("PetscInt *")
        call("RwEnsembleGetGroup", self._p, g, n)
        return g[0], n[0]

    def getMembers(self):
        """The members this rank's group solves, in increasing order"""
        self._check()
        n, m = ffi.new("PetscInt *"), ffi.new("const PetscInt **")
        call("RwEnsembleGetMembers", self._p, n, m)
        return [m[0][i] for i in range(n[0])]

    def getSubComm(self):
        """The communicator of this rank's group (an mpi4py Comm the ensemble owns: valid while it lives)"""
        self._check()
        c = ffi.new("MPI_Comm *")
        call("RwEnsembleGetSubComm", self._p, c)
        return MPI.Comm.f2py(lib.MPI_Comm_c2f(c[0]))
