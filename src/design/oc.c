/*
  Optimality criteria (OC) as a TAO type, registered by rewind: -tao_type oc.
  The update of topology optimisation's 88-line code (Andreassen et al. 2011)
  for min f(x) subject to one volume constraint sum_i w_i x_i <= V and bounds:

    x_new = clamp(x (max(-g, 0) / (lambda w))^eta, max(lb, x - move), min(ub, x + move)),

  lambda found by bisection so that the volume is met.  Why not TAO's own
  constrained methods: TAOALMM (PETSc 3.18) needs a tuned penalty schedule
  and inner solves for this one linear constraint, and each of its inner
  iterations is a gradient (a forward and a reverse sweep); OC takes one
  gradient an iteration and holds the volume exactly at every iterate, as
  the design literature does.

  Every rank computes its own entries; the volume of a trial lambda is an
  exact sum (RwVecDotRepro) and the bisection's steps are multiplications by
  fixed factors, so the iterates are the same bits on any number of ranks
  whenever the gradients are.
*/
#include <rewind/private/problemimpl.h>
#include <rewind/design.h>
#include <petsc/private/taoimpl.h>

typedef struct {
  PetscReal move, eta, tol, vmax, change;
  Vec       w, xnew;
  PetscInt  bisections; /* of the last update */
} TAO_OC;

