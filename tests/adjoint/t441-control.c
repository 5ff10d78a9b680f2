/*
  Control through the adjoint: the control-cost terms (src/objective/terms/control.c)
  and a control problem whose optimum the test computes independently.

  - effort and smoothness on a per-step block and on control nodes: their
    values against the definitions (Simpson's rule, exact for the squares of
    piecewise linear functions), and the whole-run dot and Taylor tests of
    misfit + effort + smoothness;
  - one heater, one sensor, a linear time-invariant plate: J(A) = 1/2 |y0 + G A - d|^2
    + (alpha/2) A^T M A is quadratic in the C node amplitudes A. The test forms
    G by forward runs alone (one per node, reading the sensor), M from the hat
    functions, and solves (G^T G + alpha M) A* = G^T (d - y0) by elimination;
    TAO's L-BFGS with rewind's gradient must find A*, and the gradient there
    must vanish.
*/
#include "rwtest.h"
#include <petsctao.h>
#include <rewind/private/modelimpl.h>

/* (alpha/2) int a^2 and (beta/2) int a'^2 of K amplitudes on C nodes D apart: linear (Simpson, exact) or per step */
static void direct_costs(const PetscReal *a, PetscInt C, PetscInt K, PetscReal D, PetscBool linear, PetscReal alpha, PetscReal beta, PetscReal *effort, PetscReal *smooth)
{
  *effort = *smooth = 0;
  for (PetscInt j = 0; j < K; j++) {
    if (!linear)
      for (PetscInt c = 0; c < C; c++) *effort += 0.5 * alpha * D * a[c * K + j] * a[c * K + j];
    for (PetscInt c = 0; c + 1 < C; c++) {
      PetscReal a0 = a[c * K + j], a1 = a[(c + 1) * K + j], am = 0.5 * (a0 + a1);

      if (linear) *effort += 0.5 * alpha * D / 6 * (a0 * a0 + 4 * am * am + a1 * a1);
      *smooth += 0.5 * beta * D * PetscSqr((a1 - a0) / D);
    }
  }
}

static void cost_case(const char *opts)
{
  const PetscReal alpha = 0.3, beta = 0.02;
  RwModel         model;
  RwTestProblem   p;
  RwDotTest       dot;
  RwTaylorTest    tay;
  PetscInt        K, C, block, size;
  PetscReal       J, terms[3], effort, smooth, dt, *a;
  PetscInt64      n;

  RW_CHECK(rw_test_model(opts, &model));
  RW_CHECK(rw_test_problem_begin(model, &p));
  RW_CHECK(RwObjectiveAddDefaultMisfit(p.obj));
  RW_CHECK(RwModelHeatGetControl(model, &K, &C, &block));
  RW_CHECK(RwObjectiveAddControlEffort(p.obj, "control", K, alpha));
  RW_CHECK(RwObjectiveAddControlSmoothness(p.obj, "control", K, beta));
  RW_CHECK(rw_test_problem_driver(&p));
  RW_CHECK(RwModelGetParameterBlockInfo(model, block, NULL, &size, NULL, NULL));
  RW_CHECK(PetscMalloc1(size, &a));
  for (PetscInt i = 0; i < size; i++) a[i] = 1 + 0.5 * PetscSinReal(0.7 * i);
  RW_CHECK(RwModelSetParameterBlock(model, p.m, block, a));
  RW_CHECK(RwVerifyDot(p.adj, p.m, p.u0, 7, &dot));
  RW_CHECK(RwVerifyTaylor(p.adj, p.m, p.u0, 11, &tay));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0));
  RW_CHECK(RwObjectiveGetTermValues(p.obj, 3, terms));
  RW_CHECK(RwModelGetTimeStep(model, &dt));
  RW_CHECK(RwModelGetSteps(model, &n));
  if (C) direct_costs(a, C, K, n * dt / (C - 1), PETSC_TRUE, alpha, beta, &effort, &smooth);
  else direct_costs(a, (PetscInt)n, K, dt, PETSC_FALSE, alpha, beta, &effort, &smooth);
  if (!rw_test_rank()) printf("# %s\n#   effort %.17g (direct %.17g), smoothness %.17g (direct %.17g); dot err %.3g eps, Taylor order %.3f\n", opts, terms[1], effort, terms[2], smooth, dot.err, tay.min_order1);
  rw_assert_all(PetscAbsReal(terms[1] - effort) <= 1e-13 * effort, "%s: effort %.17g, its definition gives %.17g", opts, terms[1], effort);
  rw_assert_all(PetscAbsReal(terms[2] - smooth) <= 1e-13 * smooth, "%s: smoothness %.17g, its definition gives %.17g", opts, terms[2], smooth);
  rw_assert_all(dot.err <= 100, "%s: whole-run dot-product error %g eps", opts, dot.err);
  rw_assert_all(tay.min_order1 >= 1.9, "%s: Taylor order %g < 1.9", opts, tay.min_order1);
  RW_CHECK(PetscFree(a));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_cost_terms)
{
  cost_case("-rw_heat_dim 1 -da_grid_x 25 -rw_heat_bc neumann -rw_steps 9 -rw_heat_heaters 0.3,0.7 -rw_heat_heater_width 0.08");
  cost_case("-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_heat_bc neumann -rw_steps 12 -rw_heat_heaters 0.3,0.3 -rw_heat_heater_width 0.12 -rw_heat_flux_sides x- -rw_heat_control_nodes 5");
}
END_TEST

