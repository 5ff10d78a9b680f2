/*
  Adam (Kingma and Ba 2015) as a TAO type, registered by rewind so that
  -tao_type adam picks it like any other: at iteration t, with the gradient g,

    m = b1 m + (1 - b1) g,   v = b2 v + (1 - b2) g^2,
    x = x - lr_t (m / (1 - b1^(t+1))) / (sqrt(v / (1 - b2^(t+1))) + eps),

  lr_t = lr decay^t, then x projected onto the variable bounds if any.  One
  evaluation an iteration, no line search: the stochastic-gradient method of
  network training, here on full-batch gradients.  Elementwise, so x keeps
  its layout (a block of scalars on one rank stays there) and every rank
  does the same arithmetic on its own entries.
*/
#include <rewind/private/problemimpl.h>
#include <petsc/private/taoimpl.h>

typedef struct {
  PetscReal lr, decay, b1, b2, eps;
  Vec       m, v;
} TAO_Adam;

/* One step of Adam from the gradient at x, the iteration t from 0 */
static PetscErrorCode AdamStep(Tao tao, PetscInt t)
{
  TAO_Adam          *a  = (TAO_Adam *)tao->data;
  const PetscReal    lr = a->lr * PetscPowReal(a->decay, (PetscReal)t);
  const PetscReal    c1 = 1 - PetscPowReal(a->b1, t + 1), c2 = 1 - PetscPowReal(a->b2, t + 1);
  const PetscScalar *g;
  PetscScalar       *x, *mo, *ve;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(tao->solution, &n));
  PetscCall(VecGetArrayRead(tao->gradient, &g));
  PetscCall(VecGetArray(tao->solution, &x));
  PetscCall(VecGetArray(a->m, &mo));
  PetscCall(VecGetArray(a->v, &ve));
  for (PetscInt i = 0; i < n; i++) {
    mo[i] = a->b1 * mo[i] + (1 - a->b1) * g[i];
    ve[i] = a->b2 * ve[i] + (1 - a->b2) * g[i] * g[i];
    x[i] -= lr * (mo[i] / c1) / (PetscSqrtReal(ve[i] / c2) + a->eps);
  }
  PetscCall(VecRestoreArray(a->v, &ve));
  PetscCall(VecRestoreArray(a->m, &mo));
  PetscCall(VecRestoreArray(tao->solution, &x));
  PetscCall(VecRestoreArrayRead(tao->gradient, &g));
  if (tao->XL && tao->XU) PetscCall(VecMedian(tao->XL, tao->solution, tao->XU, tao->solution));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f and the gradient at the solution, logged, monitored and tested */
