/* Bad input to the oscillator model (examples/oscillator) stops with an error that names the cause. */
#include "rwtest.h"

START_TEST(test_options)
{
  RwModel model;

  rw_assert_error(rw_test_model_type("osc", "-osc_dim 4", &model), "osc_dim 4: expected a whole number in [1, 3]");
  rw_assert_error(rw_test_model_type("osc", "-osc_block_size 0", &model), "osc_block_size 0: expected a whole number in [1, 2147483647]");
  rw_assert_error(rw_test_model_type("osc", "-osc_block_size 4294967298", &model), "osc_block_size 4294967298: expected a whole number in [1, 2147483647]");
  rw_assert_error(rw_test_model_type("osc", "-osc_dim 1 -da_grid_x 1", &model), "must be at least 2");
}
END_TEST

/* A solve with one parameter spoiled: the error names it */
static void check_bad_parameter(const char *opts, PetscInt field, PetscReal cvalue, PetscInt wi, PetscReal wvalue, const char *expected)
{
  RwModel       model;
  RwTestProblem p;
  PetscReal     J;

  RW_CHECK(rw_test_model_type("osc", opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  if (field >= 0) {
    Vec c;

    RW_CHECK(RwModelGetParameterField(model, p.m, 0, &c));
    if (!rw_test_rank()) RW_CHECK(VecSetValue(c, field, cvalue, INSERT_VALUES));
    RW_CHECK(VecAssemblyBegin(c));
    RW_CHECK(VecAssemblyEnd(c));
    RW_CHECK(RwModelRestoreParameterField(model, p.m, 0, &c));
  }
  if (wi >= 0) {
    PetscInt  b, off;

    RW_CHECK(RwModelFindParameterBlock(model, "w", &b));
    RW_CHECK(RwModelGetParameterBlockInfo(model, b, NULL, NULL, NULL, &off));
    RW_CHECK(RwModelSetParameterScalar(model, p.m, off + wi, wvalue));
  }
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), expected);
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_parameters)
{
  check_bad_parameter("-osc_dim 1 -da_grid_x 40 -rw_steps 3", 17, -1.0, -1, 0, "The coupling c must be positive and finite everywhere; c = -1. at grid point (17, 0, 0)");
  check_bad_parameter("-osc_dim 1 -da_grid_x 40 -rw_steps 3 -osc_block_size 4", -1, 0, 2, -0.5, "must be finite and >= 0; w[2] = -0.5");
  check_bad_parameter("-osc_dim 2 -da_grid_x 16 -da_grid_y 16 -rw_steps 3 -rw_dt 0.1", -1, 0, -1, 0, "Time step -rw_dt 0.1 is above the stability limit");
  ck_assert_msg(strstr(rw_test_captured(), "use -rw_dt "), "the message should give the largest stable dt: %s", rw_test_captured());
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("osc-badinput");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_options);
  tcase_add_test(tc, test_parameters);
  suite_add_tcase(s, tc);
  return s;
}
