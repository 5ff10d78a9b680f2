/*
  Runs whose length is decided while they run: a stop test ends the first
  forward sweep at step K below the bound -rw_steps, the online schedule
  reverses what turned out, and J, dJ/dm and dJ/du0 (and the forward and
  tangent sweeps' J and dJ, which stop at K too) are bitwise those of
  storeall run for exactly K steps (so the objective's final-step terms are
  at K), with memory and hdf5 stores; the forward steps are the online
  schedule's for K, within the documented bound.  The steady-state test of
  -rw_adjoint_stop_steady stops a heat run; other schedules refuse a stop test.
*/
#include "rwtest.h"
#include <unistd.h>

static char dir[PETSC_MAX_PATH_LEN];

#define NMAX 40

/* Stop after step K */
static PetscErrorCode StopAt(RwAdjoint adj, PetscInt64 k, Vec u, Vec uprev, PetscBool *stop, void *ctx)
{
  PetscFunctionBegin;
  (void)adj, (void)u, (void)uprev;
  *stop = (PetscBool)(k == *(PetscInt64 *)ctx);
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscReal        J, Jforward, dJ; /* the solve's J, RwAdjointForward()'s, RwTangentSolve()'s along dm = 1, du0 = 0 */
  PetscInt64       fsteps, tsteps; /* the steps RwAdjointForward() and RwTangentSolve() ran */
  Vec              g, gu0;
  RwAdjointCounts  c;
  RwScheduleCounts pred; /* an online schedule's prediction for the steps that turned out */
} Result;

/* Solves the problem of `grid` with `opts`; K > 0: with the user stop test at K */
static void Solve(const char *grid, const char *opts, PetscInt64 K, PetscBool steady, Result *r)
{
  char          all[PETSC_MAX_PATH_LEN + 1024];
  RwModel       model;
  RwTestProblem p;
  PetscInt64    key = K;

  snprintf(all, sizeof(all), "%s %s -rw_store_hdf5_file %s/online.h5 -ksp_rtol 1e-12", grid, opts, dir);
  RW_CHECK(rw_test_model(all, &model));
  RW_CHECK(rw_test_problem(model, &p));
  if (K > 0) RW_CHECK(RwAdjointSetStopTest(p.adj, StopAt, &key));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &r->J, p.g, p.gu0));
  RW_CHECK(RwAdjointGetCounts(p.adj, &r->c));
  RW_CHECK(VecDuplicate(p.g, &r->g));
  RW_CHECK(VecDuplicate(p.gu0, &r->gu0));
  RW_CHECK(VecCopy(p.g, r->g));
  RW_CHECK(VecCopy(p.gu0, r->gu0));
  { /* the forward and tangent sweeps stop at the same step */
    Vec             dm, du0;
    RwAdjointCounts c;

    RW_CHECK(RwAdjointForward(p.adj, p.m, p.u0, &r->Jforward, NULL));
    RW_CHECK(RwAdjointGetCounts(p.adj, &c));
    r->fsteps = c.steps;
    RW_CHECK(VecDuplicate(p.m, &dm));
    RW_CHECK(VecDuplicate(p.u0, &du0));
    RW_CHECK(VecSet(dm, 1.0));
    RW_CHECK(VecSet(du0, 0.0));
    RW_CHECK(RwTangentSolve(p.adj, p.m, dm, p.u0, du0, &r->dJ));
    RW_CHECK(RwAdjointGetCounts(p.adj, &c));
    r->tsteps = c.steps;
    RW_CHECK(VecDestroy(&dm));
    RW_CHECK(VecDestroy(&du0));
  }
  if (K > 0 || steady) { /* the counts of an online schedule with the same slots for the steps that turned out */
    RwSchedule s, o;
    PetscInt64 slots;

    RW_CHECK(RwAdjointGetSchedule(p.adj, &s));
    RW_CHECK(RwScheduleGetSlots(s, RW_LEVEL_RAM, &slots));
    RW_CHECK(RwScheduleCreate(PETSC_COMM_SELF, &o));
    RW_CHECK(RwScheduleSetType(o, RWSCHEDULEONLINE));
    RW_CHECK(RwScheduleSetSteps(o, r->c.steps));
    RW_CHECK(RwScheduleSetSlots(o, RW_LEVEL_RAM, slots));
    RW_CHECK(RwScheduleSetUp(o));
    RW_CHECK(RwScheduleValidate(o, NULL));
    RW_CHECK(RwScheduleGetPrediction(o, &r->pred));
    RW_CHECK(RwScheduleDestroy(&o));
  }
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

static void Same(const char *what, const Result *a, const Result *b)
{
  PetscBool e1, e2;

  RW_CHECK(VecEqual(a->g, b->g, &e1));
  RW_CHECK(VecEqual(a->gu0, b->gu0, &e2));
  rw_assert_all(a->J == b->J && e1 && e2, "%s: J %.17g (storeall %.17g), dJ/dm identical %d, dJ/du0 identical %d", what, a->J, b->J, e1, e2);
  rw_assert_all(a->Jforward == a->J && a->dJ == b->dJ && a->fsteps == a->c.steps && a->tsteps == a->c.steps, "%s: RwAdjointForward J %.17g after %lld steps (solve %.17g after %lld), RwTangentSolve dJ %.17g after %lld steps (storeall %.17g)", what, a->Jforward, (long long)a->fsteps, a->J, (long long)a->c.steps, a->dJ, (long long)a->tsteps, b->dJ);
}

