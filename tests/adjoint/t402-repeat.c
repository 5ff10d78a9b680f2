/*
  An optimisation loop evaluates many gradients with one driver: each must be
  bitwise what a fresh driver gives for the same parameters, whatever was
  solved before (schedules replay, stores are reset, operators rebuilt only
  when the parameters changed).
*/
#include "rwtest.h"

static void solve(RwTestProblem *p, Vec m, PetscReal *J, Vec g, Vec gu0)
{
  RW_CHECK(RwAdjointSolve(p->adj, m, p->u0, J, g, gu0));
}

static void check_repeat(const char *opts)
{
  RwModel       model, fresh_model;
  RwTestProblem p, fresh;
  Vec           m2, kappa, g1, gu1, g2, gu2, g3, gu3;
  PetscReal     J1, J2, J3, J4;
  PetscBool     e1, e2, e3, e4;

  RW_CHECK(rw_test_model(opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(VecDuplicate(p.m, &m2));
  RW_CHECK(VecCopy(p.m, m2));
  RW_CHECK(RwModelGetParameterField(model, m2, 0, &kappa));
  RW_CHECK(VecScale(kappa, 0.9));
  RW_CHECK(RwModelRestoreParameterField(model, m2, 0, &kappa));
  RW_CHECK(RwModelSetParameterScalar(model, m2, 0, 0.7));
  RW_CHECK(VecDuplicate(p.m, &g1));
  RW_CHECK(VecDuplicate(p.m, &g2));
  RW_CHECK(VecDuplicate(p.m, &g3));
  RW_CHECK(VecDuplicate(p.u0, &gu1));
  RW_CHECK(VecDuplicate(p.u0, &gu2));
  RW_CHECK(VecDuplicate(p.u0, &gu3));
  solve(&p, p.m, &J1, g1, gu1);
  solve(&p, m2, &J2, g2, gu2);
  solve(&p, p.m, &J3, g3, gu3);
  RW_CHECK(VecEqual(g1, g3, &e1));
  RW_CHECK(VecEqual(gu1, gu3, &e2));
  rw_assert_all(J1 == J3 && e1 && e2, "%s: solving m, m2, m again gave J %.17g then %.17g, gradients equal: %d %d", opts, J1, J3, e1, e2);
  /* a fresh driver on m2 must match the one that solved m first */
  RW_CHECK(rw_test_model(opts, &fresh_model));
  RW_CHECK(rw_test_problem(fresh_model, &fresh));
  solve(&fresh, m2, &J4, g3, gu3);
  RW_CHECK(VecEqual(g2, g3, &e3));
  RW_CHECK(VecEqual(gu2, gu3, &e4));
  rw_assert_all(J2 == J4 && e3 && e4, "%s: m2 after m gave J %.17g, fresh %.17g; gradients equal: %d %d", opts, J2, J4, e3, e4);
  rw_assert_all(J1 != J2, "%s: the two parameter sets should give different J", opts);
  if (!rw_test_rank()) printf("# %s: J(m) %.17g J(m2) %.17g, repeated and fresh solves identical\n", opts, J1, J2);
  RW_CHECK(VecDestroy(&m2));
  RW_CHECK(VecDestroy(&g1));
  RW_CHECK(VecDestroy(&g2));
  RW_CHECK(VecDestroy(&g3));
  RW_CHECK(VecDestroy(&gu1));
  RW_CHECK(VecDestroy(&gu2));
  RW_CHECK(VecDestroy(&gu3));
  RW_CHECK(rw_test_problem_destroy(&fresh));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&fresh_model));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_repeat)
{
  check_repeat("-da_grid_x 20 -da_grid_y 16 -rw_steps 12");
  check_repeat("-da_grid_x 20 -da_grid_y 16 -rw_steps 12 -rw_heat_scheme crank-nicolson");
  check_repeat("-rw_heat_dim 3 -da_grid_x 6 -da_grid_y 6 -da_grid_z 5 -rw_steps 6 -rw_heat_bc dirichlet -rw_heat_scheme implicit");
  /* every store and schedule resets between solves */
  check_repeat("-da_grid_x 20 -da_grid_y 16 -rw_steps 25 -rw_schedule_type revolve -rw_schedule_ram_slots 3");
  check_repeat("-da_grid_x 20 -da_grid_y 16 -rw_steps 25 -rw_schedule_type revolve -rw_schedule_ram_slots 3 -rw_store_type hdf5");
  check_repeat("-da_grid_x 20 -da_grid_y 16 -rw_steps 25 -rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 4");
  check_repeat("-rw_heat_dim 1 -da_grid_x 40 -rw_steps 30 -rw_schedule_type periodic -rw_schedule_period 6 -rw_heat_scheme crank-nicolson");
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("repeat");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_repeat);
  suite_add_tcase(s, tc);
  return s;
}
