/*
  online: a run whose length is decided while it runs.  For stopping steps
  drawn at random (and every n <= 150), a run stopped live with
  RwScheduleStopAt() under an upper bound gives exactly the stream of a
  schedule set up for the n that turned out; that stream is valid; its
  forward steps are those predicted, at least the offline optimum with the
  same slots (revolve's, which the library computes and t203 checks) and at
  most the documented bound, n + p(n-1, r+1) <= optimal(n, r) + n - 1 with
  r = ceil(s/2), also for n far beyond the binomial capacity of the slots.
*/
#include "schedtest.h"

typedef struct {
  RwAction *a;
  size_t    len, cap;
} Stream;

static void Push(Stream *st, const RwAction *a)
{
  if (st->len == st->cap) {
    st->cap = st->cap ? 2 * st->cap : 1024;
    st->a   = realloc(st->a, st->cap * sizeof(RwAction));
  }
  st->a[st->len++] = *a;
}

static int Same(const RwAction *x, const RwAction *y)
{
  return x->type == y->type && x->a == y->a && x->b == y->b && (x->type == RW_ACTION_ADVANCE || x->type == RW_ACTION_REVERSE || x->type == RW_ACTION_END || (x->level == y->level && x->slot == y->slot));
}

/* The stream of an online schedule bounded by nmax, stopped live right after the advance to n */
static Stream Live(PetscInt64 nmax, PetscInt64 s, PetscInt64 n)
{
  RwSchedule sched;
  Stream     st = {NULL, 0, 0};
  RwAction   a;

  RW_CHECK(MakeSchedule(RWSCHEDULEONLINE, nmax, s, -2, NULL, 0, &sched));
  do {
    RW_CHECK(RwScheduleNext(sched, &a));
    Push(&st, &a);
    if (a.type == RW_ACTION_ADVANCE && a.b == n && n < nmax) RW_CHECK(RwScheduleStopAt(sched, n));
  } while (a.type != RW_ACTION_END);
  RW_CHECK(RwScheduleDestroy(&sched));
  return st;
}

/* The live stream equals the offline one for n, is valid, and keeps to the bound */
static void CheckStop(PetscInt64 nmax, PetscInt64 s, PetscInt64 n)
{
  RwSchedule          sched;
  RwScheduleValidator v;
  RwScheduleCounts    c;
  Stream              live = Live(nmax, s, n);
  PetscInt64          slots[RW_NUM_LEVELS] = {s, 0}, bound, opt, half, r = s == UNL ? UNL : s - s / 2;
  char                what[128];
  size_t              i = 0;
  RwAction            a;

  snprintf(what, sizeof(what), "online n=%lld (bound %lld) s=%lld", (long long)n, (long long)nmax, (long long)s);
  RW_CHECK(MakeSchedule(RWSCHEDULEONLINE, n, s, -2, NULL, 0, &sched));
  ReplayMatchesPrediction(sched, what, &c);
  do {
    RW_CHECK(RwScheduleNext(sched, &a));
    ck_assert_msg(i < live.len && Same(&a, &live.a[i]), "%s: action %zu differs between the live stop and the schedule for n", what, i);
    i++;
  } while (a.type != RW_ACTION_END);
  ck_assert_msg(i == live.len, "%s: live stream has %zu actions, the schedule for n %zu", what, live.len, i);
  RW_CHECK(RwScheduleValidatorCreate(n, slots, &v));
  RW_CHECK(RwScheduleValidatorSetOnline(v, PETSC_TRUE));
  for (i = 0; i < live.len; i++) RW_CHECK(RwScheduleValidatorCheck(v, &live.a[i]));
  RW_CHECK(RwScheduleValidatorDestroy(&v));
  RW_CHECK(RwScheduleOnlineBound(n, s, &bound));
  RW_CHECK(RwOptimalForwardSteps(n, s, &opt));
  RW_CHECK(RwOptimalForwardSteps(n, r, &half));
  ck_assert_msg(c.forward_steps >= opt, "%s: %lld forward steps, below the offline optimum %lld", what, (long long)c.forward_steps, (long long)opt);
  ck_assert_msg(c.forward_steps <= bound, "%s: %lld forward steps, above the bound %lld", what, (long long)c.forward_steps, (long long)bound);
  ck_assert_msg(bound <= half + n - 1, "%s: bound %lld above optimal(n, ceil(s/2)) + n - 1 = %lld", what, (long long)bound, (long long)(half + n - 1));
  if (s == UNL || s >= nmax - 1) ck_assert_msg(c.forward_steps == n, "%s: every state fits, yet %lld forward steps", what, (long long)c.forward_steps);
  free(live.a);
  RW_CHECK(RwScheduleDestroy(&sched));
}

START_TEST(test_every_small_stop)
{
  for (PetscInt64 n = 1; n <= 150; n++)
    for (PetscInt64 s = 1; s <= 9; s++) CheckStop(150 + s * s, s, n);
  for (PetscInt64 n = 1; n <= 60; n++) CheckStop(60, UNL, n);
}
END_TEST

