/*
  What a kept reverse sweep needs of the model's scalar gradient: the exact
  sums of the dJ/d(scalar) terms the type added so far (RwModelAddScalarGradient()),
  as integers that a resumed sweep puts back.  The driver keeps them beside
  lambda_k and the grid accumulators (src/adjoint/keep.c); only the model
  knows where they are.
*/
#include <rewind/private/modelimpl.h>

/* The sums exist from set-up and hold a sweep's terms between RwModelAdjointBegin() and RwModelAdjointEnd() */
#define RwModelCheckInAdjoint(model) PetscCheck((model)->inadjoint, PetscObjectComm((PetscObject)(model)), PETSC_ERR_ORDER, "Call RwModelAdjointBegin() first: the scalar gradient is accumulated in a reverse sweep")

/*@
  RwModelGetScalarGradientStateSize - the number of 64-bit integers that hold
  the exact state of the scalar-gradient sums (RwModelExportScalarGradient())

  Not collective

  Input Parameter:
. model - the model, set up

  Output Parameter:
. n - the number of integers, the same on every rank

  Level: developer

  Notes:
  A driver that keeps its reverse sweep allocates this much beside the
  objective's state once, before the sweep.

.seealso: RwModelExportScalarGradient(), RwModelImportScalarGradient()
@*/
PetscErrorCode RwModelGetScalarGradientStateSize(RwModel model, PetscInt *n)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidIntPointer(n, 2);
  PetscCheck(model->setupcalled, PetscObjectComm((PetscObject)model), PETSC_ERR_ORDER, "Call RwModelSetUp() first");
  PetscCall(RwReproSumGetStateSize(model->gsum, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelExportScalarGradient - the exact sums of the scalar-gradient terms of
  all ranks so far in this reverse sweep, as integers, the same on every rank;
  the sweep goes on unchanged

  Collective on the model's communicator

  Input Parameter:
. model - the model, in a reverse sweep

  Output Parameter:
. state - RwModelGetScalarGradientStateSize() integers

  Level: developer

  Notes:
  A reverse sweep killed by a wall-time limit resumes from its last keep
  (-rw_adjoint_keep_interval, -rw_restart).  The scalar gradient is summed
  exactly and reduced once at RwModelAdjointEnd(), so the partial sums must
  be kept exactly too, not as rounded doubles: then the resumed sweep's
  gradient has the bits of an uninterrupted one, on any number of ranks.

.seealso: RwModelImportScalarGradient(), RwModelAddScalarGradient()
@*/
PetscErrorCode RwModelExportScalarGradient(RwModel model, PetscInt64 state[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckInAdjoint(model);
  PetscCall(RwReproSumExport(model->gsum, PetscObjectComm((PetscObject)model), state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwModelImportScalarGradient - makes an exported state the scalar-gradient
  sums of this reverse sweep, which then goes on adding terms to them

  Collective on the model's communicator

  Input Parameters:
+ model - the model, after RwModelAdjointBegin() (which zeroes the sums)
- state - what RwModelExportScalarGradient() gave, on any number of ranks

  Level: developer

  Notes:
  Rank 0 takes the state and the others start from zero, so the reduction at
  RwModelAdjointEnd() adds it once: a resumed reverse sweep ends with the
  gradient the killed one would have given.

.seealso: RwModelExportScalarGradient(), RwModelAdjointBegin()
@*/
PetscErrorCode RwModelImportScalarGradient(RwModel model, const PetscInt64 state[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  RwModelCheckInAdjoint(model);
  PetscCall(RwReproSumImport(model->gsum, PetscObjectComm((PetscObject)model), state));
  PetscFunctionReturn(PETSC_SUCCESS);
}
