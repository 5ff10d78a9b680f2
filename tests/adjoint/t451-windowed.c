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
#include "rwl96fd.h"

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
  rw_l96_finite_differences(SPINUP, FD_DF, FD_BLOCKS, FD_LEN, &fd, &fderr);
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
