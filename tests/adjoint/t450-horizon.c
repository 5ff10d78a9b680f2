/*
  Horizon diagnostics (src/horizon, doc/chaos.md):
  - the largest Lyapunov exponent of Lorenz-96 (N = 40, F = 8) by Benettin's
    method lies within its own error bars of the long-run value (below);
  - for F = 1/2 the ring is stable and the exponent is the slowest decay rate
    of the linearisation at x = F, known in closed form: the estimate agrees;
  - on the heat model (Dirichlet, non-chaotic) the exponent is negative;
  - the estimate is bitwise the same on PETSC_COMM_WORLD and on one rank;
  - the adjoint-growth warning (-rw_adjoint_horizon_warn) fires for a long
    Lorenz-96 window and not for a short one, nor for heat;
  - bad arguments stop with errors that name them.
*/
#include "rwtest.h"

/*
  The reference: this estimator over 20000 time units (2000 blocks of 10,
  after 20 of transient) from the same start, dt = 0.01, gave
  1.6898 +- 0.0051 (doc/chaos.md); the literature gives about 1.7 for
  N = 40, F = 8.  The test's run is 500 time units, so its error is about
  0.03: the two are independent estimates and the band is 4 of their
  combined standard errors.
*/
#define L96_LAMBDA_REF     1.6898
#define L96_LAMBDA_REF_ERR 0.0051

