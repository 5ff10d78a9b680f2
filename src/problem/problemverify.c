/*
  The Taylor test of a whole problem: what RwProblemEvaluate() returns (the
  members' sum, the unknown's maps, the mask, the regularisers) checked
  against J itself, so that a program's own unknown ops or regulariser set-up
  are verified like the models' kernels.
*/
#include <rewind/private/problemimpl.h>
#include <rewind/verify.h>

/*
  A direction of the unknown's layout, held parts zero.  A built-in unknown
  takes its part of a random direction of the parameters and the state (the
  same on any number of ranks; per member, another for each member); a program's own map may not be linear (log
  kappa), so its x gets uniform entries in [-1, 1) scaled by half its largest
  magnitude (1 where x is zero).
*/
static PetscErrorCode Direction(RwProblem prob, Vec x, PetscInt64 seed, Vec dx)
{
  PetscFunctionBegin;
  if (prob->ukind == RW_UNKNOWN_CUSTOM) {
    PetscRandom rnd;
    PetscReal   xmax;

    PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)x), &rnd));
    PetscCall(PetscRandomSetInterval(rnd, -1, 1));
    PetscCall(PetscRandomSetSeed(rnd, (unsigned long)seed));
    PetscCall(PetscRandomSeed(rnd));
    PetscCall(VecSetRandom(dx, rnd));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(VecNorm(x, NORM_INFINITY, &xmax));
    PetscCall(VecScale(dx, xmax > 0 ? 0.5 * xmax : 1));
  } else {
    Vec dm, du0;

    PetscCall(VecDuplicate(prob->m, &dm));
    PetscCall(VecDuplicate(prob->u0, &du0));
    PetscCall(RwVerifyRandomDirection(prob->model, prob->m, seed, dm));
    PetscCall(RwVerifyRandomState(prob->model, seed + 7, du0));
    PetscCall((*prob->uops.fromparameters)(prob, prob->model, dm, du0, dx, prob->uctx));
    for (PetscInt e = 1; prob->permember && e < prob->nmembers; e++) { /* each member's part its own direction */
      Vec f = du0;

      PetscCall(RwVerifyRandomDirection(prob->model, prob->m, seed + 11 * e, dm));
      PetscCall(RwVerifyRandomState(prob->model, seed + 7 + 11 * e, du0));
      if (prob->ukind == RW_UNKNOWN_FIELD) PetscCall(RwModelGetParameterField(prob->model, dm, prob->uindex, &f));
      PetscCall(RwProblemSetMemberUnknown(prob, e, f, dx));
      if (prob->ukind == RW_UNKNOWN_FIELD) PetscCall(RwModelRestoreParameterField(prob->model, dm, prob->uindex, &f));
    }
    PetscCall(VecDestroy(&dm));
    PetscCall(VecDestroy(&du0));
  }
  if (prob->mask) PetscCall(VecPointwiseMult(dx, dx, prob->mask));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  RwProblem prob;
  Vec       x, dx, xp, G;
} TaylorCtx;

/* J(x + eps dx), a whole evaluation, for RwTaylorTestRun_Private() */
static PetscErrorCode TaylorJ(PetscReal eps, void *ctx, PetscReal *J)
{
  TaylorCtx *c = (TaylorCtx *)ctx;

  PetscFunctionBegin;
  PetscCall(VecWAXPY(c->xp, eps, c->dx, c->x));
  PetscCall(RwProblemEvaluate(c->prob, c->xp, J, c->G));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwProblemVerifyTaylor - Taylor test of RwProblemEvaluate() at x along a
  random direction dx, eps = 0.01 / 2^i for i = 0..4: |J(x + eps dx) - J(x)
  - eps <G, dx>| falls like eps^2 when the gradient is right

  Collective

  Input Parameters:
+ prob - the problem, set up, with an unknown and no journal
. x    - where (RwProblemCreateUnknownVector())
- seed - for the direction, zero where the mask holds it: a built-in
         unknown's part of RwVerifyRandomDirection() and RwVerifyRandomState()
         (a field 0 relative to the base; the same on any number of ranks); a
         program's own unknown uniform in [-1, 1) times half its largest entry

  Output Parameter:
. t - the residuals and their orders

  Notes:
  Runs 6 evaluations; they count in RwProblemGetCounts().  An l2 regulariser
  without a reference keeps the first evaluation's unknown as its start.

  Level: intermediate

.seealso: RwVerifyTaylor(), RwProblemEvaluate()
@*/
PetscErrorCode RwProblemVerifyTaylor(RwProblem prob, Vec x, PetscInt64 seed, RwTaylorTest *t)
{
  Vec       dx, xp, G;
  PetscReal J, slope;
  TaylorCtx ctx;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(prob, RW_PROBLEM_CLASSID, 1);
  PetscValidHeaderSpecific(x, VEC_CLASSID, 2);
  PetscCheck(prob->setupcalled && prob->udm, PetscObjectComm((PetscObject)prob), PETSC_ERR_ORDER, "The Taylor test needs a problem set up with an unknown (RwProblemSetUnknown())");
  PetscCheck(!RwJournalEnabled(prob->journal), PetscObjectComm((PetscObject)prob), PETSC_ERR_ORDER, "The Taylor test's evaluations would go to the journal: verify without one (-rw_journal none)");
  PetscCall(VecDuplicate(x, &dx));
  PetscCall(VecDuplicate(x, &xp));
  PetscCall(VecDuplicate(x, &G));
  PetscCall(Direction(prob, x, seed, dx));
  PetscCall(RwProblemEvaluate(prob, x, &J, G));
  PetscCall(RwVecDotRepro(G, dx, &slope, NULL));
  ctx = (TaylorCtx){prob, x, dx, xp, G};
  PetscCall(RwTaylorTestRun_Private(J, slope, TaylorJ, &ctx, t));
  PetscCall(VecDestroy(&dx));
  PetscCall(VecDestroy(&xp));
  PetscCall(VecDestroy(&G));
  PetscFunctionReturn(PETSC_SUCCESS);
}
