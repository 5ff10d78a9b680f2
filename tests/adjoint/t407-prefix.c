/*
  Options prefixes, PETSc's way: a prefix set and then appended on the model
  reaches its options and its grid's (-<prefix>da_grid_x); on the driver it
  reaches the driver's, the schedule's and the stores' options; the
  objective inherits its model's; options without the prefix are not read.
*/
#include "rwtest.h"
#include <petscdmda.h>

START_TEST(test_prefix)
{
  RwModel        model;
  RwObjective    obj;
  RwAdjoint      adj;
  RwSchedule     sched;
  RwScheduleType type;
  const char    *prefix;
  PetscInt       dim, M;
  PetscInt64     n, slots;
  PetscBool      same;
  DM             da;

  RW_CHECK(PetscOptionsInsertString(NULL, "-rw_heat_dim 3 -da_grid_x 5 -rw_steps 99 -a_b_rw_heat_dim 1 -a_b_da_grid_x 11 -d_e_rw_steps 7 -d_e_rw_schedule_type revolve -d_e_rw_schedule_ram_slots 2"));
  RW_CHECK(RwModelCreate(PETSC_COMM_WORLD, &model));
  RW_CHECK(RwModelSetOptionsPrefix(model, "a_"));
  RW_CHECK(RwModelAppendOptionsPrefix(model, "b_"));
  RW_CHECK(RwModelGetOptionsPrefix(model, &prefix));
  RW_CHECK(PetscStrcmp(prefix, "a_b_", &same));
  rw_assert_all(same, "model prefix %s, expected a_b_", prefix);
  RW_CHECK(RwModelSetType(model, RWMODELHEAT));
  RW_CHECK(RwModelSetFromOptions(model));
  RW_CHECK(RwModelSetUp(model));
  RW_CHECK(RwModelGetStateDM(model, &da));
  RW_CHECK(DMDAGetInfo(da, &dim, &M, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  rw_assert_all(dim == 1 && M == 11, "the prefixed model has a %" PetscInt_FMT "D grid of %" PetscInt_FMT " points, expected 1D of 11", dim, M);
  RW_CHECK(RwObjectiveCreate(model, &obj));
  RW_CHECK(RwObjectiveGetOptionsPrefix(obj, &prefix));
  RW_CHECK(PetscStrcmp(prefix, "a_b_", &same));
  rw_assert_all(same, "the objective's prefix is %s, expected its model's a_b_", prefix);
  RW_CHECK(RwObjectiveAddDefaultMisfit(obj));
  RW_CHECK(RwAdjointCreate(model, obj, &adj));
  RW_CHECK(RwAdjointSetOptionsPrefix(adj, "d_"));
  RW_CHECK(RwAdjointAppendOptionsPrefix(adj, "e_"));
  RW_CHECK(RwAdjointSetFromOptions(adj));
  RW_CHECK(RwAdjointSetUp(adj));
  RW_CHECK(RwAdjointGetSteps(adj, &n));
  RW_CHECK(RwAdjointGetSchedule(adj, &sched));
  RW_CHECK(RwScheduleGetType(sched, &type));
  RW_CHECK(RwScheduleGetSlots(sched, RW_LEVEL_RAM, &slots));
  RW_CHECK(RwScheduleGetOptionsPrefix(sched, &prefix));
  RW_CHECK(PetscStrcmp(prefix, "d_e_", &same));
  rw_assert_all(n == 7 && slots == 2 && same, "the prefixed driver has %" PetscInt64_FMT " steps (expected 7), %" PetscInt64_FMT " RAM slots (2), schedule prefix %s (d_e_)", n, slots, prefix);
  RW_CHECK(PetscStrcmp(type, RWSCHEDULEREVOLVE, &same));
  rw_assert_all(same, "schedule type %s, expected revolve", type);
  RW_CHECK(RwAdjointDestroy(&adj));
  RW_CHECK(RwObjectiveDestroy(&obj));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("prefix");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_prefix);
  suite_add_tcase(s, tc);
  return s;
}