static void lyapunov(MPI_Comm comm, const char *type, const char *opts, PetscInt64 transient, PetscInt64 interval, PetscInt nblocks, RwLyapunov *ly)
{
  RwModel       model;
  RwTestProblem p;

  RW_CHECK(rw_test_model_type_comm(comm, type, opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwHorizonLyapunov(p.adj, p.m, p.u0, transient, interval, nblocks, ly));
  if (!rw_test_rank()) printf("# %s %s: lambda_1 = %.6f +- %.6f (%" PetscInt_FMT " blocks over %g time units)\n", type, opts, (double)ly->exponent, (double)ly->error, ly->nblocks, (double)ly->time);
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_l96_chaotic)
{
  RwLyapunov ly, world, self;
  PetscReal  band;

  /* 100 time units of transient, then 50 blocks of 10 (this run: 1.641 +- 0.029).
     Windows of 500 units spread: from 20 units on 1.611 +- 0.029, from 520, 1020,
     ... 4020 between 1.683 and 1.732; the band below holds them all.  On each
     rank alone: the long run costs seconds there, a minute over 3 ranks */
  lyapunov(PETSC_COMM_SELF, "l96", "-da_grid_x 40 -rw_steps 60000", 10000, 10, 50, &ly);
  /* 4 combined standard errors: a false failure about once in 10^4 runs of a new start */
  band = 4 * PetscSqrtReal(PetscSqr(ly.error) + PetscSqr(L96_LAMBDA_REF_ERR));
  rw_assert_all(ly.error > 0 && ly.error < 0.06, "error estimate %g: expected a positive one below 0.06", (double)ly.error);
  rw_assert_all(PetscAbsReal(ly.exponent - L96_LAMBDA_REF) <= band, "lambda_1 = %g +- %g, expected %g within %g", (double)ly.exponent, (double)ly.error, L96_LAMBDA_REF, (double)band);
  /* the same bits over all ranks, on a shorter run */
  lyapunov(PETSC_COMM_WORLD, "l96", "-da_grid_x 40 -rw_steps 6000", 1000, 10, 10, &world);
  lyapunov(PETSC_COMM_SELF, "l96", "-da_grid_x 40 -rw_steps 6000", 1000, 10, 10, &self);
  rw_assert_all(!memcmp(&world.exponent, &self.exponent, sizeof(PetscReal)) && !memcmp(&world.error, &self.error, sizeof(PetscReal)), "lambda_1 %a +- %a on %d ranks, %a +- %a on one", world.exponent, world.error, rw_test_size(), self.exponent, self.error);
}
END_TEST

/* max over the ring's modes theta = 2 pi k / N of Re(-1 + F (e^{i theta} - e^{-2 i theta})) */
static PetscReal l96_stable_rate(PetscInt N, PetscReal F)
{
  PetscReal r = -PETSC_MAX_REAL;

  for (PetscInt k = 0; k < N; k++) {
    const PetscReal th = 2 * PETSC_PI * k / N;
    r = PetscMax(r, -1 + F * (PetscCosReal(th) - PetscCosReal(2 * th)));
  }
  return r;
}

START_TEST(test_l96_stable)
{
  const PetscReal want = l96_stable_rate(10, 0.5);
  RwLyapunov      ly;

  /* x -> F = 1/2 and the tangent decays like the slowest mode of the
     linearisation; on 10 points the next mode decays 0.87 faster, so the
     tangent aligns within the transient (on 40 points two modes are 0.005 apart) */
  lyapunov(PETSC_COMM_WORLD, "l96", "-da_grid_x 10 -rw_l96_forcing 0.5 -rw_steps 4000", 2000, 10, 10, &ly);
  if (!rw_test_rank()) printf("# l96 N = 10, F = 0.5: the linearisation's slowest rate %.6f\n", (double)want);
  rw_assert_all(want < 0 && ly.exponent < 0, "F = 0.5: lambda_1 = %g, expected negative (%g)", (double)ly.exponent, (double)want);
  rw_assert_all(PetscAbsReal(ly.exponent - want) <= 4 * ly.error + 1e-4, "F = 0.5: lambda_1 = %g +- %g, the linearisation gives %g", (double)ly.exponent, (double)ly.error, (double)want);
}
END_TEST

START_TEST(test_heat_negative)
{
  RwLyapunov ly;

  lyapunov(PETSC_COMM_WORLD, "heat", "-rw_heat_dim 1 -da_grid_x 31 -rw_heat_bc dirichlet -rw_steps 600", 200, 10, 4, &ly);
  rw_assert_all(ly.exponent < 0, "heat: lambda_1 = %g, expected negative", (double)ly.exponent);
}
END_TEST

/* The growth over a reverse sweep of the time average (l96) or the default misfit (heat) */
static void growth(const char *type, const char *opts, PetscBool average, RwHorizonGrowth *g)
{
  char          o[256];
  RwModel       model;
  RwTestProblem p;
  PetscReal     J;

  snprintf(o, sizeof(o), "%s -rw_adjoint_horizon_warn 10", opts);
  RW_CHECK(rw_test_model_type(type, o, &model));
  RW_CHECK(rw_test_problem_begin(model, &p));
  if (average) RW_CHECK(RwObjectiveAddTimeAverage(p.obj, 1.0));
  else RW_CHECK(RwObjectiveAddDefaultMisfit(p.obj));
  RW_CHECK(rw_test_problem_driver(&p));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0));
  RW_CHECK(RwAdjointGetHorizonGrowth(p.adj, g));
  if (!rw_test_rank()) printf("# %s %s: %.3f e-foldings over %lld steps (%.3f per unit time), %.1f digits, warned %d\n", type, o, (double)g->efoldings, (long long)g->steps, (double)g->rate, (double)g->digits, (int)g->warned);
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_horizon_warning)
{
  RwHorizonGrowth shortw, longw, heat;

  /* from a state on the attractor would be cleaner; the default start becomes chaotic within a few units */
  growth("l96", "-da_grid_x 40 -rw_steps 200", PETSC_TRUE, &shortw);
  growth("l96", "-da_grid_x 40 -rw_steps 2000", PETSC_TRUE, &longw);
  growth("heat", "-rw_heat_dim 1 -da_grid_x 31 -rw_heat_bc dirichlet -rw_steps 2000", PETSC_FALSE, &heat);
  rw_assert_all(!shortw.warned && shortw.efoldings < 10, "a window of 2 time units warned (%g e-foldings)", (double)shortw.efoldings);
  rw_assert_all(longw.warned && longw.efoldings > 10, "a window of 20 time units did not warn (%g e-foldings)", (double)longw.efoldings);
  rw_assert_all(heat.efoldings <= 0 && !heat.warned, "heat: the adjoint grew by %g e-foldings", (double)heat.efoldings);
}
END_TEST

START_TEST(test_bad_input)
{
  RwModel         model;
  RwTestProblem   p;
  RwLyapunov      ly;
  RwHorizonGrowth g;

  RW_CHECK(rw_test_model_type("l96", "-da_grid_x 12 -rw_steps 100", &model));
  RW_CHECK(rw_test_problem(model, &p));
  rw_assert_error(RwHorizonLyapunov(p.adj, p.m, p.u0, 10, 10, 4, &ly), "must split into 4 blocks");
  rw_assert_error(RwHorizonLyapunov(p.adj, p.m, p.u0, 0, 10, 1, &ly), "nblocks >= 2");
  rw_assert_error(RwAdjointGetHorizonGrowth(p.adj, &g), "-rw_adjoint_horizon");
  rw_assert_error(RwAdjointSetHorizonWarn(p.adj, -1), "must be finite and >= 0");
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("horizon");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_l96_chaotic);
  tcase_add_test(tc, test_l96_stable);
  tcase_add_test(tc, test_heat_negative);
  tcase_add_test(tc, test_horizon_warning);
  tcase_add_test(tc, test_bad_input);
  suite_add_tcase(s, tc);
  return s;
}
