/*
  Shadowing past the horizon (src/horizon/shadowing.c, NILSS):
  - Lorenz-96, N = 40, F = 8: d<x>/dF by NILSS (14 homogeneous tangents: the
    13 positive exponents and one more; 32 runs of 10 time units, about +-8%)
    against central finite differences of long forward averages computed here
    (about +-6%), within 3 of their combined standard errors;
  - the estimate is the same bits on all ranks and on one, with 200 segments
    (the least squares' banded solve);
  - Lorenz-96, F = 1/2 (stable: the ring rests at x = F, so <x> = F and
    d<x>/dF = 1 exactly): NILSS gives 1 up to the start's transient, O(1/T),
    with 50 and with 200 segments;
  - bad arguments stop with errors that name them; so do objectives that are not
    time averages of the state alone (a terminal misfit, a term with a direct
    dependence on the parameters, no term at all).
*/
#include "rwtest.h"
#include "rwl96fd.h"

#define SPINUP    2000 /* 20 time units onto the attractor */
#define FD_DF     0.5
#define FD_BLOCKS 40
#define FD_LEN    5000

/* NILSS over nruns runs of the driver's steps from consecutive points of one trajectory */
static void nilss(MPI_Comm comm, const char *opts, PetscInt nruns, PetscInt u, PetscInt64 seglen, PetscReal rest, RwEstimate *est)
{
  RwModel       model;
  RwTestProblem p;
  PetscInt64    n;
  Vec           starts[8];

  ck_assert(nruns <= 8);

  RW_CHECK(rw_test_model_type_comm(comm, "l96", opts, &model));
  RW_CHECK(rw_test_problem_begin(model, &p));
  RW_CHECK(RwObjectiveAddTimeAverage(p.obj, 1.0));
  RW_CHECK(rw_test_problem_driver(&p));
  RW_CHECK(RwAdjointGetSteps(p.adj, &n));
  for (PetscInt r = 0; r < nruns; r++) RW_CHECK(RwModelCreateState(model, &starts[r]));
  if (rest > 0)
    for (PetscInt r = 0; r < nruns; r++) RW_CHECK(VecSet(starts[r], rest));
  else RW_CHECK(RwHorizonWindowStarts(model, p.m, p.u0, SPINUP, n, nruns, starts));
  RW_CHECK(RwHorizonShadowingSensitivity(p.adj, p.m, nruns, starts, "F", 0, u, seglen, est));
  if (!rw_test_rank() || rest > 0) printf("# NILSS %s: d<x>/dF = %.6f +- %.6f (%" PetscInt_FMT " runs, %" PetscInt_FMT " homogeneous tangents, segments of %lld steps; <x> = %.5f; %lld model steps)\n", opts, (double)est->value, (double)est->error, nruns, u, (long long)seglen, (double)est->J, (long long)est->steps);
  for (PetscInt r = 0; r < nruns; r++) RW_CHECK(VecDestroy(&starts[r]));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

/* Work one rank does alone while the others do other work: rank k % size; its result to all */
static PetscBool mine(int k)
{
  return (PetscBool)(k % rw_test_size() == rw_test_rank());
}
static void share(int k, PetscReal *v)
{
  ck_assert(MPI_Bcast(v, 1, MPIU_REAL, k % rw_test_size(), PETSC_COMM_WORLD) == MPI_SUCCESS);
}

#define NRUNS 32 /* runs of 10 time units: the spread of single runs grows with their length
                    (rare large shadowing tangents), the bias falls like 1/T (doc/chaos.md) */

/* NILSS over NRUNS runs of the driver's steps from consecutive points of one trajectory, the
   runs dealt out to the ranks, each rank alone on its share; means and spreads pooled */
static void nilss_pooled(const char *opts, PetscInt u, PetscInt64 seglen, RwEstimate *est)
{
  RwModel       model;
  RwTestProblem p;
  PetscInt64    n;
  Vec           starts[NRUNS], mine[NRUNS];
  PetscInt      k = 0;
  RwEstimate    part;
  double        row[3], rows[3 * 64], q = 0, sum = 0, total = 0;

  ck_assert(rw_test_size() <= 64 && NRUNS / rw_test_size() >= 2);
  RW_CHECK(rw_test_model_type_comm(PETSC_COMM_SELF, "l96", opts, &model));
  RW_CHECK(rw_test_problem_begin(model, &p));
  RW_CHECK(RwObjectiveAddTimeAverage(p.obj, 1.0));
  RW_CHECK(rw_test_problem_driver(&p));
  RW_CHECK(RwAdjointGetSteps(p.adj, &n));
  for (PetscInt r = 0; r < NRUNS; r++) RW_CHECK(RwModelCreateState(model, &starts[r]));
  RW_CHECK(RwHorizonWindowStarts(model, p.m, p.u0, SPINUP, n, NRUNS, starts));
  for (PetscInt r = rw_test_rank(); r < NRUNS; r += rw_test_size()) mine[k++] = starts[r];
  RW_CHECK(RwHorizonShadowingSensitivity(p.adj, p.m, k, mine, "F", 0, u, seglen, &part));
  row[0] = k, row[1] = part.value, row[2] = PetscSqr(part.error) * k * (k - 1); /* count, mean, sum of squares */
  ck_assert(MPI_Allgather(row, 3, MPI_DOUBLE, rows, 3, MPI_DOUBLE, PETSC_COMM_WORLD) == MPI_SUCCESS);
  for (int r = 0; r < rw_test_size(); r++) sum += rows[3 * r] * rows[3 * r + 1], total += rows[3 * r];
  est->value = sum / total;
  for (int r = 0; r < rw_test_size(); r++) q += rows[3 * r + 2] + rows[3 * r] * PetscSqr(rows[3 * r + 1] - est->value);
  est->error = PetscSqrtReal(q / (total - 1) / total);
  if (!rw_test_rank()) printf("# NILSS %s: d<x>/dF = %.6f +- %.6f (%d runs over %d ranks, %" PetscInt_FMT " homogeneous tangents, segments of %lld steps)\n", opts, est->value, est->error, NRUNS, rw_test_size(), u, (long long)seglen);
  for (PetscInt r = 0; r < NRUNS; r++) RW_CHECK(VecDestroy(&starts[r]));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_nilss_against_finite_differences)
{
  RwEstimate est, self;
  PetscReal  fd, fderr;

  nilss_pooled("-da_grid_x 40 -rw_steps 1000", 14, 100, &est);
  if (mine(2)) rw_l96_finite_differences(SPINUP, FD_DF, FD_BLOCKS, FD_LEN, &fd, &fderr); /* one rank, while another checks the stable ring */
  share(2, &fd);
  share(2, &fderr);
  rw_assert_all(est.error < 0.1 * fd, "NILSS %g +- %g: an error bar wider than 10%% of the finite differences' %g", (double)est.value, (double)est.error, (double)fd);
  rw_assert_all(PetscAbsReal(est.value - fd) <= 3 * PetscSqrtReal(PetscSqr(est.error) + PetscSqr(fderr)), "NILSS %g +- %g against finite differences %g +- %g", (double)est.value, (double)est.error, (double)fd, (double)fderr);
  /* the same bits on one rank: a shorter run in 200 segments of 2 steps */
  nilss(PETSC_COMM_WORLD, "-da_grid_x 40 -rw_steps 400", 2, 14, 2, 0, &est);
  nilss(PETSC_COMM_SELF, "-da_grid_x 40 -rw_steps 400", 2, 14, 2, 0, &self);
  rw_assert_all(est.value != 0 && !PetscIsInfOrNanReal(est.value), "NILSS on a short run: %g", (double)est.value);
  rw_assert_all(!memcmp(&est.value, &self.value, sizeof(PetscReal)) && !memcmp(&est.error, &self.error, sizeof(PetscReal)), "NILSS %a +- %a on %d ranks, %a +- %a on one", est.value, est.error, rw_test_size(), self.value, self.error);
}
END_TEST

START_TEST(test_nilss_stable)
{
  RwEstimate est;
  PetscReal  T = 50; /* time units: 5000 steps of 0.01 */

  for (PetscInt64 seglen = 100; seglen >= 25; seglen /= 4) { /* 50 and 200 segments, on one rank each (it prints) */
    const int k = seglen == 100 ? 0 : 1;

    if (mine(k)) nilss(PETSC_COMM_SELF, "-da_grid_x 40 -rw_l96_forcing 0.5 -rw_steps 5000", 2, 4, seglen, 0.5, &est);
    share(k, &est.value);
    rw_assert_all(PetscAbsReal(est.value - 1) <= 2 / T, "F = 1/2, segments of %lld steps: NILSS d<x>/dF = %.12g, exactly 1 up to the start's transient (at most 2/T = %g)", (long long)seglen, (double)est.value, (double)(2 / T));
  }
}
END_TEST

/* A term that depends on the parameters directly (its ops have a gradient) and adds nothing */
static PetscErrorCode DirectValue(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, RwReproSum acc, PetscInt slot, void *ctx)
{
  return PETSC_SUCCESS;
}
static PetscErrorCode DirectAdjoint(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec lambda, void *ctx)
{
  return PETSC_SUCCESS;
}
static PetscErrorCode DirectGradient(RwObjective obj, PetscInt64 k, PetscReal w, Vec u, Vec g[], void *ctx)
{
  return PETSC_SUCCESS;
}

/* NILSS with an objective that is not a time average of the state alone: refused by name */
static void bad_objective(int which, const char *expected)
{
  const RwObjectiveTermOps ops = {NULL, DirectValue, DirectAdjoint, DirectGradient, NULL, NULL, NULL};
  RwModel                  model;
  RwTestProblem            t;
  RwEstimate               est;
  Vec                      starts[2];

  RW_CHECK(rw_test_model_type("l96", "-da_grid_x 12 -rw_steps 100", &model));
  RW_CHECK(rw_test_problem_begin(model, &t));
  if (which != 0) RW_CHECK(RwObjectiveAddTimeAverage(t.obj, 1.0));
  if (which == 1) RW_CHECK(RwObjectiveAddTerminalMisfit(t.obj, t.u0, 1.0));
  if (which == 2) RW_CHECK(RwObjectiveAddTerm(t.obj, "direct", &ops, RW_OBJECTIVE_ALL_STEPS, NULL, NULL, NULL));
  RW_CHECK(rw_test_problem_driver(&t));
  starts[0] = starts[1] = t.u0;
  rw_assert_error(RwHorizonShadowingSensitivity(t.adj, t.m, 2, starts, "F", 0, 2, 10, &est), expected);
  RW_CHECK(rw_test_problem_destroy(&t));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_bad_objective)
{
  bad_objective(0, "the driver's objective has no terms: add a time average");
  bad_objective(1, "the objective's term \"terminal\" is not a time average of a quantity linear in the state");
  bad_objective(2, "the objective's term \"direct\" depends on the parameters directly, which NILSS does not count");
}
END_TEST

START_TEST(test_bad_input)
{
  RwModel       model;
  RwTestProblem t;
  RwEstimate    est;
  Vec           starts[2];

  RW_CHECK(rw_test_model_type("l96", "-da_grid_x 12 -rw_steps 100", &model));
  RW_CHECK(rw_test_problem_begin(model, &t));
  RW_CHECK(RwObjectiveAddTimeAverage(t.obj, 1.0));
  RW_CHECK(rw_test_problem_driver(&t));
  starts[0] = starts[1] = t.u0;
  rw_assert_error(RwHorizonShadowingSensitivity(t.adj, t.m, 2, starts, "F", 0, 0, 10, &est), "0 homogeneous tangents for a state of 12 values");
  rw_assert_error(RwHorizonShadowingSensitivity(t.adj, t.m, 2, starts, "F", 0, 12, 10, &est), "need 1 <= tangents < the state's size");
  rw_assert_error(RwHorizonShadowingSensitivity(t.adj, t.m, 2, starts, "F", 0, 2, 30, &est), "segments of 30 steps must divide the run's 100 steps");
  rw_assert_error(RwHorizonShadowingSensitivity(t.adj, t.m, 2, starts, "F", 0, 2, 100, &est), "into at least 2 segments");
  rw_assert_error(RwHorizonShadowingSensitivity(t.adj, t.m, 1, starts, "F", 0, 2, 10, &est), "need at least 2 independent runs");
  rw_assert_error(RwHorizonShadowingSensitivity(t.adj, t.m, 2, starts, "G", 0, 2, 10, &est), "the parameter G is not a block");
  rw_assert_error(RwHorizonShadowingSensitivity(t.adj, t.m, 2, starts, "F", 3, 2, 10, &est), "index 3 is not one");
  RW_CHECK(rw_test_problem_destroy(&t));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("shadowing");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_bad_input);
  tcase_add_test(tc, test_bad_objective);
  tcase_add_test(tc, test_nilss_stable);
  tcase_add_test(tc, test_nilss_against_finite_differences);
  suite_add_tcase(s, tc);
  return s;
}
