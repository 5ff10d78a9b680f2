/*
  Harness self-test, expected to FAIL (it is in XFAIL_TESTS): the last rank
  fails an assertion the others pass.  The harness must report the test as
  failed on every rank, so the test driver sees a failure.
*/
#include "rwtest.h"

START_TEST(test_last_rank_fails)
{
  int rank = rw_test_rank(), size = rw_test_size();

  ck_assert_msg(rank != size - 1, "deliberate failure on rank %d of %d", rank, size);
}
END_TEST

START_TEST(test_all_pass_afterwards)
{
  ck_assert_int_ge(rw_test_size(), 1);
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("rankfail");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_last_rank_fails);
  tcase_add_test(tc, test_all_pass_afterwards);
  suite_add_tcase(s, tc);
  return s;
}
