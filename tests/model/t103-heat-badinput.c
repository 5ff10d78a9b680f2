/* Bad input to the heat model stops with an error that names the cause. */
#include "rwtest.h"
#include <float.h>
#include <petscdmda.h>

START_TEST(test_options)
{
  RwModel model;
  char    opts[128];

  rw_assert_error(rw_test_model("-rw_heat_bc robin", &model), "Unknown boundary condition \"robin\" in -rw_heat_bc robin: use periodic, dirichlet or neumann");
  rw_assert_error(rw_test_model("-rw_heat_dim 2 -rw_heat_bc periodic,dirichlet,neumann", &model), "give one boundary condition, or 2");
  rw_assert_error(rw_test_model("-rw_heat_scheme leapfrog", &model), "rw_heat_scheme. Available options: explicit crank-nicolson implicit");
  rw_assert_error(rw_test_model("-rw_heat_theta 1.5", &model), "rw_heat_theta 1.5: expected a finite number in [0, 1]");
  rw_assert_error(rw_test_model("-rw_heat_dim 4", &model), "rw_heat_dim 4: expected a whole number in [1, 3]");
  rw_assert_error(rw_test_model("-rw_dt -1", &model), "rw_dt -1: expected a finite number in (0, inf)");
  rw_assert_error(rw_test_model("-rw_dt nan", &model), "rw_dt nan: expected a finite number in (0, inf)");
  rw_assert_error(rw_test_model("-rw_heat_theta 4294967298", &model), "rw_heat_theta 4294967298: expected a finite number in [0, 1]");
  /* a scheme by name and a theta that disagree: neither wins in silence */
  rw_assert_error(rw_test_model("-rw_heat_scheme explicit -rw_heat_theta 1", &model), "_rw_heat_theta 1. disagree: give one of them");
  /* a grid with fewer points than ranks */
  snprintf(opts, sizeof(opts), "-rw_heat_dim 1 -da_grid_x %d", rw_test_size() > 1 ? rw_test_size() - 1 : 1);
  rw_assert_error(rw_test_model(opts, &model), rw_test_size() > 1 ? "is too small for" : "must be at least 2");
  RW_CHECK(RwModelCreate(PETSC_COMM_WORLD, &model));
  rw_assert_error(RwModelSetType(model, "elastic"), "Unknown RwModel type \"elastic\" (option -rw_model_type); registered types: heat, wave");
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

START_TEST(test_unstable_dt)
{
  RwModel       model;
  RwTestProblem p;
  PetscReal     J;

  RW_CHECK(rw_test_model("-da_grid_x 32 -da_grid_y 32 -rw_dt 1e-3 -rw_steps 3", &model));
  RW_CHECK(rw_test_problem(model, &p));
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "Time step -rw_dt 0.001 is above the stability limit of the explicit scheme");
  ck_assert_msg(strstr(rw_test_captured(), "use -rw_dt 1.6"), "the message should give the largest stable dt (about 1.6e-4): %s", rw_test_captured());
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

START_TEST(test_kappa_not_positive)
{
  RwModel       model;
  RwTestProblem p;
  Vec           kappa;
  PetscReal     J;
  PetscInt      lo, hi, at = 3 + 16 * 5; /* grid point (3, 5) of a 16 x 16 grid */

  RW_CHECK(rw_test_model("-da_grid_x 16 -da_grid_y 16 -rw_steps 2", &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwModelGetParameterField(model, p.m, 0, &kappa));
  /* the natural index of (3, 5) on this decomposition */
  {
    AO ao;
    DM da;
    RW_CHECK(RwModelGetStateDM(model, &da));
    RW_CHECK(DMDAGetAO(da, &ao));
    RW_CHECK(AOApplicationToPetsc(ao, 1, &at));
  }
  RW_CHECK(VecGetOwnershipRange(kappa, &lo, &hi));
  if (at >= lo && at < hi) RW_CHECK(VecSetValue(kappa, at, -0.5, INSERT_VALUES));
  RW_CHECK(VecAssemblyBegin(kappa));
  RW_CHECK(VecAssemblyEnd(kappa));
  RW_CHECK(RwModelRestoreParameterField(model, p.m, 0, &kappa));
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "The conductivity kappa must be positive and finite everywhere; kappa = -0.5 at grid point (3, 5, 0)");
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

/* A decay rate so negative that the state grows by 1e31 per step overflows at u_10 */
START_TEST(test_nan_names_step)
{
  RwModel       model;
  RwTestProblem p;
  PetscReal     J, dt;

  RW_CHECK(rw_test_model("-da_grid_x 16 -da_grid_y 16 -rw_steps 30 -rw_check_finite_interval 7", &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwModelGetTimeStep(model, &dt));
  RW_CHECK(RwModelSetParameterScalar(model, p.m, 0, -1e31 / dt));
  rw_assert_error(RwAdjointForward(p.adj, p.m, p.u0, &J, NULL), "NaN or Inf in the forward state u_10 (computed by step 9)");
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "NaN or Inf in the forward state u_10");
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("heat-badinput");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_options);
  tcase_add_test(tc, test_unstable_dt);
  tcase_add_test(tc, test_kappa_not_positive);
  tcase_add_test(tc, test_nan_names_step);
  suite_add_tcase(s, tc);
  return s;
}
