/*
  Receivers of the wave model: r_k = multilinear interpolation of u_k at
  each receiver, k = 0..n, as an objective term

    J_s = 1/2 sum_k sum_r (r_k - d_k)^2     (no dt factor)

  built on RwObjectiveAddTerm() like any user's term: active at every step,
  its value added by the rank that owns each receiver (exact sums, so J is
  the same bits on any number of ranks), its adjoint source the residual
  spread over the receiver's corners in gather form (RwStencilPoints).
  Also the forward recording of traces, for synthetic data and pictures.
*/
#include "waveimpl.h"
#include <rewind/private/objectiveimpl.h>

typedef struct {
  PetscInt        nrec, nt; /* receivers; samples per receiver, n + 1 */
  PetscReal      *coords, *data; /* data[k * nrec + r] */
  RwStencilPoints pts;
  Vec             uloc;
} RwWaveReceivers;

static PetscErrorCode ReceiversSetup(RwObjective obj, void *ctx)
{
  RwWaveReceivers *c = (RwWaveReceivers *)ctx;

  PetscFunctionBegin;
  PetscCheck(obj->model->n + 1 == c->nt, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_SIZ, "The receivers' observations have %" PetscInt_FMT " samples per trace, the run has %" PetscInt64_FMT " steps (-rw_steps): expected n + 1 = %" PetscInt64_FMT " samples", c->nt, obj->model->n, obj->model->n + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReceiversValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  RwWaveReceivers   *c = (RwWaveReceivers *)ctx;
  const PetscReal   *d = c->data + k * c->nrec;
  const PetscScalar *uloc;
  const PetscInt    *id;
  const PetscBool   *owner;
  PetscInt           nloc;

  PetscFunctionBegin;
  PetscCall(RwStencilPointsGetLocal(c->pts, &nloc, &id, &owner));
  PetscCall(RwModelGlobalToLocal(obj->model, u, c->uloc));
  PetscCall(VecGetArrayRead(c->uloc, &uloc));
  for (PetscInt i = 0; i < nloc; i++) {
    PetscReal r;

    if (!owner[i]) continue;
    r = RwStencilPointsRead(c->pts, i, uloc) - d[id[i]];
    PetscCall(RwReproSumAdd(acc, slot, 0.5 * w * r * r));
  }
  PetscCall(VecRestoreArrayRead(c->uloc, &uloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReceiversAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  RwWaveReceivers   *c = (RwWaveReceivers *)ctx;
  const PetscReal   *d = c->data + k * c->nrec;
  const PetscScalar *uloc;
  PetscScalar       *l;
  const PetscInt    *id;
  PetscInt           nloc;

  PetscFunctionBegin;
  PetscCall(RwStencilPointsGetLocal(c->pts, &nloc, &id, NULL));
  PetscCall(RwModelGlobalToLocal(obj->model, u, c->uloc));
  PetscCall(VecGetArrayRead(c->uloc, &uloc));
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < nloc; i++) RwStencilPointsSpreadOne(c->pts, i, w * (RwStencilPointsRead(c->pts, i, uloc) - d[id[i]]), l);
  PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(c->uloc, &uloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Positions and data: replicated, so every rank hashes the same arrays */
static PetscErrorCode ReceiversChecksum(RwObjective obj, uint64_t *sum, void *ctx)
{
  RwWaveReceivers *c = (RwWaveReceivers *)ctx;
  const PetscInt   zero[3] = {0, 0, 0};
  PetscInt         dim, M[3] = {1, 1, 1};

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(obj->model->da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  M[0] = c->nrec * dim;
  *sum = RwChecksumBlock(M, zero, M, 1, c->coords);
  M[0] = c->nrec * c->nt;
  *sum = RwSplitMix64(*sum ^ RwChecksumBlock(M, zero, M, 1, c->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReceiversView(RwObjective obj, PetscViewer viewer, void *ctx)
{
  RwWaveReceivers *c = (RwWaveReceivers *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "wave receivers: %" PetscInt_FMT " receivers, %" PetscInt_FMT " samples each, J = 1/2 sum_k sum_r (r_k - d_k)^2\n", c->nrec, c->nt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReceiversDestroy(void *ctx)
{
  RwWaveReceivers *c = (RwWaveReceivers *)ctx;

  PetscFunctionBegin;
  PetscCall(RwStencilPointsDestroy(&c->pts));
  PetscCall(VecDestroy(&c->uloc));
  PetscCall(PetscFree2(c->coords, c->data));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReceiversCopyData(RwWaveReceivers *c, const PetscReal data[])
{
  PetscFunctionBegin;
  for (PetscInt q = 0; q < c->nrec * c->nt; q++) {
    PetscReal v = data ? data[q] : 0;

    PetscCheck(!PetscIsInfOrNanReal(v), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Observation of receiver %" PetscInt_FMT " at sample %" PetscInt_FMT " is %g: observations must be finite", q % c->nrec, q / c->nrec, (double)v);
    c->data[q] = v;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

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

.seealso: RwObjectiveSetWaveReceiverData(), RwModelWaveRecord()
@*/
PetscErrorCode RwObjectiveAddWaveReceivers(RwObjective obj, PetscInt nrec, const PetscReal coords[], const PetscReal data[])
{
  const RwObjectiveTermOps ops = {ReceiversSetup, ReceiversValue, ReceiversAdjoint, NULL, ReceiversChecksum, ReceiversView, ReceiversDestroy};
  RwModel                  model = obj->model;
  RwWaveReceivers         *c;
  PetscBool                iswave;
  PetscInt                 dim;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)model, RWMODELWAVE, &iswave));
  PetscCheck(iswave && model->setupcalled, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "Wave receivers need an objective on a wave model that is set up");
  PetscCheck(nrec > 0, PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " receivers: expected at least one", nrec);
  dim = ((RwModel_Wave *)model->data)->dim;
  PetscCall(RwWaveCheckPoints(model, "Receiver", nrec, coords));
  PetscCall(PetscNew(&c));
  c->nrec = nrec;
  c->nt   = (PetscInt)model->n + 1;
  PetscCall(PetscMalloc2(nrec * dim, &c->coords, nrec * c->nt, &c->data));
  PetscCall(PetscArraycpy(c->coords, coords, nrec * dim));
  PetscCall(ReceiversCopyData(c, data));
  PetscCall(RwStencilPointsCreate(model, 0, nrec, c->coords, &c->pts));
  PetscCall(DMCreateLocalVector(model->da, &c->uloc));
  PetscCall(RwObjectiveAddTerm(obj, "receivers", &ops, RW_OBJECTIVE_ALL_STEPS, NULL, NULL, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveSetWaveReceiverData - replaces the observations of the
  objective's receivers (another shot, another frequency band)

  Collective; every rank passes the same array, d[k * nrec + r], k = 0..n

  Level: intermediate

.seealso: RwObjectiveAddWaveReceivers()
@*/
PetscErrorCode RwObjectiveSetWaveReceiverData(RwObjective obj, const PetscReal data[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < obj->nterms; i++)
    if (!strcmp(obj->terms[i].name, "receivers")) {
      PetscCall(ReceiversCopyData((RwWaveReceivers *)obj->terms[i].ctx, data));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  SETERRQ(PetscObjectComm((PetscObject)obj), PETSC_ERR_ARG_WRONG, "The objective has no wave receivers: add them with RwObjectiveAddWaveReceivers() first");
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
  RwStencilPoints    pts;
  Vec                u, un, uloc;
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(RwWaveCheckType(model, "RwModelWaveRecord"));
  PetscCall(RwWaveCheckPoints(model, "Receiver", nrec, coords));
  PetscCall(RwStencilPointsCreate(model, 0, nrec, coords, &pts));
  PetscCall(RwModelCreateState(model, &u));
  PetscCall(VecDuplicate(u, &un));
  PetscCall(DMCreateLocalVector(model->da, &uloc));
  PetscCall(RwModelSetParameters(model, m));
  PetscCall(VecSet(u, 0));
  for (PetscInt64 k = 0; k <= model->n; k++) {
    if (k) {
      PetscCall(RwModelStep(model, k - 1, u, un));
      PetscCall(VecSwap(u, un));
    }
    PetscCall(RwModelGlobalToLocal(model, u, uloc));
    PetscCall(VecGetArrayRead(uloc, &a));
    PetscCall(RwStencilPointsInterpolate(pts, a, traces + k * nrec));
    PetscCall(VecRestoreArrayRead(uloc, &a));
  }
  PetscCall(RwModelCheckFinite(model));
  PetscCall(VecDestroy(&uloc));
  PetscCall(VecDestroy(&un));
  PetscCall(VecDestroy(&u));
  PetscCall(RwStencilPointsDestroy(&pts));
  PetscFunctionReturn(PETSC_SUCCESS);
}
