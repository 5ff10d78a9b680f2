/*
  The driver's default checkpoint budget (src/adjoint/budget.c): without RAM
  slots or -rw_checkpoint_ram, checkpoints get -rw_checkpoint_ram_fraction of
  the node's memory (here given with -rw_checkpoint_node_memory, so the test
  does not depend on the machine) shared by the ranks on the node.
    - no schedule chosen, every state fits: storeall;
    - no schedule chosen, they do not: revolve with the largest slot count
      that fits, and the gradient is store-all's bit for bit;
    - revolve chosen without slots: the budget's slots; slots given: those;
    - -rw_checkpoint_ram alone: storeall if every state fits, else revolve
      in it (multilevel with a disk level given);
    - a budget that holds no state: an error naming what to give.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>

typedef struct {
  char       type[64]; /* a copy: the schedule is gone when the outcome is read */
  PetscInt64 slots, rankbytes;
  PetscReal  J;
} Outcome;

static PetscErrorCode Solve(const char *opts, Vec gref, Outcome *o, PetscBool *same)
{
  RwModel       model;
  RwTestProblem p;
  RwSchedule     sched;
  RwScheduleType type;

  PetscFunctionBegin;
  PetscCall(rw_test_model(opts, &model));
  PetscCall(rw_test_problem(model, &p));
  PetscCall(RwAdjointGetSchedule(p.adj, &sched));
  PetscCall(RwScheduleGetType(sched, &type));
  PetscCall(PetscStrncpy(o->type, type, sizeof(o->type)));
  PetscCall(RwScheduleGetSlots(sched, RW_LEVEL_RAM, &o->slots));
  PetscCall(RwModelGetStateBytes(model, &o->rankbytes, NULL));
  PetscCall(RwAdjointSolve(p.adj, p.m, p.u0, &o->J, p.g, p.gu0));
  if (gref && same) PetscCall(VecEqual(gref, p.g, same));
  if (gref && !same) PetscCall(VecCopy(p.g, gref));
  PetscCall(rw_test_problem_destroy(&p));
  PetscCall(RwModelDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_budget)
{
  const char *grid = "-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 32 -rw_steps 60";
  char        opts[512];
  Outcome     ref, o;
  PetscBool   same, isstoreall, isrevolve;
  RwModel     model;
  RwTestProblem p;
  Vec         gref;
  PetscInt64  fit;
  int         size = rw_test_size();

  /* the reference: storeall with ample memory */
  snprintf(opts, sizeof(opts), "%s -rw_checkpoint_node_memory 1GiB", grid);
  RW_CHECK(rw_test_model(grid, &model));
  RW_CHECK(RwModelCreateParameters(model, &gref));
  RW_CHECK(RwModelDestroy(&model));
  RW_CHECK(Solve(opts, gref, &ref, NULL));
  RW_CHECK(PetscStrcmp(ref.type, RWSCHEDULESTOREALL, &isstoreall));
  rw_assert_all(isstoreall, "with 1 GiB a node, the default schedule is %s, expected storeall", ref.type);

  /* 256 KiB a node, half of it shared by the ranks: revolve in the largest count that fits */
  snprintf(opts, sizeof(opts), "%s -rw_checkpoint_node_memory 256KiB", grid);
  RW_CHECK(Solve(opts, gref, &o, &same));
  fit = (PetscInt64)(0.5 * 262144 / size) / o.rankbytes;
  RW_CHECK(PetscStrcmp(o.type, RWSCHEDULEREVOLVE, &isrevolve));
  if (!rw_test_rank()) printf("# %d ranks: 256 KiB a node -> %s with %lld slots of %lld bytes (expected %lld); J %.17g (storeall %.17g)\n", size, o.type, (long long)o.slots, (long long)o.rankbytes, (long long)fit, o.J, ref.J);
  rw_assert_all(isrevolve && o.slots == fit && fit < 58, "256 KiB a node: %s with %lld slots, expected revolve with %lld", o.type, (long long)o.slots, (long long)fit);
  rw_assert_all(o.J == ref.J && same, "the budgeted revolve gradient differs from storeall's");

  /* a fraction of it: fewer slots */
  snprintf(opts, sizeof(opts), "%s -rw_checkpoint_node_memory 256KiB -rw_checkpoint_ram_fraction 0.25", grid);
  RW_CHECK(Solve(opts, gref, &o, &same));
  fit = (PetscInt64)(0.25 * 262144 / size) / o.rankbytes;
  rw_assert_all(o.slots == fit && o.J == ref.J && same, "fraction 0.25: %lld slots (expected %lld), or the gradient differs", (long long)o.slots, (long long)fit);

  /* revolve chosen without slots: the budget's; slots given: those */
  snprintf(opts, sizeof(opts), "%s -rw_checkpoint_node_memory 1MiB -rw_schedule_type revolve", grid);
  RW_CHECK(Solve(opts, NULL, &o, NULL));
  fit = (PetscInt64)(0.5 * 1048576 / size) / o.rankbytes;
  rw_assert_all(o.slots == fit, "revolve without slots: %lld slots, expected %lld", (long long)o.slots, (long long)fit);
  snprintf(opts, sizeof(opts), "%s -rw_checkpoint_node_memory 256KiB -rw_schedule_type revolve -rw_schedule_ram_slots 3", grid);
  RW_CHECK(Solve(opts, NULL, &o, NULL));
  rw_assert_all(o.slots == 3, "slots given: %lld, expected 3", (long long)o.slots);

  /* -rw_checkpoint_ram alone, too small for every state: revolve in it (it
     stopped in storeall before), multilevel with a disk level; store-all's bits */
  snprintf(opts, sizeof(opts), "%s -rw_checkpoint_ram %lld", grid, (long long)(20 * 32 * 32 * 8 / size));
  RW_CHECK(Solve(opts, gref, &o, &same));
  RW_CHECK(PetscStrcmp(o.type, RWSCHEDULEREVOLVE, &isrevolve));
  fit = (PetscInt64)(20 * 32 * 32 * 8 / size) / o.rankbytes;
  rw_assert_all(isrevolve && o.slots == fit && o.J == ref.J && same, "-rw_checkpoint_ram alone: %s with %lld slots (expected revolve with %lld), or the gradient differs", o.type, (long long)o.slots, (long long)fit);
  snprintf(opts, sizeof(opts), "%s -rw_checkpoint_ram %lld -rw_schedule_disk_slots 4 -rw_store_disk_type memory", grid, (long long)(20 * 32 * 32 * 8 / size));
  RW_CHECK(Solve(opts, gref, &o, &same));
  rw_assert_all(!strcmp(o.type, RWSCHEDULEMULTILEVEL) && o.J == ref.J && same, "-rw_checkpoint_ram with disk slots: %s, expected multilevel, or the gradient differs", o.type);
  snprintf(opts, sizeof(opts), "%s -rw_checkpoint_ram 1GiB", grid);
  RW_CHECK(Solve(opts, NULL, &o, NULL));
  rw_assert_all(!strcmp(o.type, RWSCHEDULESTOREALL), "-rw_checkpoint_ram 1GiB alone: %s, expected storeall", o.type);

  /* nothing fits */
  snprintf(opts, sizeof(opts), "%s -rw_checkpoint_node_memory 1KiB", grid);
  RW_CHECK(rw_test_model(opts, &model));
  rw_assert_error(rw_test_problem(model, &p), "holds no state");
  RW_CHECK(RwModelDestroy(&model));
  RW_CHECK(VecDestroy(&gref));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("budget");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_budget);
  suite_add_tcase(s, tc);
  return s;
}
