/*
  Harness self-test, expected to FAIL (it is in XFAIL_TESTS): rank 1 dies
  without finalising MPI while rank 0 waits in a collective.  mpiexec must
  end the job and report a failure rather than hang.
*/
#include "rwtest.h"
#include <stdlib.h>

START_TEST(test_rank_dies)
{
  int x = 1, y = 0;

  if (rw_test_rank() == 1) exit(3);
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("rankabort");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_rank_dies);
  suite_add_tcase(s, tc);
  return s;
}
