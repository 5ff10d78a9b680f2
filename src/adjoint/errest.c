/*
  The gradient error lossy checkpoints cause (issue 36 item 3): a first-order
  estimate the driver sums over each solve's reverse sweep.

  The reverse sweep adds up g = sum_k G_k(x_k, lambda_k+1), one term a step,
  with G_k = (dF_k/dm)^T lambda_k+1 linear in x_k for the models that take
  lossy slots (heat and wave are linear in their state) and linear in
  lambda_k+1.  A restored state carries an error: its own, measured when it
  was kept (RwStoreGetWriteError(): decoded once, the larger of |x~ - x|_2 /
  |x|_2 and the same ratio of first differences, since the gradients read
  derivatives of the state and zfp's error is rough at the grid's scale), plus
  that of the state it was recomputed from (a slot written in the reverse
  sweep holds a state recomputed from an earlier restore).  Errors are added
  along such a chain and carried unchanged through the recomputed steps:
  heat damps a perturbation at least as fast as the state, and wave keeps
  both about constant (its energy).  So reverse step k reads x_k with a
  relative error rel_k, and G_k moves by rel_k |G_k| at most, to first order
  (the error enters G_k once).  Not counted: the adjoint sources dJ/du_k read
  the same states, and a misfit's R^T (R x_k - d) moves by a relative error
  of rel_k |R x_k| / |R x_k - d|, which the driver cannot see; and wave's m
  reads the Laplacian, not the first differences.  Measured: the gradient
  error is 0.02-0.11x the estimate on heat (smooth adjoints average the
  rough error out: an upper estimate) and 0.8-5.7x on wave (t330; bench
  128^2, 200 and 400 steps).
  Bounding |G_k| by |lambda_k+1| |x_k| and taking the terms as aligned
  (|g| = sum |G_k|), the relative gradient error is about

      est = sum_k rel_k w_k / sum_k w_k,     w_k = |lambda_k+1|_2 |x_k|_2,

  the reverse steps' relative state errors weighted by the size of the term
  each feeds.  First order: products of errors are dropped (a chain's errors
  are added).  The norms are PETSc's, in one reduction a reverse step: zfp
  codes each rank's block on its own, so the errors, and the estimate, depend
  on the decomposition anyway (exact sums cost 10x more here).  They cost
  two passes over a state a reverse step, only when a level keeps states
  lossily.  t330 checks the estimate against the measured error over
  tolerances 1e-3 .. 1e-9.
*/
#include <rewind/private/adjointimpl.h>

/*
  -rw_store_compress_tolerance auto, for a measured error below rtol
  (-rw_adjoint_gradient_rtol).  The measured error stays within
  RW_ERREST_MARGIN = 10 times the estimate (t330 and rewind-bench: at most
  5.7 times it), so the tolerance aims the estimate at rtol / RW_ERREST_MARGIN.
  The first solve has no estimate yet: it runs at a pilot tolerance,
  RW_ERREST_PILOT x rtol (the measured error was 0.16-18 times the
  tolerance: t321's heat and wave, and wave 128^2 in rewind-bench).  Each
  later solve scales the tolerance of the one before by rtol / (RW_ERREST_MARGIN x its estimate), the
  estimate being linear in the tolerance (to within zfp's steps of a bit
  plane), by at most RW_ERREST_GROWTH either way.
*/
#define RW_ERREST_MARGIN 10.0
#define RW_ERREST_PILOT  0.01
#define RW_ERREST_GROWTH 100.0
#define RW_ERREST_TOLMAX 0.5

