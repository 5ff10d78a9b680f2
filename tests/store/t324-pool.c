/*
  Compressed states at their real length in a RAM budget (issue 36 item 2:
  src/store/impls/memory/memory.c's pool, src/adjoint/pool.c):
  - the store: a pool of the bytes of two uncompressed states holds several
    smooth compressed states, each read back bitwise; a state with no room
    left is not kept (RwStoreTryWrite() says so on every rank,
    RwStoreWrite() stops naming the pool), and a freed range is used again;
  - the driver, lossless, revolve, multilevel (RAM level) and online with
    -rw_checkpoint_ram: J and the gradients are storeall's without
    compression bit for bit, with more slots than the budget holds
    uncompressed and fewer forward steps than the schedule predicts for those;
  - states that compress worse than x_0 (a wave from rest: x_0 is zeros):
    the pool fills, the driver re-plans, and the solve still gives
    storeall's bits in the forward steps its re-planned schedule accounts for;
  - a budget that holds no compressed state: a clear error;
  - the re-plan that keeps the states held (-rw_checkpoint_replan continue,
    the default; restart re-plans from x_0): the wave from rest and a heat
    run from a spike (x_0 zero but for a few points), under revolve,
    multilevel's RAM level and online: storeall's bits, the forward steps
    its plan accounts for, never more than the restart takes in the same
    budget and fewer under at least two of the three schedules (a
    continuation is taken only where it predicts fewer); a bad value named.
*/
#include "rwconfig.h"
#include "rwstoretest.h"
#include <rewind/private/storeimpl.h>

/* u := a smooth field of natural index i, with a phase (compresses well losslessly) */
static PetscErrorCode fill_smooth(Vec u, PetscReal phase)
{
  PetscInt64  *idx;
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(rw_store_natural(u, &idx));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArray(u, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = (idx[i] % 64 < 32) ? phase : 0; /* runs of equal values: LZ4 shrinks them many times */
  PetscCall(VecRestoreArray(u, &a));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_pool_store)
{
  RwStore       store;
  Vec           u, v;
  PetscBool     kept;
  PetscInt64    pool;
  PetscInt      bad;
  RwStoreCounts c;

  RW_CHECK(rw_store_grid(PETSC_COMM_WORLD, 2, 1, &u));
  RW_CHECK(VecDuplicate(u, &v));
  RW_CHECK(RwStoreCreate(PETSC_COMM_WORLD, &store));
  RW_CHECK(RwStoreSetType(store, RWSTOREMEMORY));
  RW_CHECK(RwStoreSetSlots(store, 8));
  RW_CHECK(RwStoreSetTemplate(store, u));
  RW_CHECK(RwStoreSetCompress(store, RW_STORE_COMPRESS_LOSSLESS, 0));
  pool = store->bytes + 64; /* one uncompressed state and a little: the largest rank's */
  MPI_Allreduce(MPI_IN_PLACE, &pool, 1, MPIU_INT64, MPI_MAX, PETSC_COMM_WORLD);
  RW_CHECK(RwStoreSetPool(store, pool));
  RW_CHECK(RwStoreSetUp(store));
  RW_CHECK(RwStoreGetPool(store, &c.pool_peak));
  rw_assert_all(c.pool_peak == pool, "the pool has %lld bytes, expected %lld", (long long)c.pool_peak, (long long)pool);
  /* six smooth states where one uncompressed fits */
  for (PetscInt64 s = 0; s < 6; s++) {
    RW_CHECK(fill_smooth(u, 1.0 + (PetscReal)s));
    RW_CHECK(RwStoreTryWrite(store, s, 10 + s, u, &kept));
    rw_assert_all(kept, "smooth state %lld found no room in a pool of %lld bytes", (long long)s, (long long)pool);
  }
  for (PetscInt64 s = 0; s < 6; s++) {
    RW_CHECK(fill_smooth(u, 1.0 + (PetscReal)s));
    RW_CHECK(RwStoreRead(store, s, 10 + s, v));
    rw_assert_all(!rw_store_differ(u, v), "slot %lld does not read back its state", (long long)s);
  }
  /* an incompressible state (every bit depends on the index) finds no room on the largest rank: nothing kept, on every rank */
  RW_CHECK(rw_store_fill(u, 3));
  RW_CHECK(RwStoreTryWrite(store, 6, 3, u, &kept));
  rw_assert_all(!kept, "an incompressible state was kept in a pool holding six others");
  rw_assert_error(RwStoreRead(store, 6, 3, v), "holds no valid state");
  rw_assert_error(RwStoreWrite(store, 6, 3, u), "does not fit in the store's pool");
  /* the others are intact; freed ranges are used again */
  RW_CHECK(fill_smooth(u, 3.0));
  RW_CHECK(RwStoreRead(store, 2, 12, v));
  rw_assert_all(!rw_store_differ(u, v), "slot 2 was damaged by a refused write");
  for (PetscInt64 s = 0; s < 6; s++) RW_CHECK(RwStoreFree(store, s));
  RW_CHECK(rw_store_fill(u, 3));
  RW_CHECK(RwStoreTryWrite(store, 6, 3, u, &kept));
  rw_assert_all(kept, "an incompressible state found no room in an empty pool of one state and 64 bytes");
  RW_CHECK(RwStoreRead(store, 6, 3, v));
  RW_CHECK(rw_store_mismatches(v, 3, &bad));
  rw_assert_all(!bad, "%d values differ after the round trip through the pool", (int)bad);
  RW_CHECK(RwStoreGetCounts(store, &c));
  rw_assert_all(c.pool_misses == 2 && c.pool_peak <= pool && c.kept_max > pool / 2, "misses %lld (expected 2), peak %lld of %lld, largest state %lld", (long long)c.pool_misses, (long long)c.pool_peak, (long long)pool, (long long)c.kept_max);
  RW_CHECK(RwStoreView(store, NULL));
  RW_CHECK(RwStoreDestroy(&store));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&v));
}
END_TEST

