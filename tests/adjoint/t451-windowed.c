/*
  The remedy past the horizon (src/horizon/windowed.c): the sensitivity of
  Lorenz-96's long-time average <x> (N = 40, F = 8) to F,
  - by the ensemble-averaged windowed adjoint (RwHorizonEnsembleSensitivity():
    windows on the attractor as the members of an RwProblem, on groups of
    ranks), value +- standard error;
  - by central finite differences of long forward averages at F +- dF,
    computed here with their own error bar (batch means);
  the two agree within 3 of their combined standard errors.  The windowed estimate is
  the same bits with 1 group and with one group per rank.
*/
#include "rwtest.h"

/* Sizes for CI: 100 windows of 1 time unit (10^4 model steps forward and
   reverse) against finite differences of 2 x 40 blocks of 50 time units
   (4 10^5 steps).  At 10 times these sizes (doc/chaos.md) the two differ
   by 0.017 +- 0.003: the windows' bias, below this test's error bars */
#define WINDOWS      100
#define WINDOW_STEPS 100
#define FD_DF        0.5
#define FD_BLOCKS    40
#define FD_LEN       5000

#define NWIN    WINDOWS
#define SPINUP  2000 /* 20 time units onto the attractor */
#define SPACING 200  /* 2 time units between window starts */

static PetscInt64 window = WINDOW_STEPS;

