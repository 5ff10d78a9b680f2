/*
  Determinism: RwScheduleReset replays exactly the same stream (also from the
  middle of one), END repeats after the end, and every MPI rank generates the
  same stream on its own.
*/
#include "schedtest.h"

static const PetscReal costs[4] = {1, 2, 0.5, 0.7};

typedef struct {
  RwAction *a;
  size_t    len;
} Stream;

static Stream Record(RwSchedule s, size_t stop)
{
  Stream   st = {NULL, 0};
  size_t   cap = 0;
  RwAction a;

  do {
    RW_CHECK(RwScheduleNext(s, &a));
    if (st.len == cap) {
      cap  = cap ? 2 * cap : 1024;
      st.a = realloc(st.a, cap * sizeof(RwAction));
    }
    st.a[st.len++] = a;
  } while (a.type != RW_ACTION_END && st.len < stop);
  return st;
}

static int Same(const RwAction *x, const RwAction *y)
{
  return x->type == y->type && x->a == y->a && x->b == y->b && (x->type == RW_ACTION_ADVANCE || x->type == RW_ACTION_REVERSE || x->type == RW_ACTION_END || (x->level == y->level && x->slot == y->slot));
}

static uint64_t Hash(const Stream *st)
{
  uint64_t h = 1469598103934665603ULL;

  for (size_t i = 0; i < st->len; i++) {
    uint64_t w[4] = {(uint64_t)st->a[i].type, (uint64_t)st->a[i].a, (uint64_t)st->a[i].b, (uint64_t)(st->a[i].level * 1000003 + st->a[i].slot)};
    for (int k = 0; k < 4; k++) h = (h ^ w[k]) * 1099511628211ULL;
  }
  return h;
}

static RwSchedule Make(int which)
{
  RwSchedule s;

  switch (which) {
  case 0:
    RW_CHECK(MakeSchedule(RWSCHEDULESTOREALL, 300, -2, -2, costs, 0, &s));
    break;
  case 1:
    RW_CHECK(MakeSchedule(RWSCHEDULEPERIODIC, 1000, -2, UNL, costs, 37, &s));
    break;
  case 2:
    RW_CHECK(MakeSchedule(RWSCHEDULEREVOLVE, 10007, 7, -2, costs, 0, &s));
    break;
  case 3:
    RW_CHECK(MakeSchedule(RWSCHEDULEMULTILEVEL, 700, 3, 6, costs, 0, &s));
    break;
  case 4:
    RW_CHECK(MakeSchedule(RWSCHEDULEMULTILEVEL, 30000, 4, UNL, costs, 0, &s)); /* nested fallback */
    break;
  default:
    RW_CHECK(MakeSchedule(RWSCHEDULEONLINE, 20011, 9, -2, costs, 0, &s));
  }
  return s;
}

START_TEST(test_reset_replays)
{
  for (int which = 0; which < 6; which++) {
    RwSchedule s = Make(which);
    Stream     first, part, again;
    RwAction   a;

    first = Record(s, (size_t)-1);
    RW_CHECK(RwScheduleNext(s, &a)); /* END repeats */
    ck_assert(a.type == RW_ACTION_END);
    RW_CHECK(RwScheduleReset(s));
    part = Record(s, first.len / 3); /* then reset from the middle */
    RW_CHECK(RwScheduleReset(s));
    again = Record(s, (size_t)-1);
    ck_assert_msg(again.len == first.len, "schedule %d: %zu actions, then %zu after a reset", which, first.len, again.len);
    for (size_t i = 0; i < first.len; i++) ck_assert_msg(Same(&first.a[i], &again.a[i]), "schedule %d: action %zu differs after a reset", which, i);
    for (size_t i = 0; i < part.len; i++) ck_assert_msg(Same(&first.a[i], &part.a[i]), "schedule %d: action %zu differs", which, i);
    free(first.a);
    free(part.a);
    free(again.a);
    RW_CHECK(RwScheduleDestroy(&s));
  }
}
END_TEST

START_TEST(test_same_on_every_rank)
{
  for (int which = 0; which < 6; which++) {
    RwSchedule s  = Make(which);
    Stream     st = Record(s, (size_t)-1);
    uint64_t   h = Hash(&st), lo, hi;

    MPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, PETSC_COMM_WORLD);
    MPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, PETSC_COMM_WORLD);
    rw_assert_all(lo == hi, "schedule %d: the ranks generated different streams", which);
    free(st.a);
    RW_CHECK(RwScheduleDestroy(&s));
  }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("schedule-reset");
  TCase *tc = tcase_create("determinism");

  tcase_add_test(tc, test_reset_replays);
  tcase_add_test(tc, test_same_on_every_rank);
  suite_add_tcase(s, tc);
  return s;
}
