/* RwObjective: J as a sum of terms over the states of one run. */
#include <float.h>
#include <rewind/private/objectiveimpl.h>
#include <string.h>

PetscClassId RW_OBJECTIVE_CLASSID;

/*@
  RwObjectiveCreate - an objective with no terms, for the states of a model

  Collective

  Input Parameter:
. model - the model, set up

  Output Parameter:
. obj - the objective

  Level: beginner

.seealso: RwObjectiveAddTerminalMisfit(), RwObjectiveAddSensors(), RwObjectiveDestroy()
@*/
PetscErrorCode RwObjectiveCreate(RwModel model, RwObjective *obj)
{
  RwObjective o;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidPointer(obj, 2);
  PetscCall(RwInitializePackage());
  PetscCall(RwModelSetUp(model));
  PetscCall(PetscHeaderCreate(o, RW_OBJECTIVE_CLASSID, "RwObjective", "Objective: a sum of misfit terms", "RwObjective", PetscObjectComm((PetscObject)model), RwObjectiveDestroy, RwObjectiveView));
  PetscCall(PetscObjectReference((PetscObject)model));
  o->model = model;
  { /* a child inherits its model's prefix: one per ensemble member or case */
    const char *prefix;

    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)model, &prefix));
    PetscCall(PetscObjectSetOptionsPrefix((PetscObject)o, prefix));
  }
  PetscCall(RwModelCreateState(model, &o->work));
  *obj = o;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The field parts of the terms' direct dJ/dm: accumulated in a reverse sweep, one step's for the tangent */
