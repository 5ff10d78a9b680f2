/*
  Tangent sweeps: one forward run carrying tangent directions beside the
  states, for a directional derivative (RwTangentSolve()) or for a caller
  that reads and changes every step's tangents (RwTangentPropagate()).
*/
#include <rewind/private/adjointimpl.h>

/* The model's parameter direction: before the run (i < 0) the first one, or
   zero for state directions only; before direction i's step only when there
   are several */
static PetscErrorCode RwTangentSetDirection(RwAdjoint adj, PetscInt ndir, Vec dm[], PetscInt i, Vec zero)
{
  PetscFunctionBegin;
  if (i < 0) PetscCall(RwModelSetDirection(adj->model, dm ? dm[0] : zero));
  else if (dm && ndir > 1) PetscCall(RwModelSetDirection(adj->model, dm[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One forward run carrying ndir tangent directions in dW (du0: their start,
   or NULL to keep dW's), calling fn after each step; with dJ (one
   direction) the objective's directional derivative too */
static PetscErrorCode RwTangentSweep(RwAdjoint adj, Vec m, Vec u0, PetscInt ndir, Vec dm[], Vec du0, Vec dW[], Vec dT[], PetscErrorCode (*fn)(RwAdjoint, PetscInt64, Vec, PetscInt, Vec[], void *), void *ctx, PetscReal *J, PetscReal *dJ)
{
  PetscInt64     f0, n = adj->n;
  PetscLogDouble t0, t1;
  Vec            zero = NULL;
  PetscBool      stop = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(RwAdjointBeginRun_Private(adj, m, u0, &f0));
  PetscCall(RwAdjointMonitorBegin_Private(adj, adj->n));
  if (!dm) { /* state directions only: the model differentiates along dm = 0 */
    PetscCall(VecDuplicate(m, &zero));
    PetscCall(VecSet(zero, 0));
  }
  PetscCall(RwTangentSetDirection(adj, ndir, dm, -1, zero));
  PetscCall(RwObjectiveSetDirection(adj->obj, dJ ? dm[0] : NULL));
  PetscCall(VecCopy(u0, adj->W));
  if (du0) PetscCall(VecCopy(du0, dW[0]));
  if (fn) PetscCall((*fn)(adj, 0, adj->W, ndir, dW, ctx));
  if (dJ) PetscCall(RwObjectiveTangent(adj->obj, 0, adj->W, dW[0]));
  for (PetscInt64 k = 0; k < n; k++) {
    PetscCall(RwModelStep(adj->model, k, adj->W, adj->T));
    for (PetscInt i = 0; i < ndir; i++) {
      PetscCall(RwTangentSetDirection(adj, ndir, dm, i, zero));
      PetscCall(RwModelStepTangent(adj->model, k, adj->W, adj->T, dW[i], dT[i]));
      RwVecSwap(dW[i], dT[i]);
    }
    RwVecSwap(adj->W, adj->T);
    if (k + 1 < n) PetscCall(RwAdjointStopCheck_Private(adj, k + 1, &stop));
    if (stop) {
      n = k + 1;
      PetscCall(RwObjectiveSetLastStep_Private(adj->obj, n));
    }
    PetscCall(RwObjectiveEvaluate(adj->obj, k + 1, adj->W));
    if (fn) PetscCall((*fn)(adj, k + 1, adj->W, ndir, dW, ctx));
    if (dJ) PetscCall(RwObjectiveTangent(adj->obj, k + 1, adj->W, dW[0]));
    PetscCall(RwAdjointMonitorCall_Private(adj, RW_PHASE_TANGENT, k + 1, dW[0]));
    PetscCall(RwAdjointCheckFiniteEvery_Private(adj, k + 1));
  }
  PetscCall(RwModelCheckFinite(adj->model));
  PetscCall(RwObjectiveEnd(adj->obj, J, dJ));
  PetscCall(VecDestroy(&zero));
  adj->counts.forward_steps = n;
  adj->counts.tangent_steps = n * ndir;
  adj->counts.steps         = n;
  PetscCall(PetscTime(&t1));
  adj->counts.seconds_total = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwTangentSolve - the directional derivative dJ = <dJ/dm, dm> + <dJ/du0, du0>
  through the tangent model, in one forward sweep

  Collective

  Input Parameters:
+ adj - the driver
. m   - the parameters
. dm  - the parameter direction
. u0  - the initial state
- du0 - the initial-state direction

  Output Parameter:
. dJ - the directional derivative

  Level: intermediate

.seealso: RwAdjointSolve()
@*/
PetscErrorCode RwTangentSolve(RwAdjoint adj, Vec m, Vec dm, Vec u0, Vec du0, PetscReal *dJ)
{
  Vec dW[1], dT[1];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCall(RwAdjointSetUp(adj));
  dW[0] = adj->dW; /* the driver's own work vectors: nothing allocated */
  dT[0] = adj->dT;
  PetscCall(RwTangentSweep(adj, m, u0, 1, &dm, du0, dW, dT, NULL, NULL, NULL, dJ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  RwTangentPropagate - propagates several tangent directions along one forward
  run, giving the caller every step's du_k to read and to change in place
  (rescale, orthonormalise): what Lyapunov estimates and horizon warnings need

  Collective

  Input Parameters:
+ adj  - the driver
. m    - the parameters
. u0   - the initial state
. ndir - the number of directions
. dm   - the parameter directions, one per direction; NULL for state directions only (dm = 0)
. fn   - called as fn(adj, k, u_k, ndir, du_k[], ctx) at k = 0 (before the first step) and after
         every step; it may change du_k[] in place, and the propagation goes on from what it
         leaves (the vectors are the driver's, valid during the call); may be NULL
- ctx  - passed to fn

  Input/Output Parameter:
. du - du_0 per direction on input, du_n on output

  Output Parameter:
. J - the objective of the run (may be NULL)

  Level: intermediate

  Notes:
  Each step computes u_k+1 once and then each direction's tangent step. With
  several parameter directions the model's direction is set before each
  direction's step (one broadcast of the scalars and a copy of the fields
  each); with dm NULL it is set once.

.seealso: RwTangentSolve(), RwAdjointMonitorSet()
@*/
PetscErrorCode RwTangentPropagate(RwAdjoint adj, Vec m, Vec u0, PetscInt ndir, Vec dm[], Vec du[], PetscErrorCode (*fn)(RwAdjoint, PetscInt64, Vec, PetscInt, Vec[], void *), void *ctx, PetscReal *J)
{
  Vec *dW, *dT;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(ndir >= 1, PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "RwTangentPropagate() needs at least one direction, not %" PetscInt_FMT, ndir);
  PetscCall(RwAdjointSetUp(adj));
  /* everything the loop uses, made once here */
  PetscCall(VecDuplicateVecs(adj->W, ndir, &dW));
  PetscCall(VecDuplicateVecs(adj->W, ndir, &dT));
  for (PetscInt i = 0; i < ndir; i++) PetscCall(VecCopy(du[i], dW[i]));
  PetscCall(RwTangentSweep(adj, m, u0, ndir, dm, NULL, dW, dT, fn, ctx, J, NULL));
  for (PetscInt i = 0; i < ndir; i++) PetscCall(VecCopy(dW[i], du[i]));
  PetscCall(VecDestroyVecs(ndir, &dW));
  PetscCall(VecDestroyVecs(ndir, &dT));
  PetscFunctionReturn(PETSC_SUCCESS);
}