START_TEST(test_cost_bad_input)
{
  RwModel       model;
  RwTestProblem p;

  RW_CHECK(rw_test_model("-rw_heat_dim 1 -da_grid_x 25 -rw_heat_bc neumann -rw_steps 9 -rw_heat_heaters 0.3,0.7", &model));
  RW_CHECK(rw_test_problem_begin(model, &p));
  rw_assert_error(RwObjectiveAddControlEffort(p.obj, "controls", 2, 1), "the model has no parameter block controls");
  rw_assert_error(RwObjectiveAddControlEffort(p.obj, "control", 3, 1), "it holds 2 values a step, not 3");
  rw_assert_error(RwObjectiveAddControlSmoothness(p.obj, "control", 2, -1), "must be finite and >= 0");
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

/* ---- the closed-form control problem -------------------------------------- */
#define NSTEPS 40
#define NODES  5

typedef struct {
  RwTestProblem p;
  PetscInt      block;
  PetscInt64    evals;
} Control;

/* The sensor's readings y_1..y_n for node amplitudes A, by a forward run alone */
static PetscErrorCode SensorReadings(Control *c, const PetscReal A[], PetscReal y[])
{
  Vec u, unew;

  PetscFunctionBegin;
  PetscCall(RwModelSetParameterBlock(c->p.model, c->p.m, c->block, A));
  PetscCall(RwModelSetParameters(c->p.model, c->p.m));
  PetscCall(VecDuplicate(c->p.u0, &u));
  PetscCall(VecDuplicate(c->p.u0, &unew));
  PetscCall(VecCopy(c->p.u0, u));
  for (PetscInt64 k = 0; k < NSTEPS; k++) {
    PetscCall(RwModelStep(c->p.model, k, u, unew));
    PetscCall(VecCopy(unew, u));
    PetscCall(RwObjectiveInterpolate(c->p.obj, 0, u, &y[k]));
  }
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&unew));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solves H x = b (n x n, row-major, overwritten) by Gaussian elimination with partial pivoting */
static void solve_dense(PetscInt n, PetscReal *H, PetscReal *b)
{
  for (PetscInt k = 0; k < n; k++) {
    PetscInt p = k;

    for (PetscInt i = k + 1; i < n; i++)
      if (PetscAbsReal(H[i * n + k]) > PetscAbsReal(H[p * n + k])) p = i;
    for (PetscInt j = 0; j < n; j++) {
      PetscReal t = H[k * n + j];
      H[k * n + j] = H[p * n + j];
      H[p * n + j] = t;
    }
    { PetscReal t = b[k]; b[k] = b[p]; b[p] = t; }
    for (PetscInt i = k + 1; i < n; i++) {
      PetscReal f = H[i * n + k] / H[k * n + k];
      for (PetscInt j = k; j < n; j++) H[i * n + j] -= f * H[k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (PetscInt k = n - 1; k >= 0; k--) {
    for (PetscInt j = k + 1; j < n; j++) b[k] -= H[k * n + j] * b[j];
    b[k] /= H[k * n + k];
  }
}

/* TAO's objective on every rank alike (a sequential x): J and dJ/dA through rewind's adjoint */
static PetscErrorCode FormJG(Tao tao, Vec x, PetscReal *J, Vec g, void *ctx)
{
  Control           *c = (Control *)ctx;
  const PetscScalar *xa;
  PetscScalar       *ga;
  PetscReal          A[NODES], gA[NODES];

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &xa));
  for (PetscInt i = 0; i < NODES; i++) A[i] = PetscRealPart(xa[i]);
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(RwModelSetParameterBlock(c->p.model, c->p.m, c->block, A));
  PetscCall(RwAdjointSolve(c->p.adj, c->p.m, c->p.u0, J, c->p.g, c->p.gu0));
  PetscCall(RwModelGetParameterBlock(c->p.model, c->p.g, c->block, gA));
  PetscCall(VecGetArray(g, &ga));
  for (PetscInt i = 0; i < NODES; i++) ga[i] = gA[i];
  PetscCall(VecRestoreArray(g, &ga));
  c->evals++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_closed_form)
{
  const PetscReal   alpha = 1e-3, sensor = 0.7;
  const char *const active[] = {"control"};
  Control           c;
  RwModel           model;
  PetscReal         y0[NSTEPS], y[NSTEPS], d[NSTEPS], G[NSTEPS][NODES], H[NODES * NODES], A[NODES], b[NODES], zero[NODES] = {0};
  PetscReal         dt, D, err = 0, norm = 0, gnorm = 0, g0norm = 0, gA[NODES];
  PetscInt64        steps[NSTEPS];
  Tao               tao;
  Vec               x, gx;
  const PetscScalar *xa;
  TaoConvergedReason reason;

  RW_CHECK(rw_test_model("-rw_heat_dim 1 -da_grid_x 40 -rw_heat_bc neumann -rw_steps 40 -rw_heat_heaters 0.3 -rw_heat_heater_width 0.06 -rw_heat_control_nodes 5", &model));
  RW_CHECK(RwModelSetActiveParameters(model, 1, active));
  RW_CHECK(RwModelGetTimeStep(model, &dt));
  D = NSTEPS * dt / (NODES - 1);
  /* the target: a ramp to 0.3 over the first half, then held */
  for (PetscInt k = 0; k < NSTEPS; k++) {
    steps[k] = k + 1;
    d[k]     = 0.3 * PetscMin(1.0, (k + 1) / (0.5 * NSTEPS));
  }
  RW_CHECK(rw_test_problem_begin(model, &c.p));
  RW_CHECK(RwObjectiveAddSensors(c.p.obj, 1, &sensor, NSTEPS, steps, d, 1));
  RW_CHECK(RwObjectiveAddControlEffort(c.p.obj, "control", 1, alpha));
  RW_CHECK(rw_test_problem_driver(&c.p));
  RW_CHECK(RwModelHeatGetControl(model, NULL, NULL, &c.block));
  c.evals = 0;
  /* G by forward runs, one per node */
  RW_CHECK(SensorReadings(&c, zero, y0));
  for (PetscInt j = 0; j < NODES; j++) {
    PetscReal e[NODES] = {0};

    e[j] = 1;
    RW_CHECK(SensorReadings(&c, e, y));
    for (PetscInt k = 0; k < NSTEPS; k++) G[k][j] = y[k] - y0[k];
  }
  /* H = G^T G + alpha M (M: the hats' mass matrix), b = G^T (d - y0) */
  for (PetscInt i = 0; i < NODES; i++) {
    b[i] = 0;
    for (PetscInt k = 0; k < NSTEPS; k++) b[i] += G[k][i] * (d[k] - y0[k]);
    for (PetscInt j = 0; j < NODES; j++) {
      PetscReal h = 0, mass = 0;

      for (PetscInt k = 0; k < NSTEPS; k++) h += G[k][i] * G[k][j];
      if (i == j) mass = (i == 0 || i == NODES - 1) ? D / 3 : 2 * D / 3;
      else if (PetscAbsInt(i - j) == 1) mass = D / 6;
      H[i * NODES + j] = h + alpha * mass;
    }
  }
  solve_dense(NODES, H, b); /* b is A* now */
  /* rewind's gradient at A = 0 and at A* */
  {
    PetscReal Jx;

    RW_CHECK(RwModelSetParameterBlock(model, c.p.m, c.block, zero));
    RW_CHECK(RwAdjointSolve(c.p.adj, c.p.m, c.p.u0, &Jx, c.p.g, c.p.gu0));
    RW_CHECK(RwModelGetParameterBlock(model, c.p.g, c.block, gA));
    for (PetscInt i = 0; i < NODES; i++) g0norm += gA[i] * gA[i];
    RW_CHECK(RwModelSetParameterBlock(model, c.p.m, c.block, b));
    RW_CHECK(RwAdjointSolve(c.p.adj, c.p.m, c.p.u0, &Jx, c.p.g, c.p.gu0));
    RW_CHECK(RwModelGetParameterBlock(model, c.p.g, c.block, gA));
    for (PetscInt i = 0; i < NODES; i++) gnorm += gA[i] * gA[i];
  }
  /* TAO with rewind's gradient, the same on every rank */
  RW_CHECK(VecCreateSeq(PETSC_COMM_SELF, NODES, &x));
  RW_CHECK(VecDuplicate(x, &gx));
  RW_CHECK(VecSet(x, 0));
  RW_CHECK(TaoCreate(PETSC_COMM_SELF, &tao));
  RW_CHECK(TaoSetType(tao, TAOLMVM));
  RW_CHECK(TaoSetSolution(tao, x));
  RW_CHECK(TaoSetObjectiveAndGradient(tao, gx, FormJG, &c));
  RW_CHECK(TaoSetTolerances(tao, 1e-13 * PetscSqrtReal(g0norm), 0, 0));
  RW_CHECK(TaoSetMaximumIterations(tao, 200));
  RW_CHECK(TaoSolve(tao));
  RW_CHECK(TaoGetConvergedReason(tao, &reason));
  RW_CHECK(VecGetArrayRead(x, &xa));
  for (PetscInt i = 0; i < NODES; i++) {
    err  = PetscMax(err, PetscAbsReal(PetscRealPart(xa[i]) - b[i]));
    norm = PetscMax(norm, PetscAbsReal(b[i]));
    A[i] = PetscRealPart(xa[i]);
  }
  RW_CHECK(VecRestoreArrayRead(x, &xa));
  if (!rw_test_rank()) {
    printf("# closed form: A* =");
    for (PetscInt i = 0; i < NODES; i++) printf(" %.10f", b[i]);
    printf("\n#   TAO (%d, %" PetscInt64_FMT " evaluations) =", (int)reason, c.evals);
    for (PetscInt i = 0; i < NODES; i++) printf(" %.10f", A[i]);
    printf("\n#   max difference %.3g of %.3g; |g(A*)| %.3g against |g(0)| %.3g\n", err, norm, PetscSqrtReal(gnorm), PetscSqrtReal(g0norm));
  }
  rw_assert_all(reason > 0, "TAO did not converge (reason %d)", (int)reason);
  rw_assert_all(err <= 1e-6 * norm, "TAO's optimum differs from the closed form by %g (of %g)", err, norm);
  rw_assert_all(PetscSqrtReal(gnorm) <= 1e-8 * PetscSqrtReal(g0norm), "rewind's gradient at the closed-form optimum is %g, against %g at zero", PetscSqrtReal(gnorm), PetscSqrtReal(g0norm));
  RW_CHECK(TaoDestroy(&tao));
  RW_CHECK(VecDestroy(&x));
  RW_CHECK(VecDestroy(&gx));
  RW_CHECK(rw_test_problem_destroy(&c.p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("control");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_cost_terms);
  tcase_add_test(tc, test_cost_bad_input);
  tcase_add_test(tc, test_closed_form);
  suite_add_tcase(s, tc);
  return s;
}
