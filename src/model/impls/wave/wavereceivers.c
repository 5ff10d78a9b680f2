/*
  Receivers of the wave model: r_k = multilinear interpolation of u_k at
  each receiver, k = 0..n, as an objective term

    J_s = 1/2 sum_k sum_r (r_k - d_k)^2     (no dt factor)

  the objective's point sensors read at every step with sigma = 1: each
  receiver's misfit added by the rank that owns it (exact sums, so J is the
  same bits on any number of ranks), its adjoint source the residual spread
  over the receiver's corners in gather form (RwStencilPoints).
  Also the forward recording of traces, for synthetic data and pictures.
*/
#include "waveimpl.h"
#include <rewind/private/objectiveimpl.h>

/*@C
  RwObjectiveAddWaveReceivers - adds J_s = 1/2 sum_{k=0..n} sum_r (r_k - d_k)^2,
  r_k the multilinear interpolation of u_k at receiver r (physical
  coordinates, anywhere in the grid; one in the absorbing layer warns)

  Collective; every rank passes the same arrays; after the model's set-up and its number of steps

  Input Parameters:
+ obj    - the objective, on a wave model
. nrec   - the receivers
. coords - their positions, coords[r * dim + d]
- data   - the observations d[k * nrec + r], k = 0..n (NULL: zeros)

  Level: intermediate

  Notes:
  Receivers are the objective's point sensors (RwObjectiveAddSensors()) read
  at every step 0..n with sigma = 1: the same term, not a copy of it.

.seealso: RwObjectiveSetWaveReceiverData(), RwModelWaveRecord(), RwObjectiveAddSensors()
@*/
PetscErrorCode RwObjectiveAddWaveReceivers(RwObjective obj, PetscInt nrec, const PetscReal coords[], const PetscReal data[])
{
  RwModel     model = obj->model;
  PetscInt64 *steps;
  PetscReal  *zero = NULL;
  PetscBool   iswave;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)model, RWMODELWAVE, &iswave));
  PetscCheck(iswave && model->setupcalled, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "Wave receivers need an objective on a wave model that is set up");
  PetscCheck(nrec > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " receivers: expected at least one", nrec);
  PetscCall(RwWaveCheckPoints(model, "Receiver", nrec, coords));
  PetscCall(PetscMalloc1(model->n + 1, &steps));
  for (PetscInt64 k = 0; k <= model->n; k++) steps[k] = k;
  if (!data) PetscCall(PetscCalloc1((model->n + 1) * nrec, &zero));
  PetscCall(RwObjectiveAddSensors(obj, nrec, coords, (PetscInt)model->n + 1, steps, data ? data : zero, 1.0));
  PetscCall(PetscFree(zero));
  PetscCall(PetscFree(steps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveSetWaveReceiverData - replaces the observations of the
  objective's receivers (another shot, another frequency band)

  Collective; every rank passes the same array, d[k * nrec + r], k = 0..n

  Level: intermediate

.seealso: RwObjectiveAddWaveReceivers(), RwObjectiveSetSensorData()
@*/
PetscErrorCode RwObjectiveSetWaveReceiverData(RwObjective obj, const PetscReal data[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < obj->nterms; i++)
    if (!strcmp(obj->terms[i].name, "sensors")) {
      PetscCall(RwObjectiveSetSensorData(obj, i, data, 1.0));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  SETERRQ(PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "The objective has no wave receivers: add them with RwObjectiveAddWaveReceivers() first");
}

/*@C
  RwObjectiveSetWaveReceivers - moves the objective's receivers (another
  shot's spread, of any size) and gives them their observations; nothing is
  reallocated when the positions are those already set

  Collective; every rank passes the same arrays

  Input Parameters:
+ obj    - the objective, with receivers added by RwObjectiveAddWaveReceivers()
. nrec   - the receivers
. coords - their positions, coords[r * dim + d] (checked with RwModelWaveCheckPoints() by the caller, once)
- data   - d[k * nrec + r], k = 0..n

  Level: intermediate

.seealso: RwObjectiveAddWaveReceivers(), RwObjectiveSetWaveReceiverData()
@*/
PetscErrorCode RwObjectiveSetWaveReceivers(RwObjective obj, PetscInt nrec, const PetscReal coords[], const PetscReal data[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < obj->nterms; i++)
    if (!strcmp(obj->terms[i].name, "sensors")) {
      PetscCall(RwTermSensorsSetPoints(obj, &obj->terms[i], nrec, coords, data, 1.0));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  SETERRQ(PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "The objective has no wave receivers: add them with RwObjectiveAddWaveReceivers() first");
}

/* RwModelWaveRecord() for a wave model, composed at create (wave.c) */
PetscErrorCode RwModelWaveRecord_Wave(RwModel model, Vec m, PetscInt nrec, const PetscReal coords[], PetscReal traces[])
{
  RwStencilPoints pts;
  Vec             u, un;

  PetscFunctionBegin;
  PetscCall(RwWaveCheckPoints(model, "Receiver", nrec, coords));
  PetscCall(RwStencilPointsCreate(model, 0, nrec, coords, &pts));
  PetscCall(RwModelCreateState(model, &u));
  PetscCall(VecDuplicate(u, &un));
  PetscCall(RwModelSetParameters(model, m));
  PetscCall(VecSet(u, 0));
  for (PetscInt64 k = 0; k <= model->n; k++) {
    if (k) {
      PetscCall(RwModelStep(model, k - 1, u, un));
      PetscCall(VecSwap(u, un));
    }
    PetscCall(RwStencilPointsInterpolate(pts, u, traces + k * nrec));
  }
  PetscCall(RwModelCheckFinite(model));
  PetscCall(VecDestroy(&un));
  PetscCall(VecDestroy(&u));
  PetscCall(RwStencilPointsDestroy(&pts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwModelWaveRecord - runs the model forward from rest with parameters m and
  records the traces r_k at nrec receivers, k = 0..n: traces[k * nrec + r],
  on every rank (synthetic observations, pictures)

  Collective

  Level: intermediate

.seealso: RwObjectiveAddWaveReceivers()
@*/
PetscErrorCode RwModelWaveRecord(RwModel model, Vec m, PetscInt nrec, const PetscReal coords[], PetscReal traces[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(model, RW_MODEL_CLASSID, 1);
  PetscValidHeaderSpecific(m, VEC_CLASSID, 2);
  if (nrec > 0) PetscValidRealPointer(coords, 4);
  if (nrec > 0) PetscValidRealPointer(traces, 5);
  RwModelUseMethod(model, RWMODELWAVE, "RwModelWaveRecord", (RwModel, Vec, PetscInt, const PetscReal[], PetscReal[]), (model, m, nrec, coords, traces));
  PetscFunctionReturn(PETSC_SUCCESS);
}
