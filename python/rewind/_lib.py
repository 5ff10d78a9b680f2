"""The C library through cffi in ABI mode: librewind.so is opened at import,
nothing is compiled.  Every call runs under an error handler that keeps
PETSc's first message, raised as RewindError."""
import os

import cffi

ffi = cffi.FFI()
ffi.cdef("""
typedef int PetscErrorCode;
typedef int PetscInt;               /* Debian's PETSc: 32-bit indices, checked at import */
typedef double PetscReal;
typedef double PetscScalar;
typedef void *MPI_Comm;             /* Open MPI's handle is a pointer */
typedef struct _p_Vec *Vec;
typedef struct _p_DM *DM;
typedef struct _p_RwProblem *RwProblem;
typedef struct _p_RwModel *RwModel;
typedef struct _p_RwObjective *RwObjective;
typedef struct _p_RwAdjoint *RwAdjoint;
typedef struct _p_PetscViewer *PetscViewer;

PetscErrorCode PetscPushErrorHandler(PetscErrorCode (*)(MPI_Comm, int, const char *, const char *, PetscErrorCode, int, const char *, void *), void *);
PetscErrorCode PetscPopErrorHandler(void);
PetscErrorCode VecGetArray(Vec, PetscScalar **);
PetscErrorCode VecRestoreArray(Vec, PetscScalar **);
PetscErrorCode VecPlaceArray(Vec, const PetscScalar *);
PetscErrorCode VecResetArray(Vec);
PetscErrorCode VecGetLocalSize(Vec, PetscInt *);
PetscErrorCode VecDestroy(Vec *);

PetscErrorCode RwProblemCreate(MPI_Comm, RwProblem *);
PetscErrorCode RwProblemSetOptionsPrefix(RwProblem, const char *);
PetscErrorCode RwProblemSetFromOptions(RwProblem);
PetscErrorCode RwProblemSetUp(RwProblem);
PetscErrorCode RwProblemDestroy(RwProblem *);
PetscErrorCode RwProblemGetModel(RwProblem, RwModel *);
PetscErrorCode RwProblemGetParameters(RwProblem, Vec *, Vec *);
PetscErrorCode RwProblemComputeGradient(RwProblem, PetscReal *, Vec, Vec);
PetscErrorCode RwProblemGetOutputSize(RwProblem, PetscInt *);
PetscErrorCode RwProblemComputeOutputs(RwProblem, PetscReal *);
PetscErrorCode RwProblemComputeOutputsForVJP(RwProblem, PetscReal *);
PetscErrorCode RwProblemComputeVJP(RwProblem, const PetscReal *, PetscReal *, Vec, Vec);
PetscErrorCode DMDAGetCorners(DM, PetscInt *, PetscInt *, PetscInt *, PetscInt *, PetscInt *, PetscInt *);
PetscErrorCode RwModelGetFieldDM(RwModel, DM *);
PetscErrorCode RwModelCreate(MPI_Comm, RwModel *);
PetscErrorCode RwModelSetType(RwModel, const char *);
PetscErrorCode RwModelSetOptionsPrefix(RwModel, const char *);
PetscErrorCode RwModelSetFromOptions(RwModel);
PetscErrorCode RwModelSetUp(RwModel);
PetscErrorCode RwModelView(RwModel, PetscViewer);
PetscErrorCode RwModelDestroy(RwModel *);
PetscErrorCode RwModelGetDefaults(RwModel, Vec, Vec, Vec);
PetscErrorCode RwObjectiveCreate(RwModel, RwObjective *);
PetscErrorCode RwObjectiveSetOptionsPrefix(RwObjective, const char *);
PetscErrorCode RwObjectiveSetFromOptions(RwObjective);
PetscErrorCode RwObjectiveAddOutputs(RwObjective, RwObjective, PetscInt *);
PetscErrorCode RwObjectiveView(RwObjective, PetscViewer);
PetscErrorCode RwObjectiveDestroy(RwObjective *);
PetscErrorCode RwAdjointCreate(RwModel, RwObjective, RwAdjoint *);
PetscErrorCode RwAdjointSetOptionsPrefix(RwAdjoint, const char *);
PetscErrorCode RwAdjointSetFromOptions(RwAdjoint);
PetscErrorCode RwAdjointSetUp(RwAdjoint);
PetscErrorCode RwAdjointSolve(RwAdjoint, Vec, Vec, PetscReal *, Vec, Vec);
PetscErrorCode RwAdjointView(RwAdjoint, PetscViewer);
PetscErrorCode RwAdjointDestroy(RwAdjoint *);
PetscErrorCode RwModelCreateParameters(RwModel, Vec *);
PetscErrorCode RwModelCreateState(RwModel, Vec *);
PetscErrorCode RwModelGetStateInfo(RwModel, PetscInt *, const char *const **, PetscInt *);
PetscErrorCode RwModelGetStateLayout(RwModel, PetscInt, PetscInt, PetscInt *, PetscInt *);
PetscErrorCode RwModelSetStateLayout_Private(RwModel, int); /* tests only: switch a model's declared layout */
PetscErrorCode RwModelCreateField(RwModel, Vec *);
PetscErrorCode RwModelGetStateComponent(RwModel, Vec, PetscInt, Vec);
PetscErrorCode RwModelGetParameterInfo(RwModel, PetscInt *, const char *const **, PetscInt *);
PetscErrorCode RwModelGetParameterBlockInfo(RwModel, PetscInt, const char **, PetscInt *, PetscInt *, PetscInt *);
PetscErrorCode RwModelGetNumParameterScalars(RwModel, PetscInt *);
PetscErrorCode RwModelGetParameterScalars(RwModel, Vec, PetscReal *);
PetscErrorCode RwModelGetParameterField(RwModel, Vec, PetscInt, Vec *);
PetscErrorCode RwModelRestoreParameterField(RwModel, Vec, PetscInt, Vec *);

typedef struct _p_RwEnsemble *RwEnsemble;
int MPI_Comm_c2f(MPI_Comm);
typedef int PetscBool;
PetscErrorCode RwHelpStop(MPI_Comm, PetscBool *);
PetscErrorCode PetscGetProgramName(char *, size_t);
PetscErrorCode PetscSetProgramName(const char *);
typedef int64_t PetscInt64;
PetscErrorCode RwModelGetStepCounts(RwModel, PetscInt64 *, PetscInt64 *, PetscInt64 *);
PetscErrorCode RwProblemGetEnsemble(RwProblem, RwEnsemble *);
PetscErrorCode PetscObjectReference(void *);
PetscErrorCode RwEnsembleCreate(MPI_Comm, RwEnsemble *);
PetscErrorCode RwEnsembleSetSize(RwEnsemble, PetscInt);
PetscErrorCode RwEnsembleSetGroups(RwEnsemble, PetscInt);
PetscErrorCode PetscObjectSetOptionsPrefix(void *, const char *);
PetscErrorCode RwEnsembleSetFromOptions(RwEnsemble);
PetscErrorCode RwEnsembleSetUp(RwEnsemble);
PetscErrorCode RwEnsembleGetSubComm(RwEnsemble, MPI_Comm *);
PetscErrorCode RwEnsembleGetGroup(RwEnsemble, PetscInt *, PetscInt *);
PetscErrorCode RwEnsembleGetMembers(RwEnsemble, PetscInt *, const PetscInt **);
PetscErrorCode RwEnsembleGetRounds(RwEnsemble, PetscInt *);
PetscErrorCode RwEnsembleGetRoundMember(RwEnsemble, PetscInt, PetscInt *);
PetscErrorCode RwEnsembleView(RwEnsemble, PetscViewer);
PetscErrorCode RwEnsembleDestroy(RwEnsemble *);
PetscErrorCode RwProblemGetNumMembers(RwProblem, PetscInt *);
""")


