/*
  revolve takes the fewest forward steps possible, checked three ways:
  - against Bellman's recursion over every first checkpoint (n <= 60, s <= 6),
  - against Dijkstra over every schedule at all (n <= 10, s <= 3), which also
    checks the recursion's premise that nested schedules suffice,
  - against Griewank and Walther's closed form p(n, s+1) + 1, evaluated here
    in 128-bit arithmetic, for n up to 1e9 and beyond (no 64-bit overflow).
*/
#include "schedtest.h"

typedef __int128 i128;

static i128 Beta(i128 s, i128 t) /* C(s+t, s) */
{
  i128 b = 1;

  for (i128 i = 1; i <= t; i++) b = b * (s + i) / i;
  return b;
}

/* p(n, c) + 1 with c = s+1 checkpoints: t n - beta(c+1, t-1) + 1 */
static int64_t ClosedForm(int64_t n, int64_t s)
{
  i128 c = s + 1, t = 0, b = 1;

  if (n == 1) return 1;
  if (c > n) c = n;
  while (b < n) { /* b = beta(c, t) */
    t++;
    b = b * (c + t) / t;
  }
  return (int64_t)(t * n - Beta(c + 1, t - 1) + 1);
}

static RwScheduleCounts Revolve(PetscInt64 n, PetscInt64 s, PetscBool replay)
{
  RwSchedule       sched;
  RwScheduleCounts c;
  char             what[64];

  snprintf(what, sizeof(what), "revolve n=%lld s=%lld", (long long)n, (long long)s);
  RW_CHECK(MakeSchedule(RWSCHEDULEREVOLVE, n, s, -2, NULL, 0, &sched));
  if (replay) ReplayMatchesPrediction(sched, what, &c);
  else RW_CHECK(RwScheduleGetPrediction(sched, &c));
  RW_CHECK(RwScheduleDestroy(&sched));
  return c;
}

START_TEST(test_brute_force)
{
  for (int s = 1; s <= 6; s++)
    for (int n = 1; n <= 60; n++) {
      int64_t          brute = BruteForward(n, s), closed = ClosedForm(n, s);
      RwScheduleCounts c     = Revolve(n, s, PETSC_TRUE);
      PetscInt64       opt;

      ck_assert_msg(c.forward_steps == brute, "n=%d s=%d: revolve takes %lld forward steps, brute force %lld", n, s, (long long)c.forward_steps, (long long)brute);
      ck_assert_msg(closed == brute, "n=%d s=%d: closed form %lld, brute force %lld", n, s, (long long)closed, (long long)brute);
      RW_CHECK(RwOptimalForwardSteps(n, s, &opt));
      ck_assert_int_eq(opt, brute);
    }
}
END_TEST

START_TEST(test_exhaustive)
{
  for (int s = 1; s <= 3; s++)
    for (int n = 1; n <= 10; n++) {
      double  best  = ExhaustiveCost(n, s, 0, 1, 0, 0, 0);
      int64_t brute = BruteForward(n, s);

      ck_assert_msg(best == (double)brute, "n=%d s=%d: Dijkstra over all schedules %g forward steps, the recursion %lld", n, s, best, (long long)brute);
    }
}
END_TEST

START_TEST(test_closed_form_large)
{
  const int64_t ns[] = {1000, 10000, 123456789, 999999999, 1000000000, 4000000000LL, 1000000000000LL};
  const int64_t ss[] = {1, 2, 3, 10, 20, 50, 100, 1000, 100000};

  for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
    for (size_t k = 0; k < sizeof(ss) / sizeof(ss[0]); k++) {
      int64_t          n = ns[i], s = ss[k];
      RwScheduleCounts c;

      if (s == 1 && n > 4000000000LL) continue; /* n^2/2 forward steps: beyond 64 bits */
      c = Revolve(n, s, PETSC_FALSE);
      ck_assert_msg(c.forward_steps == ClosedForm(n, s), "n=%lld s=%lld: predicted %lld forward steps, closed form %lld", (long long)n, (long long)s, (long long)c.forward_steps, (long long)ClosedForm(n, s));
      ck_assert_msg(c.restores[RW_LEVEL_RAM] == n - 1 && c.max_slots_used[RW_LEVEL_RAM] <= s, "n=%lld s=%lld: %lld restores, %lld slots", (long long)n, (long long)s, (long long)c.restores[0], (long long)c.max_slots_used[0]);
    }
}
END_TEST

/* Around the binomial thresholds, where the repetition number changes, replayed */
START_TEST(test_thresholds)
{
  for (int64_t s = 1; s <= 8; s++)
    for (int64_t t = 1; t <= 6; t++) {
      int64_t b = (int64_t)Beta(s + 1, t);

      for (int64_t n = b - 1; n <= b + 1 && n <= 200000; n++) {
        RwScheduleCounts c = Revolve(n, s, PETSC_TRUE);
        ck_assert_msg(c.forward_steps == ClosedForm(n, s), "n=%lld s=%lld: %lld forward steps, closed form %lld", (long long)n, (long long)s, (long long)c.forward_steps, (long long)ClosedForm(n, s));
      }
    }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("schedule-revolve");
  TCase *tc = tcase_create("optimal");

  tcase_add_test(tc, test_brute_force);
  tcase_add_test(tc, test_exhaustive);
  tcase_add_test(tc, test_closed_form_large);
  tcase_add_test(tc, test_thresholds);
  suite_add_tcase(s, tc);
  return s;
}
