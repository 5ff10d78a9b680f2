/*
  The validator on hand-written streams of 3 steps: a valid one gives the
  counts worked out by hand; each broken rule stops at the right action with
  a message saying what was expected.
*/
#include "schedtest.h"

#define ADV(a, b)      {RW_ACTION_ADVANCE, a, b, 0, 0}
#define STO(lv, k, sl) {RW_ACTION_STORE, k, k, lv, sl}
#define RES(lv, k, sl) {RW_ACTION_RESTORE, k, k, lv, sl}
#define FRE(lv, k, sl) {RW_ACTION_FREE, k, k, lv, sl}
#define REV(k)         {RW_ACTION_REVERSE, k, k, 0, 0}
#define END            {RW_ACTION_END, 0, 0, 0, 0}
#define R              RW_LEVEL_RAM
#define D              RW_LEVEL_DISK

/* Feeds the first len actions; returns the first error (0 if none) */
static PetscErrorCode Feed(const RwAction *acts, int len, PetscInt64 ram, PetscInt64 disk, RwScheduleCounts *c)
{
  RwScheduleValidator v;
  PetscInt64          slots[2] = {ram, disk};

  PetscFunctionBegin;
  PetscCall(RwScheduleValidatorCreate(3, slots, &v));
  PetscCall(RwScheduleValidatorSetCosts(v, 1, 2, 3, 4));
  for (int i = 0; i < len; i++) {
    PetscErrorCode e = RwScheduleValidatorCheck(v, &acts[i]);
    if (e) {
      PetscCall(RwScheduleValidatorDestroy(&v));
      return e;
    }
  }
  if (c) PetscCall(RwScheduleValidatorGetCounts(v, c));
  PetscCall(RwScheduleValidatorDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

START_TEST(test_valid_counts)
{
  /* x_1 on disk, x_0 from the input: 2 advanced + 1 = 3 forward steps */
  RwAction         ok[] = {ADV(0, 1), STO(D, 1, 0), ADV(1, 2), REV(2), RES(D, 1, 0), FRE(D, 1, 0), REV(1), RES(R, 0, -1), REV(0), END};
  RwScheduleCounts c;

  RW_CHECK(Feed(ok, LEN(ok), 0, 1, &c));
  ck_assert_int_eq(c.forward_steps, 3);
  ck_assert_int_eq(c.reverse_steps, 3);
  ck_assert(c.stores[D] == 1 && c.restores[D] == 1 && c.frees[D] == 1 && c.max_slots_used[D] == 1);
  ck_assert(c.stores[R] == 0 && c.restores[R] == 1 && c.frees[R] == 0);
  ck_assert_int_eq(c.actions, 10);
  /* 1*3 forward + 2*3 reverse + 3*1 write + 4*1 read */
  ck_assert_msg(c.cost == 16.0, "cost %g", (double)c.cost);
}
END_TEST

static void ExpectError(const RwAction *acts, int len, PetscInt64 ram, PetscInt64 disk, const char *msg)
{
  rw_assert_error(Feed(acts, len, ram, disk, NULL), msg);
}

START_TEST(test_broken_rules)
{
  RwAction past[]     = {ADV(0, 3)};
  RwAction order[]    = {ADV(0, 1), REV(1)};
  RwAction working[]  = {ADV(0, 1), STO(R, 1, 0), RES(R, 0, -1), REV(2)};
  RwAction nothing[]  = {RES(R, 1, 0)};
  RwAction zero[]     = {STO(R, 0, 0)};
  RwAction range[]    = {ADV(0, 1), STO(R, 1, 1)};
  RwAction nodisk[]   = {ADV(0, 1), STO(D, 1, 0)};
  RwAction twice[]    = {ADV(0, 1), STO(R, 1, 0), RES(R, 0, -1), ADV(0, 1), STO(R, 1, 0)};
  RwAction wrong[]    = {ADV(0, 1), STO(R, 1, 0), RES(R, 2, 0)};
  RwAction nofree[]   = {ADV(0, 1), STO(R, 1, 0), FRE(R, 1, 0)};
  RwAction x0free[]   = {RES(R, 0, -1), FRE(R, 0, -1)};
  RwAction notfreed[] = {ADV(0, 1), STO(R, 1, 0), ADV(1, 2), REV(2), RES(R, 1, 0), REV(1)};
  RwAction unused[]   = {ADV(0, 1), STO(R, 1, 0), ADV(1, 2), REV(2), RES(R, 0, -1), ADV(0, 1), REV(1)};
  RwAction undef[]    = {ADV(0, 2), REV(2), ADV(2, 2)};
  RwAction early[]    = {ADV(0, 2), REV(2), END};
  RwAction after[]    = {ADV(0, 2), REV(2), RES(R, 0, -1), ADV(0, 1), REV(1), RES(R, 0, -1), REV(0), END, END};
  RwAction held[]     = {ADV(0, 1), STO(R, 1, 0), STO(D, 1, 0), ADV(1, 2), REV(2), RES(R, 1, 0), FRE(R, 1, 0), REV(1)};

  ExpectError(past, LEN(past), 1, 0, "Schedule action 0 \"advance 0 3\": goes past step 2, the next step to reverse");
  ExpectError(order, LEN(order), 1, 0, "Schedule action 1 \"reverse 1\": expected reverse 2");
  ExpectError(working, LEN(working), 1, 0, "the working state must be x_2; it is x_0");
  ExpectError(nothing, LEN(nothing), 1, 0, "slot 0 holds nothing");
  ExpectError(zero, LEN(zero), 1, 0, "step 0 is never stored");
  ExpectError(range, LEN(range), 1, 0, "slot 1; expected 0 <= slot < 1");
  ExpectError(nodisk, LEN(nodisk), 1, 0, "\"store disk 1\": this level has no slots");
  ExpectError(twice, LEN(twice), 2, 0, "slot 0 already holds x_1");
  ExpectError(wrong, LEN(wrong), 1, 0, "slot 0 holds x_1, not x_2");
  ExpectError(nofree, LEN(nofree), 1, 0, "freed right after its last restore, but the previous action was \"store ram 1\"");
  ExpectError(x0free, LEN(x0free), 1, 0, "x_0 (slot -1) is the driver's input and is never freed");
  ExpectError(notfreed, LEN(notfreed), 1, 0, "Schedule action 5 \"reverse 1\": slot 0 of RAM still holds x_1, which is never needed again: a checkpoint is freed right after its last restore");
  ExpectError(unused, LEN(unused), 1, 0, "still holds x_1, which is never needed again: it was stored and never restored");
  ExpectError(undef, LEN(undef), 1, 0, "the working state is undefined; after a REVERSE the next action must be RESTORE, FREE or END");
  ExpectError(early, LEN(early), 1, 0, "\"end\": steps 1, ..., 0 are not reversed yet");
  ExpectError(after, LEN(after), 1, 0, "Schedule action 8 \"end\": comes after END");
  ExpectError(held, LEN(held), 1, 1, "slot 0 of disk still holds x_1");
}
END_TEST

START_TEST(test_end_with_checkpoints)
{
  RwScheduleValidator v;
  PetscInt64          slots[2] = {UNL, UNL};
  RwAction            acts[]   = {ADV(0, 1), STO(R, 7, 1000000)};

  /* unlimited slots accept any slot number; a store must match the working state */
  RW_CHECK(RwScheduleValidatorCreate(3, slots, &v));
  RW_CHECK(RwScheduleValidatorCheck(v, &acts[0]));
  rw_assert_error(RwScheduleValidatorCheck(v, &acts[1]), "the working state is x_1, not x_7");
  RW_CHECK(RwScheduleValidatorDestroy(&v));
  RW_CHECK(RwScheduleValidatorDestroy(&v));
  rw_assert_error(RwScheduleValidatorCreate(0, slots, &v), "expected n >= 1");
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("schedule-validator");
  TCase *tc = tcase_create("rules");

  tcase_add_test(tc, test_valid_counts);
  tcase_add_test(tc, test_broken_rules);
  tcase_add_test(tc, test_end_with_checkpoints);
  suite_add_tcase(s, tc);
  return s;
}