static PetscErrorCode RwObjectiveCreateGradientFields(RwObjective obj)
{
  PetscInt nf = obj->model->nfields;

  PetscFunctionBegin;
  PetscCall(PetscCalloc2(nf + 1, &obj->gf, nf + 1, &obj->gt));
  for (PetscInt f = 0; f < nf; f++) {
    PetscCall(RwModelCreateField(obj->model, &obj->gf[f]));
    PetscCall(RwModelCreateField(obj->model, &obj->gt[f]));
  }
  obj->hasgradient = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveAddTerm - adds a term J_k(u_k, m), weighted by w_k at the steps where it is active

  Collective; every rank passes the same arguments

  Input Parameters:
+ obj     - the objective
. name    - the term's name (views, identities)
. ops     - what the term computes (copied); value and adjoint are required
. nsteps  - the number of active steps, or RW_OBJECTIVE_ALL_STEPS for every step 0..n
. steps   - the active steps, increasing; the last may be RW_OBJECTIVE_FINAL_STEP, the run's last step n (NULL with RW_OBJECTIVE_ALL_STEPS)
. weights - w_k per active step, e.g. quadrature weights of a time integral (NULL: 1; must be NULL with RW_OBJECTIVE_ALL_STEPS)
- ctx     - the term's context, freed by ops->destroy when the objective is destroyed

  Level: intermediate

  Notes:
  A term that depends on the parameters directly (a control cost, a time
  average of a parameter-dependent quantity) gives ops->gradient; the driver
  adds it to dJ/dm, and the tangent includes it.  See RwObjectiveTermOps for
  what each op must guarantee.

.seealso: RwObjectiveTermOps, RwObjectiveAddTerminalMisfit(), RwObjectiveAddSensors(), RwObjectiveAddScalarGradient()
@*/
PetscErrorCode RwObjectiveAddTerm(RwObjective obj, const char name[], const RwObjectiveTermOps *ops, PetscInt nsteps, const PetscInt64 steps[], const PetscReal weights[], void *ctx)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)obj);
  RwTerm  *t;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(obj->nterms < RW_OBJECTIVE_MAX_TERMS, comm, PETSC_ERR_SUP, "At most %d objective terms", RW_OBJECTIVE_MAX_TERMS);
  PetscCheck(ops && ops->value && ops->adjoint, comm, PETSC_ERR_ARG_NULL, "Objective term %s needs a value and an adjoint op", name);
  PetscCheck(nsteps == RW_OBJECTIVE_ALL_STEPS || (nsteps >= 1 && steps), comm, PETSC_ERR_ARG_OUTOFRANGE, "Objective term %s: %" PetscInt_FMT " active steps; give at least one, or RW_OBJECTIVE_ALL_STEPS", name, nsteps);
  PetscCheck(nsteps != RW_OBJECTIVE_ALL_STEPS || !weights, comm, PETSC_ERR_ARG_WRONG, "Objective term %s is active at every step: its weights come from its ops, not an array", name);
  for (PetscInt i = 0; i < nsteps; i++) {
    PetscBool final = (PetscBool)(steps[i] == RW_OBJECTIVE_FINAL_STEP && i == nsteps - 1);
    PetscCheck(final || steps[i] >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Objective term %s: step %" PetscInt64_FMT " (index %" PetscInt_FMT ") must be >= 0, or RW_OBJECTIVE_FINAL_STEP last", name, steps[i], i);
    PetscCheck(final || i == 0 || steps[i] > steps[i - 1], comm, PETSC_ERR_ARG_WRONG, "Objective term %s: steps must increase (step %" PetscInt64_FMT " follows %" PetscInt64_FMT ")", name, steps[i], steps[i - 1]);
    PetscCheck(!weights || !PetscIsInfOrNanReal(weights[i]), comm, PETSC_ERR_ARG_OUTOFRANGE, "Objective term %s: weight %g at index %" PetscInt_FMT " is not finite", name, (double)weights[i], i);
    PetscCheck(!weights || PetscIsNormalReal(weights[i]) || weights[i] == 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "Objective term %s: weight %g at index %" PetscInt_FMT " is below the smallest normal number (%g)", name, (double)weights[i], i, DBL_MIN);
  }
  t = &obj->terms[obj->nterms];
  PetscCall(PetscMemzero(t, sizeof(*t)));
  PetscCall(PetscStrncpy(t->name, name, sizeof(t->name)));
  t->ops    = *ops;
  t->ctx    = ctx;
  t->nsteps = nsteps;
  if (nsteps > 0) {
    PetscCall(PetscMalloc2(nsteps, &t->given, nsteps, &t->steps));
    PetscCall(PetscArraycpy(t->given, steps, nsteps));
    PetscCall(PetscArraycpy(t->steps, steps, nsteps));
  }
  if (weights) {
    PetscCall(PetscMalloc1(nsteps, &t->weights));
    PetscCall(PetscArraycpy(t->weights, weights, nsteps));
  }
  obj->nterms++;
  /* one exact sum per term and one for the tangent: rebuilt at set-up time, not in the time loop */
  PetscCall(RwReproSumDestroy(&obj->acc));
  PetscCall(RwReproSumCreate(obj->nterms + 1, &obj->acc));
  if (ops->gradient && !obj->hasgradient) PetscCall(RwObjectiveCreateGradientFields(obj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveAddTerminalMisfit - adds (weight/2) h^d sum_i (u_n,i - target_i)^2

  Collective

  Input Parameters:
+ obj    - the objective
. target - the target field (copied)
- weight - the weight, > 0

  Level: beginner

.seealso: RwObjectiveAddSensors()
@*/
PetscErrorCode RwObjectiveAddTerminalMisfit(RwObjective obj, Vec target, PetscReal weight)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscValidHeaderSpecific(target, VEC_CLASSID, 2);
  PetscCheck(weight > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Terminal misfit weight %g must be > 0", (double)weight);
  PetscCall(RwTermAddTerminal(obj, target, weight));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveAddDefaultMisfit - adds the terminal misfit (weight 1) to the
  model type's default target, the objective of the default problem

  Collective

  Level: beginner

.seealso: RwObjectiveAddTerminalMisfit(), RwModelGetDefaults()
@*/
PetscErrorCode RwObjectiveAddDefaultMisfit(RwObjective obj)
{
  Vec target;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCall(RwModelCreateField(obj->model, &target));
  PetscCall(RwModelGetDefaults(obj->model, NULL, NULL, target));
  PetscCall(RwObjectiveAddTerminalMisfit(obj, target, 1.0));
  PetscCall(VecDestroy(&target));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveAddSensors - adds 1/2 sum_t sum_s (u(x_s, t) - d_s,t)^2 / sigma^2 for point
  sensors read by multilinear interpolation at chosen steps

  Collective; every rank passes the same arrays

  Input Parameters:
+ obj      - the objective
. nsensors - number of sensors
. coords   - their coordinates in the unit box, dim per sensor (sensor-major)
. ntimes   - number of observation steps
. steps    - the steps, distinct, in 0..n
. data     - the observations, data[t * nsensors + s]
- sigma    - the noise level, > 0

  Level: beginner

  Notes:
  Each sensor belongs to exactly one rank, which adds its misfit; the adjoint
  source is gathered at each point from the sensors around it in the order of
  their index, so it does not depend on the decomposition.

.seealso: RwObjectiveAddTerminalMisfit(), RwObjectiveSetSensorData(), RwObjectiveInterpolate()
@*/
PetscErrorCode RwObjectiveAddSensors(RwObjective obj, PetscInt nsensors, const PetscReal coords[], PetscInt ntimes, const PetscInt64 steps[], const PetscReal data[], PetscReal sigma)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(nsensors > 0 && ntimes > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Need at least one sensor and one observation time (got %" PetscInt_FMT " and %" PetscInt_FMT ")", nsensors, ntimes);
  PetscCheck(sigma > 0 && PetscIsNormalReal(sigma), PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Noise level sigma %g must be > 0", (double)sigma);
  PetscCall(RwTermAddSensors(obj, nsensors, coords, ntimes, steps, data, sigma));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveSetSensorData - replaces the observations of sensor term i and their noise level,
  e.g. to evaluate one experiment after another with the same sensors

  Collective

  Input Parameters:
+ obj   - the objective
. i     - the term
. data  - the observations, data[t * nsensors + s] in the order the steps were given
- sigma - the noise level, > 0

  Level: intermediate

.seealso: RwObjectiveAddSensors(), RwObjectiveInterpolate()
@*/
PetscErrorCode RwObjectiveSetSensorData(RwObjective obj, PetscInt i, const PetscReal data[], PetscReal sigma)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(i >= 0 && i < obj->nterms && !strcmp(obj->terms[i].name, "sensors"), PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "Objective term %" PetscInt_FMT " is not a sensor term", i);
  PetscCheck(sigma > 0 && PetscIsNormalReal(sigma), PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Noise level sigma %g must be > 0", (double)sigma);
  PetscCall(RwTermSensorsSetData(&obj->terms[i], data, sigma));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveInterpolate - the values that the sensors of term i read from a state, on every rank

  Collective

  Output Parameter:
. values - one per sensor

  Level: intermediate

.seealso: RwObjectiveAddSensors()
@*/
PetscErrorCode RwObjectiveInterpolate(RwObjective obj, PetscInt i, Vec u, PetscReal values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(i >= 0 && i < obj->nterms && !strcmp(obj->terms[i].name, "sensors"), PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "Objective term %" PetscInt_FMT " is not a sensor term", i);
  PetscCall(RwTermSensorsInterpolate(obj, &obj->terms[i], u, values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveGetNumTerms - the number of terms

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwObjectiveGetNumTerms(RwObjective obj, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  *n = obj->nterms;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This run's active steps: the final step is n; every step must lie in 0..n */
static PetscErrorCode RwTermResolveSteps(RwObjective obj, RwTerm *t)
{
  PetscInt64 n = obj->model->n;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < t->nsteps; i++) {
    t->steps[i] = t->given[i] == RW_OBJECTIVE_FINAL_STEP ? n : t->given[i];
    PetscCheck(t->steps[i] <= n, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Objective term %s is active at step %" PetscInt64_FMT ", beyond the last step %" PetscInt64_FMT " of the run (-rw_steps)", t->name, t->steps[i], n);
    PetscCheck(i == 0 || t->steps[i] > t->steps[i - 1], PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Objective term %s: its final step %" PetscInt64_FMT " is not after its step %" PetscInt64_FMT, t->name, t->steps[i], t->steps[i - 1]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An online run stopped at step n, below the steps it was set up for: the terms
   given at the final step (RW_OBJECTIVE_FINAL_STEP) move there */
PetscErrorCode RwObjectiveSetLastStep_Private(RwObjective obj, PetscInt64 n)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < obj->nterms; i++) {
    RwTerm  *t = &obj->terms[i];
    PetscInt last = t->nsteps - 1;

    if (t->nsteps <= 0 || t->given[last] != RW_OBJECTIVE_FINAL_STEP) continue;
    PetscCheck(last == 0 || t->steps[last - 1] < n, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Objective term %s is active at step %" PetscInt64_FMT " and at the final step, but the run stopped at step %" PetscInt64_FMT, t->name, t->steps[last - 1], n);
    t->steps[last] = n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether term t is active at step k, and its weight there */
static PetscBool RwTermActive(RwObjective obj, const RwTerm *t, PetscInt64 k, PetscReal *w)
{
  PetscInt lo = 0, hi = t->nsteps - 1;

  *w = 1;
  if (t->nsteps == RW_OBJECTIVE_ALL_STEPS) return (PetscBool)(k >= 0 && k <= obj->model->n);
  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;

    if (t->steps[mid] == k) {
      if (t->weights) *w = t->weights[mid];
      return PETSC_TRUE;
    }
    if (t->steps[mid] < k) lo = mid + 1;
    else hi = mid - 1;
  }
  return PETSC_FALSE;
}

/*@
  RwObjectiveBegin - starts a run: zeroes the accumulated value and tangent

  Not collective

  Level: developer

.seealso: RwObjectiveEvaluate(), RwObjectiveEnd()
@*/
PetscErrorCode RwObjectiveBegin(RwObjective obj)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(obj->nterms > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONGSTATE, "The objective has no terms");
  for (PetscInt i = 0; i < obj->nterms; i++) PetscCall(RwTermResolveSteps(obj, &obj->terms[i]));
  for (PetscInt i = 0; i < obj->nterms; i++)
    if (obj->terms[i].ops.setup) PetscCall(obj->terms[i].ops.setup(obj, obj->terms[i].ctx));
  PetscCall(RwReproSumReset(obj->acc));
  for (PetscInt f = 0; obj->hasgradient && f < obj->model->nfields; f++) PetscCall(VecSet(obj->gf[f], 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveEvaluate - adds the terms active at step k, for state u = u_k

  Collective

  Level: developer

.seealso: RwObjectiveBegin(), RwObjectiveEnd()
@*/
PetscErrorCode RwObjectiveEvaluate(RwObjective obj, PetscInt64 k, Vec u)
{
  PetscReal w;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < obj->nterms; i++) {
    RwTerm *t = &obj->terms[i];
    if (RwTermActive(obj, t, k, &w)) PetscCall(t->ops.value(obj, k, w, u, obj->acc, i, t->ctx));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* lambda += w dJ_k/du_k of the terms active at step k */
static PetscErrorCode RwObjectiveStateSource(RwObjective obj, PetscInt64 k, Vec u, Vec lambda)
{
  PetscReal w;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < obj->nterms; i++) {
    RwTerm *t = &obj->terms[i];
    if (RwTermActive(obj, t, k, &w)) PetscCall(t->ops.adjoint(obj, k, w, u, lambda, t->ctx));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The direct w dJ_k/dm of the terms active at step k: fields into g[f], scalars as RwObjectiveAddScalarGradient() routes them */
static PetscErrorCode RwObjectiveDirectGradient(RwObjective obj, PetscInt64 k, Vec u, Vec g[])
{
  PetscReal w;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < obj->nterms; i++) {
    RwTerm *t = &obj->terms[i];
    if (t->ops.gradient && RwTermActive(obj, t, k, &w)) PetscCall(t->ops.gradient(obj, k, w, u, g, t->ctx));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveAdjointSource - lambda += dJ/du_k for the terms active at step k,
  and their direct dJ/dm added to the objective's accumulators (a reverse sweep)

  Collective

  Level: developer

.seealso: RwObjectiveEvaluate(), RwObjectiveAddParameterGradient()
@*/
PetscErrorCode RwObjectiveAdjointSource(RwObjective obj, PetscInt64 k, Vec u, Vec lambda)
{
  PetscFunctionBegin;
  PetscCall(RwObjectiveStateSource(obj, k, u, lambda));
  if (obj->hasgradient) PetscCall(RwObjectiveDirectGradient(obj, k, u, obj->gf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Adds the exact products a_i b_i of two local arrays to the tangent's sum */
static PetscErrorCode RwObjectiveAddProducts(RwObjective obj, Vec x, Vec y)
{
  const PetscScalar *a, *b;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayRead(y, &b));
  for (PetscInt i = 0; i < n; i++) PetscCall(RwReproSumAdd(obj->acc, obj->nterms, PetscRealPart(a[i] * b[i])));
  PetscCall(VecRestoreArrayRead(y, &b));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveTangent - adds <dJ/du_k, du_k> + <dJ_k/dm, dm> to the accumulated directional derivative

  Collective

  Level: developer

.seealso: RwObjectiveEnd(), RwObjectiveSetDirection()
@*/
PetscErrorCode RwObjectiveTangent(RwObjective obj, PetscInt64 k, Vec u, Vec du)
{
  PetscBool any = PETSC_FALSE, anyg = PETSC_FALSE;
  PetscReal w;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < obj->nterms; i++) {
    PetscBool on = RwTermActive(obj, &obj->terms[i], k, &w);

    any  = (PetscBool)(any || on);
    anyg = (PetscBool)(anyg || (on && obj->terms[i].ops.gradient));
  }
  if (!any) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecSet(obj->work, 0));
  PetscCall(RwObjectiveStateSource(obj, k, u, obj->work));
  PetscCall(RwObjectiveAddProducts(obj, obj->work, du));
  if (!anyg) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(obj->dm, PetscObjectComm((PetscObject)obj), PETSC_ERR_ORDER, "A term depends on the parameters: call RwObjectiveSetDirection() before a tangent run");
  for (PetscInt f = 0; f < obj->model->nfields; f++) PetscCall(VecSet(obj->gt[f], 0));
  obj->intangent = PETSC_TRUE; /* scalars: w dJ/dm_i dm_i straight into the tangent's sum */
  PetscCall(RwObjectiveDirectGradient(obj, k, u, obj->gt));
  obj->intangent = PETSC_FALSE;
  for (PetscInt f = 0; f < obj->model->nfields; f++) {
    Vec d;

    PetscCall(RwModelGetParameterField(obj->model, obj->dm, f, &d));
    PetscCall(RwObjectiveAddProducts(obj, obj->gt[f], d));
    PetscCall(RwModelRestoreParameterField(obj->model, obj->dm, f, &d));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveAddScalarGradient - adds this rank's share v of w dJ_k/d(scalar i
  of block b), from a term's gradient op; the shares are summed exactly over
  the ranks, so a share that is the same on every rank (it does not come from
  grid points) must be added on rank 0 only

  Not collective

  Level: intermediate

.seealso: RwObjectiveTermOps, RwModelAddScalarGradient()
@*/
PetscErrorCode RwObjectiveAddScalarGradient(RwObjective obj, PetscInt b, PetscInt i, PetscReal v)
{
  RwModel model = obj->model;

  PetscFunctionBegin;
  PetscCheck(b >= 0 && b < model->nblocks && i >= 0 && i < model->blocks[b].size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Scalar %" PetscInt_FMT " of block %" PetscInt_FMT " out of range", i, b);
  if (obj->intangent) PetscCall(RwReproSumAdd(obj->acc, obj->nterms, v * model->dscalars[model->blocks[b].offset + i]));
  else {
    PetscCheck(model->inadjoint, PETSC_COMM_SELF, PETSC_ERR_ORDER, "RwObjectiveAddScalarGradient() outside a reverse sweep or a tangent run");
    PetscCall(RwModelAddScalarGradient(model, b, i, v));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveAddParameterGradient - adds the terms' direct dJ/dm of the last
  reverse sweep to the fields of g (their scalars went into the model's reduction)

  Collective

  Level: developer

.seealso: RwObjectiveAdjointSource(), RwModelAdjointEnd()
@*/
PetscErrorCode RwObjectiveAddParameterGradient(RwObjective obj, Vec g)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  for (PetscInt f = 0; obj->hasgradient && f < obj->model->nfields; f++) {
    Vec gf;

    PetscCall(RwModelGetParameterField(obj->model, g, f, &gf));
    PetscCall(VecAXPY(gf, 1.0, obj->gf[f]));
    PetscCall(RwModelRestoreParameterField(obj->model, g, f, &gf));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveGetAccumulators - the field-grid vectors in which a reverse sweep
  accumulates the terms' direct dJ/dm (none if no term depends on m): kept
  with the model's to resume a reverse sweep

  Not collective

  Level: developer

.seealso: RwModelGetAdjointAccumulators()
@*/
PetscErrorCode RwObjectiveGetAccumulators(RwObjective obj, PetscInt *n, Vec *acc[])
{
  PetscFunctionBegin;
  *n   = obj->hasgradient ? obj->model->nfields : 0;
  *acc = obj->gf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveSetParameters - the parameters m of the coming run, which terms read (not copied)

  Logically collective

  Level: developer

.seealso: RwObjectiveGetParameters()
@*/
PetscErrorCode RwObjectiveSetParameters(RwObjective obj, Vec m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  obj->m = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveGetParameters - the parameters m of the run, for terms that depend on them

  Not collective

  Level: intermediate

.seealso: RwObjectiveTermOps
@*/
PetscErrorCode RwObjectiveGetParameters(RwObjective obj, Vec *m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(obj->m, PetscObjectComm((PetscObject)obj), PETSC_ERR_ORDER, "No parameters yet: the driver sets them at the start of a run (RwObjectiveSetParameters())");
  *m = obj->m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveSetDirection - the parameter direction dm of a tangent run (not copied)

  Logically collective

  Level: developer
@*/
PetscErrorCode RwObjectiveSetDirection(RwObjective obj, Vec dm)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  obj->dm = dm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveSetOptionsPrefix - the prefix of the objective's options (-<prefix>rw_objective_view); by default its model's

  Logically collective

  Level: intermediate

.seealso: RwObjectiveAppendOptionsPrefix(), RwModelSetOptionsPrefix()
@*/
PetscErrorCode RwObjectiveSetOptionsPrefix(RwObjective obj, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)obj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveAppendOptionsPrefix - appends to the objective's options prefix

  Logically collective

  Level: intermediate
@*/
PetscErrorCode RwObjectiveAppendOptionsPrefix(RwObjective obj, const char prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCall(PetscObjectAppendOptionsPrefix((PetscObject)obj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveGetOptionsPrefix - the objective's options prefix (NULL: none)

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwObjectiveGetOptionsPrefix(RwObjective obj, const char *prefix[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)obj, prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveGetModel - the model whose states the objective observes

  Not collective

  Level: intermediate
@*/
PetscErrorCode RwObjectiveGetModel(RwObjective obj, RwModel *model)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  *model = obj->model;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveEnd - ends a run: reduces the terms across ranks, once

  Collective

  Output Parameters:
+ J  - the objective (may be NULL)
- dJ - the accumulated directional derivative (may be NULL)

  Level: developer

.seealso: RwObjectiveBegin(), RwObjectiveGetTermValues()
@*/
PetscErrorCode RwObjectiveEnd(RwObjective obj, PetscReal *J, PetscReal *dJ)
{
  PetscReal sums[RW_OBJECTIVE_MAX_TERMS + 1], total = 0;

  PetscFunctionBegin;
  PetscCall(RwReproSumAllreduce(obj->acc, PetscObjectComm((PetscObject)obj), sums));
  /* each term is exact and rounded once; their few totals are added in term order */
  for (PetscInt i = 0; i < obj->nterms; i++) {
    obj->values[i] = sums[i];
    total += sums[i];
  }
  if (J) *J = total;
  if (dJ) *dJ = sums[obj->nterms];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveGetTermValues - the value of each term in the last run

  Not collective

  Level: intermediate

.seealso: RwObjectiveEnd()
@*/
PetscErrorCode RwObjectiveGetTermValues(RwObjective obj, PetscInt n, PetscReal values[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  for (PetscInt i = 0; i < PetscMin(n, obj->nterms); i++) values[i] = obj->values[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveGetStateSize - integers that hold the exact partial objective of a run

  Not collective

  Level: developer

.seealso: RwObjectiveExportState()
@*/
PetscErrorCode RwObjectiveGetStateSize(RwObjective obj, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(obj->acc, PetscObjectComm((PetscObject)obj), PETSC_ERR_ORDER, "The objective has no terms");
  PetscCall(RwReproSumGetStateSize(obj->acc, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveExportState - the exact partial objective of the run so far, the
  same on every rank; kept with checkpoints so a resumed run ends with J bit for bit

  Collective

  Level: developer

.seealso: RwObjectiveImportState()
@*/
PetscErrorCode RwObjectiveExportState(RwObjective obj, PetscInt64 state[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCall(RwReproSumExport(obj->acc, PetscObjectComm((PetscObject)obj), state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveImportState - continues a run from an exported partial objective

  Collective

  Level: developer

.seealso: RwObjectiveExportState()
@*/
PetscErrorCode RwObjectiveImportState(RwObjective obj, const PetscInt64 state[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCall(RwReproSumImport(obj->acc, PetscObjectComm((PetscObject)obj), state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveGetChecksum - a checksum of everything the objective compares the
  states with (its terms, their targets, sensor positions, data and weights),
  the same on any number of ranks; part of a checkpoint's identity, so that a
  run is never resumed against other data

  Collective

  Output Parameter:
. sum - the checksum

  Level: developer

.seealso: RwObjectiveAddSensors(), RwObjectiveSetSensorData()
@*/
PetscErrorCode RwObjectiveGetChecksum(RwObjective obj, uint64_t *sum)
{
  uint64_t h = RwSplitMix64((uint64_t)obj->nterms);

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  for (PetscInt i = 0; i < obj->nterms; i++) {
    RwTerm  *t = &obj->terms[i];
    uint64_t c = 0;
    size_t   len;

    PetscCheck(t->ops.checksum, PetscObjectComm((PetscObject)obj), PETSC_ERR_SUP, "Objective term \"%s\" has no checksum of its data, so a restart could not tell its data apart", t->name);
    PetscCall((*t->ops.checksum)(obj, &c, t->ctx));
    /* where it is active and with which weights: replicated, the same on every rank */
    c = RwSplitMix64(c ^ (uint64_t)t->nsteps);
    for (PetscInt j = 0; j < t->nsteps; j++) c = RwSplitMix64(c ^ (uint64_t)t->given[j]);
    for (PetscInt j = 0; t->weights && j < t->nsteps; j++) {
      uint64_t bits;

      memcpy(&bits, &t->weights[j], sizeof(bits));
      c = RwSplitMix64(c ^ bits);
    }
    PetscCall(PetscStrlen(t->name, &len));
    for (size_t j = 0; j < len; j++) c = RwSplitMix64(c ^ (uint64_t)(unsigned char)t->name[j]);
    h = RwSplitMix64(h ^ c);
  }
  *sum = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveView - lists the terms

  Collective

  Level: beginner
@*/
PetscErrorCode RwObjectiveView(RwObjective obj, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)obj), &viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "RwObjective: %" PetscInt_FMT " term%s\n", obj->nterms, obj->nterms == 1 ? "" : "s"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  for (PetscInt i = 0; i < obj->nterms; i++) {
    if (obj->terms[i].ops.view) PetscCall(obj->terms[i].ops.view(obj, viewer, obj->terms[i].ctx));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "%s\n", obj->terms[i].name));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveDestroy - frees an objective; safe on NULL

  Collective

  Level: beginner
@*/
PetscErrorCode RwObjectiveDestroy(RwObjective *obj)
{
  PetscFunctionBegin;
  if (!obj || !*obj) PetscFunctionReturn(PETSC_SUCCESS);
  PetscValidHeaderSpecific(*obj, RW_OBJECTIVE_CLASSID, 1);
  if (--((PetscObject)(*obj))->refct > 0) {
    *obj = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt i = 0; i < (*obj)->nterms; i++) {
    RwTerm *t = &(*obj)->terms[i];

    if (t->ops.destroy) PetscCall(t->ops.destroy(t->ctx));
    PetscCall(PetscFree2(t->given, t->steps));
    PetscCall(PetscFree(t->weights));
  }
  for (PetscInt f = 0; (*obj)->hasgradient && f < (*obj)->model->nfields; f++) {
    PetscCall(VecDestroy(&(*obj)->gf[f]));
    PetscCall(VecDestroy(&(*obj)->gt[f]));
  }
  PetscCall(PetscFree2((*obj)->gf, (*obj)->gt));
  PetscCall(RwReproSumDestroy(&(*obj)->acc));
  PetscCall(VecDestroy(&(*obj)->work));
  PetscCall(RwModelDestroy(&(*obj)->model));
  PetscCall(PetscHeaderDestroy(obj));
  PetscFunctionReturn(PETSC_SUCCESS);
}