/* A problem of type on grid, with options; budget: this many uncompressed states per rank */
static PetscErrorCode make_problem(const char *type, const char *opts, PetscReal states, PetscBool compress, RwModel *model, RwTestProblem *p)
{
  char       all[1024];
  PetscInt64 rankmax, total;
  RwModel    probe;

  PetscFunctionBegin;
  PetscCall(rw_test_model_type(type, opts, &probe)); /* the state's bytes on the largest rank */
  PetscCall(RwModelGetStateBytes(probe, &rankmax, &total));
  PetscCall(RwModelDestroy(&probe));
  if (states > 0) snprintf(all, sizeof(all), "%s -rw_checkpoint_ram %lld%s", opts, (long long)(states * (PetscReal)rankmax), compress ? " -rw_store_compress lossless" : "");
  else snprintf(all, sizeof(all), "%s", opts);
  PetscCall(rw_test_model_type(type, all, model));
  PetscCall(rw_test_problem(*model, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *schedules[] = {
  "-rw_schedule_type revolve",
  "-rw_schedule_type multilevel -rw_schedule_disk_slots 3 -rw_schedule_costs 1,1,2,2 -rw_store_disk_type memory",
  "-rw_schedule_type online",
};

/* Each schedule in a budget of `states` uncompressed states: storeall's bits;
   mode: 0 every state fits, 1 the pool must re-plan, 2 stand in (states
   compressing worse than x_0; -rw_checkpoint_replan 0) */
static void check_pool(const char *type, const char *grid, PetscReal states, int mode)
{
  RwTestReference ref = {0};

  for (int i = -1; i < (int)(sizeof(schedules) / sizeof(schedules[0])); i++) {
    char              opts[1024];
    RwModel           model;
    RwTestProblem     p;
    PetscReal         J;
    PetscBool         same;
    PetscInt64        taken, predicted;
    RwAdjointPoolInfo info;

    snprintf(opts, sizeof(opts), "%s %s", grid, i < 0 ? "-rw_schedule_type storeall" : schedules[i]);
    RW_CHECK(make_problem(type, opts, i < 0 ? 0 : states, PETSC_TRUE, &model, &p));
    RW_CHECK(rw_test_solve_same(&p, &ref, &J, &same, &taken, &predicted));
    RW_CHECK(RwAdjointGetPoolInfo(p.adj, &info));
    if (!rw_test_rank()) printf("# %s %s: J %.17g, %lld forward steps (%lld planned, %lld uncompressed); slots %lld against %lld; states %lld bytes planned at %lld (x_0 %lld); %lld re-plans after %lld steps; %lld stand-ins, %lld steps\n", type, opts, J, (long long)taken, (long long)info.forward_steps_planned, (long long)info.forward_steps_uncompressed, (long long)info.slots, (long long)info.slots_uncompressed, (long long)info.state_bytes, (long long)info.planned_bytes, (long long)info.estimate_bytes, (long long)info.replans, (long long)info.steps_before_replan, (long long)info.misses, (long long)info.standin_steps);
    rw_assert_all(same, "%s %s: J %.17g (storeall %.17g) or a gradient differs from storeall's without compression", type, opts, J, ref.J);
    if (i >= 0) {
      rw_assert_all(info.pooled, "%s %s: the budget was not planned at the compressed size", type, opts);
      if (!mode) rw_assert_all(info.slots > info.slots_uncompressed, "%s %s: %lld slots, %lld uncompressed", type, opts, (long long)info.slots, (long long)info.slots_uncompressed);
      rw_assert_all(taken == info.forward_steps_planned, "%s %s: %lld forward steps, the plan accounts for %lld", type, opts, (long long)taken, (long long)info.forward_steps_planned);
      rw_assert_all((mode == 1) == (info.replans > 0) && (mode == 2) == (info.misses > 0 && info.standin_steps > 0), "%s %s: %lld re-plans, %lld stand-ins (%lld steps)", type, opts, (long long)info.replans, (long long)info.misses, (long long)info.standin_steps);
      if (!mode) rw_assert_all(taken < info.forward_steps_uncompressed, "%s %s: %lld forward steps, %lld uncompressed in the same budget", type, opts, (long long)taken, (long long)info.forward_steps_uncompressed);
      RW_CHECK(RwAdjointView(p.adj, NULL));
      /* a second solve of the same driver starts from the re-planned schedule: the same bits */
      RW_CHECK(rw_test_solve_same(&p, &ref, &J, &same, &taken, &predicted));
      RW_CHECK(RwAdjointGetPoolInfo(p.adj, &info));
      rw_assert_all(same && taken == info.forward_steps_planned, "%s %s, second solve: same %d, %lld forward steps against %lld planned (%lld re-plans)", type, opts, (int)same, (long long)taken, (long long)info.forward_steps_planned, (long long)info.replans);
      if (mode) rw_assert_all(info.estimate_bytes < info.planned_bytes, "%s %s: states found no room, yet the second solve planned at x_0's %lld bytes", type, opts, (long long)info.estimate_bytes);
    }
    RW_CHECK(rw_test_problem_destroy(&p));
    RW_CHECK(RwModelDestroy(&model));
  }
  RW_CHECK(rw_test_reference_destroy(&ref));
}

START_TEST(test_pool_gradients)
{
  check_pool("heat", "-rw_heat_dim 1 -da_grid_x 600 -rw_steps 40", 10.5, 0);
}
END_TEST

START_TEST(test_pool_replan)
{
  check_pool("wave", "-rw_wave_space_order 4 -da_grid_x 24 -da_grid_y 24 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 60 -rw_checkpoint_replan restart", 4, 1);
  check_pool("wave", "-rw_wave_space_order 4 -da_grid_x 24 -da_grid_y 24 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 60 -rw_checkpoint_replan 0", 4, 2);
}
END_TEST

/* u := zero but for 20 points of natural index 290..309 (heat: each later state nonzero wider, compressing worse) */
static PetscErrorCode fill_spike(Vec u)
{
  PetscInt64  *idx;
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(rw_store_natural(u, &idx));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArray(u, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = (idx[i] >= 290 && idx[i] < 310) ? 1 : 0;
  PetscCall(VecRestoreArray(u, &a));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One solve of the problem in a budget of `states` (0: storeall, uncompressed), x_0 a spike if asked */
static void solve_one(const char *type, const char *opts, PetscReal states, PetscBool spike, RwTestReference *ref, PetscBool *same, PetscInt64 *taken, RwAdjointPoolInfo *info)
{
  RwModel       model;
  RwTestProblem p;
  PetscReal     J;
  PetscInt64    predicted;

  RW_CHECK(make_problem(type, opts, states, PETSC_TRUE, &model, &p));
  if (spike) RW_CHECK(fill_spike(p.u0));
  RW_CHECK(rw_test_solve_same(&p, ref, &J, same, taken, &predicted));
  RW_CHECK(RwAdjointGetPoolInfo(p.adj, info));
  if (states > 0 && info->continued) RW_CHECK(RwAdjointView(p.adj, NULL));
  if (!rw_test_rank()) printf("# %s %s: J %.17g, %lld forward steps (%lld planned); %lld re-plans (%lld continued, %lld freed, %lld steps saved)\n", type, opts, J, (long long)*taken, (long long)info->forward_steps_planned, (long long)info->replans, (long long)info->continued, (long long)info->released, (long long)info->steps_saved_continue);
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

/* Each schedule in a budget of `states`: the continuation against the restart */
static void check_continue(const char *type, const char *grid, PetscReal states, PetscBool spike)
{
  RwTestReference   ref = {0};
  RwAdjointPoolInfo info, rinfo;
  PetscBool         same;
  PetscInt64        taken, rtaken;
  char              opts[1024];
  int               wins = 0;

  snprintf(opts, sizeof(opts), "%s -rw_schedule_type storeall", grid);
  solve_one(type, opts, 0, spike, &ref, &same, &taken, &info);
  for (int i = 0; i < (int)(sizeof(schedules) / sizeof(schedules[0])); i++) {
    snprintf(opts, sizeof(opts), "%s %s -rw_checkpoint_replan restart", grid, schedules[i]);
    solve_one(type, opts, states, spike, &ref, &same, &rtaken, &rinfo);
    rw_assert_all(same && rinfo.replans > 0 && !rinfo.continued && rinfo.replan_type == RW_ADJOINT_REPLAN_RESTART, "%s %s: same %d, %lld re-plans, %lld continued", type, opts, (int)same, (long long)rinfo.replans, (long long)rinfo.continued);
    snprintf(opts, sizeof(opts), "%s %s", grid, schedules[i]);
    solve_one(type, opts, states, spike, &ref, &same, &taken, &info);
    rw_assert_all(same, "%s %s: J or a gradient differs from storeall's without compression", type, opts);
    rw_assert_all(info.replan_type == RW_ADJOINT_REPLAN_CONTINUE && info.replans > 0 && (!info.continued) == (!info.steps_saved_continue), "%s %s: %lld re-plans, %lld continued, %lld steps saved", type, opts, (long long)info.replans, (long long)info.continued, (long long)info.steps_saved_continue);
    rw_assert_all(taken == info.forward_steps_planned, "%s %s: %lld forward steps, the plan accounts for %lld", type, opts, (long long)taken, (long long)info.forward_steps_planned);
    /* a continuation is taken where it predicts fewer steps than a restart: never more in the end */
    rw_assert_all(taken <= rtaken, "%s %s: continuing took %lld forward steps, restarting %lld", type, opts, (long long)taken, (long long)rtaken);
    wins += info.continued > 0 && taken < rtaken;
  }
  rw_assert_all(wins >= 2, "%s %s: the continuation took fewer forward steps than the restart under %d of 3 schedules", type, grid, wins);
  RW_CHECK(rw_test_reference_destroy(&ref));
}

START_TEST(test_pool_continue)
{
  check_continue("wave", "-rw_wave_space_order 4 -da_grid_x 24 -da_grid_y 24 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_steps 60", 8, PETSC_FALSE);
  check_continue("heat", "-rw_heat_dim 1 -da_grid_x 600 -rw_steps 40", 3, PETSC_TRUE);
}
END_TEST

START_TEST(test_pool_replan_option)
{
  RwModel       model;
  RwTestProblem p;

  rw_assert_error(make_problem("heat", "-rw_heat_dim 1 -da_grid_x 60 -rw_steps 4 -rw_schedule_type revolve -rw_checkpoint_replan maybe", 3, PETSC_TRUE, &model, &p), "rw_checkpoint_replan maybe: not continue, restart");
  (void)model;
  (void)p;
}
END_TEST

/* u := values whose every byte is a hash of the index (finite: exponents within 2^+-120), which no codec shrinks */
static PetscErrorCode fill_noise(Vec u)
{
  PetscInt64  *idx;
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(rw_store_natural(u, &idx));
  PetscCall(VecGetLocalSize(u, &n));
  PetscCall(VecGetArrayWrite(u, &a));
  for (PetscInt i = 0; i < n; i++) {
    uint64_t z = (uint64_t)idx[i] * 0x9E3779B97F4A7C15ull, e;

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    e = 0x3FFull - 120 + ((z >> 52) & 0x7F) * 240 / 127; /* the exponent from the hash's own bits */
    z = (z & 0x800FFFFFFFFFFFFFull) | (e << 52);
    memcpy(&a[i], &z, sizeof(z));
  }
  PetscCall(VecRestoreArrayWrite(u, &a));
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A budget of one uncompressed state, for an incompressible x_0: Blosc's header does not fit */
START_TEST(test_pool_bad_budget)
{
  RwModel       model;
  RwTestProblem p;
  PetscReal     J;

  RW_CHECK(make_problem("heat", "-rw_heat_dim 2 -da_grid_x 24 -da_grid_y 24 -rw_steps 10 -rw_schedule_type revolve", 1, PETSC_TRUE, &model, &p));
  RW_CHECK(fill_noise(p.u0));
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "holds no compressed state: the first state x_0 compresses to");
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("pool");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_pool_store);
  tcase_add_test(tc, test_pool_gradients);
  tcase_add_test(tc, test_pool_replan);
  tcase_add_test(tc, test_pool_bad_budget);
  tcase_add_test(tc, test_pool_continue);
  tcase_add_test(tc, test_pool_replan_option);
  suite_add_tcase(s, tc);
  return s;
}
