/*
  multilevel is the cheapest two-level schedule:
  - equal to Dijkstra over every two-level schedule for n <= 8, for many
    slots and costs, uf != ub included;
  - equal to an unrestricted DP written here (three tables: the start in RAM
    or on disk, any RAM and disk slots free, disk checkpoints anywhere) for
    n <= 40, which the library's two-table DP restricts;
  - its replayed cost equals its own DP optimum, it never costs more than
    RAM-only revolve, and it never holds more disk slots than it has;
  - the nested fallback beyond the DP's limit is valid, never worse than
    revolve, and predicted exactly.
*/
#include "schedtest.h"

static const PetscReal costs[][4] = {
  {1,   1,   1,   1   },
  {1,   3,   0.5, 0.5 },
  {2,   1,   0.3, 1.7 },
  {1,   2,   4,   0.25},
  {0.5, 1,   0.1, 3   },
  {3,   0.5, 1,   0   },
  {1,   1,   0,   0   },
  {1,   1,   20,  20  }
};
#define NCOSTS ((int)(sizeof(costs) / sizeof(costs[0])))

static double Revolve(PetscInt64 n, PetscInt64 ram, const PetscReal *c)
{
  RwSchedule       s;
  RwScheduleCounts p;

  RW_CHECK(MakeSchedule(RWSCHEDULEREVOLVE, n, ram, -2, c, 0, &s));
  RW_CHECK(RwScheduleGetPrediction(s, &p));
  RW_CHECK(RwScheduleDestroy(&s));
  return p.cost;
}

/* Builds, replays and checks a multilevel schedule; returns its cost */
static double Multilevel(PetscInt64 n, PetscInt64 ram, PetscInt64 disk, const PetscReal *c, PetscReal max_work, PetscBool *exact)
{
  RwSchedule       s;
  RwScheduleCounts r;
  char             what[160];

  snprintf(what, sizeof(what), "multilevel n=%lld ram=%lld disk=%lld costs %g,%g,%g,%g", (long long)n, (long long)ram, (long long)disk, c[0], c[1], c[2], c[3]);
  RW_CHECK(RwScheduleCreate(PETSC_COMM_SELF, &s));
  RW_CHECK(RwScheduleSetType(s, RWSCHEDULEMULTILEVEL));
  RW_CHECK(RwScheduleSetSteps(s, n));
  RW_CHECK(RwScheduleSetSlots(s, RW_LEVEL_RAM, ram));
  RW_CHECK(RwScheduleSetSlots(s, RW_LEVEL_DISK, disk));
  RW_CHECK(RwScheduleSetCosts(s, c[0], c[1], c[2], c[3]));
  if (max_work >= 0) RW_CHECK(RwScheduleMultilevelSetMaxWork(s, max_work));
  RW_CHECK(RwScheduleSetUp(s));
  ReplayMatchesPrediction(s, what, &r); /* the validator holds the disk to its slots */
  ck_assert_msg(disk == UNL || r.max_slots_used[RW_LEVEL_DISK] <= disk, "%s: %lld disk slots held", what, (long long)r.max_slots_used[RW_LEVEL_DISK]);
  ck_assert_msg(r.cost <= Revolve(n, ram, c) * (1 + 1e-12), "%s: costs %g, more than RAM-only revolve %g", what, r.cost, Revolve(n, ram, c));
  if (exact) RW_CHECK(RwScheduleMultilevelGetExact(s, exact));
  RW_CHECK(RwScheduleDestroy(&s));
  return r.cost;
}

START_TEST(test_exhaustive)
{
  const PetscInt64 disks[] = {0, 1, 2, 3, UNL};

  for (int n = 1; n <= 8; n++)
    for (int ram = 1; ram <= 3; ram++)
      for (int k = 0; k < 5; k++)
        for (int c = 0; c < NCOSTS; c++) {
          const PetscReal *w  = costs[c];
          double           ex = ExhaustiveCost(n, ram, disks[k] == UNL ? n : (int)disks[k], w[0], w[1], w[2], w[3]);
          double           ml = Multilevel(n, ram, disks[k], w, -1, NULL);

          ck_assert_msg(SameCost(ml, ex), "n=%d ram=%d disk=%lld costs %g,%g,%g,%g: multilevel %.17g, every schedule at best %.17g", n, ram, (long long)disks[k], w[0], w[1], w[2], w[3], ml, ex);
        }
}
END_TEST

/*
  The unrestricted DP: R(l, r, d) from a start restorable for free, D(l, r, d)
  from a start on disk (read for rd, then kept or copied into RAM), with r
  RAM and d disk slots free and stores of either kind anywhere above.
*/
typedef struct {
  int     n, sr, sd;
  double  uf, wd, rd;
  double *R, *D;
} Full;

#define FIDX(f, l, r, d) (((size_t)(l) * (size_t)((f)->sr + 2) + (size_t)(r)) * (size_t)((f)->sd + 2) + (size_t)(d))

static double FullP(const Full *f, int l, int r, int d, int disk) /* D if disk, else R */
{
  return (disk ? f->D : f->R)[FIDX(f, l, r, d)];
}