static void Free(Result *r)
{
  RW_CHECK(VecDestroy(&r->g));
  RW_CHECK(VecDestroy(&r->gu0));
}

static const char *grids[] = {"-rw_heat_dim 1 -da_grid_x 31 -rw_heat_bc dirichlet", "-rw_heat_dim 2 -da_grid_x 16 -da_grid_y 12 -rw_heat_scheme crank-nicolson"};
static const char *online[] = {"-rw_schedule_type online -rw_schedule_ram_slots 3", "-rw_schedule_type online -rw_schedule_ram_slots 2 -rw_store_type hdf5", "-rw_schedule_type online -rw_schedule_ram_slots 5"};

START_TEST(test_random_stops_equal_storeall)
{
  uint64_t x = 0x2545f4914f6cdd1dULL;

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (int i = 0; i < 6; i++) {
    const char *grid = grids[i % 2], *sched = online[i % 3];
    char        opts[256], what[512];
    PetscInt64  K, bound, slots = i % 3 == 0 ? 3 : i % 3 == 1 ? 2 : 5;
    Result      on, all;

    x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* the same draws on every rank and run */
    K = 1 + (PetscInt64)(x % (NMAX - 1));
    snprintf(opts, sizeof(opts), "%s -rw_steps %d", sched, NMAX);
    Solve(grid, opts, K, PETSC_FALSE, &on);
    snprintf(opts, sizeof(opts), "-rw_schedule_type storeall -rw_steps %lld", (long long)K);
    Solve(grid, opts, 0, PETSC_FALSE, &all);
    snprintf(what, sizeof(what), "%s, %s, stopped at %lld of %d", grid, sched, (long long)K, NMAX);
    if (!rw_test_rank()) printf("# %s: J %.17g, %lld forward steps\n", what, on.J, (long long)on.c.forward_steps);
    Same(what, &on, &all);
    RW_CHECK(RwScheduleOnlineBound(K, slots, &bound));
    rw_assert_all(on.c.steps == K && on.c.reverse_steps == K, "%s: ran %lld steps, reversed %lld", what, (long long)on.c.steps, (long long)on.c.reverse_steps);
    rw_assert_all(on.c.forward_steps == on.pred.forward_steps && on.c.forward_steps <= bound, "%s: %lld forward steps; the online schedule for %lld steps takes %lld, the bound is %lld", what, (long long)on.c.forward_steps, (long long)K, (long long)on.pred.forward_steps, (long long)bound);
    Free(&on);
    Free(&all);
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  if (!rw_test_rank()) ck_assert_msg(rmdir(dir) == 0, "the stores left files in %s", dir);
}
END_TEST

/* Heat diffusing towards its steady state: the built-in test stops it, and storeall over the steps it ran agrees */
START_TEST(test_steady_state)
{
  const char *grid = "-rw_heat_dim 1 -da_grid_x 31 -rw_heat_bc dirichlet";
  Result      on, all;
  char        opts[256];

  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  Solve(grid, "-rw_schedule_type online -rw_schedule_ram_slots 4 -rw_steps 3000 -rw_adjoint_stop_steady 1e-5", 0, PETSC_TRUE, &on);
  rw_assert_all(on.c.steps > 10 && on.c.steps < 3000, "the steady test stopped the run at step %lld of 3000", (long long)on.c.steps);
  if (!rw_test_rank()) printf("# steady state (1e-5) after %lld steps, %lld forward steps\n", (long long)on.c.steps, (long long)on.c.forward_steps);
  rw_assert_all(on.c.forward_steps == on.pred.forward_steps, "%lld forward steps; the online schedule predicts %lld", (long long)on.c.forward_steps, (long long)on.pred.forward_steps);
  snprintf(opts, sizeof(opts), "-rw_schedule_type storeall -rw_steps %lld", (long long)on.c.steps);
  Solve(grid, opts, 0, PETSC_FALSE, &all);
  Same("steady state", &on, &all);
  Free(&on);
  Free(&all);
  MPI_Barrier(PETSC_COMM_WORLD);
  if (!rw_test_rank()) ck_assert_msg(rmdir(dir) == 0, "the stores left files in %s", dir);
}
END_TEST

START_TEST(test_other_schedules_refuse)
{
  RwModel       model;
  RwTestProblem p;
  PetscReal     J;
  PetscInt64    K = 5;

  RW_CHECK(rw_test_model("-rw_heat_dim 1 -da_grid_x 31 -rw_schedule_type revolve -rw_schedule_ram_slots 3 -rw_steps 20", &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwAdjointSetStopTest(p.adj, StopAt, &K));
  rw_assert_error(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0), "A stop test (RwAdjointSetStopTest()) ends the run at a step found while it runs, but schedule revolve plans for the known n = 20: use -rw_schedule_type online");
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("online");
  TCase *tc = tcase_create("stop");

  tcase_add_test(tc, test_random_stops_equal_storeall);
  tcase_add_test(tc, test_steady_state);
  tcase_add_test(tc, test_other_schedules_refuse);
  suite_add_tcase(s, tc);
  return s;
}
