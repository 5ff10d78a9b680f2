/*
  Test helpers: the problem of tests/adjoint/t410 and t412, heat with a
  per-step source amplitude and two objective terms written as a user writes
  them with RwObjectiveAddTerm():
    - "energy": a time integral (trapezoid weights) of (h^d / 2) sum_i kappa_i u_i^2,
      which depends on the state and directly on the parameter field kappa;
    - "control": (alpha / 2) sum_k a_k^2, a control cost on the time-indexed block alone.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>


/* ---- energy: (h^d / 2) sum_i kappa_i u_i^2, weighted by the step's w ---- */
static PetscErrorCode EnergyValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  RwModel            model;
  Vec                m, kappa;
  const PetscScalar *a, *c;
  PetscReal          vol;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(RwObjectiveGetModel(obj, &model));
  PetscCall(RwObjectiveGetParameters(obj, &m));
  PetscCall(RwModelGetCellVolume(model, &vol));
  PetscCall(RwModelGetParameterField(model, m, 0, &kappa));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(kappa, &c));
  for (PetscInt i = 0; i < n; i++) PetscCall(RwReproSumAdd(acc, slot, w * 0.5 * vol * c[i] * a[i] * a[i]));
  PetscCall(VecRestoreArrayRead(kappa, &c));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &kappa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EnergyAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  RwModel            model;
  Vec                m, kappa;
  const PetscScalar *a, *c;
  PetscScalar       *l;
  PetscReal          vol;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(RwObjectiveGetModel(obj, &model));
  PetscCall(RwObjectiveGetParameters(obj, &m));
  PetscCall(RwModelGetCellVolume(model, &vol));
  PetscCall(RwModelGetParameterField(model, m, 0, &kappa));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArrayRead(kappa, &c));
  PetscCall(VecGetArray(lambda, &l));
  for (PetscInt i = 0; i < n; i++) l[i] += w * vol * c[i] * a[i];
  PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(kappa, &c));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &kappa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dJ/dkappa_i = w (h^d / 2) u_i^2: into the field part g[0] */
static PetscErrorCode EnergyGradient(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec g[], void *ctx)
{
  RwModel            model;
  const PetscScalar *a;
  PetscScalar       *d;
  PetscReal          vol;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(RwObjectiveGetModel(obj, &model));
  PetscCall(RwModelGetCellVolume(model, &vol));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayRead(u, &a));
  PetscCall(VecGetArray(g[0], &d));
  for (PetscInt i = 0; i < n; i++) d[i] += w * 0.5 * vol * a[i] * a[i];
  PetscCall(VecRestoreArray(g[0], &d));
  PetscCall(VecRestoreArrayRead(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EnergyChecksum(RwObjective obj, uint64_t *sum, void *ctx)
{
  PetscFunctionBegin;
  *sum = 0xe4e;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- control: (alpha / 2) a_k^2 at every step k < n; replicated, so rank 0 adds it ---- */
static PetscErrorCode ControlValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  RwTestControl   *c = (RwTestControl *)ctx;
  RwModel          model;
  const PetscReal *a;

  PetscFunctionBegin;
  PetscCall(RwObjectiveGetModel(obj, &model));
  PetscCall(RwModelGetParameterBlockValues(model, c->block, &a));
  if (k < model->n && !rw_test_rank()) PetscCall(RwReproSumAdd(acc, slot, w * 0.5 * c->alpha * a[k] * a[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ControlAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  PetscFunctionBegin; /* no state dependence */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ControlGradient(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec g[], void *ctx)
{
  RwTestControl   *c = (RwTestControl *)ctx;
  RwModel          model;
  const PetscReal *a;

  PetscFunctionBegin;
  PetscCall(RwObjectiveGetModel(obj, &model));
  PetscCall(RwModelGetParameterBlockValues(model, c->block, &a));
  if (k < model->n && !rw_test_rank()) PetscCall(RwObjectiveAddScalarGradient(obj, c->block, k, w * c->alpha * a[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ControlChecksum(RwObjective obj, uint64_t *sum, void *ctx)
{
  PetscFunctionBegin;
  *sum = 0xc0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal SourceField(PetscInt dim, const PetscReal x[], void *ctx)
{
  return PetscSinReal(2 * PETSC_PI * x[0]) + 0.3;
}


/* The problem of a case: the default one, a nonzero source, amplitudes 1 + k/10, the two user terms */
PetscErrorCode rw_test_terms_create(const char *opts, RwTestTerms *c)
{
  const RwObjectiveTermOps energy  = {NULL, EnergyValue, EnergyAdjoint, EnergyGradient, EnergyChecksum, NULL, NULL};
  const RwObjectiveTermOps control = {NULL, ControlValue, ControlAdjoint, ControlGradient, ControlChecksum, NULL, NULL};
  RwModel                  model;
  Vec                      s;
  PetscReal               *a;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(rw_test_model(opts, &model));
  PetscCall(rw_test_problem(model, &c->p));
  PetscCall(RwModelDestroy(&model)); /* the problem's objects hold it */
  model = c->p.model;
  PetscCall(RwModelGetSteps(model, &c->n));
  PetscCall(RwModelGetTimeStep(model, &c->dt));
  PetscCall(RwModelSetParameterScalar(model, c->p.m, 0, 0.4));
  PetscCall(RwModelGetParameterField(model, c->p.m, 1, &s));
  PetscCall(RwModelFillField(model, s, SourceField, NULL));
  PetscCall(RwModelRestoreParameterField(model, c->p.m, 1, &s));
  PetscCall(RwModelFindParameterBlock(model, "a", &c->control.block));
  PetscCheck(c->control.block == 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "heat's amplitude block is block %" PetscInt_FMT, c->control.block);
  PetscCall(PetscMalloc1(c->n, &a));
  for (PetscInt64 k = 0; k < c->n; k++) a[k] = 1 + 0.1 * (PetscReal)k;
  PetscCall(RwModelSetParameterBlock(model, c->p.m, c->control.block, a));
  PetscCall(PetscFree(a));
  /* the energy's time integral: trapezoid weights over steps 0..n */
  PetscCall(PetscMalloc2(c->n + 1, &c->steps, c->n + 1, &c->weights));
  for (PetscInt64 k = 0; k <= c->n; k++) {
    c->steps[k]   = k == c->n ? RW_OBJECTIVE_FINAL_STEP : k;
    c->weights[k] = (k == 0 || k == c->n) ? 0.5 * c->dt : c->dt;
  }
  c->control.alpha = 3e-3; /* the three terms of comparable size, so each one's gradient shows in the tests */
  PetscCall(RwObjectiveAddTerm(c->p.obj, "energy", &energy, (PetscInt)c->n + 1, c->steps, c->weights, NULL));
  PetscCall(RwObjectiveAddTerm(c->p.obj, "control", &control, RW_OBJECTIVE_ALL_STEPS, NULL, NULL, &c->control));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode rw_test_terms_destroy(RwTestTerms *c)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(c->steps, c->weights));
  PetscCall(rw_test_problem_destroy(&c->p));
  PetscFunctionReturn(PETSC_SUCCESS);
}
