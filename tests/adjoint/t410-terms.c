/*
  Public objective terms and a time-indexed parameter block, through the driver.

  Heat with a per-step source amplitude a_k (-rw_heat_source_amplitude, a
  time-indexed block) and an objective of three terms, two of them written
  here as a user writes them with RwObjectiveAddTerm():
    - the terminal misfit (a library term);
    - "energy": a time integral (trapezoid weights) of (h^d / 2) sum_i kappa_i u_i^2,
      which depends on the state and directly on the parameter field kappa;
    - "control": (alpha / 2) sum_k a_k^2, a control cost on the block alone.
  Checked: the whole-run dot test (tangent against adjoint), the Taylor test,
  central finite differences, a revolve-checkpointed gradient bitwise equal
  to store-all's, and each term's share of J against a direct evaluation.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>

typedef struct {
  PetscReal alpha;
  PetscInt  block;
} Control;

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
  Control         *c = (Control *)ctx;
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
  Control         *c = (Control *)ctx;
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

typedef struct {
  RwTestProblem p;
  Control       control;
  PetscInt64    n;
  PetscReal     dt, *weights;
  PetscInt64   *steps;
} Case;

/* The problem of a case: the default one, a nonzero source, amplitudes 1 + k/10, the two user terms */
static PetscErrorCode CaseCreate(const char *opts, Case *c)
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

static PetscErrorCode CaseDestroy(Case *c)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(c->steps, c->weights));
  PetscCall(rw_test_problem_destroy(&c->p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The control cost straight from its definition, and the energy from a forward run of states */
static PetscErrorCode DirectTerms(Case *c, PetscReal *energy, PetscReal *control)
{
  RwModel    model = c->p.model;
  Vec        u, unew, kappa;
  PetscReal  vol, e = 0, dot;
  PetscReal *a;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(c->n, &a));
  PetscCall(RwModelGetParameterBlock(model, c->p.m, c->control.block, a));
  *control = 0;
  for (PetscInt64 k = 0; k < c->n; k++) *control += 0.5 * c->control.alpha * a[k] * a[k];
  PetscCall(PetscFree(a));
  PetscCall(RwModelGetCellVolume(model, &vol));
  PetscCall(VecDuplicate(c->p.u0, &u));
  PetscCall(VecDuplicate(c->p.u0, &unew));
  PetscCall(VecCopy(c->p.u0, u));
  PetscCall(RwModelSetParameters(model, c->p.m));
  PetscCall(RwModelGetParameterField(model, c->p.m, 0, &kappa));
  for (PetscInt64 k = 0; k <= c->n; k++) {
    PetscCall(VecPointwiseMult(unew, u, u));
    PetscCall(VecDot(unew, kappa, &dot));
    e += ((k == 0 || k == c->n) ? 0.5 * c->dt : c->dt) * 0.5 * vol * dot;
    if (k < c->n) {
      PetscCall(RwModelStep(model, k, u, unew));
      PetscCall(VecCopy(unew, u));
    }
  }
  PetscCall(RwModelRestoreParameterField(model, c->p.m, 0, &kappa));
  *energy = e;
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&unew));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void run_case(const char *opts, PetscReal tol)
{
  Case         c, r;
  RwDotTest    dot;
  RwTaylorTest tay;
  RwFDTest     fd;
  PetscReal    J, Jr, terms[3], energy, control;
  PetscBool    same;
  char         ropts[512];

  RW_CHECK(CaseCreate(opts, &c));
  RW_CHECK(RwVerifyDot(c.p.adj, c.p.m, c.p.u0, 7, &dot));
  RW_CHECK(RwVerifyTaylor(c.p.adj, c.p.m, c.p.u0, 11, &tay));
  RW_CHECK(RwVerifyFiniteDifferences(c.p.adj, c.p.m, c.p.u0, 13, 2, &fd));
  RW_CHECK(RwAdjointSolve(c.p.adj, c.p.m, c.p.u0, &J, c.p.g, c.p.gu0));
  RW_CHECK(RwObjectiveGetTermValues(c.p.obj, 3, terms));
  RW_CHECK(DirectTerms(&c, &energy, &control));
  /* the same problem, checkpointed by revolve with 2 slots */
  snprintf(ropts, sizeof(ropts), "%s -rw_schedule_type revolve -rw_schedule_ram_slots 2", opts);
  RW_CHECK(CaseCreate(ropts, &r));
  RW_CHECK(RwAdjointSolve(r.p.adj, r.p.m, r.p.u0, &Jr, r.p.g, r.p.gu0));
  RW_CHECK(VecEqual(c.p.g, r.p.g, &same));
  if (!rw_test_rank()) {
    printf("# %s\n#   J %.17g = terminal %.6e + energy %.6e + control %.6e\n", opts, J, terms[0], terms[1], terms[2]);
    printf("#   dot: tangent %+.16e adjoint %+.16e err %.3g eps\n#   taylor:", dot.lhs, dot.rhs, dot.err);
    for (PetscInt i = 0; i < tay.n; i++) printf(" r1=%.3e (order %.2f)", tay.r1[i], tay.order1[i]);
    printf("\n#   fd: rel err %.2e %.2e\n", fd.relerr[0], fd.relerr[1]);
  }
  rw_assert_all(dot.err <= tol, "%s: whole-run dot-product error %g eps exceeds %g", opts, dot.err, tol);
  rw_assert_all(tay.min_order1 >= 1.9, "%s: Taylor remainder order %g < 1.9", opts, tay.min_order1);
  rw_assert_all(fd.max_relerr <= 1e-6, "%s: finite differences differ by %g (relative)", opts, fd.max_relerr);
  rw_assert_all(PetscAbsReal(terms[1] - energy) <= 1e-12 * PetscAbsReal(energy), "%s: the energy term is %.17g, a direct sum gives %.17g", opts, terms[1], energy);
  rw_assert_all(PetscAbsReal(terms[2] - control) <= 1e-14 * control, "%s: the control term is %.17g, its definition gives %.17g", opts, terms[2], control);
  rw_assert_all(terms[1] > 0 && terms[2] > 0, "%s: a user term is zero", opts);
  rw_assert_all(J == Jr && same, "%s: the revolve-checkpointed J or gradient differs from store-all's", opts);
  RW_CHECK(CaseDestroy(&r));
  RW_CHECK(CaseDestroy(&c));
}

