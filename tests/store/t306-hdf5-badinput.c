/*
  Bad input to the hdf5 store stops with clear errors, and nothing is left
  that could be read back as valid: a file that cannot be created (missing
  directory, read-only file system) names the file, the option and the
  system's reason; a write failing as on a full disk (the debug option, then a
  real 64 KB tmpfs when the machine lets the test mount one) names the file,
  the checkpoint and the step, and the slot is then not valid; bad option
  values name the option.
*/
#include "rwstoretest.h"
#include <sys/mount.h>

static char dir[PETSC_MAX_PATH_LEN];

/* A 2D state of 13 x 11 (or 128 x 128, 128 KB) points and a store for it, set up */
static PetscErrorCode open_store(Vec u, const char opts[], RwStore *store)
{
  PetscFunctionBegin;
  PetscCall(rw_store_create(u, RWSTOREHDF5, 2, opts, store));
  PetscCall(RwStoreSetUp(*store));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_uncreatable)
{
  const char *file = "/proc/rewind-no-such-dir/ck.h5";
  char        opts[256];
  Vec         u;
  RwStore     store;

  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 1, &u));
  snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s", file);
  /* the lock file beside it is the first thing the store creates */
  rw_assert_error(open_store(u, opts, &store), "Checkpoint file /proc/rewind-no-such-dir/ck.h5 (-s");
  ck_assert_msg(strstr(rw_test_captured(), "rw_store_hdf5_file): cannot create its lock file /proc/rewind-no-such-dir/ck.h5.lock: No such file or directory"), "the error does not give the option and the reason: %s", rw_test_captured());
  RW_CHECK(RwStoreDestroy(&store));
  rw_assert_error(open_store(u, "-rw_store_hdf5_comm galaxy", &store), "rw_store_hdf5_comm");
  RW_CHECK(RwStoreDestroy(&store));
  rw_assert_error(open_store(u, "-rw_store_hdf5_alignment -4096", &store), "rw_store_hdf5_alignment");
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
}
END_TEST

/* The second write fails; the slot is then not valid, and the store goes on working */
START_TEST(test_simulated_full_disk)
{
  char       file[PETSC_MAX_PATH_LEN], opts[PETSC_MAX_PATH_LEN + 64], expect[PETSC_MAX_PATH_LEN + 64];
  Vec        u;
  RwStore    store;
  PetscInt64 steps[2];
  PetscInt   bad;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/full.h5", dir);
  snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_hdf5_fail_write 2", file);
  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 1, &u));
  RW_CHECK(open_store(u, opts, &store));
  RW_CHECK(rw_store_fill(u, 1));
  RW_CHECK(RwStoreWrite(store, 0, 1, u));
  RW_CHECK(rw_store_fill(u, 2));
  snprintf(expect, sizeof(expect), "writing checkpoint /slot_1 in file %s (step 2) failed: No space left on device", file);
  rw_assert_error(RwStoreWrite(store, 1, 2, u), expect);
  ck_assert_msg(strstr(rw_test_captured(), "the checkpoint is not valid"), "the error does not say the checkpoint is not valid: %s", rw_test_captured());
  RW_CHECK(RwStoreGetValidSteps(store, steps));
  rw_assert_all(steps[0] == 1 && steps[1] == -1, "valid steps after the failed write %lld %lld, expected 1 -1", (long long)steps[0], (long long)steps[1]);
  rw_assert_error(RwStoreRead(store, 1, 2, u), "holds no valid state");
  RW_CHECK(RwStoreWrite(store, 1, 2, u));
  RW_CHECK(VecZeroEntries(u));
  RW_CHECK(RwStoreRead(store, 1, 2, u));
  RW_CHECK(rw_store_mismatches(u, 2, &bad));
  rw_assert_all(!bad, "after the failure, %d values of the rewritten slot differ", (int)bad);
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

static int mounted;

