/*
  Linear terms J = <ybar, y>: the outputs y of a run (values at points at
  their steps, or the observed component of the state at steps) weighted by a
  given cotangent ybar.  Their gradient is the vector-Jacobian product
  ybar^T dy/d(m, u0), through the same schedules and stores as any misfit: what
  a caller that differentiates y itself (PyTorch, python/) asks for.

  Each term also keeps the y of the last forward sweep (its value op sees
  every active state once: recomputations do not call it again), so one run
  gives y and <ybar, y>.  Point outputs are replicated (every rank passes the
  same ybar and gets the whole y); state outputs are this rank's part of each
  field, in the order of the field grid's local block.
*/
#include <rewind/private/objectiveimpl.h>
#include <rewind/private/stencilimpl.h>
#include <rewind/private/observationsimpl.h>

typedef struct {
  PetscInt        ntimes;
  PetscInt        npoints; /* point outputs; 0 for state outputs */
  PetscReal      *coords;
  PetscReal      *ybar, *y; /* point outputs: [ntimes * npoints], replicated (y: the owners' values, zeros elsewhere) */
  RwStencilPoints pts;
  Vec            *wbar, *ys; /* state outputs: [ntimes] fields */
  PetscInt        stride, offset; /* point i's observed value at a[offset + i stride] (RwModelGetStateLayout()) */
  PetscInt        term;       /* its index in the objective: the resolved steps */
} RwLinear;

