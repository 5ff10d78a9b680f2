/*
  Per-step dot-product tests of the heat model: <T (du, dm), l> against
  <A_u l, du> + <A_m l, dm> for one step at random states, in 1, 2 and 3
  dimensions, with periodic, Dirichlet, Neumann and mixed boundaries, for
  theta = 0, 1/2 and 1.  Explicit steps must agree to 100 eps; implicit ones
  to what the KSP tolerance (1e-14 here) allows.
*/
#include "rwtest.h"

/* Rows of 37 (2D) and 21 (3D) points on one rank: the heat rows' prefetched
   blocks of RW_PREFETCH_BLOCK points and their tails both run */
static const char *grids[3] = {"-rw_heat_dim 1 -da_grid_x 23", "-rw_heat_dim 2 -da_grid_x 37 -da_grid_y 10", "-rw_heat_dim 3 -da_grid_x 21 -da_grid_y 6 -da_grid_z 5"};
static const char *bcs[4]   = {"periodic", "dirichlet", "neumann", NULL}; /* [3]: mixed, per dimension */
static const char *mixed[3] = {NULL, "periodic,dirichlet", "neumann,periodic,dirichlet"};
static const char *thetas[3] = {"0", "0.5", "1"};

static void run_case(int d, int b, int t)
{
  char      opts[512];
  RwModel   model;
  Vec       m;
  RwDotTest dot;
  PetscReal tol = t == 0 ? 100 : 1e-14 / PETSC_MACHINE_EPSILON * 100;

  snprintf(opts, sizeof(opts), "%s -rw_heat_bc %s -rw_heat_theta %s -ksp_rtol 1e-14 -ksp_atol 0", grids[d], b == 3 ? mixed[d] : bcs[b], thetas[t]);
  RW_CHECK(rw_test_model(opts, &model));
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(RwModelSetParameterScalar(model, m, 0, 0.3)); /* a decay rate, so r's gradient is exercised */
  RW_CHECK(RwVerifyStepDot(model, m, 3, 42, &dot));
  if (!rw_test_rank()) printf("# %-78s <T dx,y> %+.16e <dx,A y> %+.16e  err %.3g eps\n", opts, dot.lhs, dot.rhs, dot.err);
  rw_assert_all(dot.err <= tol, "%s: dot-product error %g eps exceeds %g eps", opts, dot.err, tol);
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_stepdot)
{
  /* on 3 and 4 ranks, a subset keeps make check short: 2D and 3D, mixed boundaries */
  int full = rw_test_size() <= 2;

  for (int d = 0; d < 3; d++)
    for (int b = 0; b < 4; b++)
      for (int t = 0; t < 3; t++)
        if ((b < 3 || d > 0) && (full || (d > 0 && b == 3))) run_case(d, b, t);
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("heat-stepdot");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_stepdot);
  suite_add_tcase(s, tc);
  return s;
}
