/* The package skeleton: version, registries, life cycle, HDF5 error wrapper. */
#include "rwtest.h"
#include <rewind/private/rwimpl.h>
#include <petscdmda.h>

START_TEST(test_version)
{
  char v[64];

  RW_CHECK(RwGetVersion(v, sizeof(v)));
  ck_assert_str_eq(v, "rewind " RW_VERSION_STRING);
  ck_assert(RW_VERSION_GE(0, 0, 0));
  ck_assert(!RW_VERSION_GE(RW_VERSION_MAJOR + 1, 0, 0));
}
END_TEST

START_TEST(test_destroy_is_null_safe_and_idempotent)
{
  RwModel    model = NULL;
  RwSchedule sched = NULL;
  RwStore    store = NULL;

  RW_CHECK(RwModelDestroy(NULL));
  RW_CHECK(RwModelDestroy(&model));
  RW_CHECK(RwModelCreate(PETSC_COMM_WORLD, &model));
  RW_CHECK(RwModelDestroy(&model));
  ck_assert_ptr_null(model);
  RW_CHECK(RwModelDestroy(&model));
  RW_CHECK(RwScheduleCreate(PETSC_COMM_SELF, &sched));
  RW_CHECK(RwScheduleDestroy(&sched));
  RW_CHECK(RwScheduleDestroy(&sched));
  RW_CHECK(RwStoreCreate(PETSC_COMM_WORLD, &store));
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(RwStoreDestroy(&store));
  ck_assert_ptr_null(sched);
  ck_assert_ptr_null(store);
}
END_TEST

