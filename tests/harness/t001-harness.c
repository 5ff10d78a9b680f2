/* The harness itself: rank counts, agreement, error capture. */
#include "rwtest.h"

START_TEST(test_ranks_agree)
{
  int sum = 0, one = 1;

  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  rw_assert_all(sum == rw_test_size(), "allreduce counted %d ranks, MPI_Comm_size says %d", sum, rw_test_size());
}
END_TEST

static PetscErrorCode raise_user_error(PetscInt value)
{
  PetscFunctionBegin;
  PetscCheck(value > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Option -rw_example %" PetscInt_FMT " must be > 0", value);
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_error_capture)
{
  rw_assert_error(raise_user_error(-3), "Option -rw_example -3 must be > 0");
  RW_CHECK(raise_user_error(2));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("harness");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_ranks_agree);
  tcase_add_test(tc, test_error_capture);
  suite_add_tcase(s, tc);
  return s;
}