/* The tolerance of a level whose tolerance is auto, for this solve */
static PetscErrorCode RwAdjointErrestAutoTol(RwAdjoint adj, PetscInt l)
{
  RwAdjointErrest *e = &adj->errest;
  PetscBool        isauto;

  PetscFunctionBegin;
  PetscCall(RwStoreGetCompressToleranceAuto(adj->store[l], &isauto));
  e->isauto[l] = isauto;
  if (!isauto) PetscFunctionReturn(PETSC_SUCCESS);
  if (!(e->next[l] > 0)) e->next[l] = PetscMin(RW_ERREST_PILOT * e->rtol, RW_ERREST_TOLMAX);
  PetscCall(RwStoreSetCompressTolerance(adj->store[l], e->next[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The zfp tolerance level l's store (not yet set up) will write the next solve at: its own, or auto's (-rw_store_compress auto measures zfp at it) */
PetscErrorCode RwAdjointErrestTolerance_Private(RwAdjoint adj, PetscInt l, RwStore store, PetscReal *tol)
{
  RwAdjointErrest *e = &adj->errest;
  PetscBool        isauto;

  PetscFunctionBegin;
  PetscCall(RwStoreGetCompress(store, NULL, tol));
  PetscCall(RwStoreGetCompressToleranceAuto(store, &isauto));
  if (isauto) *tol = e->next[l] > 0 ? e->next[l] : PetscMin(RW_ERREST_PILOT * e->rtol, RW_ERREST_TOLMAX);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a solve: each auto level's tolerance for the next */
static PetscErrorCode RwAdjointErrestAutoNext(RwAdjoint adj)
{
  RwAdjointErrest *e = &adj->errest;
  PetscReal        f = e->estimate > 0 ? e->rtol / (RW_ERREST_MARGIN * e->estimate) : RW_ERREST_GROWTH;

  PetscFunctionBegin;
  f = PetscMax(PetscMin(f, RW_ERREST_GROWTH), 1 / RW_ERREST_GROWTH);
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    PetscReal tol;

    if (!adj->store[l] || !e->isauto[l]) continue;
    PetscCall(RwStoreGetCompress(adj->store[l], NULL, &tol));
    e->next[l] = PetscMin(tol * f, RW_ERREST_TOLMAX);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each store's slots get a record of the error they hold, zero: at the start
   of a solve, and after a re-plan of the compressed pool (pool.c), which may
   make a level's store again with more slots */
PetscErrorCode RwAdjointErrestSlots_Private(RwAdjoint adj)
{
  RwAdjointErrest *e = &adj->errest;

  PetscFunctionBegin;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) {
    PetscInt64 slots = 0;

    if (adj->store[l]) PetscCall(RwStoreGetSlots(adj->store[l], &slots));
    if (slots != e->nslots[l]) {
      PetscCall(PetscFree(e->rel[l]));
      PetscCall(PetscCalloc1(slots, &e->rel[l]));
      e->nslots[l] = slots;
    }
    if (slots) PetscCall(PetscArrayzero(e->rel[l], slots));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* At each solve's start: whether a level is lossy, each slot's error zero */
PetscErrorCode RwAdjointErrestBegin_Private(RwAdjoint adj)
{
  RwAdjointErrest *e = &adj->errest;

  PetscFunctionBegin;
  e->on = PETSC_FALSE;
  for (PetscInt l = RW_NUM_LEVELS - 1; l >= 0; l--) {
    RwStoreCompressType type = RW_STORE_COMPRESS_NONE;
    PetscReal           tol  = 0;

    if (!adj->store[l]) continue;
    e->isauto[l] = PETSC_FALSE;
    PetscCall(RwStoreGetCompress(adj->store[l], &type, NULL));
    if (type == RW_STORE_COMPRESS_ZFP) {
      PetscCall(RwAdjointErrestAutoTol(adj, l));
      PetscCall(RwStoreGetCompress(adj->store[l], NULL, &tol));
      e->on  = PETSC_TRUE;
      e->tol = tol;
    }
  }
  PetscCall(RwAdjointErrestSlots_Private(adj));
  e->relW = e->num = e->den = e->estimate = 0;
  e->lossy = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the STORE act: the slot holds W's error plus what its codec lost */
PetscErrorCode RwAdjointErrestStore_Private(RwAdjoint adj, const RwAction *act)
{
  RwAdjointErrest *e = &adj->errest;
  PetscReal        rel;

  PetscFunctionBegin;
  if (!e->on || act->slot < 0 || act->slot >= e->nslots[act->level]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RwStoreGetWriteError(adj->store[act->level], &rel));
  e->rel[act->level][act->slot] = e->relW + rel;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the RESTORE act: W carries its slot's error (x_0, the input, none) */
void RwAdjointErrestRestore_Private(RwAdjoint adj, const RwAction *act)
{
  RwAdjointErrest *e = &adj->errest;

  if (!e->on) return;
  e->relW = act->slot >= 0 && act->slot < e->nslots[act->level] ? e->rel[act->level][act->slot] : 0;
}

/* Before reverse step k: W = x_k, lam[0] = lambda_k+1 */
PetscErrorCode RwAdjointErrestReverse_Private(RwAdjoint adj)
{
  RwAdjointErrest *e = &adj->errest;
  PetscReal        x, lam;

  PetscFunctionBegin;
  if (!e->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecNormBegin(adj->W, NORM_2, &x)); /* one reduction for both */
  PetscCall(VecNormBegin(adj->lam[0], NORM_2, &lam));
  PetscCall(VecNormEnd(adj->W, NORM_2, &x));
  PetscCall(VecNormEnd(adj->lam[0], NORM_2, &lam));
  e->num += e->relW * x * lam;
  e->den += x * lam;
  if (e->relW > 0) e->lossy++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwAdjointErrestEnd_Private(RwAdjoint adj)
{
  RwAdjointErrest *e = &adj->errest;

  PetscFunctionBegin;
  e->estimate = e->den > 0 ? e->num / e->den : 0;
  PetscCall(RwAdjointErrestAutoNext(adj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwAdjointErrestView_Private(RwAdjoint adj, PetscViewer viewer)
{
  RwAdjointErrest *e = &adj->errest;

  PetscFunctionBegin;
  if (!e->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "lossy checkpoints (zfp tolerance %g): estimated relative gradient error %.3g (first order; %" PetscInt64_FMT " of %" PetscInt64_FMT " reverse steps read a state with an error)\n", (double)e->tol, (double)e->estimate, e->lossy, adj->counts.reverse_steps));
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++)
    if (e->isauto[l]) PetscCall(PetscViewerASCIIPrintf(viewer, "  level %" PetscInt_FMT ": tolerance auto for -rw_adjoint_gradient_rtol %g: next solve at %g\n", l, (double)e->rtol, (double)e->next[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RwAdjointErrestDestroy_Private(RwAdjoint adj)
{
  PetscFunctionBegin;
  for (PetscInt l = 0; l < RW_NUM_LEVELS; l++) PetscCall(PetscFree(adj->errest.rel[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetGradientErrorEstimate - the relative error of the last solve's
  gradient that lossy checkpoints (-rw_store_compress zfp) caused, estimated
  to first order

  Not collective (the same on every rank)

  Output Parameter:
. est - |g~ - g|_2 / |g|_2 estimated: the relative errors of the states the
        reverse sweep read, measured when they were kept, weighted by
        |lambda_k+1| |x_k|; 0 when no level keeps states lossily

  Level: intermediate

  Notes:
  -rw_adjoint_view prints it beside the tolerance.  Over tolerances 1e-3 ..
  1e-9 on heat and wave the measured error stays below 10 times it, and the
  estimate below 100 times the measured error (t330; doc/checkpoints.md).

.seealso: RwStoreSetCompress(), RwStoreGetWriteError(), RwAdjointView()
@*/
PetscErrorCode RwAdjointGetGradientErrorEstimate(RwAdjoint adj, PetscReal *est)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscValidRealPointer(est, 2);
  *est = adj->errest.estimate;
  PetscFunctionReturn(PETSC_SUCCESS);
}
