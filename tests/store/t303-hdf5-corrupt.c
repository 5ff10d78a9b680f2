/*
  A damaged checkpoint is never read back silently.  The test writes five
  checkpoints, closes the file, damages four of them (one flipped bit in the
  data, the valid mark zeroed, the valid mark deleted, the grid attribute
  changed) with serial HDF5 and raw file I/O, reopens the file and checks:
  the restart API does not offer the slots without a valid mark, and reading
  any damaged slot fails with an error naming the file, the checkpoint, the
  step and what is wrong.  The intact slot still reads back bit for bit.
*/
#include "rwstoretest.h"
#include <rewind/private/storeimpl.h>

static char dir[PETSC_MAX_PATH_LEN];

static void damage(const char file[])
{
  int     zero = 0, r[3];
  int64_t grid[2] = {13, 12};

  if (rw_test_rank()) return;
  r[0] = rw_h5_flip(file, "/slot_1", 8 * 37 + 3); /* one bit inside one value */
  r[1] = rw_h5_set_attr(file, "/slot_2", "valid", H5T_NATIVE_INT, &zero);
  r[2] = rw_h5_set_attr(file, "/slot_3", "valid", 0, NULL);
  ck_assert_msg(r[0] == 0 && r[1] == 0 && r[2] == 0, "could not damage %s: %d %d %d", file, r[0], r[1], r[2]);
  ck_assert(rw_h5_set_attr(file, "/slot_4", "grid", H5T_NATIVE_INT64, grid) == 0);
}

START_TEST(test_corrupt)
{
  char       file[PETSC_MAX_PATH_LEN], opts[PETSC_MAX_PATH_LEN + 64], expect[PETSC_MAX_PATH_LEN + 128];
  Vec        u;
  RwStore    store;
  PetscInt64 steps[5];
  PetscInt   bad;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/ck.h5", dir);
  snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_keep", file);
  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 1, &u));
  RW_CHECK(rw_store_create(u, RWSTOREHDF5, 5, opts, &store));
  RW_CHECK(RwStoreSetIdentity(store, "t303"));
  RW_CHECK(RwStoreSetUp(store));
  for (PetscInt64 s = 0; s < 5; s++) {
    RW_CHECK(rw_store_fill(u, 100 + s));
    RW_CHECK(RwStoreWrite(store, s, 100 + s, u));
  }
  RW_CHECK(RwStoreDestroy(&store));
  MPI_Barrier(PETSC_COMM_WORLD);
  damage(file);
  MPI_Barrier(PETSC_COMM_WORLD);

  RW_CHECK(rw_store_create(u, RWSTOREHDF5, 5, opts, &store));
  RW_CHECK(RwStoreSetIdentity(store, "t303"));
  RW_CHECK(RwStoreSetRestart(store, PETSC_TRUE));
  RW_CHECK(RwStoreSetUp(store));
  RW_CHECK(RwStoreGetValidSteps(store, steps));
  rw_assert_all(steps[0] == 100 && steps[1] == 101 && steps[2] == -1 && steps[3] == -1 && steps[4] == 104, "valid steps %lld %lld %lld %lld %lld, expected 100 101 -1 -1 104", (long long)steps[0], (long long)steps[1], (long long)steps[2], (long long)steps[3], (long long)steps[4]);
  RW_CHECK(RwStoreRead(store, 0, 100, u));
  RW_CHECK(rw_store_mismatches(u, 100, &bad));
  rw_assert_all(!bad, "the intact checkpoint: %d values differ", (int)bad);

  snprintf(expect, sizeof(expect), "checkpoint /slot_1 in file %s (step 101): checksum 0x", file);
  rw_assert_error(RwStoreRead(store, 1, 101, u), expect);
  rw_assert_error(RwStoreRead(store, 1, 101, u), "recorded: the file is corrupted");
  /* a run that believes the slots hold their steps (the file changed under it) is still refused */
  store->step[2] = 102;
  store->step[3] = 103;
  snprintf(expect, sizeof(expect), "checkpoint /slot_2 in file %s (step 102) has no valid mark", file);
  rw_assert_error(RwStoreRead(store, 2, 102, u), expect);
  snprintf(expect, sizeof(expect), "checkpoint /slot_3 in file %s (step 103) has no valid mark", file);
  rw_assert_error(RwStoreRead(store, 3, 103, u), expect);
  snprintf(expect, sizeof(expect), "checkpoint /slot_4 in file %s (step 104) records a 2D grid 13 x 12 with dof 1; the state is 2D, 13 x 11 with dof 1", file);
  rw_assert_error(RwStoreRead(store, 4, 104, u), expect);
  /* the class refuses a step the slot does not hold before the file is touched */
  rw_assert_error(RwStoreRead(store, 0, 99, u), "holds step 100, not step 99");
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("hdf5-corrupt");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_corrupt);
  suite_add_tcase(s, tc);
  return s;
}
