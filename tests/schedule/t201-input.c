/*
  What users type: memory sizes, options, and every bad input giving an
  error that names the option, the value seen and the value expected.
*/
#include "schedtest.h"

static const PetscReal ones[4] = {1, 1, 1, 1};

START_TEST(test_parse_bytes)
{
  const char *ok[]  = {"4GiB", "512MiB", "200GB", "1.5e9", "4096", "1 KiB", "2tib", "3kB", "0"};
  PetscInt64  val[] = {4294967296LL, 536870912LL, 200000000000LL, 1500000000LL, 4096, 1024, 2199023255552LL, 3000, 0};
  PetscInt64  b;

  for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
    RW_CHECK(RwParseBytes(ok[i], &b));
    ck_assert_msg(b == val[i], "%s parsed as %lld, expected %lld", ok[i], (long long)b, (long long)val[i]);
  }
  rw_assert_error(RwParseBytes("lots", &b), "Memory size \"lots\": not a memory size");
  rw_assert_error(RwParseBytes("4GX", &b), "unknown unit \"GX\"");
  rw_assert_error(RwParseBytes("-1GB", &b), "expected a size >= 0");
  rw_assert_error(RwParseBytes("1e30", &b), "below 9.2e18 bytes");
}
END_TEST

START_TEST(test_bad_values)
{
  RwSchedule s;

  RW_CHECK(RwScheduleCreate(PETSC_COMM_SELF, &s));
  rw_assert_error(RwScheduleSetSteps(s, 0), "Number of steps n = 0; expected n >= 1");
  rw_assert_error(RwScheduleSetCosts(s, 1, 1, -1, 1), "Cost wd = -1 (-rw_schedule_costs uf,ub,wd,rd); expected a finite cost >= 0");
  rw_assert_error(RwScheduleSetSlots(s, RW_LEVEL_RAM, -5), "RAM slots -5 (-rw_schedule_ram_slots); expected a count >= 0");
  rw_assert_error(RwScheduleSetSlots(s, 2, 1), "Level 2; expected RW_LEVEL_RAM (0) or RW_LEVEL_DISK (1)");
  rw_assert_error(RwScheduleSetPeriod(s, 0), "Period 0 (-rw_schedule_period); expected k >= 1");
  rw_assert_error(RwScheduleSetType(s, "revolver"), "Unknown RwSchedule type \"revolver\" (option -rw_schedule_type); registered types: storeall, periodic, revolve, multilevel, online");
  rw_assert_error(RwScheduleSetUp(s), "RwSchedule has no type");
  RW_CHECK(RwScheduleSetType(s, RWSCHEDULEREVOLVE));
  rw_assert_error(RwScheduleSetUp(s), "RwSchedule has no steps: call RwScheduleSetSteps() with n >= 1 first");
  RW_CHECK(RwScheduleDestroy(&s));
  RW_CHECK(RwScheduleDestroy(&s)); /* NULL-safe */
  {
    PetscInt64 f;
    rw_assert_error(RwOptimalForwardSteps(0, 3, &f), "Number of steps n = 0; expected n >= 1");
  }
}
END_TEST

static PetscErrorCode SetUpError(const char *type, PetscInt64 n, PetscInt64 ram, PetscInt64 disk, PetscInt64 period)
{
  RwSchedule     s;
  PetscErrorCode e;

  PetscFunctionBegin;
  e = MakeSchedule(type, n, ram, disk, ones, period, &s);
  PetscCall(RwScheduleDestroy(&s));
  return e;
}

START_TEST(test_slots_needed)
{
  rw_assert_error(SetUpError(RWSCHEDULEREVOLVE, 10, -2, -2, 0), "revolve needs RAM slots: give -rw_schedule_ram_slots <count> or -rw_checkpoint_ram <bytes>");
  rw_assert_error(SetUpError(RWSCHEDULEREVOLVE, 10, 0, -2, 0), "revolve: reversing more than one step needs 1 RAM slots, but -rw_schedule_ram_slots/-rw_checkpoint_ram give 0");
  rw_assert_error(SetUpError(RWSCHEDULEMULTILEVEL, 10, 0, UNL, 0), "multilevel: reversing more than one step needs 1 RAM slots");
  rw_assert_error(SetUpError(RWSCHEDULEMULTILEVEL, 10, 3, -2, 0), "multilevel needs disk slots: give -rw_schedule_disk_slots <count> or -rw_checkpoint_disk <bytes>");
  rw_assert_error(SetUpError(RWSCHEDULESTOREALL, 10, 7, -2, 0), "storeall: storing every state (use revolve for fewer slots) needs 8 RAM slots, but -rw_schedule_ram_slots/-rw_checkpoint_ram give 7");
  rw_assert_error(SetUpError(RWSCHEDULEPERIODIC, 10, -2, -2, 0), "periodic needs its period: give -rw_schedule_period <k>");
  rw_assert_error(SetUpError(RWSCHEDULEPERIODIC, 100, 5, -2, 10), "periodic: a checkpoint every 10 steps needs 17 RAM slots");
  /* one step needs no slot at all */
  RW_CHECK(SetUpError(RWSCHEDULEREVOLVE, 1, 0, -2, 0));
  RW_CHECK(SetUpError(RWSCHEDULEMULTILEVEL, 1, -2, -2, 0));
  RW_CHECK(SetUpError(RWSCHEDULESTOREALL, 2, 0, -2, 0));
}
END_TEST

