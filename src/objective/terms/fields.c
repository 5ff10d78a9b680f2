/*
  Field observations: the observed component of the state compared with a
  whole field at chosen steps,

    J = sum_t (w_t / 2) h^d sum_i (u_k_t,i - d_t,i)^2 / sigma^2,

  the misfit of trajectories observed everywhere (rewind-hybrid's data, an
  observation file's /experiment_<e>/states).  The observed fields are
  referenced, not copied, so that many members' data can take turns in one
  term (RwObjectiveSetFieldObservationData()) without a copy per solve.
  Every point's term is rounded on its own and the sum is exact, so J does
  not depend on the decomposition; the adjoint source is pointwise.
*/
#include <rewind/private/objectiveimpl.h>
#include <string.h>

typedef struct {
  PetscInt    nsteps;
  PetscInt64 *steps;   /* sorted */
  PetscInt   *order;   /* order[t]: the caller's index of sorted step t */
  Vec        *data;    /* in the caller's order, referenced */
  PetscReal   vol, isigma2;
  PetscInt    stride, offset; /* point i's observed value at a[offset + i stride] (RwModelGetStateLayout()) */
} RwFields;

static Vec FieldsAt(const RwFields *c, PetscInt64 k)
{
  PetscInt lo = 0, hi = c->nsteps - 1;

  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (c->steps[mid] == k) return c->data[c->order[mid]];
    if (c->steps[mid] < k) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

static PetscErrorCode FieldsValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  RwFields          *c = (RwFields *)ctx;
  const PetscScalar *a, *d;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(FieldsAt(c, k), &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(FieldsAt(c, k), &d));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal r = PetscRealPart(a[c->offset + i * c->stride] - d[i]);
    PetscCall(RwReproSumAdd(acc, slot, w * 0.5 * c->vol * r * r * c->isigma2));
  }
  PetscCall(VecRestoreArrayRead(FieldsAt(c, k), &d));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  RwFields          *c = (RwFields *)ctx;
  const PetscScalar *a, *d;
  PetscScalar       *l;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(FieldsAt(c, k), &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(FieldsAt(c, k), &d));
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < n; i++) l[c->offset + i * c->stride] += w * c->vol * (a[c->offset + i * c->stride] - d[i]) * c->isigma2;
  PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(FieldsAt(c, k), &d));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The observed fields in natural order, their steps and sigma: the same on any number of ranks */