START_TEST(test_unknown_type_names_option)
{
  RwModel model;

  RW_CHECK(RwModelCreate(PETSC_COMM_WORLD, &model));
  rw_assert_error(RwModelSetType(model, "no-such-model"), "Unknown RwModel type \"no-such-model\" (option -rw_model_type)");
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

START_TEST(test_setup_without_type)
{
  RwStore store;

  RW_CHECK(RwStoreCreate(PETSC_COMM_WORLD, &store));
  rw_assert_error(RwStoreSetUp(store), "RwStore has no type");
  RW_CHECK(RwStoreDestroy(&store));
}
END_TEST

static PetscErrorCode open_missing_file(const char name[])
{
  hid_t file;

  PetscFunctionBegin;
  RwCallHDF5Return(file, H5Fopen, (name, H5F_ACC_RDONLY, H5P_DEFAULT));
  RwCallHDF5(H5Fclose, (file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_hdf5_error_wrapper)
{
  rw_assert_error(open_missing_file("/nonexistent/rewind-test.h5"), "HDF5 call H5Fopen() failed");
  ck_assert_msg(strlen(rw_test_captured()) > strlen("HDF5 call H5Fopen() failed: "), "HDF5's own explanation is missing: %s", rw_test_captured());
  ck_assert_msg(!strstr(rw_test_captured(), "HDF5 gave no message"), "HDF5's own explanation is missing: %s", rw_test_captured());
}
END_TEST

/* Staggered vectors: zero, the DM's layout and DM, arrays at distinct
   cache-line offsets within a page, usable as DM vectors */
START_TEST(test_staggered_vectors)
{
  enum { NV = 8 };
  DM                 da;
  Vec                v[NV], plain, loc;
  size_t             off[NV];
  PetscInt           n, nplain, nloc, nlocplain;
  PetscReal          norm;
  DM                 vdm;
  const PetscScalar *a;

  RW_CHECK(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 64, 64, PETSC_DECIDE, PETSC_DECIDE, 2, 1, NULL, NULL, &da));
  RW_CHECK(DMSetUp(da));
  RW_CHECK(DMCreateGlobalVector(da, &plain));
  RW_CHECK(VecGetLocalSize(plain, &nplain));
  for (int i = 0; i < NV; i++) {
    RW_CHECK(RwDMCreateVecStaggered(da, PETSC_FALSE, &v[i]));
    RW_CHECK(VecGetLocalSize(v[i], &n));
    ck_assert_int_eq(n, nplain);
    RW_CHECK(VecNorm(v[i], NORM_INFINITY, &norm));
    ck_assert(norm == 0);
    RW_CHECK(VecGetDM(v[i], &vdm));
    ck_assert_ptr_eq(vdm, da);
    RW_CHECK(VecGetArrayRead(v[i], &a));
    off[i] = (uintptr_t)a % 4096;
    RW_CHECK(VecRestoreArrayRead(v[i], &a));
    ck_assert_msg(off[i] % 64 == 0, "vector %d starts %zu bytes into its page, not at a cache line", i, off[i]);
    for (int j = 0; j < i; j++) ck_assert_msg(off[i] != off[j], "vectors %d and %d both start %zu bytes into their pages", j, i, off[i]);
  }
  /* a DM vector in use: copied into, duplicated, the target of a global-to-local scatter */
  RW_CHECK(VecSetRandom(plain, NULL));
  RW_CHECK(VecCopy(plain, v[0]));
  RW_CHECK(VecAXPY(v[0], -1, plain));
  RW_CHECK(VecNorm(v[0], NORM_INFINITY, &norm));
  ck_assert(norm == 0);
  RW_CHECK(VecDestroy(&v[1])); /* a duplicate of a staggered vector is one too, zero */
  RW_CHECK(RwVecDuplicateStaggered(v[0], &v[1]));
  RW_CHECK(VecGetDM(v[1], &vdm));
  ck_assert_ptr_eq(vdm, da);
  RW_CHECK(VecNorm(v[1], NORM_INFINITY, &norm));
  ck_assert(norm == 0);
  RW_CHECK(RwDMCreateVecStaggered(da, PETSC_TRUE, &loc));
  RW_CHECK(VecGetLocalSize(loc, &nloc));
  {
    Vec lp;

    RW_CHECK(DMGetLocalVector(da, &lp));
    RW_CHECK(VecGetLocalSize(lp, &nlocplain));
    RW_CHECK(DMGlobalToLocal(da, plain, INSERT_VALUES, lp));
    RW_CHECK(DMGlobalToLocal(da, plain, INSERT_VALUES, loc));
    RW_CHECK(VecAXPY(lp, -1, loc));
    RW_CHECK(VecNorm(lp, NORM_INFINITY, &norm));
    RW_CHECK(DMRestoreLocalVector(da, &lp));
  }
  ck_assert_int_eq(nloc, nlocplain);
  ck_assert(norm == 0);
  /* slots of one block (the memory store's): room for the bytes, whole lines, never a whole number of pages apart */
  for (size_t bytes = 1; bytes < (size_t)1 << 22; bytes = 3 * bytes + 61) {
    const size_t stride = RwStaggerStride(bytes);

    ck_assert_msg(stride >= bytes && stride % 64 == 0 && stride % 4096 != 0 && stride < bytes + 64 + 4096, "slots of %zu bytes %zu apart", bytes, stride);
  }
  ck_assert(RwStaggerStride((size_t)1 << 20) % 4096 != 0);
  RW_CHECK(VecDestroy(&loc));
  for (int i = 0; i < NV; i++) RW_CHECK(VecDestroy(&v[i]));
  RW_CHECK(VecDestroy(&plain));
  RW_CHECK(DMDestroy(&da));
}
END_TEST

/* One rank's error raised on every rank alike: the lowest failing rank's
   with RW_AGREE_ANY, the root's alone otherwise, nothing when none failed */
START_TEST(test_error_agree)
{
  int            rank = rw_test_rank(), last = rw_test_size() - 1;
  char           msg[64] = "", want[64];
  PetscBool      failed;
  PetscErrorCode e;

  RW_CHECK(RwErrorAgree(PETSC_COMM_WORLD, RW_AGREE_ANY, PETSC_ERR_FILE_READ, msg, sizeof(msg)));
  RW_CHECK(RwErrorAgree(PETSC_COMM_WORLD, 0, PETSC_ERR_FILE_READ, msg, sizeof(msg)));
  snprintf(want, sizeof(want), "rank %d failed", last);
  if (rank == last) snprintf(msg, sizeof(msg), "%s", want);
  rw_test_capture_begin();
  e = RwErrorAgree(PETSC_COMM_WORLD, RW_AGREE_ANY, PETSC_ERR_FILE_READ, msg, sizeof(msg));
  rw_test_capture_end();
  ck_assert_int_eq(e, PETSC_ERR_FILE_READ);
  ck_assert_str_eq(msg, want);
  ck_assert_msg(strstr(rw_test_captured(), want) != NULL, "rank %d raised \"%s\", expected \"%s\"", rank, rw_test_captured(), want);
  /* every rank failed: rank 0's message counts */
  snprintf(msg, sizeof(msg), "rank %d failed", rank);
  RW_CHECK(RwErrorAgreeTest(PETSC_COMM_WORLD, RW_AGREE_ANY, msg, sizeof(msg), &failed));
  ck_assert(failed);
  ck_assert_str_eq(msg, "rank 0 failed");
  /* a root without a message: the others' do not count */
  snprintf(msg, sizeof(msg), "%s", rank == last && last ? want : "");
  RW_CHECK(RwErrorAgree(PETSC_COMM_WORLD, 0, PETSC_ERR_FILE_READ, msg, sizeof(msg)));
  ck_assert_str_eq(msg, "");
  /* the root's message, raised with the code asked for */
  snprintf(msg, sizeof(msg), "%s", rank == last ? want : "");
  rw_assert_error(RwErrorAgree(PETSC_COMM_WORLD, last, PETSC_ERR_FILE_WRITE, msg, sizeof(msg)), want);
  ck_assert_str_eq(msg, want);
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("package");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_version);
  tcase_add_test(tc, test_destroy_is_null_safe_and_idempotent);
  tcase_add_test(tc, test_unknown_type_names_option);
  tcase_add_test(tc, test_setup_without_type);
  tcase_add_test(tc, test_hdf5_error_wrapper);
  tcase_add_test(tc, test_staggered_vectors);
  tcase_add_test(tc, test_error_agree);
  suite_add_tcase(s, tc);
  return s;
}
