/*
  The wave model's gradient through the driver with the receivers' misfit
  J = 1/2 sum_k sum_r (r_k - d_k)^2, for space orders 2, 4, 8 in 2D and 3D,
  sources and receivers off the grid points:
  - whole-run dot-product test (100 eps) and Taylor test (order >= 1.9);
  - every schedule and store gives store-all's J and dJ/dm bit for bit, in the
    forward steps the schedule predicts, and so do forward sweeps taking
    pairs of steps a pass (2D);
  - J and dJ/dm on this run's ranks are bitwise those of one rank (a model
    on PETSC_COMM_SELF built on every rank).
  The data are the traces of the default model; the run's m is that model
  with a smooth bump, so J > 0.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>
#include <petscdmda.h>
#include <unistd.h>

typedef struct {
  const char *opts;
  PetscInt    nrec;
  PetscReal   rec[5 * 3];
} WaveCase;

static const WaveCase cases[] = {
  {"-rw_wave_dim 2 -rw_wave_space_order 2 -da_grid_x 24 -da_grid_y 20 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_wave_sources 73.7,41.3", 5, {37.3, 21.9, 54.4, 22.3, 71.5, 20.1, 88.6, 23.7, 105.7, 21.2}},
  {"-rw_wave_dim 2 -rw_wave_space_order 4 -da_grid_x 24 -da_grid_y 20 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_wave_sources 73.7,41.3", 5, {37.3, 21.9, 54.4, 22.3, 71.5, 20.1, 88.6, 23.7, 105.7, 21.2}},
  {"-rw_wave_dim 2 -rw_wave_space_order 8 -da_grid_x 24 -da_grid_y 20 -rw_wave_nbl 4 -rw_wave_f0 0.03 -rw_wave_sources 73.7,41.3", 5, {37.3, 21.9, 54.4, 22.3, 71.5, 20.1, 88.6, 23.7, 105.7, 21.2}},
  {"-rw_wave_dim 3 -rw_wave_space_order 2 -da_grid_x 14 -da_grid_y 12 -da_grid_z 13 -rw_wave_nbl 3 -rw_wave_f0 0.03 -rw_wave_sources 33.7,21.3,28.9", 4, {13.3, 17.9, 11.7, 24.4, 21.2, 11.9, 35.5, 24.5, 12.2, 46.6, 27.8, 11.1}},
  {"-rw_wave_dim 3 -rw_wave_space_order 4 -da_grid_x 14 -da_grid_y 12 -da_grid_z 13 -rw_wave_nbl 3 -rw_wave_f0 0.03 -rw_wave_sources 33.7,21.3,28.9", 4, {13.3, 17.9, 11.7, 24.4, 21.2, 11.9, 35.5, 24.5, 12.2, 46.6, 27.8, 11.1}},
  {"-rw_wave_dim 3 -rw_wave_space_order 8 -da_grid_x 14 -da_grid_y 13 -da_grid_z 13 -rw_wave_nbl 3 -rw_wave_f0 0.03 -rw_wave_sources 33.7,21.3,28.9", 4, {13.3, 17.9, 11.7, 24.4, 21.2, 11.9, 35.5, 24.5, 12.2, 46.6, 27.8, 11.1}},
};
#define NCASES ((int)(sizeof(cases) / sizeof(cases[0])))

static const char *settings[] = {
  "-rw_schedule_type storeall",
  "-rw_schedule_type periodic -rw_schedule_period 4",
  "-rw_schedule_type revolve -rw_schedule_ram_slots 3",
  "-rw_schedule_type revolve -rw_schedule_ram_slots 2 -rw_store_type hdf5",
  "-rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 3 -rw_schedule_costs 1,1,2,2",
  /* 2D only: forward sweeps in pairs of steps a pass (RwModelStepBlock()) */
  "-rw_model_step_block 2 -rw_schedule_type storeall", /* ADVANCE, STORE, ADVANCE fused */
  "-rw_model_step_block 2 -rw_schedule_type revolve -rw_schedule_ram_slots 3",
  "-rw_model_step_block 2 -rw_schedule_type multilevel -rw_schedule_ram_slots 2 -rw_schedule_disk_slots 3 -rw_schedule_costs 1,1,2,2",
};
#define NPLAIN 5 /* the settings every case runs; the rest, 2D cases */

