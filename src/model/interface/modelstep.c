/*
  RwModel's stepping interface, what the driver calls for one gradient (see
  include/rewind/model.h for the order): the parameters and the direction,
  forward steps one at a time or fused in blocks, tangent steps, the reverse
  sweep (begin, adjoint steps, end with the exact reduction of the global
  scalars' gradient), the check for non-finite states and the step counts.
  Each call checks the order of calls, logs its event and dispatches to the
  type; the physics is in src/model/impls/.
*/
#include <rewind/private/modelimpl.h>

/*@
  RwModelSetParameters - the parameters the following steps use; operators
  are rebuilt only when the parameters changed since the last call

  Collective

  Input Parameter:
. m - the parameters; bad values (kappa <= 0, an unstable time step) are errors

  Level: intermediate

.seealso: RwModelStep(), RwModelSetDirection()
@*/
PetscErrorCode RwModelSetParameters(RwModel model, Vec m)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidHeaderSpecific(m, VEC_CLASSID, 2);
  RwModelCheckSetUp(model);
  PetscCall(RwModelScalarAccess_Private(model, m, 0, model->nscalars, model->scalars, NULL));
  PetscUseTypeMethod(model, setparameters, m);
  model->paramsset = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelSetDirection - the parameter direction dm that tangent steps differentiate along

  Collective

  Level: intermediate

.seealso: RwModelStepTangent()
@*/
PetscErrorCode RwModelSetDirection(RwModel model, Vec dm)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidHeaderSpecific(dm, VEC_CLASSID, 2);
  RwModelCheckSetUp(model);
  PetscCall(RwModelScalarAccess_Private(model, dm, 0, model->nscalars, model->dscalars, NULL));
  PetscUseTypeMethod(model, setdirection, dm);
  model->directionset = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelStep - one forward step, u_k -> u_k+1

  Collective

  Input Parameters:
+ k - the step index
- u - the state u_k

  Output Parameter:
. unew - the state u_k+1 (a different vector)

  Level: intermediate

