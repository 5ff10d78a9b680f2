/*
  One expected result, many settings: J and every gradient computed with any
  schedule and store are bitwise those of storeall in RAM (recomputation is
  deterministic), and each run takes exactly the forward steps its schedule
  predicts.  Heat in 1D, 2D and 3D, explicit and Crank-Nicolson.
*/
#include "rwtest.h"
#include <unistd.h>

static char dir[PETSC_MAX_PATH_LEN];

static const char *settings[] = {
  "-rw_schedule_type storeall",
  "-rw_schedule_type periodic -rw_schedule_period 4",
  "-rw_schedule_type revolve -rw_schedule_ram_slots 3",
  "-rw_schedule_type revolve -rw_schedule_ram_slots 2 -rw_store_type hdf5",
  "-rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 3 -rw_schedule_costs 1,1,2,2",
  "-rw_schedule_type multilevel -rw_schedule_ram_slots 1 -rw_schedule_disk_slots inf -rw_adjoint_measured_costs",
  "-rw_schedule_type online -rw_schedule_ram_slots 3",
  "-rw_schedule_type online -rw_schedule_ram_slots 2 -rw_store_type hdf5",
};

static void check_problem(const char *grid)
{
  const int       n   = sizeof(settings) / sizeof(settings[0]);
  RwTestReference ref = {0};

  for (int i = 0; i < n; i++) {
    char          opts[PETSC_MAX_PATH_LEN + 1024]; /* the options and the path in dir */
    RwModel       model;
    RwTestProblem p;
    PetscReal     J;
    PetscBool     same;
    PetscInt64    taken, predicted;

    snprintf(opts, sizeof(opts), "%s %s -rw_steps 23 -rw_store_hdf5_file %s/c%d.h5 -ksp_rtol 1e-12", grid, settings[i], dir, i);
    RW_CHECK(rw_test_model(opts, &model));
    RW_CHECK(rw_test_problem(model, &p));
    RW_CHECK(rw_test_solve_same(&p, &ref, &J, &same, &taken, &predicted));
    if (!rw_test_rank()) printf("# %-110s J %.17g forward steps %lld (predicted %lld)\n", opts, J, (long long)taken, (long long)predicted);
    rw_assert_all(same, "%s: J %.17g (storeall %.17g) or a gradient differs from storeall's", opts, J, ref.J);
    rw_assert_all(taken == predicted, "%s: %lld forward steps, the schedule predicted %lld", opts, (long long)taken, (long long)predicted);
    /* a second solve (after -rw_adjoint_measured_costs re-plans) gives the same again */
    RW_CHECK(rw_test_solve_same(&p, &ref, &J, &same, &taken, &predicted));
    rw_assert_all(same && taken == predicted, "%s: a second solve gave J %.17g (or gradients) not storeall's, with %lld forward steps (predicted %lld)", opts, J, (long long)taken, (long long)predicted);
    RW_CHECK(rw_test_problem_destroy(&p));
    RW_CHECK(RwModelDestroy(&model));
  }
  RW_CHECK(rw_test_reference_destroy(&ref));
}

START_TEST(test_schedules_do_not_change_the_gradient)
{
  /* a scratch directory for the HDF5 stores; empty at the end */
  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  check_problem("-rw_heat_dim 1 -da_grid_x 31 -rw_heat_bc dirichlet");
  check_problem("-rw_heat_dim 2 -da_grid_x 16 -da_grid_y 12");
  check_problem("-rw_heat_dim 2 -da_grid_x 16 -da_grid_y 12 -rw_heat_scheme crank-nicolson -rw_heat_bc neumann");
  check_problem("-rw_heat_dim 3 -da_grid_x 7 -da_grid_y 6 -da_grid_z 5 -rw_heat_bc periodic,dirichlet,neumann");
  check_problem("-rw_heat_dim 3 -da_grid_x 7 -da_grid_y 6 -da_grid_z 5 -rw_heat_scheme crank-nicolson");
  MPI_Barrier(PETSC_COMM_WORLD);
  if (!rw_test_rank()) ck_assert_msg(rmdir(dir) == 0, "the stores left files in %s", dir);
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("schedules");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_schedules_do_not_change_the_gradient);
  suite_add_tcase(s, tc);
  return s;
}