static char dir[PETSC_MAX_PATH_LEN];


/* m = the default model times 1 + 0.08 exp(-|i - centre|^2 / 8) (grid indices), data = the default model's traces */
static PetscErrorCode problem(MPI_Comm comm, const WaveCase *c, const char *extra, RwTestProblem *P)
{
  char             opts[PETSC_MAX_PATH_LEN + 1024];
  const PetscReal  centre[3] = {0.45, 0.4, 0.5};
  RwModel          model;
  PetscInt64       n;
  PetscReal       *d;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s %s", c->opts, extra));
  PetscCall(rw_test_model_type_comm(comm, "wave", opts, &model));
  PetscCall(rw_test_problem_begin(model, P));
  PetscCall(RwModelGetSteps(model, &n));
  PetscCall(PetscMalloc1((n + 1) * c->nrec, &d));
  PetscCall(RwModelWaveRecord(model, P->m, c->nrec, c->rec, d));
  PetscCall(rw_test_bump(model, P->m, 0.08, 8, centre));
  PetscCall(RwObjectiveAddWaveReceivers(P->obj, c->nrec, c->rec, d));
  PetscCall(PetscFree(d));
  PetscCall(rw_test_problem_driver(P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode problem_destroy(RwTestProblem *P)
{
  RwModel model = P->model;

  PetscFunctionBegin;
  PetscCall(rw_test_problem_destroy(P));
  PetscCall(RwModelDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode gather_field(RwTestProblem *P, PetscReal **out, PetscInt *n)
{
  Vec                f, nat, all;
  VecScatter         sc;
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(P->model, P->g, 0, &f));
  PetscCall(DMDACreateNaturalVector(P->model->fda, &nat));
  PetscCall(DMDAGlobalToNaturalBegin(P->model->fda, f, INSERT_VALUES, nat));
  PetscCall(DMDAGlobalToNaturalEnd(P->model->fda, f, INSERT_VALUES, nat));
  PetscCall(RwModelRestoreParameterField(P->model, P->g, 0, &f));
  PetscCall(VecScatterCreateToAll(nat, &sc, &all));
  PetscCall(VecScatterBegin(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, nat, all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetSize(all, n));
  PetscCall(PetscMalloc1(*n, out));
  PetscCall(VecGetArrayRead(all, &a));
  for (PetscInt i = 0; i < *n; i++) (*out)[i] = PetscRealPart(a[i]);
  PetscCall(VecRestoreArrayRead(all, &a));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&all));
  PetscCall(VecDestroy(&nat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_dot_taylor)
{
  for (int i = 0; i < NCASES; i++) {
    RwTestProblem  P;
    RwDotTest    dot;
    RwTaylorTest tay;

    RW_CHECK(problem(PETSC_COMM_WORLD, &cases[i], "-rw_steps 20", &P));
    RW_CHECK(RwVerifyDot(P.adj, P.m, P.u0, 7, &dot));
    RW_CHECK(RwVerifyTaylor(P.adj, P.m, P.u0, 11, &tay));
    if (!rw_test_rank()) {
      printf("# %s\n#   dot: tangent %+.16e adjoint %+.16e err %.3g eps\n#   taylor:", cases[i].opts, dot.lhs, dot.rhs, dot.err);
      for (PetscInt t = 0; t < tay.n; t++) printf(" r1=%.3e (order %.2f)", tay.r1[t], tay.order1[t]);
      printf("\n");
    }
    rw_assert_all(dot.lhs != 0, "%s: the tangent is 0: the test would prove nothing", cases[i].opts);
    rw_assert_all(dot.err <= 100, "%s: whole-run dot-product error %g eps exceeds 100", cases[i].opts, dot.err);
    rw_assert_all(tay.min_order1 >= 1.9, "%s: Taylor remainder order %g < 1.9", cases[i].opts, tay.min_order1);
    RW_CHECK(problem_destroy(&P));
  }
}
END_TEST

START_TEST(test_schedules_and_ranks)
{
  RW_CHECK(rw_test_tmpdir(dir, sizeof(dir)));
  for (int c = 0; c < NCASES; c++) {
    const int  ns = sizeof(settings) / sizeof(settings[0]);
    PetscReal *g0 = NULL, J0 = 0, *gs, Js;
    PetscInt   n0 = 0, n;

    for (int i = 0; i < ns; i++) {
      char             extra[PETSC_MAX_PATH_LEN + 256];
      RwTestProblem      P;
      RwScheduleCounts pred;
      RwAdjointCounts  cnt;
      RwSchedule       sched;
      PetscReal        J, *g;

      if (i >= NPLAIN && !strstr(cases[c].opts, "-rw_wave_dim 2")) continue;
      snprintf(extra, sizeof(extra), "%s -rw_steps 23 -rw_store_hdf5_file %s/wave%d-%d.h5", settings[i], dir, c, i);
      RW_CHECK(problem(PETSC_COMM_WORLD, &cases[c], extra, &P));
      RW_CHECK(RwAdjointGetSchedule(P.adj, &sched));
      RW_CHECK(RwScheduleGetPrediction(sched, &pred));
      RW_CHECK(RwAdjointSolve(P.adj, P.m, P.u0, &J, P.g, P.gu0));
      RW_CHECK(RwAdjointGetCounts(P.adj, &cnt));
      RW_CHECK(gather_field(&P, &g, &n));
      if (!i) {
        g0 = g, n0 = n, J0 = J;
      } else {
        rw_assert_all(J == J0 && n == n0 && !memcmp(g, g0, n * sizeof(PetscReal)), "%s %s: J %.17g (storeall %.17g), dJ/dm identical %d", cases[c].opts, settings[i], J, J0, n == n0 && !memcmp(g, g0, n * sizeof(PetscReal)));
        RW_CHECK(PetscFree(g));
      }
      rw_assert_all(cnt.forward_steps == pred.forward_steps, "%s %s: %lld forward steps, the schedule predicted %lld", cases[c].opts, settings[i], (long long)cnt.forward_steps, (long long)pred.forward_steps);
      RW_CHECK(problem_destroy(&P));
    }
    /* the same problem on one rank (every rank builds its own) */
    {
      RwTestProblem P;
      char        extra[PETSC_MAX_PATH_LEN + 64];
      PetscReal   norm = 0;

      snprintf(extra, sizeof(extra), "-rw_steps 23 -rw_store_hdf5_file %s/wave-self-%d-%d.h5", dir, c, rw_test_rank());
      RW_CHECK(problem(PETSC_COMM_SELF, &cases[c], extra, &P));
      RW_CHECK(RwAdjointSolve(P.adj, P.m, P.u0, &Js, P.g, P.gu0));
      RW_CHECK(gather_field(&P, &gs, &n));
      for (PetscInt q = 0; q < n; q++) norm += gs[q] * gs[q];
      if (!rw_test_rank()) printf("# %-110s J %.17g |dJ/dm| %.17g on %d ranks and on 1: %s\n", cases[c].opts, J0, PetscSqrtReal(norm), rw_test_size(), J0 == Js && n == n0 && !memcmp(gs, g0, n * sizeof(PetscReal)) ? "identical" : "DIFFERENT");
      rw_assert_all(J0 > 0 && norm > 0, "%s: J %g, |dJ/dm|^2 %g: the test would prove nothing", cases[c].opts, J0, norm);
      rw_assert_all(J0 == Js && n == n0 && !memcmp(gs, g0, n * sizeof(PetscReal)), "%s: on %d ranks J %.17g, on one %.17g; dJ/dm identical %d", cases[c].opts, rw_test_size(), J0, Js, n == n0 && !memcmp(gs, g0, n * sizeof(PetscReal)));
      RW_CHECK(PetscFree(gs));
      RW_CHECK(problem_destroy(&P));
    }
    RW_CHECK(PetscFree(g0));
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  if (!rw_test_rank()) ck_assert_msg(rmdir(dir) == 0, "the stores left files in %s", dir);
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("wave-gradient");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_dot_taylor);
  tcase_add_test(tc, test_schedules_and_ranks);
  suite_add_tcase(s, tc);
  return s;
}