/* Rank 0 mounts a tmpfs of the given options on dir; the result (errno, 0: mounted) on every rank */
static int mount_tmpfs(const char options[])
{
  int err = 0;

  if (!rw_test_rank() && mount("tmpfs", dir, "tmpfs", 0, options)) err = errno;
  MPI_Bcast(&err, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  mounted = !err;
  return err;
}

static void unmount_tmpfs(void)
{
  MPI_Barrier(PETSC_COMM_WORLD);
  if (!rw_test_rank()) ck_assert_msg(umount2(dir, MNT_DETACH) == 0, "umount %s: %s", dir, strerror(errno));
  mounted = 0;
  MPI_Barrier(PETSC_COMM_WORLD);
}

/* After a failed assertion, no mount and no directory are left behind */
static void teardown(void)
{
  if (mounted && !rw_test_rank()) umount2(dir, MNT_DETACH);
  if (mounted && !rw_test_rank()) rmdir(dir);
  mounted = 0;
}

START_TEST(test_real_filesystems)
{
  char           file[PETSC_MAX_PATH_LEN], opts[PETSC_MAX_PATH_LEN + 64], expect[PETSC_MAX_PATH_LEN + 64];
  Vec            u;
  RwStore        store;
  DM             da;
  int            err;
  PetscErrorCode ierr;
  PetscInt64     steps[2];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/ck.h5", dir);
  snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s", file);
  if ((err = mount_tmpfs("size=64k"))) {
    if (!rw_test_rank()) printf("# tmpfs tests skipped: cannot mount a tmpfs on %s: %s\n", dir, strerror(err));
    RW_CHECK(rw_store_rmdir(dir));
    return;
  }
  /* a full disk: 128 KB states on 64 KB, written synchronously, then by the
     background writer, whose failure is raised by the next call that waits for it */
  for (int async = 0; async < 2; async++) {
    snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_hdf5_async %d", file, async);
    RW_CHECK(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 128, 128, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
    RW_CHECK(DMSetUp(da));
    RW_CHECK(DMCreateGlobalVector(da, &u));
    RW_CHECK(DMDestroy(&da));
    RW_CHECK(rw_store_fill(u, 3));
    RW_CHECK(open_store(u, opts, &store));
    snprintf(expect, sizeof(expect), "writing checkpoint /slot_0 in file %s (step 3) failed: ", file);
    if (async) {
      RW_CHECK(RwStoreWrite(store, 0, 3, u));
      rw_assert_error(RwStoreSync(store), expect);
      ck_assert_msg(strstr(rw_test_captured(), "in the background writer: No space left on device"), "the error does not give the writer's reason: %s", rw_test_captured());
    } else rw_assert_error(RwStoreWrite(store, 0, 3, u), expect);
    if (!rw_test_rank()) printf("# full tmpfs: %s\n", rw_test_captured());
    RW_CHECK(RwStoreGetValidSteps(store, steps));
    rw_assert_all(steps[0] == -1 && steps[1] == -1, "valid steps after the write to a full disk %lld %lld, expected none", (long long)steps[0], (long long)steps[1]);
    ierr = RwStoreDestroy(&store); /* closing may fail too, on a full disk */
    if (!rw_test_rank()) printf("# closing the file on the full tmpfs: %s\n", ierr ? "failed" : "fine");
    rw_assert_all(!rw_store_exists(file), "%s is left on the full tmpfs", file);
    RW_CHECK(VecDestroy(&u));
  }
  unmount_tmpfs();

  /* a read-only file system */
  ck_assert_msg(!mount_tmpfs("ro,size=64k"), "could mount a tmpfs, but not a read-only one");
  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 1, &u));
  snprintf(expect, sizeof(expect), "Checkpoint file %s (-", file);
  rw_assert_error(open_store(u, opts, &store), expect);
  ck_assert_msg(strstr(rw_test_captured(), "cannot create its lock file") && strstr(rw_test_captured(), "Read-only file system"), "the error does not give the reason: %s", rw_test_captured());
  RW_CHECK(RwStoreDestroy(&store));
  unmount_tmpfs();
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("hdf5-badinput");
  TCase *tc = tcase_create("core");

  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, test_uncreatable);
  tcase_add_test(tc, test_simulated_full_disk);
  tcase_add_test(tc, test_real_filesystems);
  suite_add_tcase(s, tc);
  return s;
}