/* xnew at multiplier lambda, and its volume sum w xnew, exactly */
static PetscErrorCode OCTrial(Tao tao, PetscReal lambda, PetscReal *vol)
{
  TAO_OC            *oc = (TAO_OC *)tao->data;
  const PetscScalar *x, *g, *w, *lb = NULL, *ub = NULL;
  PetscScalar       *xn;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(tao->solution, &n));
  PetscCall(VecGetArrayRead(tao->solution, &x));
  PetscCall(VecGetArrayRead(tao->gradient, &g));
  PetscCall(VecGetArrayRead(oc->w, &w));
  if (tao->XL) PetscCall(VecGetArrayRead(tao->XL, &lb));
  if (tao->XU) PetscCall(VecGetArrayRead(tao->XU, &ub));
  PetscCall(VecGetArray(oc->xnew, &xn));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal lo = PetscMax(lb ? PetscRealPart(lb[i]) : 0, PetscRealPart(x[i]) - oc->move);
    const PetscReal hi = PetscMin(ub ? PetscRealPart(ub[i]) : 1, PetscRealPart(x[i]) + oc->move);
    const PetscReal b  = PetscMax(-PetscRealPart(g[i]), 0) / (lambda * PetscRealPart(w[i]));

    xn[i] = PetscMin(PetscMax(PetscRealPart(x[i]) * PetscPowReal(b, oc->eta), lo), hi);
  }
  PetscCall(VecRestoreArray(oc->xnew, &xn));
  if (tao->XU) PetscCall(VecRestoreArrayRead(tao->XU, &ub));
  if (tao->XL) PetscCall(VecRestoreArrayRead(tao->XL, &lb));
  PetscCall(VecRestoreArrayRead(oc->w, &w));
  PetscCall(VecRestoreArrayRead(tao->gradient, &g));
  PetscCall(VecRestoreArrayRead(tao->solution, &x));
  PetscCall(RwVecDotRepro(oc->w, oc->xnew, vol, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The OC step: bracket lambda by doubling or halving from 1, bisect geometrically, take
   the feasible end (volume <= V), and record the largest change of an entry */
static PetscErrorCode OCUpdate(Tao tao)
{
  TAO_OC   *oc = (TAO_OC *)tao->data;
  PetscReal lo = 1, hi = 1, vol;
  PetscInt  it = 0;

  PetscFunctionBegin;
  PetscCall(OCTrial(tao, 1, &vol));
  if (vol > oc->vmax) {
    for (; vol > oc->vmax && it < 2200; it++) {
      lo = hi, hi *= 2;
      PetscCall(OCTrial(tao, hi, &vol));
    }
  } else {
    for (; vol <= oc->vmax && it < 2200 && lo > 1e-300; it++) {
      hi = lo, lo /= 2;
      PetscCall(OCTrial(tao, lo, &vol));
    }
  }
  for (; hi / lo - 1 > 1e-12 && it < 4000; it++) {
    const PetscReal mid = PetscSqrtReal(lo) * PetscSqrtReal(hi);

    PetscCall(OCTrial(tao, mid, &vol));
    if (vol > oc->vmax) lo = mid;
    else hi = mid;
  }
  PetscCall(OCTrial(tao, hi, &vol));
  oc->bisections = it;
  PetscCall(VecWAXPY(tao->stepdirection, -1, tao->solution, oc->xnew));
  PetscCall(VecNorm(tao->stepdirection, NORM_INFINITY, &oc->change)); /* a max: the same on any decomposition */
  PetscCall(VecCopy(oc->xnew, tao->solution));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f and the gradient at the solution, logged, monitored and tested; the step is the last change */
static PetscErrorCode OCEvaluate(Tao tao, PetscReal step)
{
  TAO_OC   *oc = (TAO_OC *)tao->data;
  PetscReal f, gnorm;

  PetscFunctionBegin;
  PetscCall(TaoComputeObjectiveAndGradient(tao, tao->solution, &f, tao->gradient));
  PetscCall(RwVecNormRepro(tao->gradient, &gnorm));
  PetscCheck(!PetscIsInfOrNanReal(f) && !PetscIsInfOrNanReal(gnorm), PetscObjectComm((PetscObject)tao), PETSC_ERR_NOT_CONVERGED, "OC: the objective or its gradient is Inf or NaN at iteration %" PetscInt_FMT, tao->niter);
  PetscCall(TaoLogConvergenceHistory(tao, f, gnorm, 0.0, tao->ksp_its));
  PetscCall(TaoMonitor(tao, tao->niter, f, gnorm, 0.0, step));
  PetscUseTypeMethod(tao, convergencetest, tao->cnvP);
  if (tao->reason == TAO_CONTINUE_ITERATING && tao->niter > 0 && oc->change < oc->tol) tao->reason = TAO_CONVERGED_STEPTOL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoSolve_OC(Tao tao)
{
  TAO_OC   *oc = (TAO_OC *)tao->data;
  PetscReal vol;

  PetscFunctionBegin;
  PetscCheck(oc->w, PetscObjectComm((PetscObject)tao), PETSC_ERR_ORDER, "-tao_type oc needs its volume constraint: TaoOCSetVolume()");
  if (tao->XL && tao->XU) PetscCall(VecMedian(tao->XL, tao->solution, tao->XU, tao->solution));
  PetscCall(RwVecDotRepro(oc->w, tao->solution, &vol, NULL));
  PetscCheck(vol <= oc->vmax * (1 + 1e-12), PetscObjectComm((PetscObject)tao), PETSC_ERR_ARG_OUTOFRANGE, "OC: the start's volume %.17g is above the bound %.17g: start from a feasible design", (double)vol, (double)oc->vmax);
  tao->reason = TAO_CONTINUE_ITERATING;
  oc->change  = 0;
  PetscCall(OCEvaluate(tao, 0.0));
  while (tao->reason == TAO_CONTINUE_ITERATING) {
    PetscCall(OCUpdate(tao));
    tao->niter++;
    PetscCall(OCEvaluate(tao, oc->change));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoSetUp_OC(Tao tao)
{
  TAO_OC *oc = (TAO_OC *)tao->data;

  PetscFunctionBegin;
  if (!tao->gradient) PetscCall(VecDuplicate(tao->solution, &tao->gradient));
  if (!tao->stepdirection) PetscCall(VecDuplicate(tao->solution, &tao->stepdirection));
  if (!oc->xnew) PetscCall(VecDuplicate(tao->solution, &oc->xnew));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoSetFromOptions_OC(Tao tao, PetscOptionItems *PetscOptionsObject)
{
  TAO_OC *oc = (TAO_OC *)tao->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Optimality criteria: the volume-constrained update of topology optimisation");
  PetscCall(RwOptionsReal("-tao_oc_move", "The largest change of an entry in one update", "TaoOCSetParameters", oc->move, &oc->move, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-tao_oc_eta", "Damping exponent eta: x (-g / (lambda w))^eta", "TaoOCSetParameters", oc->eta, &oc->eta, NULL, 0, 1, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-tao_oc_change_tol", "Stop when no entry changed by more than this in an update", "TaoOCSetParameters", oc->tol, &oc->tol, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  PetscOptionsHeadEnd();
  PetscCheck(oc->move > 0 && oc->eta > 0 && oc->eta <= 1 && oc->tol >= 0, PetscObjectComm((PetscObject)tao), PETSC_ERR_ARG_OUTOFRANGE, "-tao_oc_move %g (> 0), -tao_oc_eta %g (in (0, 1]), -tao_oc_change_tol %g (>= 0)", (double)oc->move, (double)oc->eta, (double)oc->tol);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoView_OC(Tao tao, PetscViewer viewer)
{
  TAO_OC   *oc = (TAO_OC *)tao->data;
  PetscBool ascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) PetscCall(PetscViewerASCIIPrintf(viewer, "  OC: volume <= %g, move %g, eta %g, stop at a change below %g; last update: change %g, %" PetscInt_FMT " bisection steps\n", (double)oc->vmax, (double)oc->move, (double)oc->eta, (double)oc->tol, (double)oc->change, oc->bisections));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoOCSetVolume_OC(Tao tao, Vec w, PetscReal vmax)
{
  TAO_OC *oc = (TAO_OC *)tao->data;

  PetscFunctionBegin;
  PetscCall(PetscObjectReference((PetscObject)w));
  PetscCall(VecDestroy(&oc->w));
  oc->w    = w;
  oc->vmax = vmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoOCSetParameters_OC(Tao tao, PetscReal move, PetscReal eta, PetscReal tol)
{
  TAO_OC *oc = (TAO_OC *)tao->data;

  PetscFunctionBegin;
  oc->move = move, oc->eta = eta, oc->tol = tol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoDestroy_OC(Tao tao)
{
  TAO_OC *oc = (TAO_OC *)tao->data;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&oc->w));
  PetscCall(VecDestroy(&oc->xnew));
  PetscCall(PetscObjectComposeFunction((PetscObject)tao, "TaoOCSetVolume_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)tao, "TaoOCSetParameters_C", NULL));
  PetscCall(PetscFree(tao->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  TaoOCSetVolume - the constraint sum_i w_i x_i <= vmax of -tao_type oc (w > 0, the layout of x: cell volumes)

  Logically collective

  Level: intermediate

.seealso: TAOOC, TaoOCSetParameters()
@*/
PetscErrorCode TaoOCSetVolume(Tao tao, Vec w, PetscReal vmax)
{
  PetscReal wmin;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(tao, TAO_CLASSID, 1);
  PetscValidHeaderSpecific(w, VEC_CLASSID, 2);
  PetscCall(VecMin(w, NULL, &wmin));
  PetscCheck(wmin > 0 && vmax > 0, PetscObjectComm((PetscObject)tao), PETSC_ERR_ARG_OUTOFRANGE, "TaoOCSetVolume: the weights must be > 0 (smallest %g) and the bound > 0 (%g)", (double)wmin, (double)vmax);
  PetscTryMethod(tao, "TaoOCSetVolume_C", (Tao, Vec, PetscReal), (tao, w, vmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  TaoOCSetParameters - OC's move limit, damping exponent and the change below which it stops

  Logically collective

  Options Database Keys:
+ -tao_oc_move <m>       - default 0.2
. -tao_oc_eta <eta>      - default 0.5
- -tao_oc_change_tol <t> - default 0.01

  Level: intermediate

.seealso: TAOOC, TaoOCSetVolume()
@*/
PetscErrorCode TaoOCSetParameters(Tao tao, PetscReal move, PetscReal eta, PetscReal tol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(tao, TAO_CLASSID, 1);
  PetscTryMethod(tao, "TaoOCSetParameters_C", (Tao, PetscReal, PetscReal, PetscReal), (tao, move, eta, tol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  TAOOC - "oc": optimality criteria for one volume constraint and bounds (default [0, 1])

  Options Database Keys:
+ -tao_oc_move, -tao_oc_eta - the move limit (0.2) and damping exponent (0.5)
- -tao_oc_change_tol        - stop when no entry changes by more (0.01)

  Level: beginner
M*/
PETSC_EXTERN PetscErrorCode TaoCreate_OC(Tao tao)
{
  TAO_OC *oc;

  PetscFunctionBegin;
  PetscCall(PetscNew(&oc));
  oc->move = 0.2, oc->eta = 0.5, oc->tol = 0.01;
  tao->data                = oc;
  tao->ops->setup          = TaoSetUp_OC;
  tao->ops->solve          = TaoSolve_OC;
  tao->ops->setfromoptions = TaoSetFromOptions_OC;
  tao->ops->view           = TaoView_OC;
  tao->ops->destroy        = TaoDestroy_OC;
  if (!tao->max_it_changed) tao->max_it = 100;
  PetscCall(PetscObjectComposeFunction((PetscObject)tao, "TaoOCSetVolume_C", TaoOCSetVolume_OC));
  PetscCall(PetscObjectComposeFunction((PetscObject)tao, "TaoOCSetParameters_C", TaoOCSetParameters_OC));
  PetscFunctionReturn(PETSC_SUCCESS);
}
