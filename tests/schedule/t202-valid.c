/*
  Every type, replayed through the validator: all n in 1..200 with s in
  1..12 (RAM slots for revolve, online and multilevel, the period for periodic), and
  samples up to n = 1e6.  Each replay must also give exactly the counts the
  type predicts without replaying.
*/
#include "schedtest.h"

static const PetscReal costs[4][4] = {
  {1,   1,   1,   1  },
  {1,   3,   0.5, 0.5},
  {2,   1,   0.3, 1.7},
  {0.5, 2,   4,   0.25}
};

static void Check(const char *type, PetscInt64 n, PetscInt64 ram, PetscInt64 disk, const PetscReal *c, PetscInt64 period)
{
  RwSchedule s;
  char       what[256];

  snprintf(what, sizeof(what), "%s n=%lld ram=%lld disk=%lld period=%lld", type, (long long)n, (long long)ram, (long long)disk, (long long)period);
  RW_CHECK(MakeSchedule(type, n, ram, disk, c, period, &s));
  ReplayMatchesPrediction(s, what, NULL);
  RW_CHECK(RwScheduleDestroy(&s));
}

START_TEST(test_storeall_revolve)
{
  for (PetscInt64 n = 1; n <= 200; n++) {
    Check(RWSCHEDULESTOREALL, n, -2, -2, NULL, 0);
    for (PetscInt64 s = 1; s <= 12; s++) Check(RWSCHEDULEREVOLVE, n, s, -2, NULL, 0);
    for (PetscInt64 s = 1; s <= 12; s++) Check(RWSCHEDULEONLINE, n, s, -2, NULL, 0);
    Check(RWSCHEDULEONLINE, n, UNL, -2, NULL, 0);
  }
}
END_TEST

START_TEST(test_periodic)
{
  for (PetscInt64 n = 1; n <= 200; n++)
    for (PetscInt64 k = 1; k <= 12; k++) {
      Check(RWSCHEDULEPERIODIC, n, -2, -2, NULL, k);   /* period checkpoints in RAM */
      Check(RWSCHEDULEPERIODIC, n, -2, UNL, NULL, k);  /* on disk */
    }
}
END_TEST

START_TEST(test_multilevel)
{
  const PetscInt64 disks[4] = {1, 2, 5, UNL};

  for (PetscInt64 n = 1; n <= 200; n++)
    for (PetscInt64 s = 1; s <= 12; s++) Check(RWSCHEDULEMULTILEVEL, n, s, disks[(n + s) % 4], costs[(n * 7 + s) % 4], 0);
}
END_TEST

START_TEST(test_large)
{
  Check(RWSCHEDULEREVOLVE, 1000000, 20, -2, NULL, 0);
  Check(RWSCHEDULEREVOLVE, 999983, 3, -2, NULL, 0);
  Check(RWSCHEDULEREVOLVE, 100003, 1, -2, NULL, 0);
  Check(RWSCHEDULESTOREALL, 1000000, -2, -2, NULL, 0);
  Check(RWSCHEDULEONLINE, 1000000, 20, -2, NULL, 0);
  Check(RWSCHEDULEONLINE, 100003, 1, -2, NULL, 0);
  Check(RWSCHEDULEPERIODIC, 1000000, -2, 1000, NULL, 1000);
  Check(RWSCHEDULEPERIODIC, 123457, -2, -2, NULL, 351);
  Check(RWSCHEDULEMULTILEVEL, 5000, 5, UNL, costs[1], 0);    /* exact */
  Check(RWSCHEDULEMULTILEVEL, 1000, 4, 30, costs[2], 0);     /* exact, the disk runs out */
  Check(RWSCHEDULEMULTILEVEL, 1000000, 10, 50, costs[1], 0); /* nested fallback */
  Check(RWSCHEDULEMULTILEVEL, 300007, 6, UNL, costs[0], 0);  /* nested fallback */
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("schedule-valid");
  TCase *tc = tcase_create("every type");

  tcase_add_test(tc, test_storeall_revolve);
  tcase_add_test(tc, test_periodic);
  tcase_add_test(tc, test_multilevel);
  tcase_add_test(tc, test_large);
  suite_add_tcase(s, tc);
  return s;
}
