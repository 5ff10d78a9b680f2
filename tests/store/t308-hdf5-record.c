/*
  What a read trusts beside the data is checksummed and type-checked.  The
  test writes two checkpoints with an attachment (as the driver keeps J's
  partial sum), changes, with serial HDF5 (which keeps the file's own metadata
  checksums right), one value of slot 0's attachment, and replaces slot 1's
  "step" by a float attribute of the same value.  Reopened, the store refuses
  both, naming the file, the object and what is wrong, and never hands out
  the changed attachment.
*/
#include "rwstoretest.h"
#include <rewind/private/storeimpl.h>

static char dir[PETSC_MAX_PATH_LEN];

/* slot_1's "step" becomes a 64-bit float holding the same step */
static int step_as_float(const char file[])
{
  hid_t  f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT), d, sp, a;
  double step = 11;
  herr_t s    = -1;

  if (f < 0) return -1;
  if ((d = H5Dopen2(f, "/slot_1", H5P_DEFAULT)) >= 0) {
    if (H5Adelete(d, "step") >= 0 && (sp = H5Screate(H5S_SCALAR)) >= 0) {
      if ((a = H5Acreate2(d, "step", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT)) >= 0) {
        s = H5Awrite(a, H5T_NATIVE_DOUBLE, &step);
        H5Aclose(a);
      }
      H5Sclose(sp);
    }
    H5Dclose(d);
  }
  return H5Fclose(f) < 0 ? -1 : (int)s;
}

static PetscErrorCode open_store(Vec u, const char opts[], PetscBool restart, RwStore *store)
{
  PetscFunctionBegin;
  PetscCall(rw_store_create(u, RWSTOREHDF5, 2, opts, store));
  PetscCall(RwStoreSetIdentity(*store, "t308"));
  PetscCall(RwStoreSetAttachmentSize(*store, 3));
  PetscCall(RwStoreSetRestart(*store, restart));
  PetscCall(RwStoreSetUp(*store));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_record)
{
  char       file[PETSC_MAX_PATH_LEN], opts[PETSC_MAX_PATH_LEN + 64], expect[PETSC_MAX_PATH_LEN + 128];
  Vec        u;
  RwStore    store;
  PetscInt64 attach[3] = {1, 123456789, -42}, got[3] = {0, 0, 0}, steps[2];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  snprintf(file, sizeof(file), "%s/ck.h5", dir);
  snprintf(opts, sizeof(opts), "-rw_store_hdf5_file %s -rw_store_keep", file);
  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 1, &u));
  RW_CHECK(open_store(u, opts, PETSC_FALSE, &store));
  for (PetscInt64 s = 0; s < 2; s++) {
    RW_CHECK(rw_store_fill(u, 10 + s));
    RW_CHECK(RwStoreSetAttachment(store, attach));
    RW_CHECK(RwStoreWrite(store, s, 10 + s, u));
  }
  RW_CHECK(RwStoreDestroy(&store));

  /* intact, the record reads back */
  RW_CHECK(open_store(u, opts, PETSC_TRUE, &store));
  RW_CHECK(RwStoreGetValidSteps(store, steps));
  rw_assert_all(steps[0] == 10 && steps[1] == 11, "valid steps %lld %lld, expected 10 11", (long long)steps[0], (long long)steps[1]);
  RW_CHECK(RwStoreGetAttachment(store, 0, got));
  rw_assert_all(got[0] == 1 && got[1] == 123456789 && got[2] == -42, "attachment %lld %lld %lld read back", (long long)got[0], (long long)got[1], (long long)got[2]);
  RW_CHECK(RwStoreDestroy(&store));

  MPI_Barrier(PETSC_COMM_WORLD);
  if (!rw_test_rank()) {
    attach[1] ^= 1 << 20; /* one bit of J's partial sum */
    ck_assert(rw_h5_set_attr(file, "/slot_0", "attachment", H5T_NATIVE_INT64, attach) == 0);
    ck_assert(step_as_float(file) == 0);
  }
  MPI_Barrier(PETSC_COMM_WORLD);

  RW_CHECK(open_store(u, opts, PETSC_TRUE, &store));
  snprintf(expect, sizeof(expect), "checkpoint /slot_0 in file %s: checksum 0x", file);
  rw_assert_error(RwStoreGetValidSteps(store, steps), expect);
  rw_assert_error(RwStoreGetValidSteps(store, steps), "of its record (step, time, data checksum, attachment) differs");
  store->step[0] = 10; /* a run that believes the slot holds its step is still refused */
  got[1]         = 0;
  rw_assert_error(RwStoreGetAttachment(store, 0, got), "recorded: the file is corrupted");
  rw_assert_all(got[1] == 0, "a refused attachment was handed out: %lld", (long long)got[1]);
  rw_assert_error(RwStoreRead(store, 0, 10, u), "of its record");
  store->step[1] = 11;
  rw_assert_error(RwStoreRead(store, 1, 11, u), "attribute \"step\" of /slot_1 has type class float (8 bytes), expected a 64-bit signed integer");
  rw_assert_error(RwStoreRead(store, 1, 11, u), file);
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(rw_store_rmdir(dir));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("hdf5-record");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_record);
  suite_add_tcase(s, tc);
  return s;
}
