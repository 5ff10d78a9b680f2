/* The package skeleton: version, registries, life cycle, HDF5 error wrapper. */
#include "rwtest.h"
#include <rewind/private/rwimpl.h>

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

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("package");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_version);
  tcase_add_test(tc, test_destroy_is_null_safe_and_idempotent);
  tcase_add_test(tc, test_unknown_type_names_option);
  tcase_add_test(tc, test_setup_without_type);
  tcase_add_test(tc, test_hdf5_error_wrapper);
  suite_add_tcase(s, tc);
  return s;
}
