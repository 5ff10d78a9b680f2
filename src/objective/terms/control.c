/*
  Control costs on a block of amplitudes a_j(t), j < K (the heat model's
  "control", or any block laid out the same way: value j of time node c at
  c K + j):
    effort      (alpha/2) int a_j(t)^2 dt
    smoothness  (beta/2)  int (da_j/dt)^2 dt
  A time-indexed block holds a value a step (piecewise constant: the effort's
  integral is dt sum_k a_k^2; the smoothness takes the values as nodes dt
  apart); any other block holds C = size/K nodes spread evenly over the run,
  spacing D = n dt/(C - 1), and a_j piecewise linear between them (both
  integrals exact: D/3 (a0^2 + a0 a1 + a1^2) and (a1 - a0)^2/D per interval).

  Terms like any other: active at step 0, no dependence on the state, the
  value and the direct gradient added on rank 0 alone (the values are the same
  on every rank), so J and the gradient are the same bits on any rank count.
*/
#include <rewind/private/objectiveimpl.h>
#include <rewind/private/modelimpl.h>
#include <string.h>

typedef struct {
  PetscInt  block, K;
  PetscBool smooth; /* smoothness, or effort */
  PetscReal weight; /* alpha or beta */
} RwControlCost;

/* The node spacing (dt for a time-indexed block), the node count, and whether the values are piecewise linear */
static void ControlLayout(RwModel model, const RwControlCost *c, PetscReal *D, PetscInt *C, PetscBool *linear)
{
  const RwModelBlock *b = &model->blocks[c->block];

  *linear = b->perstep ? PETSC_FALSE : PETSC_TRUE;
  *C      = b->size / c->K;
  *D      = b->perstep ? model->dt : model->n * model->dt / (*C - 1);
}

/* The cost of the values a, and (if g) its gradient into g */
static PetscReal ControlCost(RwModel model, const RwControlCost *c, const PetscReal *a, PetscReal *g)
{
  PetscReal D, J = 0;
  PetscInt  C, K = c->K;
  PetscBool linear;

  ControlLayout(model, c, &D, &C, &linear);
  if (g)
    for (PetscInt i = 0; i < C * K; i++) g[i] = 0;
  if (!c->smooth && !linear) { /* (alpha/2) dt sum a^2 */
    for (PetscInt i = 0; i < C * K; i++) {
      J += 0.5 * c->weight * D * a[i] * a[i];
      if (g) g[i] = c->weight * D * a[i];
    }
    return J;
  }
  for (PetscInt s = 0; s + 1 < C; s++) /* interval by interval */
    for (PetscInt j = 0; j < K; j++) {
      PetscReal a0 = a[s * K + j], a1 = a[(s + 1) * K + j];

      if (c->smooth) {
        J += 0.5 * c->weight * (a1 - a0) * (a1 - a0) / D;
        if (g) {
          g[s * K + j] -= c->weight * (a1 - a0) / D;
          g[(s + 1) * K + j] += c->weight * (a1 - a0) / D;
        }
      } else {
        J += 0.5 * c->weight * D / 3 * (a0 * a0 + a0 * a1 + a1 * a1);
        if (g) {
          g[s * K + j] += 0.5 * c->weight * D / 3 * (2 * a0 + a1);
          g[(s + 1) * K + j] += 0.5 * c->weight * D / 3 * (a0 + 2 * a1);
        }
      }
    }
  return J;
}

