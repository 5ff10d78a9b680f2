/*
  Whole-run verification of the heat model's gradient through the driver:
  the tangent against the adjoint (dot-product test), the Taylor test
  (second-order residual must fall with order >= 1.9) and central finite
  differences, in 1, 2 and 3 dimensions, all boundary conditions and
  theta = 0, 1/2, 1.  A subset runs on 3 and 4 ranks.
*/
#include "rwtest.h"

/* Rows of 37 (2D) and 21 (3D) points on one rank: the heat rows' prefetched
   blocks of RW_PREFETCH_BLOCK points and their tails both run */
static const char *grids[3]  = {"-rw_heat_dim 1 -da_grid_x 23", "-rw_heat_dim 2 -da_grid_x 37 -da_grid_y 10", "-rw_heat_dim 3 -da_grid_x 21 -da_grid_y 6 -da_grid_z 5"};
static const char *bcs[3]    = {"periodic", "dirichlet", "neumann"};
static const char *mixed[3]  = {"dirichlet", "periodic,dirichlet", "neumann,periodic,dirichlet"};
static const char *thetas[3] = {"0", "0.5", "1"};

static void run_case(const char *bc, int d, int t)
{
  char          opts[512];
  RwModel       model;
  RwTestProblem p;
  RwDotTest     dot;
  RwTaylorTest  tay;
  RwFDTest      fd;
  PetscReal     tol = t == 0 ? 100 : 1e4;

  snprintf(opts, sizeof(opts), "%s -rw_heat_bc %s -rw_heat_theta %s -rw_steps 8 -ksp_rtol 1e-14 -ksp_atol 0", grids[d], bc, thetas[t]);
  RW_CHECK(rw_test_model(opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwModelSetParameterScalar(model, p.m, 0, 0.4));
  RW_CHECK(RwVerifyDot(p.adj, p.m, p.u0, 7, &dot));
  RW_CHECK(RwVerifyTaylor(p.adj, p.m, p.u0, 11, &tay));
  RW_CHECK(RwVerifyFiniteDifferences(p.adj, p.m, p.u0, 13, 2, &fd));
  if (!rw_test_rank()) {
    printf("# %s\n#   dot: tangent %+.16e adjoint %+.16e err %.3g eps\n#   taylor:", opts, dot.lhs, dot.rhs, dot.err);
    for (PetscInt i = 0; i < tay.n; i++) printf(" r1=%.3e (order %.2f)", tay.r1[i], tay.order1[i]);
    printf("\n#   fd: rel err %.2e %.2e\n", fd.relerr[0], fd.relerr[1]);
  }
  rw_assert_all(dot.err <= tol, "%s: whole-run dot-product error %g eps exceeds %g", opts, dot.err, tol);
  rw_assert_all(tay.min_order1 >= 1.9, "%s: Taylor remainder order %g < 1.9", opts, tay.min_order1);
  rw_assert_all(fd.max_relerr <= 1e-6, "%s: finite differences differ by %g (relative)", opts, fd.max_relerr);
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_gradient)
{
  int full = rw_test_size() <= 2;

  for (int d = 0; d < 3; d++)
    for (int t = 0; t < 3; t++) {
      if (full)
        for (int b = 0; b < 3; b++) run_case(bcs[b], d, t);
      if (d > 0) run_case(mixed[d], d, t);
    }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("heat-gradient");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_gradient);
  suite_add_tcase(s, tc);
  return s;
}