static PetscErrorCode AdamEvaluate(Tao tao, PetscReal step)
{
  PetscReal f, gnorm;

  PetscFunctionBegin;
  PetscCall(TaoComputeObjectiveAndGradient(tao, tao->solution, &f, tao->gradient));
  PetscCall(VecNorm(tao->gradient, NORM_2, &gnorm));
  PetscCheck(!PetscIsInfOrNanReal(f) && !PetscIsInfOrNanReal(gnorm), PetscObjectComm((PetscObject)tao), PETSC_ERR_NOT_CONVERGED, "Adam: the objective or its gradient is Inf or NaN at iteration %" PetscInt_FMT ": lower the learning rate (-tao_adam_learning_rate)", tao->niter);
  PetscCall(TaoLogConvergenceHistory(tao, f, gnorm, 0.0, tao->ksp_its));
  PetscCall(TaoMonitor(tao, tao->niter, f, gnorm, 0.0, step));
  PetscUseTypeMethod(tao, convergencetest, tao->cnvP);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoSolve_Adam(Tao tao)
{
  TAO_Adam *a = (TAO_Adam *)tao->data;

  PetscFunctionBegin;
  PetscCall(VecSet(a->m, 0));
  PetscCall(VecSet(a->v, 0));
  if (tao->XL && tao->XU) PetscCall(VecMedian(tao->XL, tao->solution, tao->XU, tao->solution));
  tao->reason = TAO_CONTINUE_ITERATING;
  PetscCall(AdamEvaluate(tao, 0.0));
  for (PetscInt t = 0; tao->reason == TAO_CONTINUE_ITERATING; t++) {
    PetscCall(AdamStep(tao, t));
    tao->niter++;
    PetscCall(AdamEvaluate(tao, a->lr * PetscPowReal(a->decay, (PetscReal)t)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoSetUp_Adam(Tao tao)
{
  TAO_Adam *a = (TAO_Adam *)tao->data;

  PetscFunctionBegin;
  if (!tao->gradient) PetscCall(VecDuplicate(tao->solution, &tao->gradient));
  if (!a->m) PetscCall(VecDuplicate(tao->solution, &a->m));
  if (!a->v) PetscCall(VecDuplicate(tao->solution, &a->v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoSetFromOptions_Adam(Tao tao, PetscOptionItems *PetscOptionsObject)
{
  TAO_Adam *a = (TAO_Adam *)tao->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Adam: stochastic-gradient steps with moment estimates");
  /* a negative learning rate climbs; a decay above 1 grows the step without bound */
  PetscCall(RwOptionsReal("-tao_adam_learning_rate", "The learning rate lr (the step at the start)", "TaoAdamSetLearningRate", a->lr, &a->lr, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-tao_adam_learning_rate_decay", "lr_t = lr decay^t", "TaoAdamSetLearningRate", a->decay, &a->decay, NULL, 0, 1, RW_RANGE_OPEN_LO));
  PetscCall(RwOptionsReal("-tao_adam_beta1", "Decay of the first moment estimate", NULL, a->b1, &a->b1, NULL, 0, 1, RW_RANGE_OPEN_HI));
  PetscCall(RwOptionsReal("-tao_adam_beta2", "Decay of the second moment estimate", NULL, a->b2, &a->b2, NULL, 0, 1, RW_RANGE_OPEN_HI));
  PetscCall(RwOptionsReal("-tao_adam_epsilon", "Added to the root of the second moment", NULL, a->eps, &a->eps, NULL, 0, PETSC_MAX_REAL, RW_RANGE_OPEN_LO));
  PetscOptionsHeadEnd();
  /* values set in code (TaoAdamSetLearningRate()) are checked too */
  PetscCheck(a->lr > 0 && !PetscIsInfOrNanReal(a->lr), PetscObjectComm((PetscObject)tao), PETSC_ERR_ARG_OUTOFRANGE, "-tao_adam_learning_rate %g: expected a step > 0 (a negative one climbs)", (double)a->lr);
  PetscCheck(a->decay > 0 && a->decay <= 1, PetscObjectComm((PetscObject)tao), PETSC_ERR_ARG_OUTOFRANGE, "-tao_adam_learning_rate_decay %g: expected a factor in (0, 1]", (double)a->decay);
  PetscCheck(a->b1 >= 0 && a->b1 < 1 && a->b2 >= 0 && a->b2 < 1, PetscObjectComm((PetscObject)tao), PETSC_ERR_ARG_OUTOFRANGE, "-tao_adam_beta1 %g, -tao_adam_beta2 %g: expected each in [0, 1)", (double)a->b1, (double)a->b2);
  PetscCheck(a->eps > 0, PetscObjectComm((PetscObject)tao), PETSC_ERR_ARG_OUTOFRANGE, "-tao_adam_epsilon %g: expected > 0", (double)a->eps);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoView_Adam(Tao tao, PetscViewer viewer)
{
  TAO_Adam *a = (TAO_Adam *)tao->data;
  PetscBool ascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) PetscCall(PetscViewerASCIIPrintf(viewer, "  Adam: learning rate %g, decay %g a step, beta1 %g, beta2 %g, epsilon %g\n", (double)a->lr, (double)a->decay, (double)a->b1, (double)a->b2, (double)a->eps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoAdamSetLearningRate_Adam(Tao tao, PetscReal lr, PetscReal decay)
{
  TAO_Adam *a = (TAO_Adam *)tao->data;

  PetscFunctionBegin;
  a->lr    = lr;
  a->decay = decay;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaoDestroy_Adam(Tao tao)
{
  TAO_Adam *a = (TAO_Adam *)tao->data;

  PetscFunctionBegin;
  PetscCall(VecDestroy(&a->m));
  PetscCall(VecDestroy(&a->v));
  PetscCall(PetscObjectComposeFunction((PetscObject)tao, "TaoAdamSetLearningRate_C", NULL));
  PetscCall(PetscFree(tao->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  TaoAdamSetLearningRate - Adam's learning rate lr and its decay per iteration (lr_t = lr decay^t)

  Logically collective

  Options Database Keys:
+ -tao_adam_learning_rate <lr>       - default 0.01
- -tao_adam_learning_rate_decay <d>  - default 1

  Level: intermediate

.seealso: TAOADAM
@*/
PetscErrorCode TaoAdamSetLearningRate(Tao tao, PetscReal lr, PetscReal decay)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(tao, TAO_CLASSID, 1);
  PetscTryMethod(tao, "TaoAdamSetLearningRate_C", (Tao, PetscReal, PetscReal), (tao, lr, decay));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  TAOADAM - "adam": Adam's moment-estimate steps (Kingma and Ba 2015), bounds by projection

  Options Database Keys:
+ -tao_adam_learning_rate, -tao_adam_learning_rate_decay - the step and its decay
- -tao_adam_beta1, -tao_adam_beta2, -tao_adam_epsilon     - 0.9, 0.999, 1e-8

  Level: beginner
M*/
PETSC_EXTERN PetscErrorCode TaoCreate_Adam(Tao tao)
{
  TAO_Adam *a;

  PetscFunctionBegin;
  PetscCall(PetscNew(&a));
  a->lr = 0.01, a->decay = 1, a->b1 = 0.9, a->b2 = 0.999, a->eps = 1e-8;
  tao->data                = a;
  tao->ops->setup          = TaoSetUp_Adam;
  tao->ops->solve          = TaoSolve_Adam;
  tao->ops->setfromoptions = TaoSetFromOptions_Adam;
  tao->ops->view           = TaoView_Adam;
  tao->ops->destroy        = TaoDestroy_Adam;
  if (!tao->max_it_changed) tao->max_it = 100;
  PetscCall(PetscObjectComposeFunction((PetscObject)tao, "TaoAdamSetLearningRate_C", TaoAdamSetLearningRate_Adam));
  PetscFunctionReturn(PETSC_SUCCESS);
}