START_TEST(test_terms)
{
  run_case("-rw_heat_dim 1 -da_grid_x 23 -rw_steps 9 -rw_heat_source_amplitude", 100);
  run_case("-rw_heat_dim 1 -da_grid_x 23 -rw_steps 9 -rw_heat_source_amplitude -rw_heat_theta 0.5 -ksp_rtol 1e-14 -ksp_atol 0", 1e4);
  run_case("-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_heat_bc dirichlet -rw_steps 7 -rw_heat_source_amplitude", 100);
}
END_TEST

/* A time-indexed block is laid out for n steps: changing n afterwards is refused */
START_TEST(test_layout)
{
  RwModel  model;
  PetscInt size, perstep;

  RW_CHECK(rw_test_model("-rw_heat_dim 1 -da_grid_x 16 -rw_steps 5 -rw_heat_source_amplitude", &model));
  RW_CHECK(RwModelGetParameterBlockInfo(model, 1, NULL, &size, &perstep, NULL));
  rw_assert_all(size == 5 && perstep == 1, "block a has size %d and %d per step, expected 5 and 1", (int)size, (int)perstep);
  rw_assert_error(RwModelSetSteps(model, 6), "set the number of steps (-rw_steps 6) before RwModelSetUp()");
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("objective-terms");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_terms);
  tcase_add_test(tc, test_layout);
  suite_add_tcase(s, tc);
  return s;
}