static PetscErrorCode ControlValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  RwControlCost *c = (RwControlCost *)ctx;
  PetscMPIInt    rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)obj), &rank));
  if (!rank) PetscCall(RwReproSumAdd(acc, slot, w * ControlCost(obj->model, c, RwModelBlockValues(obj->model, c->block), NULL)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* No dependence on the state */
static PetscErrorCode ControlAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  PetscFunctionBegin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ControlGradient(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec g[], void *ctx)
{
  RwControlCost *c = (RwControlCost *)ctx;
  PetscMPIInt    rank;
  PetscReal     *dJ;
  PetscInt       size = obj->model->blocks[c->block].size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)obj), &rank));
  if (rank) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(size, &dJ)); /* once a gradient, outside the time loop's steps */
  (void)ControlCost(obj->model, c, RwModelBlockValues(obj->model, c->block), dJ);
  for (PetscInt i = 0; i < size; i++) PetscCall(RwObjectiveAddScalarGradient(obj, c->block, i, w * dJ[i]));
  PetscCall(PetscFree(dJ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ControlChecksum(RwObjective obj, uint64_t *sum, void *ctx)
{
  RwControlCost *c = (RwControlCost *)ctx;
  uint64_t       w;

  PetscFunctionBegin;
  memcpy(&w, &c->weight, sizeof(w));
  *sum = RwSplitMix64(RwSplitMix64(RwSplitMix64((uint64_t)c->block) ^ (uint64_t)c->K) ^ (uint64_t)c->smooth ^ w);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ControlView(RwObjective obj, PetscViewer viewer, void *ctx)
{
  RwControlCost *c = (RwControlCost *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "%s of block %s: (%g/2) int %s dt\n", c->smooth ? "smoothness" : "effort", obj->model->blocks[c->block].name, (double)c->weight, c->smooth ? "(da/dt)^2" : "a^2"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ControlDestroy(void *ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ControlCostAdd(RwObjective obj, const char block[], PetscInt K, PetscBool smooth, PetscReal weight)
{
  const RwObjectiveTermOps ops   = {NULL, ControlValue, ControlAdjoint, ControlGradient, ControlChecksum, ControlView, ControlDestroy};
  const PetscInt64         first = 0;
  MPI_Comm                 comm  = PetscObjectComm((PetscObject)obj);
  RwModel                  model = obj->model;
  RwControlCost           *c;
  PetscInt                 b, size, perstep;

  PetscFunctionBegin;
  PetscCall(RwModelFindParameterBlock(model, block, &b));
  PetscCheck(b >= 0, comm, PETSC_ERR_ARG_WRONG, "Control cost: the model has no parameter block %s", block);
  PetscCall(RwModelGetParameterBlockInfo(model, b, NULL, &size, &perstep, NULL));
  PetscCheck(weight >= 0 && !PetscIsInfOrNanReal(weight), comm, PETSC_ERR_ARG_OUTOFRANGE, "Control cost of block %s: weight %g must be finite and >= 0", block, (double)weight);
  PetscCheck(K >= 1 && size % K == 0, comm, PETSC_ERR_ARG_SIZ, "Control cost of block %s: its %" PetscInt_FMT " values are not nodes of %" PetscInt_FMT " actuators", block, size, K);
  PetscCheck(!perstep || perstep == K, comm, PETSC_ERR_ARG_SIZ, "Control cost of block %s: it holds %" PetscInt_FMT " values a step, not %" PetscInt_FMT, block, perstep, K);
  PetscCheck(perstep || size / K >= 2, comm, PETSC_ERR_ARG_SIZ, "Control cost of block %s: %" PetscInt_FMT " node, at least 2 needed for a function of time", block, size / K);
  PetscCall(PetscNew(&c));
  c->block  = b;
  c->K      = K;
  c->smooth = smooth;
  c->weight = weight;
  PetscCall(RwObjectiveAddTerm(obj, smooth ? "smoothness" : "effort", &ops, 1, &first, NULL, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveAddControlEffort - adds (alpha/2) int a_j(t)^2 dt summed over the
  K amplitudes of a block (value j of time node c at c K + j): a value a step
  for a time-indexed block, else nodes spread evenly over the run with a_j
  piecewise linear between them

  Collective; after the model is set up

  Level: intermediate

.seealso: RwObjectiveAddControlSmoothness(), RwModelHeatGetControl()
@*/
PetscErrorCode RwObjectiveAddControlEffort(RwObjective obj, const char block[], PetscInt K, PetscReal alpha)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCall(ControlCostAdd(obj, block, K, PETSC_FALSE, alpha));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwObjectiveAddControlSmoothness - adds (beta/2) int (da_j/dt)^2 dt summed
  over the K amplitudes of a block laid out as for RwObjectiveAddControlEffort()
  (a time-indexed block's values taken as nodes dt apart)

  Collective; after the model is set up

  Level: intermediate

.seealso: RwObjectiveAddControlEffort()
@*/
PetscErrorCode RwObjectiveAddControlSmoothness(RwObjective obj, const char block[], PetscInt K, PetscReal beta)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(obj, RW_OBJECTIVE_CLASSID, 1);
  PetscCall(ControlCostAdd(obj, block, K, PETSC_TRUE, beta));
  PetscFunctionReturn(PETSC_SUCCESS);
}