static PetscErrorCode SetWindow(RwAdjoint adj, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(RwAdjointSetSteps(adj, *(PetscInt64 *)ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AddAverage(RwProblem prob, RwObjective obj, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(RwObjectiveAddTimeAverage(obj, 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The window starts, from a driver of the time average on all ranks */
static void window_starts(Vec starts[])
{
  RwModel       model;
  RwTestProblem p;

  RW_CHECK(rw_test_model_type("l96", "-da_grid_x 40", &model));
  RW_CHECK(rw_test_problem_begin(model, &p));
  RW_CHECK(RwObjectiveAddTimeAverage(p.obj, 1.0));
  RW_CHECK(rw_test_problem_driver(&p));
  for (PetscInt i = 0; i < NWIN; i++) RW_CHECK(RwModelCreateState(model, &starts[i]));
  RW_CHECK(RwHorizonWindowStarts(model, p.m, p.u0, SPINUP, SPACING, NWIN, starts));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

static void windowed(const char *opts, Vec starts[], RwEstimate *est)
{
  static int     count = 0;
  char           pre[32];
  RwProblem      prob;
  RwModel        model;
  RwObservations obs;

  snprintf(pre, sizeof(pre), "w%d_", count++);
  RW_CHECK(PetscOptionsPrefixPush(NULL, pre));
  RW_CHECK(PetscOptionsInsertString(NULL, opts));
  RW_CHECK(PetscOptionsPrefixPop(NULL));
  RW_CHECK(RwProblemCreate(PETSC_COMM_WORLD, &prob));
  RW_CHECK(RwProblemSetOptionsPrefix(prob, pre));
  RW_CHECK(RwProblemSetModelType(prob, "l96"));
  RW_CHECK(RwProblemSetAdjointDefaults(prob, SetWindow, &window));
  RW_CHECK(RwProblemSetObjectiveTerms(prob, AddAverage, NULL));
  RW_CHECK(RwProblemGetModel(prob, &model));
  RW_CHECK(RwObservationsCreate(PETSC_COMM_WORLD, &obs));
  RW_CHECK(RwObservationsSetModel(obs, model));
  RW_CHECK(RwObservationsSetNumMembers(obs, NWIN));
  for (PetscInt i = 0; i < NWIN; i++) RW_CHECK(RwObservationsSetKnown(obs, i, "u0", starts[i]));
  RW_CHECK(RwProblemSetObservations(prob, obs));
  RW_CHECK(RwProblemSetFromOptions(prob));
  RW_CHECK(RwProblemSetUp(prob));
  RW_CHECK(RwHorizonEnsembleSensitivity(prob, "F", 0, est));
  if (!rw_test_rank()) printf("# windowed adjoint %s: d<x>/dF = %.6f +- %.6f over %" PetscInt_FMT " windows of %lld steps (<x> = %.5f +- %.5f; %lld model steps)\n", opts, (double)est->value, (double)est->error, est->members, (long long)window, (double)est->J, (double)est->Jerror, (long long)est->steps);
  RW_CHECK(RwObservationsDestroy(&obs));
  RW_CHECK(RwProblemDestroy(&prob));
}

/* (<x>(F + dF) - <x>(F - dF)) / 2 dF over nb blocks of len steps each, from the state after
   the spin-up: mean and standard error.  On each rank alone: long runs of 40 points are
   cheapest there (the same bits as on all ranks) */
static void finite_differences(PetscReal dF, PetscInt nb, PetscInt64 len, PetscReal *fd, PetscReal *err)
{
  RwModel       model;
  RwTestProblem p;
  Vec           u[2], mp[2];
  PetscReal     s = 0, q = 0, v[64];

  char          opts[64];

  snprintf(opts, sizeof(opts), "-da_grid_x 40 -rw_steps %lld", (long long)len);
  RW_CHECK(rw_test_model_type_comm(PETSC_COMM_SELF, "l96", opts, &model));
  RW_CHECK(rw_test_problem_begin(model, &p));
  RW_CHECK(RwObjectiveAddTimeAverage(p.obj, 1.0));
  RW_CHECK(rw_test_problem_driver(&p));
  RW_CHECK(RwHorizonWindowStarts(model, p.m, p.u0, SPINUP, 1, 1, &p.u0));
  for (int j = 0; j < 2; j++) {
    PetscReal F = 8 + (j ? -dF : dF);
    RW_CHECK(VecDuplicate(p.m, &mp[j]));
    RW_CHECK(VecCopy(p.m, mp[j]));
    RW_CHECK(RwModelSetParameterBlock(model, mp[j], 0, &F));
    RW_CHECK(VecDuplicate(p.u0, &u[j]));
    RW_CHECK(VecCopy(p.u0, u[j]));
  }
  for (PetscInt b = 0; b < nb; b++) {
    PetscReal J[2];
    for (int j = 0; j < 2; j++) RW_CHECK(RwAdjointForward(p.adj, mp[j], u[j], &J[j], u[j]));
    v[b] = (J[0] - J[1]) / (2 * dF);
    s += v[b];
  }
  *fd = s / nb;
  for (PetscInt b = 0; b < nb; b++) q += PetscSqr(v[b] - *fd);
  *err = PetscSqrtReal(q / (nb - 1) / nb);
  if (!rw_test_rank()) printf("# finite differences, dF = %g, %" PetscInt_FMT " blocks of %lld steps: d<x>/dF = %.6f +- %.6f\n", (double)dF, nb, (long long)len, (double)*fd, (double)*err);
  for (int j = 0; j < 2; j++) {
    RW_CHECK(VecDestroy(&u[j]));
    RW_CHECK(VecDestroy(&mp[j]));
  }
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_windowed_against_finite_differences)
{
  Vec        starts[NWIN];
  RwEstimate one, split;
  PetscReal  fd, fderr;
  char       opts[64];

  window_starts(starts);
  windowed("-da_grid_x 40", starts, &one);
  snprintf(opts, sizeof(opts), "-da_grid_x 40 -rw_ensemble_groups %d", rw_test_size());
  windowed(opts, starts, &split);
  finite_differences(FD_DF, FD_BLOCKS, FD_LEN, &fd, &fderr);
  rw_assert_all(!memcmp(&one.value, &split.value, sizeof(PetscReal)) && !memcmp(&one.error, &split.error, sizeof(PetscReal)), "the windowed estimate %a +- %a with one group, %a +- %a with %d", one.value, one.error, split.value, split.error, rw_test_size());
  rw_assert_all(PetscAbsReal(one.value - fd) <= 3 * PetscSqrtReal(PetscSqr(one.error) + PetscSqr(fderr)), "windowed %g +- %g against finite differences %g +- %g", (double)one.value, (double)one.error, (double)fd, (double)fderr);
  for (PetscInt i = 0; i < NWIN; i++) RW_CHECK(VecDestroy(&starts[i]));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("windowed");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_windowed_against_finite_differences);
  suite_add_tcase(s, tc);
  return s;
}
