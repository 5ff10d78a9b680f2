/*
  The restart API: a store reopened with RwStoreSetRestart() finds the steps
  its slots validly hold (never-written slots hold none), reads them bit for
  bit, goes on writing, and removes the file at the end.  A file of another
  problem (identity), with other slots, another grid or another length of
  what is kept beside each state, a missing file and a file that is not a
  rewind checkpoint file are refused with clear errors and left in place.  The memory store holds nothing after a restart.
*/
#include "rwstoretest.h"

static char dir[PETSC_MAX_PATH_LEN], file[PETSC_MAX_PATH_LEN];

/* A store on the state u, for file f, with this identity (NULL: none), reopened or new */
static PetscErrorCode open_store(Vec u, const char f[], PetscInt64 slots, const char identity[], PetscBool restart, PetscBool keep, RwStore *store)
{
  char opts[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-rw_store_hdf5_file %s%s", f, keep ? " -rw_store_keep" : ""));
  PetscCall(rw_store_create(u, RWSTOREHDF5, slots, opts, store));
  if (identity) PetscCall(RwStoreSetIdentity(*store, identity));
  PetscCall(RwStoreSetRestart(*store, restart));
  PetscCall(RwStoreSetUp(*store));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Slots 0 and 2 hold steps 5 and 9; slot 1 was never written */
static void write_file(Vec u)
{
  RwStore store;

  RW_CHECK(open_store(u, file, 3, "heat 2D 13x11 n=10 storeall", PETSC_FALSE, PETSC_TRUE, &store));
  RW_CHECK(rw_store_fill(u, 5));
  RW_CHECK(RwStoreWrite(store, 0, 5, u));
  RW_CHECK(rw_store_fill(u, 9));
  RW_CHECK(RwStoreWrite(store, 2, 9, u));
  RW_CHECK(RwStoreDestroy(&store));
}

START_TEST(test_valid_steps)
{
  Vec        u;
  RwStore    store;
  PetscInt64 steps[3];
  PetscInt   bad[3];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/ck.h5", dir);
  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 1, &u));
  write_file(u);
  RW_CHECK(open_store(u, file, 3, "heat 2D 13x11 n=10 storeall", PETSC_TRUE, PETSC_FALSE, &store));
  RW_CHECK(RwStoreGetValidSteps(store, steps));
  rw_assert_all(steps[0] == 5 && steps[1] == -1 && steps[2] == 9, "valid steps after reopening %lld %lld %lld, expected 5 -1 9", (long long)steps[0], (long long)steps[1], (long long)steps[2]);
  RW_CHECK(RwStoreRead(store, 2, 9, u));
  RW_CHECK(rw_store_mismatches(u, 9, &bad[0]));
  RW_CHECK(RwStoreRead(store, 0, 5, u));
  RW_CHECK(rw_store_mismatches(u, 5, &bad[1]));
  rw_assert_error(RwStoreRead(store, 1, 7, u), "holds no valid state, not step 7");
  RW_CHECK(rw_store_fill(u, 7));
  RW_CHECK(RwStoreWrite(store, 1, 7, u));
  RW_CHECK(VecZeroEntries(u));
  RW_CHECK(RwStoreRead(store, 1, 7, u));
  RW_CHECK(rw_store_mismatches(u, 7, &bad[2]));
  rw_assert_all(!bad[0] && !bad[1] && !bad[2], "after the restart, %d, %d and %d values of steps 9, 5 and 7 differ", (int)bad[0], (int)bad[1], (int)bad[2]);
  RW_CHECK(RwStoreDestroy(&store));
  rw_assert_all(!rw_store_exists(file), "the reopened file %s is left at the end without -rw_store_keep", file);
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

START_TEST(test_refused)
{
  char       expect[2 * PETSC_MAX_PATH_LEN], other[PETSC_MAX_PATH_LEN];
  Vec        u, u3;
  RwStore    store;
  PetscInt64 steps[3];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/ck.h5", dir);
  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 1, &u));
  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 3, 1, &u3));
  write_file(u);

  snprintf(expect, sizeof(expect), "File %s belongs to a different problem (heat: 2D 13x11 n=10 storeall in the file, 2D 13x11 n=12 storeall in this run)", file);
  rw_assert_error(open_store(u, file, 3, "heat 2D 13x11 n=12 storeall", PETSC_TRUE, PETSC_FALSE, &store), expect);
  RW_CHECK(RwStoreDestroy(&store));
  rw_assert_all(rw_store_exists(file), "a refused restart removed %s", file);
  rw_assert_error(open_store(u, file, 3, NULL, PETSC_TRUE, PETSC_FALSE, &store), "call RwStoreSetIdentity() before RwStoreSetUp()");
  RW_CHECK(RwStoreDestroy(&store));
  snprintf(expect, sizeof(expect), "File %s holds 3 checkpoint slots, this run uses 4", file);
  rw_assert_error(open_store(u, file, 4, "heat 2D 13x11 n=10 storeall", PETSC_TRUE, PETSC_FALSE, &store), expect);
  RW_CHECK(RwStoreDestroy(&store));
  /* a run that keeps 2 values beside each state (another layout of the driver's, another objective) */
  {
    char opts[PETSC_MAX_PATH_LEN + 64];

    RW_CHECK(PetscSNPrintf(opts, sizeof(opts), "-rw_store_hdf5_file %s", file));
    RW_CHECK(rw_store_create(u, RWSTOREHDF5, 3, opts, &store));
  }
  RW_CHECK(RwStoreSetIdentity(store, "heat 2D 13x11 n=10 storeall"));
  RW_CHECK(RwStoreSetAttachmentSize(store, 2));
  RW_CHECK(RwStoreSetRestart(store, PETSC_TRUE));
  snprintf(expect, sizeof(expect), "Dataset /slot_0 in file %s keeps 0 values beside its state, this run keeps 2: it was written by another version of rewind", file);
  rw_assert_error(RwStoreSetUp(store), expect);
  RW_CHECK(RwStoreDestroy(&store));
  snprintf(expect, sizeof(expect), "Dataset /slot_0 in file %s has shape 11 x 13, but this run's states have shape 5 x 6 x 7", file);
  rw_assert_error(open_store(u3, file, 3, "heat 2D 13x11 n=10 storeall", PETSC_TRUE, PETSC_FALSE, &store), expect);
  RW_CHECK(RwStoreDestroy(&store));
  rw_assert_all(rw_store_exists(file), "a refused restart removed %s", file);

  snprintf(other, sizeof(other), "%s/missing.h5", dir);
  snprintf(expect, sizeof(expect), "Cannot reopen checkpoint file %s for a restart (-s", other);
  rw_assert_error(open_store(u, other, 3, "x", PETSC_TRUE, PETSC_FALSE, &store), expect);
  ck_assert_msg(strstr(rw_test_captured(), "rw_store_hdf5_file") && strstr(rw_test_captured(), "No such file or directory"), "the error does not give the option and the reason: %s", rw_test_captured());
  RW_CHECK(RwStoreDestroy(&store));

  snprintf(other, sizeof(other), "%s/plain.h5", dir);
  if (!rw_test_rank()) H5Fclose(H5Fcreate(other, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  MPI_Barrier(PETSC_COMM_WORLD);
  snprintf(expect, sizeof(expect), "File %s is not a rewind checkpoint file", other);
  rw_assert_error(open_store(u, other, 3, "x", PETSC_TRUE, PETSC_FALSE, &store), expect);
  RW_CHECK(RwStoreDestroy(&store));
  rw_assert_all(rw_store_exists(other), "a refused restart removed %s", other);

  /* RAM does not survive a restart */
  RW_CHECK(rw_store_create(u, RWSTOREMEMORY, 3, "", &store));
  RW_CHECK(RwStoreSetRestart(store, PETSC_TRUE));
  RW_CHECK(RwStoreSetUp(store));
  RW_CHECK(RwStoreGetValidSteps(store, steps));
  rw_assert_all(steps[0] == -1 && steps[1] == -1 && steps[2] == -1, "the memory store holds steps %lld %lld %lld after a restart", (long long)steps[0], (long long)steps[1], (long long)steps[2]);
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&u3));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("hdf5-restart");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_valid_steps);
  tcase_add_test(tc, test_refused);
  suite_add_tcase(s, tc);
  return s;
}
