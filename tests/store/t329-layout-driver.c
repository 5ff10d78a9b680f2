/*
  The driver sets its stores to the model's state layout (issue 37 item 1):
  a wave whose layout is declared planes here (while its kernels interleave,
  a store keeps bytes, so the gradients must not change) gets a revolve
  gradient through hdf5 checkpoint and keep files bitwise store-all's in RAM;
  the RAM store reports planes (and, told the planes shift, keeps whole
  states, since these arrays' halves do not: the store checks, never
  assumes); the checkpoint file and the keep file of
  lambda and x record planes, the keep file of the accumulators (fields, one
  component) interleaved.  A restart of the same problem whose model
  interleaves is refused with a message naming both layouts, and the file's
  bytes are unchanged.  Store-all in RAM with shared planes gives the bits
  of whole states, 2D and 3D waves.
*/
#include "rwstoretest.h"
#include <rewind/private/modelimpl.h>

static char dir[PETSC_MAX_PATH_LEN];

#define WAVE "-rw_wave_space_order 2 -da_grid_x 17 -da_grid_y 15 -rw_wave_nbl 3 -rw_wave_f0 0.03 -rw_steps 12"

/* Rank 0: the root's state_layout, "" when absent or unreadable (on every rank) */
static void root_layout(const char file[], char out[], size_t len)
{
  if (!rw_test_rank()) rw_store_root_layout(file, out, len);
  else out[0] = 0;
  MPI_Bcast(out, (int)len, MPI_CHAR, 0, PETSC_COMM_WORLD);
}

/* A wave of these options whose model declares layout (and, with shift, that its planes shift) */
static RwModelStateLayout declared; /* the layout the wave declares itself */

static void wave(const char opts[], RwModelStateLayout layout, PetscBool shift, RwModel *model, RwTestProblem *p)
{
  RW_CHECK(rw_test_model_type("wave", opts, model));
  declared = (*model)->statelayout;
  RW_CHECK(RwModelSetStateLayout_Private(*model, layout));
  (*model)->stateshift = shift; /* a type's set-up declares it; no setter */
  RW_CHECK(rw_test_problem(*model, p));
}