START_TEST(test_budgets)
{
  RwSchedule s;
  PetscInt64 slots;

  RW_CHECK(RwScheduleCreate(PETSC_COMM_SELF, &s));
  RW_CHECK(RwScheduleSetType(s, RWSCHEDULEMULTILEVEL));
  RW_CHECK(RwScheduleSetSteps(s, 1000));
  RW_CHECK(RwScheduleSetBudget(s, RW_LEVEL_RAM, 4096));
  RW_CHECK(RwScheduleSetBudget(s, RW_LEVEL_DISK, 1000000));
  rw_assert_error(RwScheduleSetUp(s), "-rw_checkpoint_ram gives a budget, but the size of a state is unknown: call RwScheduleSetStateBytes() first");
  RW_CHECK(RwScheduleSetStateBytes(s, 5000, 100000));
  rw_assert_error(RwScheduleSetUp(s), "-rw_checkpoint_ram = 4096 bytes holds no state: one state is 5000 bytes per MPI rank; give at least 5000 bytes");
  RW_CHECK(RwScheduleSetStateBytes(s, 1000, 100000));
  RW_CHECK(RwScheduleSetUp(s));
  RW_CHECK(RwScheduleGetSlots(s, RW_LEVEL_RAM, &slots));
  ck_assert_int_eq(slots, 4);
  RW_CHECK(RwScheduleGetSlots(s, RW_LEVEL_DISK, &slots));
  ck_assert_int_eq(slots, 10);
  /* a count and a budget: the smaller */
  RW_CHECK(RwScheduleSetSlots(s, RW_LEVEL_DISK, 3));
  RW_CHECK(RwScheduleSetUp(s));
  RW_CHECK(RwScheduleGetSlots(s, RW_LEVEL_DISK, &slots));
  ck_assert_int_eq(slots, 3);
  RW_CHECK(RwScheduleSetStateBytes(s, 1000, 2000000));
  rw_assert_error(RwScheduleSetUp(s), "-rw_checkpoint_disk = 1000000 bytes holds no state: one state is 2000000 bytes for the whole job");
  RW_CHECK(RwScheduleDestroy(&s));
}
END_TEST

/* SetFromOptions and SetUp with these options, in a database of their own */
static PetscErrorCode FromOptions(const char *opts, RwSchedule *s)
{
  PetscOptions   db;
  PetscErrorCode e;

  PetscFunctionBegin;
  PetscCall(PetscOptionsCreate(&db));
  PetscCall(PetscOptionsInsertString(db, opts));
  PetscCall(RwScheduleCreate(PETSC_COMM_SELF, s));
  PetscCall(PetscObjectSetOptions((PetscObject)*s, db));
  PetscCall(RwScheduleSetSteps(*s, 100));
  PetscCall(RwScheduleSetStateBytes(*s, 1 << 20, 1 << 20));
  e = RwScheduleSetFromOptions(*s);
  if (!e) e = RwScheduleSetUp(*s);
  PetscCall(PetscObjectSetOptions((PetscObject)*s, NULL));
  PetscCall(PetscOptionsDestroy(&db));
  return e;
}

/* The error of FromOptions, the schedule destroyed */
static PetscErrorCode OptionsError(const char *opts)
{
  RwSchedule     s = NULL;
  PetscErrorCode e = FromOptions(opts, &s);

  PetscCall(RwScheduleDestroy(&s));
  return e;
}