def _open():
    """librewind: $REWIND_LIBRARY, else the installed one (beside this
    package, _config.py), else the loader's search path"""
    path = os.environ.get("REWIND_LIBRARY")
    if not path:
        path = "librewind.so"
        try:
            from . import _config
            here = os.path.join(os.path.dirname(os.path.abspath(__file__)), _config.LIBDIR_FROM_PACKAGE, "librewind.so")
            if os.path.exists(here):
                path = here
        except ImportError:
            pass
    try:
        # never unloaded: PetscFinalize (petsc4py's, at exit, after this module is
        # gone) calls the finalizers librewind registered
        return ffi.dlopen(path, ffi.RTLD_GLOBAL | os.RTLD_NODELETE)
    except OSError as e:
        raise ImportError(f"rewind: cannot open the C library {path}: {e}; set REWIND_LIBRARY to librewind.so "
                          "(the build tree's src/.libs/librewind.so, or the installed one)") from None


lib = _open()


class RewindError(RuntimeError):
    """A rewind or PETSc error: the message PETSc made, and its error code"""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


_first = []


@ffi.callback("PetscErrorCode(MPI_Comm, int, const char *, const char *, PetscErrorCode, int, const char *, void *)")
def _handler(comm, line, func, file, n, p, mess, ctx):
    # the first call of an error carries its message; the others, the callers
    if not _first:
        text = ffi.string(mess).decode(errors="replace") if mess != ffi.NULL else ""
        where = ffi.string(func).decode(errors="replace") if func != ffi.NULL else "?"
        _first.append(f"{text} (in {where}, error {n})")
    return n


def call(name, *args):
    """lib.name(*args) with PETSc's message raised as RewindError on failure"""
    del _first[:]
    lib.PetscPushErrorHandler(_handler, ffi.NULL)
    try:
        err = getattr(lib, name)(*args)
    finally:
        lib.PetscPopErrorHandler()
    if err:
        raise RewindError(_first[0] if _first else f"{name} failed with PETSc error {err}", err)
