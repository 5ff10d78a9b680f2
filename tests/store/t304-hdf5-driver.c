/*
  The hdf5 store under the adjoint driver: with -rw_store_type hdf5, J and the
  gradients (parameters and initial state) are bitwise those of the memory
  store, in 1D, 2D and 3D, with asynchronous writes (the default) and with
  synchronous ones (-rw_store_hdf5_async 0); the driver's file is removed at the end.  A write
  failing mid-run (-rw_store_hdf5_fail_write, a simulated full disk) stops
  the solve with an error naming the file and the checkpoint, and leaves that
  slot not valid.
*/
#include "rwstoretest.h"

static char dir[PETSC_MAX_PATH_LEN];

static const char *grids[3] = {"-rw_heat_dim 1 -da_grid_x 29", "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10", "-rw_heat_dim 3 -da_grid_x 7 -da_grid_y 6 -da_grid_z 5"};

START_TEST(test_same_gradient)
{
  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (int d = 0; d < 3; d++) {
    char          opts[3][2 * PETSC_MAX_PATH_LEN], file[PETSC_MAX_PATH_LEN];
    const char   *name[3] = {"memory", "asynchronous hdf5", "synchronous hdf5"};
    RwModel       model[3];
    RwTestProblem p[3];
    PetscReal     J[3];

    snprintf(file, sizeof(file), "%s/driver%d.h5", dir, d);
    snprintf(opts[0], sizeof(opts[0]), "%s -rw_steps 8 -rw_store_type memory", grids[d]);
    snprintf(opts[1], sizeof(opts[1]), "%s -rw_steps 8 -rw_store_type hdf5 -rw_store_hdf5_file %s", grids[d], file);
    snprintf(opts[2], sizeof(opts[2]), "%s -rw_steps 8 -rw_store_type hdf5 -rw_store_hdf5_file %s-sync -rw_store_hdf5_async 0", grids[d], file);
    for (int s = 0; s < 3; s++) {
      RW_CHECK(rw_test_model(opts[s], &model[s]));
      RW_CHECK(rw_test_problem(model[s], &p[s]));
      RW_CHECK(RwAdjointSolve(p[s].adj, p[s].m, p[s].u0, &J[s], p[s].g, p[s].gu0));
    }
    rw_assert_all(rw_store_exists(file), "%s: the driver's checkpoint file %s does not exist", grids[d], file);
    if (d == 1) RW_CHECK(RwAdjointView(p[1].adj, NULL));
    for (int s = 1; s < 3; s++) {
      char what[1024];

      snprintf(what, sizeof(what), "%s, the %s store", grids[d], name[s]);
      rw_store_same_gradient(what, "the memory store", J[0], &p[0], J[s], &p[s]);
    }
    for (int s = 0; s < 3; s++) {
      RW_CHECK(rw_test_problem_destroy(&p[s]));
      RW_CHECK(RwModelDestroy(&model[s]));
    }
    rw_assert_all(!rw_store_exists(file), "%s: %s is left after the driver is destroyed", grids[d], file);
  }
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

START_TEST(test_full_disk_midrun)
{
  char          opts[2 * PETSC_MAX_PATH_LEN], file[PETSC_MAX_PATH_LEN], expect[PETSC_MAX_PATH_LEN + 64];
  RwModel       model;
  RwTestProblem p;
  RwStore       store;
  PetscReal     J;
  PetscInt64    steps[6];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/full.h5", dir);
  snprintf(opts, sizeof(opts), "%s -rw_steps 8 -rw_store_type hdf5 -rw_store_hdf5_file %s -rw_store_hdf5_fail_write 3", grids[1], file);
  RW_CHECK(rw_test_model(opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  /* storeall keeps x_1, x_2, x_3, ... in slots 0, 1, 2, ...: the third write is x_3 into slot 2 */
  snprintf(expect, sizeof(expect), "writing checkpoint /slot_2 in file %s (step 3) failed", file);
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), expect);
  ck_assert_msg(strstr(rw_test_captured(), "No space left on device (simulated by -rw_store_hdf5_fail_write 3)"), "the error does not give the cause: %s", rw_test_captured());
  RW_CHECK(RwAdjointGetStore(p.adj, 0, &store));
  RW_CHECK(RwStoreGetValidSteps(store, steps));
  rw_assert_all(steps[0] == 1 && steps[1] == 2 && steps[2] == -1 && steps[3] == -1, "valid steps after the failed write: %lld %lld %lld %lld, expected 1 2 -1 -1", (long long)steps[0], (long long)steps[1], (long long)steps[2], (long long)steps[3]);
  /* the disk has room again: the next solve goes through */
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
  rw_assert_all(!rw_store_exists(file), "%s is left after the driver is destroyed", file);
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("hdf5-driver");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_same_gradient);
  tcase_add_test(tc, test_full_disk_midrun);
  suite_add_tcase(s, tc);
  return s;
}
