/*
  The time average of the state's spatial mean,

    J = w (1/n) sum_{k=1..n} (1/P) sum_i u_k,i      (P grid points, the observed component),

  the quantity whose sensitivity to a parameter is wanted in chaotic systems
  (doc/chaos.md: Lorenz-96's <x>).  Linear in the state: the adjoint source
  is the constant w / (n P) at every point and step, so one term serves any
  model; every point's value is rounded on its own and the sum is exact, so J
  is the same bits on any number of ranks.
*/
#include <rewind/private/objectiveimpl.h>

typedef struct {
  PetscReal  weight;
  PetscReal  scale; /* w / (n P), set before each run */
  PetscInt64 n;
  PetscInt   stride, offset, npoints; /* this rank's points; point i's observed value at a[offset + i stride] (RwModelGetStateLayout()) */
} RwAverage;

static PetscErrorCode AverageSetUp(RwObjective obj, void *ctx)
{
  RwAverage *c = (RwAverage *)ctx;
  PetscInt64 n;
  PetscInt   P;
  Vec        f;

  PetscFunctionBegin;
  PetscCall(RwModelGetSteps(obj->model, &n));
  PetscCheck(n > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "The time average needs at least one step (-rw_steps), not %" PetscInt64_FMT, n);
  PetscCall(RwModelCreateField(obj->model, &f));
  PetscCall(VecGetSize(f, &P));
  PetscCall(VecDestroy(&f));
  c->n     = n;
  c->scale = c->weight / ((PetscReal)n * (PetscReal)P);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AverageValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  RwAverage         *c = (RwAverage *)ctx;
  const PetscScalar *a;

  PetscFunctionBegin;
  if (k == 0) PetscFunctionReturn(PETSC_SUCCESS); /* the average is over k = 1..n */
  PetscCall(VecGetArrayRead(u, &a));
  for (PetscInt i = 0; i < c->npoints; i++) PetscCall(RwReproSumAdd(acc, slot, w * c->scale * PetscRealPart(a[c->offset + i * c->stride])));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AverageAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  RwAverage   *c = (RwAverage *)ctx;
  PetscScalar *l;

  PetscFunctionBegin;
  if (k == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < c->npoints; i++) l[c->offset + i * c->stride] += w * c->scale;
  PetscCall(VecRestoreArray(lambda, &l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AverageChecksum(RwObjective obj, uint64_t *sum, void *ctx)
{
  RwAverage *c = (RwAverage *)ctx;

  PetscFunctionBegin;
  *sum = RwHashBytes(RwHashBytes(0, "time average", 12), &c->weight, sizeof(c->weight));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AverageView(RwObjective obj, PetscViewer viewer, void *ctx)
{
  RwAverage *c = (RwAverage *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "time average of the mean: %g (1/n) sum_k=1..n (1/P) sum_i u_k,i\n", (double)c->weight));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AverageDestroy(void *ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveAddTimeAverage - adds w (1/n) sum_{k=1..n} (1/P) sum_i u_k,i: the
  time average over the run of the observed component's mean over the P grid points

  Collective

  Input Parameters:
+ obj    - the objective
- weight - w, nonzero and finite (negative to maximise the average)

  Options Database Key:
. -rw_objective_time_average <w> - adds the term with weight w (RwObjectiveSetFromOptions())

  Level: beginner

  Notes:
  n is the run's number of steps when the run starts. The mean is over grid
  points, not weighted by the cell volume, so it is the same number on any
  grid (Lorenz-96's (1/N) sum_i x_i).

.seealso: RwObjectiveAddTerm(), doc/chaos.md
@*/
PetscErrorCode RwObjectiveAddTimeAverage(RwObjective obj, PetscReal weight)
{
  const RwObjectiveTermOps ops = {AverageSetUp, AverageValue, AverageAdjoint, NULL, AverageChecksum, AverageView, AverageDestroy};
  RwAverage               *c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(weight != 0 && !PetscIsInfOrNanReal(weight), PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Time-average weight %g must be finite and nonzero", (double)weight);
  PetscCall(PetscNew(&c));
  c->weight = weight;
  PetscCall(RwTermObservedLayout(obj, &c->stride, &c->offset, &c->npoints));
  PetscCall(RwObjectiveAddTerm(obj, "time average", &ops, RW_OBJECTIVE_ALL_STEPS, NULL, NULL, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
