/* Terminal misfit: (w/2) h^d sum_i (u_n,i - d_i)^2 of the observed component
   of the state (RwModelGetStateInfo(), found through RwModelGetStateLayout()),
   and its adjoint source. */
#include <rewind/private/objectiveimpl.h>
#include <string.h>

typedef struct {
  Vec       target; /* on the field grid: one value a point */
  PetscReal weight; /* w h^d */
  PetscInt  dof;            /* the state's components (for the message) */
  PetscInt  stride, offset; /* point i's observed value at a[offset + i stride] */
} RwTerminal;

/* Every point's term is rounded on its own, then summed exactly: no dependence on the decomposition */
static PetscErrorCode TerminalValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  RwTerminal        *c = (RwTerminal *)ctx;
  const PetscScalar *a, *d;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(c->target, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(c->target, &d));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal r = PetscRealPart(a[c->offset + i * c->stride] - d[i]);
    PetscCall(RwReproSumAdd(acc, slot, 0.5 * w * c->weight * r * r));
  }
  PetscCall(VecRestoreArrayRead(c->target, &d));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TerminalAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  RwTerminal        *c = (RwTerminal *)ctx;
  const PetscScalar *a, *d;
  PetscScalar       *l;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(c->target, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(c->target, &d));
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < n; i++) l[c->offset + i * c->stride] += w * c->weight * (a[c->offset + i * c->stride] - d[i]);
  PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(c->target, &d));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The target in natural order, and the weight */
static PetscErrorCode TerminalChecksum(RwObjective obj, uint64_t *sum, void *ctx)
{
  RwTerminal *c = (RwTerminal *)ctx;
  uint64_t    w;

  PetscFunctionBegin;
  PetscCall(RwVecChecksum(c->target, sum));
  memcpy(&w, &c->weight, sizeof(w));
  *sum = RwSplitMix64(*sum ^ w);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TerminalView(RwObjective obj, PetscViewer viewer, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "terminal misfit (w/2) h^d sum (u_n - d)^2, w h^d = %g\n", (double)((RwTerminal *)ctx)->weight));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TerminalDestroy(void *ctx)
{
  RwTerminal *c = (RwTerminal *)ctx;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&c->target));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A term like any other: active at the final step only */
PetscErrorCode RwTermAddTerminal(RwObjective obj, Vec target, PetscReal weight)
{
  const RwObjectiveTermOps ops   = {NULL, TerminalValue, TerminalAdjoint, NULL, TerminalChecksum, TerminalView, TerminalDestroy};
  const PetscInt64         final = RW_OBJECTIVE_FINAL_STEP;
  RwTerminal              *c;
  PetscReal                vol;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  PetscCall(RwModelGetCellVolume(obj->model, &vol));
  PetscCall(RwModelGetStateInfo(obj->model, &c->dof, NULL, NULL));
  {
    PetscInt npoints;

    PetscCall(RwTermObservedLayout(obj, &c->stride, &c->offset, &npoints));
  }
  PetscCall(RwModelCreateField(obj->model, &c->target));
  { /* the target is a field (the observed component), not a state: a state's vector of a multi-component model would not fit */
    PetscInt  n, N, nt, Nt;
    PetscBool fits;

    PetscCall(VecGetLocalSize(c->target, &n));
    PetscCall(VecGetSize(c->target, &N));
    PetscCall(VecGetLocalSize(target, &nt));
    PetscCall(VecGetSize(target, &Nt));
    fits = (PetscBool)(N == Nt && n == nt);
    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &fits, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)obj))); /* every rank stops, or none */
    PetscCheck(fits, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_SIZ, "Terminal misfit target: %" PetscInt_FMT " values (%" PetscInt_FMT " on this rank); expected a field of the state's grid, one value per point: %" PetscInt_FMT " (%" PetscInt_FMT "); make it with RwModelCreateField(), not RwModelCreateState() (a state of this model has %" PetscInt_FMT " components)", Nt, nt, N, n, c->dof);
  }
  PetscCall(VecCopy(target, c->target));
  c->weight = weight * vol;
  PetscCall(RwObjectiveAddTerm(obj, "terminal", &ops, 1, &final, NULL, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