START_TEST(test_driver)
{
  char               opts[2][2 * PETSC_MAX_PATH_LEN], file[PETSC_MAX_PATH_LEN + 16], keep[PETSC_MAX_PATH_LEN + 32], gkeep[PETSC_MAX_PATH_LEN + 48], layout[32], expect[2 * PETSC_MAX_PATH_LEN];
  RwModel            model[2];
  RwTestProblem      p[2];
  PetscReal          J[2];
  RwStore            store;
  RwStoreStateLayout sl;
  char              *before = NULL;
  long long          len    = 0;
  int                same   = 1;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/ck.h5", dir);
  snprintf(keep, sizeof(keep), "%s/ck-reverse.h5", dir);
  snprintf(gkeep, sizeof(gkeep), "%s/ck-reverse-gradient.h5", dir);
  snprintf(opts[0], sizeof(opts[0]), "%s -rw_schedule_type storeall -rw_store_type memory", WAVE);
  snprintf(opts[1], sizeof(opts[1]), "%s -rw_schedule_type revolve -rw_schedule_ram_slots 3 -rw_store_type hdf5 -rw_store_hdf5_file %s -rw_store_keep -rw_adjoint_keep_interval 4", WAVE, file);
  for (int s = 0; s < 2; s++) {
    wave(opts[s], RW_MODEL_STATE_PLANES, (PetscBool)(s == 0), &model[s], &p[s]);
    RW_CHECK(RwAdjointSolve(p[s].adj, p[s].m, p[s].u0, &J[s], p[s].g, p[s].gu0));
  }
  rw_store_same_gradient("wave in planes, revolve through hdf5 checkpoint and keep files", "store-all in RAM", J[0], &p[0], J[1], &p[1]);
  RW_CHECK(RwAdjointGetStore(p[0].adj, 0, &store));
  RW_CHECK(RwStoreGetStateLayout(store, &sl));
  rw_assert_all(sl == RW_STORE_STATE_PLANES, "the RAM store of a model in planes keeps states %s", RwStoreStateLayouts[sl]);
  {
    RwStoreCounts c;
    PetscBool     shift;

    RW_CHECK(RwStoreGetStateShift(store, &shift));
    RW_CHECK(RwStoreGetCounts(store, &c));
    /* while the wave's arrays interleave, their halves shift only where the wave has not arrived (zeros), and the
       store's check keeps the other states whole; in planes (once the wave declares them) they shift; the gradient
       above is store-all's bitwise either way */
    long long n[2] = {(long long)c.shared, (long long)c.writes}, all[2];

    MPI_Allreduce(n, all, 2, MPI_LONG_LONG, MPI_SUM, PETSC_COMM_WORLD);
    rw_assert_all(shift && all[1] > 0 && (declared == RW_MODEL_STATE_PLANES ? all[0] >= all[1] / 2 : all[0] < all[1] / 2), "the RAM store of a model that declares shifting planes: told %d, %lld of %lld writes (all ranks) kept one plane; the wave declares %s", (int)shift, all[0], all[1], declared == RW_MODEL_STATE_PLANES ? "planes" : "interleaved arrays, whose halves do not shift");
    if (!rw_test_rank()) printf("# %lld of %lld writes (all ranks) kept one plane\n", all[0], all[1]);
  }
  for (int s = 0; s < 2; s++) {
    RW_CHECK(rw_test_problem_destroy(&p[s]));
    RW_CHECK(RwModelDestroy(&model[s]));
  }
  root_layout(file, layout, sizeof(layout));
  rw_assert_all(!strcmp(layout, "planes"), "the checkpoint file %s records state_layout \"%s\", expected planes", file, layout);
  root_layout(keep, layout, sizeof(layout));
  rw_assert_all(!strcmp(layout, "planes"), "the keep file %s records state_layout \"%s\", expected planes", keep, layout);
  root_layout(gkeep, layout, sizeof(layout));
  rw_assert_all(!strcmp(layout, "interleaved"), "the accumulators' keep file %s records state_layout \"%s\", expected interleaved", gkeep, layout);

  /* the same problem, its model interleaved: the kept file is not its states */
  if (!rw_test_rank()) before = rw_store_file_bytes(file, &len);
  snprintf(opts[1], sizeof(opts[1]), "%s -rw_schedule_type revolve -rw_schedule_ram_slots 3 -rw_store_type hdf5 -rw_store_hdf5_file %s -rw_store_keep -rw_restart", WAVE, file);
  wave(opts[1], RW_MODEL_STATE_INTERLEAVED, PETSC_FALSE, &model[1], &p[1]);
  snprintf(expect, sizeof(expect), "File %s holds states in the planes layout (root attribute \"state_layout\"), this run's model keeps them in the interleaved layout", file);
  rw_assert_error(RwAdjointSolve(p[1].adj, p[1].m, p[1].u0, &J[1], p[1].g, p[1].gu0), expect);
  RW_CHECK(rw_test_problem_destroy(&p[1]));
  RW_CHECK(RwModelDestroy(&model[1]));
  if (!rw_test_rank()) {
    long long n;
    char     *now = rw_store_file_bytes(file, &n);

    same = before && now && n == len && !memcmp(now, before, (size_t)len);
    free(now);
    free(before);
  }
  MPI_Bcast(&same, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  rw_assert_all(same, "a refused restart changed the bytes of %s", file);
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

/* Store-all in RAM with and without shared planes, 2D and 3D waves in the
   layout the wave declares: the same bits.  While the wave interleaves the
   store shares only zero halves; once it declares planes (issue 37 item 1,
   h-planes) every state after the first whose step before is held keeps one
   plane, and the last assertion requires it */
START_TEST(test_shift_storeall)
{
  const char *grids[2] = {"-rw_wave_space_order 4 -da_grid_x 19 -da_grid_y 16 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 14", "-rw_wave_dim 3 -rw_wave_space_order 8 -da_grid_x 12 -da_grid_y 12 -da_grid_z 12 -rw_wave_nbl 2 -rw_wave_f0 0.03 -rw_steps 10"};

  for (int d = 0; d < 2; d++) {
    char          opts[1024], what[1200];
    RwModel       model[2];
    RwTestProblem p[2];
    PetscReal     J[2];
    RwStore       store;
    RwStoreCounts c;
    long long     n[2], all[2];

    snprintf(opts, sizeof(opts), "%s -rw_schedule_type storeall -rw_store_type memory", grids[d]);
    for (int s = 0; s < 2; s++) {
      RW_CHECK(rw_test_model_type("wave", opts, &model[s]));
      model[s]->stateshift = (PetscBool)s;
      RW_CHECK(rw_test_problem(model[s], &p[s]));
      RW_CHECK(RwAdjointSolve(p[s].adj, p[s].m, p[s].u0, &J[s], p[s].g, p[s].gu0));
    }
    snprintf(what, sizeof(what), "%s, shared planes", grids[d]);
    rw_store_same_gradient(what, "whole states", J[0], &p[0], J[1], &p[1]);
    RW_CHECK(RwAdjointGetStore(p[1].adj, 0, &store));
    RW_CHECK(RwStoreGetCounts(store, &c));
    n[0] = (long long)c.shared, n[1] = (long long)c.writes;
    MPI_Allreduce(n, all, 2, MPI_LONG_LONG, MPI_SUM, PETSC_COMM_WORLD);
    if (!rw_test_rank()) printf("# %s: %s layout, %lld of %lld writes (all ranks) kept one plane\n", grids[d], model[1]->statelayout == RW_MODEL_STATE_PLANES ? "planes" : "interleaved", all[0], all[1]);
    if (model[1]->statelayout == RW_MODEL_STATE_PLANES) rw_assert_all(all[0] >= all[1] / 2, "%s in planes: %lld of %lld writes kept one plane", grids[d], all[0], all[1]);
    for (int s = 0; s < 2; s++) {
      RW_CHECK(rw_test_problem_destroy(&p[s]));
      RW_CHECK(RwModelDestroy(&model[s]));
    }
  }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("state layout under the driver");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_driver);
  tcase_add_test(tc, test_shift_storeall);
  suite_add_tcase(s, tc);
  return s;
}
