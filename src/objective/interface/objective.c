/* RwObjective: J as a sum of terms over the states of one run. */
#include <rewind/private/objectiveimpl.h>

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
  PetscCall(RwModelCreateState(model, &o->work));
  PetscCall(DMCreateLocalVector(model->da, &o->uloc));
  *obj = o;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Makes room for one more term; the accumulators grow with it (set-up time, not the time loop) */
PetscErrorCode RwObjectiveAddTerm_Private(RwObjective obj, RwTerm **term)
{
  PetscFunctionBegin;
  PetscCheck(obj->nterms < RW_OBJECTIVE_MAX_TERMS, PetscObjectComm((PetscObject)obj), PETSC_ERR_SUP, "At most %d objective terms", RW_OBJECTIVE_MAX_TERMS);
  *term = &obj->terms[obj->nterms++];
  PetscCall(PetscMemzero(*term, sizeof(**term)));
  PetscCall(RwReproSumDestroy(&obj->acc));
  PetscCall(RwReproSumCreate(obj->nterms + 1, &obj->acc));
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
  RwTerm *term;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscValidHeaderSpecific(target, VEC_CLASSID, 2);
  PetscCheck(weight > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Terminal misfit weight %g must be > 0", (double)weight);
  PetscCall(RwObjectiveAddTerm_Private(obj, &term));
  PetscCall(RwTermCreate_Terminal(obj, term, target, weight));
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
  RwTerm *term;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCheck(nsensors > 0 && ntimes > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Need at least one sensor and one observation time (got %" PetscInt_FMT " and %" PetscInt_FMT ")", nsensors, ntimes);
  PetscCheck(sigma > 0 && PetscIsNormalReal(sigma), PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "Noise level sigma %g must be > 0", (double)sigma);
  PetscCall(RwObjectiveAddTerm_Private(obj, &term));
  PetscCall(RwTermCreate_Sensors(obj, term, nsensors, coords, ntimes, steps, data, sigma));
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
  PetscCheck(i >= 0 && i < obj->nterms && obj->terms[i].adjoint && !strcmp(obj->terms[i].name, "sensors"), PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "Objective term %" PetscInt_FMT " is not a sensor term", i);
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
  for (PetscInt i = 0; i < obj->nterms; i++)
    if (obj->terms[i].check) PetscCall(obj->terms[i].check(obj, &obj->terms[i]));
  PetscCall(RwReproSumReset(obj->acc));
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
  PetscFunctionBegin;
  for (PetscInt i = 0; i < obj->nterms; i++) {
    RwTerm *t = &obj->terms[i];
    if (t->active(obj, t, k)) PetscCall(t->value(obj, t, k, u, obj->acc, i));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveAdjointSource - lambda += dJ/du_k for the terms active at step k

  Collective

  Level: developer

.seealso: RwObjectiveEvaluate()
@*/
PetscErrorCode RwObjectiveAdjointSource(RwObjective obj, PetscInt64 k, Vec u, Vec lambda)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < obj->nterms; i++) {
    RwTerm *t = &obj->terms[i];
    if (t->active(obj, t, k)) PetscCall(t->adjoint(obj, t, k, u, lambda));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwObjectiveTangent - adds <dJ/du_k, du_k> to the accumulated directional derivative

  Collective

  Level: developer

.seealso: RwObjectiveEnd()
@*/
PetscErrorCode RwObjectiveTangent(RwObjective obj, PetscInt64 k, Vec u, Vec du)
{
  PetscBool          any = PETSC_FALSE;
  const PetscScalar *a, *b;
  PetscInt           n;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < obj->nterms; i++) any = any || obj->terms[i].active(obj, &obj->terms[i], k);
  if (!any) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecSet(obj->work, 0));
  PetscCall(RwObjectiveAdjointSource(obj, k, u, obj->work));
  PetscCall(VecGetLocalSize(du, &n));
  PetscCall(VecGetArrayRead(obj->work, &a));
  PetscCall(VecGetArrayRead(du, &b));
  for (PetscInt i = 0; i < n; i++) PetscCall(RwReproSumAdd(obj->acc, obj->nterms, PetscRealPart(a[i] * b[i])));
  PetscCall(VecRestoreArrayRead(du, &b));
  PetscCall(VecRestoreArrayRead(obj->work, &a));
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

    PetscCheck(t->checksum, PetscObjectComm((PetscObject)obj), PETSC_ERR_SUP, "Objective term \"%s\" has no checksum of its data, so a restart could not tell its data apart", t->name);
    PetscCall((*t->checksum)(obj, t, &c));
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
    if (obj->terms[i].view) PetscCall(obj->terms[i].view(&obj->terms[i], viewer));
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
  for (PetscInt i = 0; i < (*obj)->nterms; i++)
    if ((*obj)->terms[i].destroy) PetscCall((*obj)->terms[i].destroy(&(*obj)->terms[i]));
  PetscCall(RwReproSumDestroy(&(*obj)->acc));
  PetscCall(VecDestroy(&(*obj)->work));
  PetscCall(VecDestroy(&(*obj)->uloc));
  PetscCall(RwModelDestroy(&(*obj)->model));
  PetscCall(PetscHeaderDestroy(obj));
  PetscFunctionReturn(PETSC_SUCCESS);
}
