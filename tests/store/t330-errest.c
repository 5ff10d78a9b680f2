/*
  The per-solve estimate of the gradient error lossy checkpoints cause
  (RwAdjointGetGradientErrorEstimate(), src/adjoint/errest.c) against the
  error measured against the uncompressed gradient of the same schedule,
  over tolerances 1e-3 .. 1e-9 on heat (explicit, Crank-Nicolson) and wave,
  under revolve (restores chained through slots written in the reverse
  sweep) and store-all (each state restored once):
  - measured / RW_ERREST_FACTOR <= estimate <= RW_ERREST_FACTOR x measured:
    the estimate is never below the measured error by more than the factor
    (what -rw_store_compress_tolerance auto relies on) nor above it by more;
  - the estimate falls with the tolerance;
  - no codec and lossless: an estimate of 0 exactly (nothing lost).
  A build without zfp checks the lossless part only.
*/
#include "rwconfig.h"
#include "rwstoretest.h"
#include <math.h>

#define RW_ERREST_FACTOR 10.0

static const PetscReal tols[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
#define RW_NTOLS ((int)(sizeof(tols) / sizeof(tols[0])))

/* J's gradient dJ/dm and the estimate of a problem under the given options */
static void solve(const char *type, const char *opts, Vec *g, PetscReal *est)
{
  RwModel       model;
  RwTestProblem p;
  PetscReal     J;

  RW_CHECK(rw_test_model_type(type, opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0));
  RW_CHECK(RwAdjointGetGradientErrorEstimate(p.adj, est));
  RW_CHECK(VecDuplicate(p.g, g));
  RW_CHECK(VecCopy(p.g, *g));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

static void check_estimate(const char *type, const char *grid, const char *sched)
{
  char      opts[1024], lossless[1200];
  PetscReal est, ng, err, prev = PETSC_MAX_REAL;
  Vec       g0, g;

  snprintf(opts, sizeof(opts), "%s -rw_steps 40 %s -ksp_rtol 1e-12", grid, sched);
  solve(type, opts, &g0, &est);
  rw_assert_all(est == 0, "%s %s: no codec gave an estimate %g, not 0", type, sched, (double)est);
  snprintf(lossless, sizeof(lossless), "%s -rw_store_compress lossless", opts);
  solve(type, lossless, &g, &est);
  rw_assert_all(est == 0, "%s %s: lossless gave an estimate %g, not 0", type, sched, (double)est);
  RW_CHECK(VecDestroy(&g));
#if defined(RW_HAVE_ZFP)
  RW_CHECK(VecNorm(g0, NORM_2, &ng));
  for (int i = 0; i < RW_NTOLS; i++) {
    char lossy[1200];

    snprintf(lossy, sizeof(lossy), "%s -rw_store_compress zfp -rw_store_compress_tolerance %g", opts, (double)tols[i]);
    solve(type, lossy, &g, &est);
    RW_CHECK(VecAXPY(g, -1, g0));
    RW_CHECK(VecNorm(g, NORM_2, &err));
    err /= ng;
    if (!rw_test_rank()) printf("# %s %s %s: tolerance %g, measured %.3g, estimated %.3g (measured/estimate %.3g)\n", type, grid, sched, (double)tols[i], (double)err, (double)est, (double)(err / est));
    rw_assert_all(est > 0 && err <= RW_ERREST_FACTOR * est, "%s %s %s: tolerance %g: measured relative gradient error %g above %g times the estimate %g", type, grid, sched, (double)tols[i], (double)err, RW_ERREST_FACTOR, (double)est);
    rw_assert_all(est <= RW_ERREST_FACTOR * err, "%s %s %s: tolerance %g: estimate %g above %g times the measured error %g", type, grid, sched, (double)tols[i], (double)est, RW_ERREST_FACTOR, (double)err);
    rw_assert_all(est < prev, "%s %s %s: the estimate at tolerance %g (%g) does not fall below the previous one (%g)", type, grid, sched, (double)tols[i], (double)est, (double)prev);
    prev = est;
    RW_CHECK(VecDestroy(&g));
  }
#else
  (void)ng, (void)err, (void)prev;
#endif
  RW_CHECK(VecDestroy(&g0));
}

static const char *const scheds[] = {"-rw_schedule_type revolve -rw_schedule_ram_slots 3", "-rw_schedule_type storeall"};

START_TEST(test_heat)
{
  for (int s = 0; s < 2; s++) check_estimate("heat", "-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 28", scheds[s]);
}
END_TEST

START_TEST(test_heat_cn)
{
  check_estimate("heat", "-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 28 -rw_heat_scheme crank-nicolson", scheds[0]);
}
END_TEST

START_TEST(test_wave)
{
  for (int s = 0; s < 2; s++) check_estimate("wave", "-rw_wave_space_order 4 -da_grid_x 40 -da_grid_y 36 -rw_wave_nbl 4 -rw_wave_f0 0.03", scheds[s]);
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("errest");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_heat);
  tcase_add_test(tc, test_heat_cn);
  tcase_add_test(tc, test_wave);
  suite_add_tcase(s, tc);
  return s;
}