START_TEST(test_options)
{
  RwSchedule     s = NULL;
  RwScheduleType type;
  PetscInt64     slots;
  PetscReal      c[4];
  PetscBool      exact;

  RW_CHECK(FromOptions("-rw_schedule_type multilevel -rw_checkpoint_ram 4MiB -rw_schedule_disk_slots inf -rw_schedule_costs 1,2,3,4", &s));
  RW_CHECK(RwScheduleGetType(s, &type));
  ck_assert_str_eq(type, RWSCHEDULEMULTILEVEL);
  RW_CHECK(RwScheduleGetSlots(s, RW_LEVEL_RAM, &slots));
  ck_assert_int_eq(slots, 4);
  RW_CHECK(RwScheduleGetSlots(s, RW_LEVEL_DISK, &slots));
  ck_assert_int_eq(slots, UNL);
  RW_CHECK(RwScheduleGetCosts(s, &c[0], &c[1], &c[2], &c[3]));
  ck_assert(c[0] == 1 && c[1] == 2 && c[2] == 3 && c[3] == 4); /* in this order: never swapped */
  RW_CHECK(RwScheduleMultilevelGetExact(s, &exact));
  ck_assert(exact);
  RW_CHECK(RwScheduleDestroy(&s));
  RW_CHECK(FromOptions("-rw_schedule_ram_slots 7", &s)); /* revolve by default */
  RW_CHECK(RwScheduleGetType(s, &type));
  ck_assert_str_eq(type, RWSCHEDULEREVOLVE);
  RW_CHECK(RwScheduleDestroy(&s));
  RW_CHECK(FromOptions("-rw_schedule_type periodic -rw_schedule_period 1e1", &s));
  RW_CHECK(RwScheduleDestroy(&s));
  rw_assert_error(OptionsError("-rw_schedule_costs 1,2,3"), "-rw_schedule_costs takes 4 costs uf,ub,wd,rd; got 3");
  rw_assert_error(OptionsError("-rw_schedule_costs 1,2,-3,4"), "-rw_schedule_costs 1,2,-3,4: value 3: expected a finite number in [0, inf)");
  rw_assert_error(OptionsError("-rw_schedule_costs 1,2,nan,4"), "-rw_schedule_costs 1,2,nan,4: value 3: expected a finite number in [0, inf)");
  rw_assert_error(OptionsError("-rw_schedule_costs 1,2,3,4,5"), "-rw_schedule_costs 1,2,3,4,5: 5 values: expected at most 4");
  rw_assert_error(OptionsError("-rw_checkpoint_ram 4GX"), "-rw_checkpoint_ram 4GX: unknown unit \"GX\"");
  rw_assert_error(OptionsError("-rw_checkpoint_ram 1KiB"), "-rw_checkpoint_ram = 1024 bytes holds no state: one state is 1048576 bytes per MPI rank");
  rw_assert_error(OptionsError("-rw_schedule_ram_slots many"), "-rw_schedule_ram_slots many: expected a whole number >= 0 or inf");
  rw_assert_error(OptionsError("-rw_schedule_type periodic -rw_schedule_period inf"), "-rw_schedule_period inf: expected a whole number >= 0");
  rw_assert_error(OptionsError("-rw_schedule_type revolve2"), "Unknown RwSchedule type \"revolve2\"");
}
END_TEST

START_TEST(test_order)
{
  RwSchedule s;
  RwAction   a;

  RW_CHECK(RwScheduleCreate(PETSC_COMM_SELF, &s));
  RW_CHECK(RwScheduleSetType(s, RWSCHEDULESTOREALL));
  RW_CHECK(RwScheduleSetSteps(s, 5));
  rw_assert_error(RwScheduleNext(s, &a), "Call RwScheduleSetUp() before RwScheduleNext()");
  RW_CHECK(RwScheduleSetUp(s));
  RW_CHECK(RwScheduleNext(s, &a));
  ck_assert(a.type == RW_ACTION_ADVANCE);
  RW_CHECK(RwScheduleSetSteps(s, 6)); /* a new setting needs a new setup */
  rw_assert_error(RwScheduleNext(s, &a), "Call RwScheduleSetUp() before RwScheduleNext()");
  RW_CHECK(RwScheduleDestroy(&s));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("schedule-input");
  TCase *tc = tcase_create("errors");

  tcase_add_test(tc, test_parse_bytes);
  tcase_add_test(tc, test_bad_values);
  tcase_add_test(tc, test_slots_needed);
  tcase_add_test(tc, test_budgets);
  tcase_add_test(tc, test_options);
  tcase_add_test(tc, test_order);
  suite_add_tcase(s, tc);
  return s;
}