static double FullBelow(const Full *f, int j, int r, int d, int disk) /* after restoring the start */
{
  double v;

  if (!disk) return FullP(f, j, r, d, 0);
  v = FullP(f, j, r, d, 1);
  if (r >= 1) v = fmin(v, FullP(f, j, r - 1, d + 1, 0)); /* copy into RAM, free the disk slot */
  return v;
}

static double FullCost(int n, int sr, int sd, const PetscReal *w)
{
  Full   f = {n, sr, sd, w[0], w[2], w[3], NULL, NULL};
  size_t size = (size_t)(n + 1) * (size_t)(sr + 2) * (size_t)(sd + 2);
  double best;

  f.R = calloc(size, sizeof(double));
  f.D = calloc(size, sizeof(double));
  for (int l = 2; l <= n; l++)
    for (int r = 0; r <= sr; r++)
      for (int d = 0; d <= sd; d++)
        for (int disk = 0; disk <= 1; disk++) {
          double back = disk ? f.rd : 0, v = f.uf * (l - 1) + back + FullBelow(&f, l - 1, r, d, disk);
          for (int j = 1; j <= l - 2; j++) {
            double base = f.uf * j + back + FullBelow(&f, j, r, d, disk);
            if (r >= 1) v = fmin(v, base + FullP(&f, l - j, r - 1, d, 0));
            if (d >= 1) v = fmin(v, base + f.wd + FullP(&f, l - j, r, d - 1, 1));
          }
          (disk ? f.D : f.R)[FIDX(&f, l, r, d)] = v;
        }
  best = FullP(&f, n, sr, sd, 0) + w[0] + w[1] * n;
  free(f.R);
  free(f.D);
  return best;
}

START_TEST(test_unrestricted_dp)
{
  const PetscInt64 disks[] = {1, 2, 3, 5, UNL};

  /* the DP's premise (nested schedules) against Dijkstra first */
  for (int n = 1; n <= 8; n++)
    for (int c = 0; c < NCOSTS; c++) {
      double ex = ExhaustiveCost(n, 2, 2, costs[c][0], costs[c][1], costs[c][2], costs[c][3]);
      ck_assert_msg(SameCost(FullCost(n, 2, 2, costs[c]), ex), "n=%d: unrestricted DP %.17g, Dijkstra %.17g", n, FullCost(n, 2, 2, costs[c]), ex);
    }
  for (int n = 9; n <= 40; n++)
    for (int ram = 1; ram <= 4; ram++)
      for (int k = 0; k < 5; k++) {
        const PetscReal *w    = costs[(n + ram + k) % NCOSTS];
        int              disk = disks[k] == UNL ? n : (int)disks[k];
        double           full = FullCost(n, ram, disk, w), ml = Multilevel(n, ram, disks[k], w, -1, NULL);

        ck_assert_msg(SameCost(ml, full), "n=%d ram=%d disk=%d costs %g,%g,%g,%g: multilevel %.17g, unrestricted DP %.17g", n, ram, disk, w[0], w[1], w[2], w[3], ml, full);
      }
}
END_TEST

START_TEST(test_larger)
{
  const PetscInt64 cases[][3] = {
    {1000, 4,  UNL},
    {1000, 10, 5  },
    {2000, 3,  40 },
    {5000, 8,  UNL},
    {300,  2,  100}
  };
  PetscBool exact;

  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    for (int c = 0; c < NCOSTS; c += 3) {
      Multilevel(cases[i][0], cases[i][1], cases[i][2], costs[c], -1, &exact);
      ck_assert_msg(exact, "n=%lld: expected the exact DP", (long long)cases[i][0]);
    }
}
END_TEST

START_TEST(test_fallback)
{
  PetscBool exact;
  double    dp, nested;

  for (int c = 0; c < NCOSTS; c++) {
    dp     = Multilevel(600, 3, UNL, costs[c], -1, &exact);
    ck_assert(exact);
    nested = Multilevel(600, 3, UNL, costs[c], 0, &exact);
    ck_assert(!exact);
    ck_assert_msg(dp <= nested * (1 + 1e-12), "the exact DP (%g) must not lose to the fallback (%g)", dp, nested);
    Multilevel(20000, 5, 30, costs[c], -1, &exact); /* too big for the default limit */
    ck_assert(!exact);
  }
  /* n = 1e9: predicted only, never worse than revolve */
  {
    RwSchedule       s;
    RwScheduleCounts p;

    RW_CHECK(MakeSchedule(RWSCHEDULEMULTILEVEL, 1000000000, 100, 1000, costs[1], 0, &s));
    RW_CHECK(RwScheduleGetPrediction(s, &p));
    ck_assert_msg(p.cost <= Revolve(1000000000, 100, costs[1]) && p.max_slots_used[RW_LEVEL_DISK] <= 1000 && p.restores[0] + p.restores[1] == 999999999, "n=1e9: cost %g", p.cost);
    RW_CHECK(RwScheduleDestroy(&s));
  }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("schedule-multilevel");
  TCase *tc = tcase_create("optimal");

  tcase_add_test(tc, test_exhaustive);
  tcase_add_test(tc, test_unrestricted_dp);
  tcase_add_test(tc, test_larger);
  tcase_add_test(tc, test_fallback);
  suite_add_tcase(s, tc);
  return s;
}
