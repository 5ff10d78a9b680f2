/*
  Vector-Jacobian products: the linear terms <ybar, y> (src/objective/terms/linear.c)
  and a problem's outputs (src/problem/problemvjp.c).

  For heat (1D periodic, 2D, theta = 1/2 implicit) and wave, outputs at points at
  a few steps and the observed state at steps: the whole-run dot test (tangent
  against adjoint), the Taylor test, central finite differences; J equals
  <ybar, y> of the outputs the run kept; the gradient is linear in ybar (2 ybar
  gives 2 g, bit for bit); a revolve-checkpointed gradient equals store-all's bit
  for bit.  Through a problem: the outputs of a forward run are the final state
  (heat) and the receivers' values (wave), and the VJP with ybar = dJ/dy of the
  receivers' misfit is the problem's gradient, bit for bit.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>

/* A cotangent that does not depend on the decomposition: a function of the natural index */
static PetscReal Cotangent(PetscInt64 i)
{
  return PetscSinReal(0.7 * (PetscReal)i + 0.3) + 0.25;
}

/* The state outputs' cotangent: this rank's part of each field, from natural indices */
static PetscErrorCode StateCotangent(RwModel model, PetscInt ntimes, PetscReal ybar[])
{
  DM       fda;
  PetscInt dim, M[3] = {1, 1, 1}, xs[3] = {0, 0, 0}, xm[3] = {1, 1, 1}, p = 0;

  PetscFunctionBegin;
  PetscCall(RwModelGetFieldDM(model, &fda));
  PetscCall(DMDAGetInfo(fda, &dim, &M[0], &M[1], &M[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(fda, &xs[0], &xs[1], &xs[2], &xm[0], &xm[1], &xm[2]));
  for (PetscInt t = 0; t < ntimes; t++)
    for (PetscInt k = xs[2]; k < xs[2] + xm[2]; k++)
      for (PetscInt j = xs[1]; j < xs[1] + xm[1]; j++)
        for (PetscInt i = xs[0]; i < xs[0] + xm[0]; i++) ybar[p++] = Cotangent(t * 1000003 + (k * M[1] + j) * M[0] + i);
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  RwTestProblem p;
  PetscInt      term, n;
  PetscReal    *ybar, *y;
} Case;

/* A problem whose objective is one linear term: points (npoints > 0) or the state, at steps */
static PetscErrorCode CaseCreate(const char *type, const char *opts, PetscInt npoints, const PetscReal coords[], PetscInt ntimes, const PetscInt64 steps[], PetscReal scale, Case *c)
{
  RwModel model;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(rw_test_model_type(type, opts, &model));
  PetscCall(rw_test_problem_begin(model, &c->p));
  if (npoints) PetscCall(RwObjectiveAddLinearPoints(c->p.obj, npoints, coords, ntimes, steps, &c->term));
  else PetscCall(RwObjectiveAddLinearState(c->p.obj, ntimes, steps, &c->term));
  PetscCall(RwObjectiveGetLinearSize(c->p.obj, c->term, &c->n));
  PetscCall(PetscMalloc2(c->n, &c->ybar, c->n, &c->y));
  if (npoints)
    for (PetscInt i = 0; i < c->n; i++) c->ybar[i] = Cotangent(i);
  else PetscCall(StateCotangent(model, ntimes, c->ybar));
  for (PetscInt i = 0; i < c->n; i++) c->ybar[i] *= scale;
  PetscCall(RwObjectiveSetLinearWeights(c->p.obj, c->term, c->ybar));
  PetscCall(rw_test_problem_driver(&c->p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CaseDestroy(Case *c)
{
  RwModel model = c->p.model;

  PetscFunctionBegin;
  PetscCall(PetscFree2(c->ybar, c->y));
  PetscCall(rw_test_problem_destroy(&c->p));
  PetscCall(RwModelDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* <ybar, y> summed over the ranks for state outputs (each has its part), once for replicated points */
static PetscErrorCode Inner(Case *c, PetscBool points, PetscReal *s)
{
  PetscFunctionBegin;
  *s = 0;
  for (PetscInt i = 0; i < c->n; i++) *s += c->ybar[i] * c->y[i];
  if (!points) PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, s, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void run_case(const char *type, const char *opts, PetscInt npoints, const PetscReal coords[], PetscInt ntimes, const PetscInt64 steps[], PetscReal dottol)
{
  Case         c, d, r;
  RwDotTest    dot;
  RwTaylorTest tay;
  RwFDTest     fd;
  PetscReal    J, Jd, Jr, inner, norm;
  PetscBool    same2 = PETSC_TRUE, samer, samer0;
  Vec          g2;
  char         ropts[512];

  RW_CHECK(CaseCreate(type, opts, npoints, coords, ntimes, steps, 1, &c));
  RW_CHECK(RwVerifyDot(c.p.adj, c.p.m, c.p.u0, 7, &dot));
  RW_CHECK(RwVerifyTaylor(c.p.adj, c.p.m, c.p.u0, 11, &tay));
  RW_CHECK(RwVerifyFiniteDifferences(c.p.adj, c.p.m, c.p.u0, 13, 2, &fd));
  RW_CHECK(RwAdjointSolve(c.p.adj, c.p.m, c.p.u0, &J, c.p.g, c.p.gu0));
  RW_CHECK(RwObjectiveGetLinearOutputs(c.p.obj, c.term, c.y));
  RW_CHECK(Inner(&c, (PetscBool)(npoints > 0), &inner));
  RW_CHECK(VecNorm(c.p.g, NORM_2, &norm));
  /* twice the cotangent: twice the gradient, every bit */
  RW_CHECK(CaseCreate(type, opts, npoints, coords, ntimes, steps, 2, &d));
  RW_CHECK(RwAdjointSolve(d.p.adj, d.p.m, d.p.u0, &Jd, d.p.g, d.p.gu0));
  RW_CHECK(VecDuplicate(c.p.g, &g2));
  RW_CHECK(VecCopy(c.p.g, g2));
  RW_CHECK(VecScale(g2, 2));
  RW_CHECK(VecEqual(g2, d.p.g, &same2));
  RW_CHECK(VecDestroy(&g2));
  /* checkpointed by revolve with 2 slots */
  snprintf(ropts, sizeof(ropts), "%s -rw_schedule_type revolve -rw_schedule_ram_slots 2", opts);
  RW_CHECK(CaseCreate(type, ropts, npoints, coords, ntimes, steps, 1, &r));
  RW_CHECK(RwAdjointSolve(r.p.adj, r.p.m, r.p.u0, &Jr, r.p.g, r.p.gu0));
  RW_CHECK(VecEqual(c.p.g, r.p.g, &samer));
  RW_CHECK(VecEqual(c.p.gu0, r.p.gu0, &samer0));
  if (!rw_test_rank()) {
    printf("# %s %s, %s outputs at %d steps: J %.17g <ybar, y> %.17g |g| %.6e\n", type, opts, npoints ? "point" : "state", (int)ntimes, J, inner, norm);
    printf("#   dot: tangent %+.16e adjoint %+.16e err %.3g eps\n#   taylor:", dot.lhs, dot.rhs, dot.err);
    for (PetscInt i = 0; i < tay.n; i++) printf(" r1=%.3e (order %.2f)", tay.r1[i], tay.order1[i]);
    printf("\n#   fd: rel err %.2e %.2e\n", fd.relerr[0], fd.relerr[1]);
  }
  rw_assert_all(norm > 0, "%s %s: the vector-Jacobian product is zero", type, opts);
  rw_assert_all(dot.err <= dottol, "%s %s: whole-run dot-product error %g eps exceeds %g", type, opts, dot.err, dottol);
  rw_assert_all(tay.min_order1 >= 1.9, "%s %s: Taylor remainder order %g < 1.9", type, opts, tay.min_order1);
  rw_assert_all(fd.max_relerr <= 1e-6, "%s %s: finite differences differ by %g (relative)", type, opts, fd.max_relerr);
  rw_assert_all(PetscAbsReal(J - inner) <= 1e-12 * PetscAbsReal(inner), "%s %s: J = %.17g but <ybar, y> of the kept outputs = %.17g", type, opts, J, inner);
  rw_assert_all(same2 && Jd == 2 * J, "%s %s: twice the cotangent does not give twice J and the gradient bit for bit", type, opts);
  rw_assert_all(J == Jr && samer && samer0, "%s %s: the revolve-checkpointed J or gradient differs from store-all's", type, opts);
  RW_CHECK(CaseDestroy(&r));
  RW_CHECK(CaseDestroy(&d));
  RW_CHECK(CaseDestroy(&c));
}

START_TEST(test_heat)
{
  const PetscReal  x1[3] = {0.2, 0.55, 0.9}, x2[4] = {0.3, 0.4, 0.71, 0.52};
  const PetscInt64 s3[3] = {2, 5, RW_OBJECTIVE_FINAL_STEP}, fin = RW_OBJECTIVE_FINAL_STEP, s2[2] = {4, RW_OBJECTIVE_FINAL_STEP};

  run_case(RWMODELHEAT, "-rw_heat_dim 1 -da_grid_x 29 -rw_heat_bc periodic -rw_steps 9", 3, x1, 3, s3, 100);
  run_case(RWMODELHEAT, "-rw_heat_dim 1 -da_grid_x 29 -rw_heat_bc periodic -rw_steps 9", 0, NULL, 1, &fin, 100);
  run_case(RWMODELHEAT, "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 7", 2, x2, 2, s2, 100);
  run_case(RWMODELHEAT, "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 7", 0, NULL, 2, s2, 100);
  run_case(RWMODELHEAT, "-rw_heat_dim 1 -da_grid_x 23 -rw_steps 9 -rw_heat_theta 0.5 -ksp_rtol 1e-14 -ksp_atol 0", 0, NULL, 2, s2, 1e4);
}
END_TEST

START_TEST(test_wave)
{
  const PetscReal  rec[4] = {60, 30, 100, 50};
  const PetscInt64 s[3]   = {10, 20, RW_OBJECTIVE_FINAL_STEP}, fin = RW_OBJECTIVE_FINAL_STEP;
  const char      *opts   = "-rw_wave_dim 2 -da_grid_x 18 -da_grid_y 12 -rw_wave_spacing 10,10 -rw_wave_nbl 3 -rw_steps 30";

  run_case(RWMODELWAVE, opts, 2, rec, 3, s, 100);
  run_case(RWMODELWAVE, opts, 0, NULL, 1, &fin, 100);
}
END_TEST

/* Heat's outputs without sensors: the final state, as a forward run leaves it */
START_TEST(test_problem_state)
{
  RwProblem  prob;
  RwModel    model;
  RwAdjoint  adj;
  Vec        m, u0, un, g, gu0;
  PetscInt   n, nloc;
  PetscReal *y, *ybar, *y2, norm;
  PetscBool  same = PETSC_TRUE;

  RW_CHECK(rw_test_problem_prefixed("ps_", "-rw_model_type heat -rw_heat_dim 2 -da_grid_x 11 -da_grid_y 9 -rw_steps 6 -rw_schedule_type revolve -rw_schedule_ram_slots 2", &prob));
  RW_CHECK(RwProblemGetOutputSize(prob, &n));
  RW_CHECK(RwProblemGetModel(prob, &model));
  RW_CHECK(RwProblemGetAdjoint(prob, &adj));
  RW_CHECK(RwProblemGetParameters(prob, &m, &u0));
  RW_CHECK(RwModelCreateState(model, &un));
  RW_CHECK(VecGetLocalSize(un, &nloc));
  rw_assert_all(n == nloc, "the outputs of a heat problem without sensors are %d values on this rank; expected its part of the state, %d", (int)n, (int)nloc);
  RW_CHECK(PetscMalloc3(n, &y, n, &ybar, n, &y2));
  RW_CHECK(RwProblemComputeOutputs(prob, y));
  RW_CHECK(RwAdjointForward(adj, m, u0, NULL, un));
  {
    const PetscScalar *a;
    RW_CHECK(VecGetArrayRead(un, &a));
    for (PetscInt i = 0; i < n; i++) same = (PetscBool)(same && a[i] == y[i]);
    RW_CHECK(VecRestoreArrayRead(un, &a));
  }
  rw_assert_all(same, "RwProblemComputeOutputs() differs from the final state of a forward run");
  RW_CHECK(StateCotangent(model, 1, ybar));
  RW_CHECK(RwModelCreateParameters(model, &g));
  RW_CHECK(RwModelCreateState(model, &gu0));
  RW_CHECK(RwProblemComputeVJP(prob, ybar, y2, g, gu0));
  RW_CHECK(VecNorm(g, NORM_2, &norm));
  for (PetscInt i = 0; i < n; i++) same = (PetscBool)(same && y[i] == y2[i]);
  rw_assert_all(same && norm > 0, "the VJP's outputs differ from the forward run's, or its gradient is zero");
  /* a cotangent with a NaN on one rank: an error on every rank that names it */
  if (rw_test_size() == 1 || rw_test_rank() == 1) ybar[n - 1] = NAN;
  rw_assert_error(RwProblemComputeVJP(prob, ybar, NULL, g, gu0), "is not finite");
  RW_CHECK(PetscFree3(y, ybar, y2));
  RW_CHECK(VecDestroy(&un));
  RW_CHECK(VecDestroy(&g));
  RW_CHECK(VecDestroy(&gu0));
  RW_CHECK(RwProblemDestroy(&prob));
}
END_TEST

/* Wave's outputs are its receivers' values; with ybar = dJ/dy of their misfit (data zero, sigma 1: y itself) the VJP is the gradient */
START_TEST(test_problem_receivers)
{
  RwProblem  prob;
  RwModel    model;
  Vec        g, gu0, h, hu0;
  PetscInt   n;
  PetscReal *y, J;
  PetscBool  same, same0;

  RW_CHECK(rw_test_problem_prefixed("pr_", "-rw_model_type wave -rw_wave_dim 2 -da_grid_x 18 -da_grid_y 12 -rw_wave_spacing 10,10 -rw_wave_nbl 3 -rw_steps 25 -rw_wave_receivers 60,30,100,50,90,40 -rw_schedule_type revolve -rw_schedule_ram_slots 3", &prob));
  RW_CHECK(RwProblemGetOutputSize(prob, &n));
  rw_assert_all(n == 3 * 26, "3 receivers at 26 steps give %d outputs; expected 78", (int)n);
  RW_CHECK(PetscMalloc1(n, &y));
  RW_CHECK(RwProblemComputeOutputs(prob, y));
  RW_CHECK(RwProblemGetModel(prob, &model));
  RW_CHECK(RwModelCreateParameters(model, &g));
  RW_CHECK(RwModelCreateState(model, &gu0));
  RW_CHECK(VecDuplicate(g, &h));
  RW_CHECK(VecDuplicate(gu0, &hu0));
  RW_CHECK(RwProblemComputeGradient(prob, &J, g, gu0));
  RW_CHECK(RwProblemComputeVJP(prob, y, NULL, h, hu0));
  RW_CHECK(VecEqual(g, h, &same));
  RW_CHECK(VecEqual(gu0, hu0, &same0));
  rw_assert_all(same && same0, "the VJP with ybar = y differs from the receivers' misfit gradient");
  RW_CHECK(PetscFree(y));
  RW_CHECK(VecDestroy(&g));
  RW_CHECK(VecDestroy(&gu0));
  RW_CHECK(VecDestroy(&h));
  RW_CHECK(VecDestroy(&hu0));
  RW_CHECK(RwProblemDestroy(&prob));
}
END_TEST

/* Errors that name the cause */
START_TEST(test_errors)
{
  RwModel     model;
  RwObjective obj;
  PetscInt    term;
  const PetscReal out[2] = {0.5, 1.5};
  const PetscInt64 s = 3;

  RW_CHECK(rw_test_model("-rw_heat_dim 1 -da_grid_x 16 -rw_steps 5", &model));
  RW_CHECK(RwObjectiveCreate(model, &obj));
  rw_assert_error(RwObjectiveAddLinearPoints(obj, 2, out, 1, &s, &term), "outside the grid's domain");
  RW_CHECK(RwObjectiveAddDefaultMisfit(obj));
  rw_assert_error(RwObjectiveSetLinearWeights(obj, 0, out), "is not a linear term");
  rw_assert_error(RwObjectiveSetLinearWeights(obj, 3, out), "the objective has 1 terms");
  RW_CHECK(RwObjectiveDestroy(&obj));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("vjp");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_heat);
  tcase_add_test(tc, test_wave);
  tcase_add_test(tc, test_problem_state);
  tcase_add_test(tc, test_problem_receivers);
  tcase_add_test(tc, test_errors);
  suite_add_tcase(s, tc);
  return s;
}