START_TEST(test_random_stops)
{
  uint64_t x = 0x9e3779b97f4a7c15ULL;

  for (int i = 0; i < 120; i++) {
    PetscInt64 n, s, nmax;

    x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift: the same draws every run */
    n    = 1 + (PetscInt64)(x % 10000);
    s    = 1 + (PetscInt64)((x >> 20) % 40);
    nmax = n + (PetscInt64)((x >> 32) % 5000);
    CheckStop(nmax, s, n);
  }
}
END_TEST

/* Far beyond the capacity beta(s+1, t) of few slots for small t: still valid and within the bound */
START_TEST(test_beyond_capacity)
{
  CheckStop(100000, 2, 60001);
  CheckStop(50000, 3, 30011);
  CheckStop(200000, 20, 100003);
}
END_TEST

START_TEST(test_errors)
{
  RwSchedule          s;
  RwScheduleValidator v;
  PetscInt64          slots[RW_NUM_LEVELS] = {2, 0};
  RwAction            adv = {RW_ACTION_ADVANCE, 0, 1, 0, 0}, st = {RW_ACTION_STORE, 1, 1, 0, 0}, adv2 = {RW_ACTION_ADVANCE, 1, 2, 0, 0}, fr = {RW_ACTION_FREE, 1, 1, 0, 0}, rev = {RW_ACTION_REVERSE, 1, 1, 0, 0};
  RwAction            act;

  RW_CHECK(MakeSchedule(RWSCHEDULEREVOLVE, 10, 2, -2, NULL, 0, &s));
  rw_assert_error(RwScheduleStopAt(s, 5), "Schedule type revolve plans for a known number of steps and cannot stop a run early: use -rw_schedule_type online");
  RW_CHECK(RwScheduleDestroy(&s));
  RW_CHECK(MakeSchedule(RWSCHEDULEONLINE, 10, 2, -2, NULL, 0, &s));
  rw_assert_error(RwScheduleStopAt(s, 11), "Run stopped at step 11; expected 1 <= n <= 10 (-rw_steps, the upper bound)");
  RW_CHECK(RwScheduleNext(s, &act)); /* advance 0 1 */
  ck_assert(act.type == RW_ACTION_ADVANCE && act.a == 0 && act.b == 1);
  rw_assert_error(RwScheduleStopAt(s, 3), "the online schedule's forward sweep is at step 1");
  RW_CHECK(RwScheduleDestroy(&s));
  RW_CHECK(RwScheduleCreate(PETSC_COMM_SELF, &s));
  RW_CHECK(RwScheduleSetType(s, RWSCHEDULEONLINE));
  RW_CHECK(RwScheduleSetSteps(s, 10));
  rw_assert_error(RwScheduleSetUp(s), "online needs RAM slots: give -rw_schedule_ram_slots <count> or -rw_checkpoint_ram <bytes>");
  RW_CHECK(RwScheduleDestroy(&s));

  /* giving up a checkpoint, and advancing to x_n, are online rules only */
  RW_CHECK(RwScheduleValidatorCreate(2, slots, &v));
  RW_CHECK(RwScheduleValidatorCheck(v, &adv));
  RW_CHECK(RwScheduleValidatorCheck(v, &st));
  rw_assert_error(RwScheduleValidatorCheck(v, &fr), "a checkpoint is freed right after its last restore");
  RW_CHECK(RwScheduleValidatorDestroy(&v));
  RW_CHECK(RwScheduleValidatorCreate(2, slots, &v));
  RW_CHECK(RwScheduleValidatorCheck(v, &adv));
  rw_assert_error(RwScheduleValidatorCheck(v, &adv2), "goes past step 1, the next step to reverse");
  RW_CHECK(RwScheduleValidatorDestroy(&v));
  RW_CHECK(RwScheduleValidatorCreate(2, slots, &v));
  RW_CHECK(RwScheduleValidatorSetOnline(v, PETSC_TRUE));
  RW_CHECK(RwScheduleValidatorCheck(v, &adv));
  RW_CHECK(RwScheduleValidatorCheck(v, &st));
  RW_CHECK(RwScheduleValidatorCheck(v, &adv2));
  rw_assert_error(RwScheduleValidatorCheck(v, &st), "the online sweep reached x_2, the last step; only FREEs of checkpoints given up and REVERSE 1 may follow");
  RW_CHECK(RwScheduleValidatorCheck(v, &fr)); /* x_1: given up, the driver keeps it */
  RW_CHECK(RwScheduleValidatorCheck(v, &rev));
  RW_CHECK(RwScheduleValidatorDestroy(&v));
  /* a checkpoint still held at its reverse is an error online too */
  RW_CHECK(RwScheduleValidatorCreate(2, slots, &v));
  RW_CHECK(RwScheduleValidatorSetOnline(v, PETSC_TRUE));
  RW_CHECK(RwScheduleValidatorCheck(v, &adv));
  RW_CHECK(RwScheduleValidatorCheck(v, &st));
  RW_CHECK(RwScheduleValidatorCheck(v, &adv2));
  rw_assert_error(RwScheduleValidatorCheck(v, &rev), "still holds x_1, which is never needed again");
  RW_CHECK(RwScheduleValidatorDestroy(&v));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("schedule-online");
  TCase *tc = tcase_create("online");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_every_small_stop);
  tcase_add_test(tc, test_random_stops);
  tcase_add_test(tc, test_beyond_capacity);
  tcase_add_test(tc, test_errors);
  suite_add_tcase(s, tc);
  return s;
}
