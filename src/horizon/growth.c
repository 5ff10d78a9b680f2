/*
  The adjoint's growth over a reverse sweep, and the horizon warning.

  Each reverse step makes A_k^T lambda_k+1 before the objective's source is
  added; the ratio of its norm to |lambda_k+1| is the step's amplification of
  the adjoint, whatever the sources.  Summed as logs over the sweep it counts
  the e-foldings the adjoint went through: about lambda_1 T for a chaotic
  model once the adjoint has aligned with its leading direction, <= 0 for a
  non-expansive one (a stable heat step has |A^T| <= 1), so it needs no
  estimate of the exponent beforehand.  A gradient carries about
  16 - efoldings / ln 10 digits: past the horizon it carries none.
*/
#include <rewind/private/adjointimpl.h>

/* -rw_adjoint_horizon, -rw_adjoint_horizon_warn */
PetscErrorCode RwAdjointHorizonSetFromOptions_Private(RwAdjoint adj, PetscOptionItems *PetscOptionsObject)
{
  PetscBool on = adj->horizonon;

  PetscFunctionBegin;
  PetscCall(PetscOptionsBool("-rw_adjoint_horizon", "Measure the adjoint's growth over each reverse sweep (two norms a step) and report it in -rw_adjoint_view", "RwAdjointGetHorizonGrowth", on, &on, NULL));
  PetscCall(RwOptionsReal("-rw_adjoint_horizon_warn", "Warn when the adjoint grows by more than this many e-foldings (Lyapunov times) over a sweep, or leaves fewer than 2 digits (0: no warning)", "RwAdjointSetHorizonWarn", adj->horizonwarn, &adj->horizonwarn, NULL, 0, PETSC_MAX_REAL, RW_RANGE_CLOSED));
  adj->horizonon = (PetscBool)(on || adj->horizonwarn > 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointSetHorizonWarn - measures the adjoint's growth over every reverse
  sweep and warns when it exceeds a number of e-foldings (Lyapunov times)

  Logically collective

  Input Parameters:
+ adj  - the driver
- warn - the e-foldings beyond which the gradient is past the horizon; 0: measure, never warn

  Options Database Keys:
+ -rw_adjoint_horizon        - measure and report (in -rw_adjoint_view) without warning
- -rw_adjoint_horizon_warn <L> - measure and warn past L e-foldings, or below 2 digits

  Level: intermediate

  Notes:
  Costs two exact norms per reverse step. The warning is printed on the
  driver's communicator after the sweep; RwAdjointGetHorizonGrowth() says
  whether it fired.

.seealso: RwAdjointGetHorizonGrowth(), RwHorizonLyapunov(), doc/chaos.md
@*/
PetscErrorCode RwAdjointSetHorizonWarn(RwAdjoint adj, PetscReal warn)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(warn >= 0 && !PetscIsInfOrNanReal(warn), PetscObjectComm((PetscObject)adj), PETSC_ERR_ARG_OUTOFRANGE, "Horizon warning threshold %g e-foldings must be finite and >= 0", (double)warn);
  adj->horizonwarn = warn;
  adj->horizonon   = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  RwAdjointGetHorizonGrowth - the adjoint's growth over the last reverse sweep

  Not collective

  Output Parameter:
. growth - the e-foldings, their rate per unit time, the digits left, whether it warned

  Level: intermediate

.seealso: RwAdjointSetHorizonWarn()
@*/
PetscErrorCode RwAdjointGetHorizonGrowth(RwAdjoint adj, RwHorizonGrowth *growth)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(adj, RW_ADJOINT_CLASSID, 1);
  PetscCheck(adj->horizonon, PetscObjectComm((PetscObject)adj), PETSC_ERR_ORDER, "The adjoint's growth is not measured: call RwAdjointSetHorizonWarn() or give -rw_adjoint_horizon before the solve");
  *growth = adj->horizon;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* At the start of a reverse sweep */
PetscErrorCode RwAdjointHorizonBegin_Private(RwAdjoint adj)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(&adj->horizon, sizeof(adj->horizon)));
  if (!adj->horizonacc) PetscCall(RwReproSumCreate(2, &adj->horizonacc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RwAdjointHorizonEnd(RwAdjoint adj)
{
  RwHorizonGrowth *h = &adj->horizon;
  PetscReal        dt;

  PetscFunctionBegin;
  PetscCall(RwModelGetTimeStep(adj->model, &dt));
  h->rate   = h->steps ? h->efoldings / (h->steps * dt) : 0;
  h->digits = -PetscLog10Real(PETSC_MACHINE_EPSILON) - h->efoldings / PetscLogReal(10.0);
  h->warned = (PetscBool)(adj->horizonwarn > 0 && (h->efoldings > adj->horizonwarn || h->digits < 2));
  if (h->warned) PetscCall(PetscPrintf(PetscObjectComm((PetscObject)adj), "WARNING: the gradient is past the horizon: the adjoint grew by %.1f e-foldings over %" PetscInt64_FMT " steps (%.3g per unit time, -rw_adjoint_horizon_warn %g), leaving about %.1f digits; shorten the window or use a remedy (doc/chaos.md)\n", (double)h->efoldings, h->steps, (double)h->rate, (double)adj->horizonwarn, (double)PetscMax(h->digits, 0)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Adds each entry's square, rounded on its own, to accumulator i */
static PetscErrorCode RwHorizonAddSquares(RwReproSum acc, PetscInt i, Vec x)
{
  const PetscScalar *a;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &a));
  for (PetscInt j = 0; j < n; j++) PetscCall(RwReproSumAdd(acc, i, PetscRealPart(a[j] * a[j])));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the model's adjoint of step k, before the source: lhom = A_k^T lnew.
   Both norms in one exact reduction (RwVecNormRepro()'s bits, half its messages) */
PetscErrorCode RwAdjointHorizonRecord_Private(RwAdjoint adj, PetscInt64 k, Vec lnew, Vec lhom)
{
  PetscReal s[2], a, b;

  PetscFunctionBegin;
  PetscCall(RwReproSumReset(adj->horizonacc));
  PetscCall(RwHorizonAddSquares(adj->horizonacc, 0, lnew));
  PetscCall(RwHorizonAddSquares(adj->horizonacc, 1, lhom));
  PetscCall(RwReproSumAllreduce(adj->horizonacc, PetscObjectComm((PetscObject)lnew), s));
  b = PetscSqrtReal(s[0]);
  a = PetscSqrtReal(s[1]);
  if (b > 0 && a > 0) { /* before the first source the adjoint is zero: nothing grows */
    adj->horizon.efoldings += PetscLogReal(a / b);
    adj->horizon.steps++;
  }
  if (k == 0) PetscCall(RwAdjointHorizonEnd(adj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The report in RwAdjointView() */
PetscErrorCode RwAdjointHorizonView_Private(RwAdjoint adj, PetscViewer viewer)
{
  const RwHorizonGrowth *h = &adj->horizon;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "horizon: the adjoint grew by %.3g e-foldings over %" PetscInt64_FMT " reverse steps (%.3g per unit time), about %.1f digits left%s\n", (double)h->efoldings, h->steps, (double)h->rate, (double)PetscMax(h->digits, 0), h->warned ? ": PAST THE HORIZON (-rw_adjoint_horizon_warn)" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}