static PetscErrorCode FieldsChecksum(RwObjective obj, uint64_t *sum, void *ctx)
{
  RwFields *c = (RwFields *)ctx;
  uint64_t  h = RwHashBytes(0, c->steps, sizeof(PetscInt64) * (size_t)c->nsteps), s;

  PetscFunctionBegin;
  for (PetscInt t = 0; t < c->nsteps; t++) {
    PetscCall(RwVecChecksum(c->data[t], &s));
    h = RwSplitMix64(h ^ s);
  }
  *sum = RwHashBytes(h, &c->isigma2, sizeof(c->isigma2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsView(RwObjective obj, PetscViewer viewer, void *ctx)
{
  RwFields *c = (RwFields *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "field observations at %" PetscInt_FMT " steps: (1/2) h^d sum (u_k - d_k)^2 / sigma^2, 1/sigma^2 = %g\n", c->nsteps, (double)c->isigma2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsDestroy(void *ctx)
{
  RwFields *c = (RwFields *)ctx;

  PetscFunctionBegin;
  for (PetscInt t = 0; t < c->nsteps; t++) PetscCall(VecDestroy(&c->data[t]));
  PetscCall(PetscFree3(c->steps, c->order, c->data));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Data that fit: one field-grid vector a step, the grid of the model's fields */
static PetscErrorCode FieldsCheckData(RwObjective obj, PetscInt nsteps, const Vec data[])
{
  PetscInt  n, N, nd, Nd;
  PetscBool fits = PETSC_TRUE;
  Vec       f;

  PetscFunctionBegin;
  PetscCall(RwModelCreateField(obj->model, &f));
  PetscCall(VecGetLocalSize(f, &n));
  PetscCall(VecGetSize(f, &N));
  PetscCall(VecDestroy(&f));
  for (PetscInt t = 0; t < nsteps && fits; t++) {
    PetscCheck(data[t], PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Field observation %" PetscInt_FMT " is NULL", t);
    PetscCall(VecGetLocalSize(data[t], &nd));
    PetscCall(VecGetSize(data[t], &Nd));
    fits = (PetscBool)(nd == n && Nd == N);
  }
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &fits, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)obj)));
  PetscCheck(fits, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_SIZ, "Field observations: expected fields of the model's field grid (RwModelCreateField()), %" PetscInt_FMT " values", N);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldsSetData(RwFields *c, const Vec data[], PetscReal sigma)
{
  PetscFunctionBegin;
  for (PetscInt t = 0; t < c->nsteps; t++) {
    PetscCall(PetscObjectReference((PetscObject)data[t]));
    PetscCall(VecDestroy(&c->data[t]));
    c->data[t] = data[t];
  }
  c->isigma2 = 1 / (sigma * sigma);
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt64 step;
  PetscInt   index;
} RwFieldStep;

static int FieldStepCompare(const void *a, const void *b)
{
  PetscInt64 x = ((const RwFieldStep *)a)->step, y = ((const RwFieldStep *)b)->step;
  return x < y ? -1 : x > y ? 1 : 0;
}

/*@
  RwObjectiveAddFieldObservations - adds sum_t (1/2) h^d sum_i (u_k_t,i - d_t,i)^2 / sigma^2:
  the observed component of the state compared with whole fields at chosen steps

  Collective

  Input Parameters:
+ obj    - the objective
. nsteps - number of observed steps
. steps  - the steps, distinct, in 0..n
. data   - one field a step (RwModelCreateField()), referenced, not copied
- sigma  - the noise level, > 0

  Level: intermediate

  Notes:
  The fields must not change while the objective uses them; another
  member's fields replace them with RwObjectiveSetFieldObservationData().

.seealso: RwObjectiveSetFieldObservationData(), RwObjectiveAddTerminalMisfit(), RwObjectiveAddSensors()
@*/
PetscErrorCode RwObjectiveAddFieldObservations(RwObjective obj, PetscInt nsteps, const PetscInt64 steps[], const Vec data[], PetscReal sigma)
{
  const RwObjectiveTermOps ops = {NULL, FieldsValue, FieldsAdjoint, NULL, FieldsChecksum, FieldsView, FieldsDestroy};
  RwFields                *c;
  RwFieldStep             *si;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(nsteps > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Field observations need at least one step (got %" PetscInt_FMT ")", nsteps);
  PetscCheck(sigma > 0 && PetscIsNormalReal(sigma), PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Noise level sigma %g must be > 0", (double)sigma);
  PetscCall(FieldsCheckData(obj, nsteps, data));
  PetscCall(PetscNew(&c));
  PetscCall(PetscCalloc3(nsteps, &c->steps, nsteps, &c->order, nsteps, &c->data));
  c->nsteps = nsteps;
  PetscCall(RwModelGetCellVolume(obj->model, &c->vol));
  {
    PetscInt npoints;

    PetscCall(RwTermObservedLayout(obj, &c->stride, &c->offset, &npoints));
  }
  PetscCall(PetscMalloc1(nsteps, &si));
  for (PetscInt t = 0; t < nsteps; t++) {
    PetscCheck(steps[t] >= 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Observed step %" PetscInt64_FMT " (index %" PetscInt_FMT ") must be >= 0", steps[t], t);
    si[t].step  = steps[t];
    si[t].index = t;
  }
  qsort(si, nsteps, sizeof(*si), FieldStepCompare);
  for (PetscInt t = 0; t < nsteps; t++) {
    PetscCheck(t == 0 || si[t].step != si[t - 1].step, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "Observed step %" PetscInt64_FMT " appears twice (indices %" PetscInt_FMT " and %" PetscInt_FMT ")", si[t].step, si[t - 1].index, si[t].index);
    c->steps[t] = si[t].step;
    c->order[t] = si[t].index;
  }
  PetscCall(PetscFree(si));
  PetscCall(FieldsSetData(c, data, sigma));
  PetscCall(RwObjectiveAddTerm(obj, "fields", &ops, nsteps, c->steps, NULL, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveSetFieldObservationData - replaces the observed fields of field-observation term i
  (another member's), and their noise level

  Collective

  Input Parameters:
+ obj   - the objective
. i     - the term (RwObjectiveAddFieldObservations())
. data  - one field a step, in the order the steps were given; referenced
- sigma - the noise level, > 0

  Level: intermediate

.seealso: RwObjectiveAddFieldObservations()
@*/
PetscErrorCode RwObjectiveSetFieldObservationData(RwObjective obj, PetscInt i, const Vec data[], PetscReal sigma)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(i >= 0 && i < obj->nterms && !strcmp(obj->terms[i].name, "fields"), PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "Objective term %" PetscInt_FMT " is not a field-observation term", i);
  PetscCheck(sigma > 0 && PetscIsNormalReal(sigma), PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Noise level sigma %g must be > 0", (double)sigma);
  PetscCall(FieldsCheckData(obj, ((RwFields *)obj->terms[i].ctx)->nsteps, data));
  PetscCall(FieldsSetData((RwFields *)obj->terms[i].ctx, data, sigma));
  PetscFunctionReturn(PETSC_SUCCESS);
}