/* Index t of active step k in the term's resolved (increasing) steps */
static PetscInt LinearFindTime(RwObjective obj, const RwLinear *c, PetscInt64 k)
{
  const PetscInt64 *s  = obj->terms[c->term].steps;
  PetscInt          lo = 0, hi = c->ntimes - 1;

  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (s[mid] == k) return mid;
    if (s[mid] < k) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* Outputs of the run about to start: none yet */
static PetscErrorCode LinearSetUp(RwObjective obj, void *ctx)
{
  RwLinear *c = (RwLinear *)ctx;

  PetscFunctionBegin;
  if (c->npoints) PetscCall(PetscArrayzero(c->y, c->ntimes * c->npoints));
  for (PetscInt t = 0; !c->npoints && t < c->ntimes; t++) PetscCall(VecSet(c->ys[t], 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LinearPointsValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  RwLinear          *c   = (RwLinear *)ctx;
  PetscInt           off = LinearFindTime(obj, c, k) * c->npoints, nloc;
  const PetscScalar *vals;
  const PetscInt    *id;
  const PetscBool   *owner;

  PetscFunctionBegin;
  PetscCall(RwStencilPointsGetLocal(c->pts, &nloc, &id, &owner));
  PetscCall(RwStencilPointsGather(c->pts, u, &vals));
  for (PetscInt i = 0; i < nloc; i++) {
    if (!owner[i]) continue;
    c->y[off + id[i]] = RwStencilPointsRead(c->pts, i, vals);
    PetscCall(RwReproSumAdd(acc, slot, w * c->ybar[off + id[i]] * c->y[off + id[i]]));
  }
  PetscCall(RwStencilPointsRestore(c->pts, &vals));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* lambda += w ybar_t at the points, spread over their corners in gather form */
static PetscErrorCode LinearPointsAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  RwLinear       *c   = (RwLinear *)ctx;
  PetscInt        off = LinearFindTime(obj, c, k) * c->npoints, nloc;
  const PetscInt *id;
  PetscScalar    *l;

  PetscFunctionBegin;
  PetscCall(RwStencilPointsGetLocal(c->pts, &nloc, &id, NULL));
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < nloc; i++) RwStencilPointsSpreadOne(c->pts, i, w * c->ybar[off + id[i]], l);
  PetscCall(VecRestoreArray(lambda, &l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LinearStateValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  RwLinear          *c = (RwLinear *)ctx;
  PetscInt           t = LinearFindTime(obj, c, k), n;
  const PetscScalar *a, *b;
  PetscScalar       *y;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(c->ys[t], &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(c->wbar[t], &b));
  PetscCall(VecGetArray(c->ys[t], &y));
  for (PetscInt i = 0; i < n; i++) {
    y[i] = a[c->offset + i * c->stride];
    PetscCall(RwReproSumAdd(acc, slot, w * PetscRealPart(b[i] * y[i])));
  }
  PetscCall(VecRestoreArray(c->ys[t], &y));
  PetscCall(VecRestoreArrayRead(c->wbar[t], &b));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LinearStateAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  RwLinear          *c = (RwLinear *)ctx;
  PetscInt           t = LinearFindTime(obj, c, k), n;
  const PetscScalar *b;
  PetscScalar       *l;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(c->wbar[t], &n));
  PetscCall(VecGetArrayRead(c->wbar[t], &b));
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < n; i++) l[c->offset + i * c->stride] += w * b[i];
  PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(c->wbar[t], &b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The points and the cotangent, the same on any number of ranks (a restart's identity) */
static PetscErrorCode LinearChecksum(RwObjective obj, uint64_t *sum, void *ctx)
{
  RwLinear *c = (RwLinear *)ctx;
  uint64_t  s;
  PetscInt  dim;

  PetscFunctionBegin;
  *sum = RwSplitMix64((uint64_t)c->ntimes ^ ((uint64_t)c->npoints << 32));
  if (c->npoints) {
    PetscCall(DMDAGetInfo(obj->model->da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    *sum = RwHashBytes(*sum, c->coords, sizeof(PetscReal) * (size_t)(c->npoints * dim));
    *sum = RwHashBytes(*sum, c->ybar, sizeof(PetscReal) * (size_t)(c->npoints * c->ntimes));
  }
  for (PetscInt t = 0; !c->npoints && t < c->ntimes; t++) {
    PetscCall(RwVecChecksum(c->wbar[t], &s));
    *sum = RwSplitMix64(*sum ^ s);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LinearView(RwObjective obj, PetscViewer viewer, void *ctx)
{
  RwLinear *c = (RwLinear *)ctx;

  PetscFunctionBegin;
  if (c->npoints) PetscCall(PetscViewerASCIIPrintf(viewer, "linear <ybar, y>: %" PetscInt_FMT " points at %" PetscInt_FMT " steps\n", c->npoints, c->ntimes));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "linear <ybar, y>: the observed state at %" PetscInt_FMT " steps\n", c->ntimes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LinearDestroy(void *ctx)
{
  RwLinear *c = (RwLinear *)ctx;

  PetscFunctionBegin;
  PetscCall(RwStencilPointsDestroy(&c->pts));
  PetscCall(PetscFree3(c->coords, c->ybar, c->y));
  if (c->wbar) PetscCall(VecDestroyVecs(c->ntimes, &c->wbar));
  if (c->ys) PetscCall(VecDestroyVecs(c->ntimes, &c->ys));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The linear term's context, refused by name for any other term */
static PetscErrorCode LinearGet(RwObjective obj, PetscInt term, RwLinear **c)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(term >= 0 && term < obj->nterms, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Objective term %" PetscInt_FMT ": the objective has %" PetscInt_FMT " terms", term, obj->nterms);
  PetscCheck(obj->terms[term].ops.setup == LinearSetUp, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "Objective term %" PetscInt_FMT " (%s) is not a linear term (RwObjectiveAddLinearPoints(), RwObjectiveAddLinearState())", term, obj->terms[term].name);
  *c = (RwLinear *)obj->terms[term].ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveAddLinearPoints - adds J = sum_t sum_s ybar[t, s] u(x_s, k_t): the
  observed component interpolated at points x_s at steps k_t, weighted by a
  cotangent ybar (zero until RwObjectiveSetLinearWeights())

  Collective; every rank passes the same arrays

  Input Parameters:
+ obj     - the objective (its model set up)
. npoints - the number of points
. coords  - their coordinates, dim per point (inside the grid's domain, as sensors)
. ntimes  - the number of steps
- steps   - increasing steps in 0..n; the last may be RW_OBJECTIVE_FINAL_STEP

  Output Parameter:
. term - the term's index in the objective, for RwObjectiveSetLinearWeights() and RwObjectiveGetLinearOutputs()

  Notes:
  The gradient of J is the vector-Jacobian product ybar^T dy/d(m, u0) of the
  outputs y[t, s] = u(x_s, k_t). y[t * npoints + s] is replicated.

  Level: intermediate

.seealso: RwObjectiveAddLinearState(), RwObjectiveAddOutputs(), RwObjectiveAddSensors()
@*/
PetscErrorCode RwObjectiveAddLinearPoints(RwObjective obj, PetscInt npoints, const PetscReal coords[], PetscInt ntimes, const PetscInt64 steps[], PetscInt *term)
{
  const RwObjectiveTermOps ops = {LinearSetUp, LinearPointsValue, LinearPointsAdjoint, NULL, LinearChecksum, LinearView, LinearDestroy};
  RwLinear                *c;
  PetscInt                 dim;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(npoints > 0 && ntimes > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "A linear term of %" PetscInt_FMT " points at %" PetscInt_FMT " steps: expected at least one of each", npoints, ntimes);
  PetscCall(DMDAGetInfo(obj->model->da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(RwSensorsCheckDomain(obj->model, "Linear term", npoints, coords));
  PetscCall(PetscNew(&c));
  c->ntimes  = ntimes;
  c->npoints = npoints;
  c->term    = obj->nterms;
  PetscCall(PetscCalloc3(npoints * dim, &c->coords, ntimes * npoints, &c->ybar, ntimes * npoints, &c->y));
  PetscCall(PetscArraycpy(c->coords, coords, npoints * dim));
  PetscCall(RwStencilPointsCreate(obj->model, obj->model->observed, npoints, c->coords, &c->pts));
  PetscCall(RwObjectiveAddTerm(obj, "linear", &ops, ntimes, steps, NULL, c));
  if (term) *term = c->term;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveAddLinearState - adds J = sum_t sum_i ybar_t,i u_i(k_t): the
  observed component of the state at steps k_t (no cell volume), weighted by
  a cotangent ybar (zero until RwObjectiveSetLinearWeights())

  Collective

  Input Parameters:
+ obj    - the objective (its model set up)
. ntimes - the number of steps
- steps  - increasing steps in 0..n; the last may be RW_OBJECTIVE_FINAL_STEP

  Output Parameter:
. term - the term's index in the objective

  Notes:
  The outputs y_t are fields (RwModelCreateField()); a rank passes and gets
  its own part of each, t after t.

  Level: intermediate

.seealso: RwObjectiveAddLinearPoints(), RwObjectiveAddOutputs()
@*/
PetscErrorCode RwObjectiveAddLinearState(RwObjective obj, PetscInt ntimes, const PetscInt64 steps[], PetscInt *term)
{
  const RwObjectiveTermOps ops = {LinearSetUp, LinearStateValue, LinearStateAdjoint, NULL, LinearChecksum, LinearView, LinearDestroy};
  RwLinear                *c;
  Vec                      f;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(ntimes > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "A linear term at %" PetscInt_FMT " steps: expected at least one", ntimes);
  PetscCall(PetscNew(&c));
  c->ntimes = ntimes;
  c->term   = obj->nterms;
  {
    PetscInt npoints;

    PetscCall(RwTermObservedLayout(obj, &c->stride, &c->offset, &npoints));
  }
  PetscCall(RwModelCreateField(obj->model, &f));
  PetscCall(VecDuplicateVecs(f, ntimes, &c->wbar));
  PetscCall(VecDuplicateVecs(f, ntimes, &c->ys));
  PetscCall(VecDestroy(&f));
  for (PetscInt t = 0; t < ntimes; t++) PetscCall(VecSet(c->wbar[t], 0));
  PetscCall(RwObjectiveAddTerm(obj, "linear", &ops, ntimes, steps, NULL, c));
  if (term) *term = c->term;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveAddOutputs - adds the linear terms of what another objective
  observes: for each of its sensor terms (sensors, receivers) a term at the
  same points and steps; when it has none, one at the final state

  Collective

  Input Parameters:
+ obj      - the objective to add to, on the same model as observed (or one of the same grid)
- observed - the objective whose outputs they are

  Output Parameter:
. nterms - the number of terms added (their indices follow the terms obj had)

  Notes:
  With the cotangent of each set (RwObjectiveSetLinearWeights()), a solve of
  obj gives y = F(m, u0) (RwObjectiveGetLinearOutputs()) and the
  vector-Jacobian product ybar^T dF.

  Level: intermediate

.seealso: RwObjectiveAddLinearPoints(), RwObjectiveAddLinearState()
@*/
PetscErrorCode RwObjectiveAddOutputs(RwObjective obj, RwObjective observed, PetscInt *nterms)
{
  const PetscInt64 final = RW_OBJECTIVE_FINAL_STEP;
  PetscInt         n     = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscValidHeaderSpecific(observed, RW_OBJECTIVE_CLASSID, 2);
  for (PetscInt i = 0; i < observed->nterms; i++) {
    PetscInt          np, nt;
    const PetscReal  *coords;
    const PetscInt64 *steps;
    PetscBool         is;

    PetscCall(RwTermSensorsGetPoints(&observed->terms[i], &is, &np, &coords, &nt, &steps));
    if (!is) continue;
    PetscCall(RwObjectiveAddLinearPoints(obj, np, coords, nt, steps, NULL));
    n++;
  }
  if (!n) {
    PetscCall(RwObjectiveAddLinearState(obj, 1, &final, NULL));
    n = 1;
  }
  if (nterms) *nterms = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveGetLinearSize - the number of outputs of a linear term on this
  rank: ntimes * npoints (replicated) for points, ntimes times this rank's
  part of a field for the state

  Not collective

  Level: intermediate

.seealso: RwObjectiveSetLinearWeights(), RwObjectiveGetLinearOutputs()
@*/
PetscErrorCode RwObjectiveGetLinearSize(RwObjective obj, PetscInt term, PetscInt *n)
{
  RwLinear *c;

  PetscFunctionBegin;
  PetscCall(LinearGet(obj, term, &c));
  if (c->npoints) *n = c->ntimes * c->npoints;
  else {
    PetscCall(VecGetLocalSize(c->wbar[0], n));
    *n *= c->ntimes;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveSetLinearWeights - the cotangent ybar of a linear term

  Collective; points: every rank passes the same values

  Input Parameters:
+ obj  - the objective
. term - the linear term's index
- ybar - RwObjectiveGetLinearSize() values, finite; t after t

  Level: intermediate

.seealso: RwObjectiveAddLinearPoints(), RwObjectiveAddLinearState()
@*/
PetscErrorCode RwObjectiveSetLinearWeights(RwObjective obj, PetscInt term, const PetscReal ybar[])
{
  RwLinear *c;
  PetscInt  n, nf;

  PetscFunctionBegin;
  PetscCall(LinearGet(obj, term, &c));
  PetscCall(RwObjectiveGetLinearSize(obj, term, &n));
  { /* every rank stops, or none: a state's cotangent is distributed */
    PetscInt bad = -1, first;

    for (PetscInt i = 0; i < n && bad < 0; i++)
      if (PetscIsInfOrNanReal(ybar[i])) bad = i;
    PetscCallMPI(MPIU_Allreduce(&bad, &first, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)obj)));
    PetscCheck(first < 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Cotangent of linear term %" PetscInt_FMT ": value %" PetscInt_FMT " (on some rank) is not finite; expected finite values", term, first);
  }
  if (c->npoints) PetscCall(PetscArraycpy(c->ybar, ybar, n));
  nf = c->npoints ? 0 : n / c->ntimes;
  for (PetscInt t = 0; !c->npoints && t < c->ntimes; t++) {
    PetscScalar *b;

    PetscCall(VecGetArray(c->wbar[t], &b));
    for (PetscInt i = 0; i < nf; i++) b[i] = ybar[t * nf + i];
    PetscCall(VecRestoreArray(c->wbar[t], &b));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveGetLinearOutputs - the outputs y of a linear term in the last run

  Collective (points: the owners' values to every rank)

  Input Parameters:
+ obj  - the objective
- term - the linear term's index

  Output Parameter:
. y - RwObjectiveGetLinearSize() values, t after t

  Level: intermediate

.seealso: RwObjectiveSetLinearWeights()
@*/
PetscErrorCode RwObjectiveGetLinearOutputs(RwObjective obj, PetscInt term, PetscReal y[])
{
  RwLinear *c;
  PetscInt  n, nf;

  PetscFunctionBegin;
  PetscCall(LinearGet(obj, term, &c));
  PetscCall(RwObjectiveGetLinearSize(obj, term, &n));
  /* one owner a point, zeros elsewhere: the sum is the owner's value exactly */
  if (c->npoints) PetscCallMPI(MPIU_Allreduce(c->y, y, (PetscMPIInt)n, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)obj)));
  nf = c->npoints ? 0 : n / c->ntimes;
  for (PetscInt t = 0; !c->npoints && t < c->ntimes; t++) {
    const PetscScalar *a;

    PetscCall(VecGetArrayRead(c->ys[t], &a));
    for (PetscInt i = 0; i < nf; i++) y[t * nf + i] = PetscRealPart(a[i]);
    PetscCall(VecRestoreArrayRead(c->ys[t], &a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