.seealso: RwModelStepTangent(), RwModelStepAdjoint()
@*/
PetscErrorCode RwModelStep(RwModel model, PetscInt64 k, Vec u, Vec unew)
{
  PetscFunctionBegin;
  PetscCheck(model->paramsset, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetParameters() before stepping");
  PetscCall(PetscLogEventBegin(RW_Forward, model, 0, 0, 0));
  PetscUseTypeMethod(model, step, k, u, unew);
  PetscCall(PetscLogEventEnd(RW_Forward, model, 0, 0, 0));
  model->nforward++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Seconds of one forward step u -> unew that leaves no trace: the step
   counters and the first non-finite step stay as they were.  For the
   driver's cost predictions, which must not show in the counts a run
   reports or in its non-finite checks. */
PetscErrorCode RwModelTimeStep_Private(RwModel model, PetscInt64 k, Vec u, Vec unew, PetscReal *seconds)
{
  PetscInt64     nforward = model->nforward, firstbad = model->firstbad[0];
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(RwModelStep(model, k, u, unew));
  PetscCall(PetscTime(&t1));
  model->nforward    = nforward;
  model->firstbad[0] = firstbad;
  *seconds           = (PetscReal)(t1 - t0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelStepBlock - T forward steps, u_k -> u_k+1 -> ... -> u_k+T, in one
  pass over the grid where the model type fuses them

  Collective

  Input Parameters:
+ k - the first step's index
. T - how many steps, 1 up to RwModelGetStepBlock()'s
- u - the state u_k

  Output Parameter:
. unew - u_k+1 .. u_k+T, T vectors different from u and from each other

  Notes:
  Each u_k+t holds the bits RwModelStep() would give it.  A pass that
  reads its input once for T steps moves less memory per step: the fused
  steps read u_k+t from cache.  The non-finite check (RwModelCheckFinite())
  names the first bad step as for single steps.

  Level: intermediate

.seealso: RwModelStep(), RwModelGetStepBlock()
@*/
PetscErrorCode RwModelStepBlock(RwModel model, PetscInt64 k, PetscInt T, Vec u, Vec unew[])
{
  PetscFunctionBegin;
  PetscCheck(model->paramsset, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetParameters() before stepping");
  PetscCheck(T >= 1 && T <= model->stepblock, PetscObjectComm((PetscObject)model), PETSC_ERR_ARG_OUTOFRANGE, "A block of %" PetscInt_FMT " steps: this model fuses 1 to %" PetscInt_FMT " (-rw_model_step_block)", T, model->stepblock);
  if (T == 1) {
    PetscCall(RwModelStep(model, k, u, unew[0]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(RW_Forward, model, 0, 0, 0));
  PetscUseTypeMethod(model, stepblock, k, T, u, unew);
  PetscCall(PetscLogEventEnd(RW_Forward, model, 0, 0, 0));
  model->nforward += T;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetStepBlock - the most forward steps RwModelStepBlock() takes in
  one pass: what the type fuses, or -rw_model_step_block

  Not collective

  Output Parameter:
. T - 1 where the type fuses none

  Level: intermediate

.seealso: RwModelStepBlock()
@*/
PetscErrorCode RwModelGetStepBlock(RwModel model, PetscInt *T)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckSetUp(model);
  *T = model->stepblock;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelStepTangent - the tangent of step k along the direction set by RwModelSetDirection()

  Collective

  Input Parameters:
+ k    - the step index
. u    - u_k
. unew - u_k+1 (implicit schemes need it)
- du   - the tangent state du_k

  Output Parameter:
. dunew - du_k+1

  Level: intermediate

.seealso: RwModelStep(), RwModelStepAdjoint()
@*/
PetscErrorCode RwModelStepTangent(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec du, Vec dunew)
{
  PetscFunctionBegin;
  PetscCheck(model->paramsset && model->directionset, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetParameters() and RwModelSetDirection() before tangent steps");
  PetscCall(PetscLogEventBegin(RW_Tangent, model, 0, 0, 0));
  PetscUseTypeMethod(model, steptangent, k, u, unew, du, dunew);
  PetscCall(PetscLogEventEnd(RW_Tangent, model, 0, 0, 0));
  model->ntangent++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelAdjointBegin - zeroes the parameter-gradient accumulators before a reverse sweep

  Collective

  Level: intermediate

.seealso: RwModelStepAdjoint(), RwModelAdjointEnd()
@*/
PetscErrorCode RwModelAdjointBegin(RwModel model)
{
  PetscFunctionBegin;
  PetscCheck(model->paramsset, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetParameters() before a reverse sweep");
  PetscCall(RwReproSumReset(model->gsum));
  PetscUseTypeMethod(model, adjointbegin);
  model->inadjoint = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelStepAdjoint - the adjoint of step k: lambda_k = (du_k+1/du_k)^T lambda_k+1,
  and (du_k+1/dm)^T lambda_k+1 added to the parameter gradient

  Collective

  Input Parameters:
+ k    - the step index
. u    - u_k
. unew - u_k+1 (kept by the driver; implicit schemes need it)
- lnew - lambda_k+1

  Output Parameter:
. l - lambda_k (a different vector)

  Level: intermediate

.seealso: RwModelAdjointBegin(), RwModelAdjointEnd()
@*/
PetscErrorCode RwModelStepAdjoint(RwModel model, PetscInt64 k, Vec u, Vec unew, Vec lnew, Vec l)
{
  PetscFunctionBegin;
  PetscCheck(model->inadjoint, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelAdjointBegin() before adjoint steps");
  PetscCall(PetscLogEventBegin(RW_Adjoint, model, 0, 0, 0));
  PetscUseTypeMethod(model, stepadjoint, k, u, unew, lnew, l);
  PetscCall(PetscLogEventEnd(RW_Adjoint, model, 0, 0, 0));
  model->nadjoint++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelGetAdjointAccumulators - the vectors, each on a grid (DMDA), that hold
  everything a reverse sweep has accumulated so far besides lambda: writing them
  and reading them back resumes a reverse sweep exactly

  Not collective

  Output Parameters:
+ n   - how many (at most RW_MODEL_MAX_ACCUMULATORS)
- acc - the model's own vectors, not copies

  Level: developer

.seealso: RwModelAdjointBegin(), RwAdjointSetKeepInterval()
@*/
PetscErrorCode RwModelGetAdjointAccumulators(RwModel model, PetscInt *n, Vec acc[])
{
  RwModelType type;

  PetscFunctionBegin;
  PetscCall(RwModelGetType(model, &type));
  PetscCheck(model->ops->adjointaccumulators, PetscObjectComm((PetscObject)model), PETSC_ERR_SUP, "Model %s does not expose its adjoint accumulators, so its reverse sweep cannot be kept and resumed (-rw_adjoint_keep_interval)", type);
  PetscUseTypeMethod(model, adjointaccumulators, n, acc);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelAddScalarGradient - adds one term of dJ/d(scalar i of block b) in a
  reverse sweep; the terms are summed exactly and reduced once at
  RwModelAdjointEnd(), so the gradient is bitwise the same on any number of ranks

  Not collective

  Level: developer

.seealso: RwModelAddScalarGradientArray()
@*/
PetscErrorCode RwModelAddScalarGradient(RwModel model, PetscInt b, PetscInt i, PetscReal v)
{
  PetscFunctionBegin;
  PetscAssert(b >= 0 && b < model->nblocks && i >= 0 && i < model->blocks[b].size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Scalar %" PetscInt_FMT " of block %" PetscInt_FMT " out of range", i, b);
  PetscCall(RwReproSumAdd(model->gsum, model->blocks[b].offset + i, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelAddScalarGradientArray - adds m terms of dJ/d(scalar i of block b), exactly

  Not collective

  Level: developer

.seealso: RwModelAddScalarGradient()
@*/
PetscErrorCode RwModelAddScalarGradientArray(RwModel model, PetscInt b, PetscInt i, PetscInt m, const PetscReal v[])
{
  PetscFunctionBegin;
  PetscAssert(b >= 0 && b < model->nblocks && i >= 0 && i < model->blocks[b].size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Scalar %" PetscInt_FMT " of block %" PetscInt_FMT " out of range", i, b);
  PetscCall(RwReproSumAddArray(model->gsum, model->blocks[b].offset + i, m, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The exact sums of the type's scalar-gradient terms, reduced once, added to g's scalars */
static PetscErrorCode RwModelReduceScalarGradient(RwModel model, Vec g)
{
  PetscInt     which = model->nfields, nlocal;
  Vec          red;
  PetscScalar *a;

  PetscFunctionBegin;
  if (!model->nscalars) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwReproSumAllreduce(model->gsum, PetscObjectComm((PetscObject)model), model->gtotal));
  PetscCall(DMCompositeGetAccessArray(model->pack, g, 1, &which, &red));
  PetscCall(VecGetLocalSize(red, &nlocal));
  PetscCall(VecGetArray(red, &a));
  for (PetscInt b = 0; b < model->nblocks && nlocal; b++) { /* an inactive block's gradient is zero, whatever the type set */
    const PetscInt o = model->blocks[b].offset;

    for (PetscInt i = 0; i < model->blocks[b].size; i++) a[o + i] = model->inactive[model->nfields + b] ? 0 : a[o + i] + model->gtotal[o + i];
  }
  PetscCall(VecRestoreArray(red, &a));
  PetscCall(DMCompositeRestoreAccessArray(model->pack, g, 1, &which, &red));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelAdjointEnd - writes the accumulated gradient with respect to the parameters into g;
  global scalars are reduced across ranks once, reproducibly

  Collective

  Output Parameter:
. g - a parameter vector

  Level: intermediate

.seealso: RwModelAdjointBegin()
@*/
PetscErrorCode RwModelAdjointEnd(RwModel model, Vec g)
{
  PetscFunctionBegin;
  PetscCheck(model->inadjoint, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelAdjointBegin() first");
  PetscCall(PetscLogEventBegin(RW_Reduce, model, 0, 0, 0));
  PetscCall(VecSet(g, 0));
  PetscUseTypeMethod(model, adjointend, g);
  PetscCall(RwModelReduceScalarGradient(model, g));
  for (PetscInt f = 0; f < model->nfields; f++) {
    Vec v;

    if (!model->inactive[f]) continue;
    PetscCall(RwModelGetParameterField(model, g, f, &v));
    PetscCall(VecSet(v, 0));
    PetscCall(RwModelRestoreParameterField(model, g, f, &v));
  }

  PetscCall(PetscLogEventEnd(RW_Reduce, model, 0, 0, 0));
  model->inadjoint = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelCheckFinite - stops with an error naming the first step whose forward
  state or adjoint state held a NaN or Inf; the kernels note it at no cost and
  this call agrees on it across ranks

  Collective

  Level: intermediate
@*/
PetscErrorCode RwModelCheckFinite(RwModel model)
{
  PetscInt64 bad[2], first[2];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  /* -1 means none: map it above every step so that MIN finds the first */
  for (int i = 0; i < 2; i++) bad[i] = model->firstbad[i] < 0 ? RW_INT64_MAX : model->firstbad[i];
  PetscCallMPI(MPI_Allreduce(bad, first, 2, MPIU_INT64, MPI_MIN, PetscObjectComm((PetscObject)model)));
  PetscCheck(first[0] == RW_INT64_MAX, PetscObjectComm((PetscObject)model), PETSC_ERR_FP, "NaN or Inf in the forward state u_%" PetscInt64_FMT " (computed by step %" PetscInt64_FMT "): check the parameters, the initial state and -rw_dt", first[0], first[0] - 1);
  PetscCheck(first[1] == RW_INT64_MAX, PetscObjectComm((PetscObject)model), PETSC_ERR_FP, "NaN or Inf in the adjoint state lambda_%" PetscInt64_FMT " (computed by the adjoint of step %" PetscInt64_FMT ")", first[1], first[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelGetStepCounts - forward, tangent and adjoint steps taken since creation or the last reset

  Not collective

  Level: intermediate

.seealso: RwModelResetStepCounts()
@*/
PetscErrorCode RwModelGetStepCounts(RwModel model, PetscInt64 *forward, PetscInt64 *tangent, PetscInt64 *adjoint)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  if (forward) *forward = model->nforward;
  if (tangent) *tangent = model->ntangent;
  if (adjoint) *adjoint = model->nadjoint;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelResetStepCounts - zeroes the step counters and forgets earlier non-finite states

  Not collective

  Level: intermediate

.seealso: RwModelGetStepCounts()
@*/
PetscErrorCode RwModelResetStepCounts(RwModel model)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  model->nforward = model->ntangent = model->nadjoint = 0;
  model->firstbad[0] = model->firstbad[1] = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}
