/*
  The continuation of a run from the checkpoints it holds (issue 36:
  src/schedule/interface/continuation.c, which the driver's compressed RAM
  pool re-plans with).  For random runs: n steps, the first sweep at x_s
  with checkpoints held below s (RAM slots in stack order or scattered, some
  on disk), free RAM slots per segment (one at the top too), the first sweep
  is replayed up to x_s and the continuation after it through the
  validator (every rule: each state reversed from what is held, every
  checkpoint freed at the end); its forward steps are those
  RwScheduleContinuationSteps() predicts, and no segment stores beyond the
  RAM slots it was given.
*/
#include "schedtest.h"
#include <rewind/private/scheduleimpl.h>

/* One run: held[0] is x_0, held[1..nheld-1] by step; returns the forward steps after x_s */
static void check_continuation(PetscInt64 n, PetscInt64 s, PetscInt64 nheld, RwScheduleHeld held[], const char *what)
{
  const PetscInt64    slots[RW_NUM_LEVELS] = {1000, 1000};
  RwScheduleValidator v;
  RwSchedule          parent, cont;
  RwScheduleCounts    c;
  RwAction            act = {0};
  PetscInt64          w = 0, predicted, top = held[nheld - 1].base + held[nheld - 1].free;

  RW_CHECK(MakeSchedule(RWSCHEDULEREVOLVE, n, 1, -2, NULL, 0, &parent));
  RW_CHECK(RwScheduleValidatorCreate(n, slots, &v));
  for (PetscInt64 j = 1; j <= nheld; j++) { /* the first sweep up to x_s, storing the checkpoints held */
    PetscInt64 k = j < nheld ? held[j].step : s;

    act.type = RW_ACTION_ADVANCE;
    act.a    = w;
    act.b    = k;
    RW_CHECK(RwScheduleValidatorCheck(v, &act));
    w = k;
    if (j == nheld) break;
    act.type  = RW_ACTION_STORE;
    act.a     = act.b = k;
    act.level = held[j].level;
    act.slot  = held[j].slot;
    RW_CHECK(RwScheduleValidatorCheck(v, &act));
  }
  RW_CHECK(RwScheduleCreateContinuation(parent, s, held[nheld - 1].free, nheld, held, &cont));
  do {
    RW_CHECK(RwScheduleNext(cont, &act));
    if (act.type == RW_ACTION_STORE) { /* in the segment of its step: the slots it was given */
      PetscInt64 j = nheld - 1, lim = top;

      if (act.a < s) {
        while (held[j].step > act.a) j--;
        lim = held[j].base + held[j].free;
      }
      ck_assert_msg(act.level == RW_LEVEL_RAM && act.slot >= held[j].base && act.slot < lim, "%s: store of step %lld in %s slot %lld, not within [%lld, %lld)", what, (long long)act.a, act.level ? "disk" : "RAM", (long long)act.slot, (long long)held[j].base, (long long)lim);
    }
    RW_CHECK(RwScheduleValidatorCheck(v, &act));
  } while (act.type != RW_ACTION_END);
  RW_CHECK(RwScheduleValidatorGetCounts(v, &c));
  RW_CHECK(RwScheduleContinuationSteps(n, s, held[nheld - 1].free, nheld, held, &predicted));
  ck_assert_msg(c.reverse_steps == n && c.forward_steps - s == predicted, "%s: %lld reverse steps, %lld forward steps after x_s, predicted %lld", what, (long long)c.reverse_steps, (long long)(c.forward_steps - s), (long long)predicted);
  RW_CHECK(RwScheduleDestroy(&cont));
  RW_CHECK(RwScheduleDestroy(&parent));
  RW_CHECK(RwScheduleValidatorDestroy(&v));
}

/* free slots of held[j] for j = 0..nheld-1, and the bases from the RAM slots */
static void set_free(RwScheduleHeld held[], PetscInt64 nheld, const PetscInt64 free[])
{
  PetscInt64 base = 0;

  for (PetscInt64 j = 0; j < nheld; j++) {
    if (j && held[j].level == RW_LEVEL_RAM) base = PetscMax(base, held[j].slot + 1);
    held[j].base = base;
    held[j].free = free[j];
  }
}

START_TEST(test_fixed)
{
  RwScheduleHeld held[4] = {{RW_LEVEL_RAM, -1, 0, 0, 0}, {RW_LEVEL_RAM, 0, 5, 0, 0}, {RW_LEVEL_RAM, 1, 9, 0, 0}, {RW_LEVEL_RAM, 2, 10, 0, 0}};
  PetscInt64     one[4] = {4, 3, 2, 1}, none[4] = {3, 2, 1, 0}, x0[1] = {1};
  PetscInt64     steps, again;

  set_free(held, 4, one); /* one free slot at the top: x_s alone, its segment reversed from it */
  check_continuation(20, 12, 4, held, "one free slot");
  RW_CHECK(RwScheduleContinuationSteps(20, 12, 1, 4, held, &steps));
  /* x_s one step before x_n: it needs no slot */
  set_free(held, 4, none);
  check_continuation(13, 12, 4, held, "s = n - 1, no free slot");
  /* only x_0 held, one slot: the top [s, n) and [0, s) each with one checkpoint */
  set_free(held, 1, x0);
  check_continuation(8, 3, 1, held, "x_0 alone");
  /* more free slots never cost more steps */
  {
    PetscInt64 more[4] = {6, 5, 4, 3};

    set_free(held, 4, more);
    check_continuation(20, 12, 4, held, "more slots");
    RW_CHECK(RwScheduleContinuationSteps(20, 12, 3, 4, held, &again));
    ck_assert_msg(again <= steps, "3 free slots at the top: %lld forward steps, 1: %lld", (long long)again, (long long)steps);
  }
}
END_TEST

START_TEST(test_random)
{
  srand(326);
  for (int trial = 0; trial < 3000; trial++) {
    PetscInt64     n = 2 + rand() % 60, s = 1 + rand() % (n - 1), nheld = 1, free[64];
    RwScheduleHeld held[64];
    int            scattered = rand() % 2;
    PetscInt64     slot = 0;
    char           what[64];

    held[0].level = RW_LEVEL_RAM;
    held[0].slot  = -1;
    held[0].step  = 0;
    for (PetscInt64 k = 1; k < s; k++) {
      if (rand() % 3) continue;
      held[nheld].level = rand() % 5 ? RW_LEVEL_RAM : RW_LEVEL_DISK;
      held[nheld].slot  = held[nheld].level == RW_LEVEL_DISK ? k : slot;
      held[nheld].step  = k;
      if (held[nheld].level == RW_LEVEL_RAM) slot += 1 + (scattered ? rand() % 3 : 0);
      nheld++;
    }
    free[nheld - 1] = (s == n - 1 && rand() % 2) ? 0 : 1 + rand() % 4;
    for (PetscInt64 j = nheld - 2; j >= 0; j--) free[j] = free[j + 1] + rand() % 3; /* lower segments find more room */
    set_free(held, nheld, free);
    snprintf(what, sizeof(what), "trial %d (n %lld, s %lld, %lld held)", trial, (long long)n, (long long)s, (long long)nheld - 1);
    check_continuation(n, s, nheld, held, what);
  }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("continuation");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_fixed);
  tcase_add_test(tc, test_random);
  suite_add_tcase(s, tc);
  return s;
}
