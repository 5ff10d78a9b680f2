/*
  The Lorenz-96 model (l96) beyond the per-type suites (t106, t408):
  - the time average of the mean (RwObjectiveAddTimeAverage()) over a window
    of 2 time units: whole-run dot-product and Taylor tests;
  - J, dJ/dF, dJ/dF_i and dJ/dx0 are bitwise the same on PETSC_COMM_WORLD
    with revolve checkpoints and on every rank alone with store-all: across
    ranks and schedules at once;
  - dJ/dF is the exact sum of dJ/dF_i, bit for bit;
  - one step against a hand-computed RK4 step at a point;
  - bad input: a ring of 3, a non-finite F or F_i stop with errors naming them.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>
#include <math.h>

static const char *window = "-da_grid_x 40 -rw_steps 200", *taylorwindow = "-da_grid_x 40 -rw_steps 50";

/* The model with the time average as its objective, on comm */
static void average_problem(MPI_Comm comm, const char *opts, RwTestProblem *p)
{
  RwModel model;

  RW_CHECK(rw_test_model_type_comm(comm, "l96", opts, &model));
  RW_CHECK(rw_test_problem_begin(model, p));
  RW_CHECK(RwObjectiveAddTimeAverage(p->obj, 1.0));
  RW_CHECK(rw_test_problem_driver(p));
}

static void average_problem_destroy(RwTestProblem *p)
{
  RwModel model = p->model;

  RW_CHECK(rw_test_problem_destroy(p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_average_dot_and_taylor)
{
  RwTestProblem p;
  RwDotTest     dot;
  RwTaylorTest  tay;

  average_problem(PETSC_COMM_WORLD, window, &p);
  RW_CHECK(RwVerifyDot(p.adj, p.m, p.u0, 3, &dot));
  average_problem_destroy(&p);
  /* the Taylor test's steps (0.01 / 2^i along an O(1) direction) are in its linear range over half a time unit */
  average_problem(PETSC_COMM_WORLD, taylorwindow, &p);
  RW_CHECK(RwVerifyTaylor(p.adj, p.m, p.u0, 5, &tay));
  if (!rw_test_rank()) {
    printf("# l96 time average %s: dot %+.16e %+.16e err %.3g eps; %s: taylor", window, dot.lhs, dot.rhs, dot.err, taylorwindow);
    for (PetscInt i = 0; i < tay.n; i++) printf(" %.2f", tay.order1[i]);
    printf("\n");
  }
  rw_assert_all(dot.lhs != 0, "the tangent is 0: the test would prove nothing");
  rw_assert_all(dot.err <= 1000, "whole-run dot-product error %g eps exceeds 1000 (200 RK4 steps)", dot.err);
  rw_assert_all(tay.min_order1 >= 1.9, "Taylor remainder order %g < 1.9", tay.min_order1);
  average_problem_destroy(&p);
}
END_TEST

typedef struct {
  PetscReal J, dF, dFsum;
  uint64_t  dFi, du0;
} Digest;

static void gradient_digest(MPI_Comm comm, const char *schedule, Digest *d)
{
  char          opts[256];
  RwTestProblem p;
  Vec           gfi;

  snprintf(opts, sizeof(opts), "%s %s", window, schedule);
  average_problem(comm, opts, &p);
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &d->J, p.g, p.gu0));
  RW_CHECK(RwModelGetParameterBlock(p.model, p.g, 0, &d->dF));
  RW_CHECK(RwModelGetParameterField(p.model, p.g, 0, &gfi));
  RW_CHECK(RwVecChecksum(gfi, &d->dFi));
  RW_CHECK(RwVecSumRepro(gfi, &d->dFsum));
  RW_CHECK(RwModelRestoreParameterField(p.model, p.g, 0, &gfi));
  RW_CHECK(RwVecChecksum(p.gu0, &d->du0));
  average_problem_destroy(&p);
}

START_TEST(test_same_bits_on_any_ranks_and_schedules)
{
  Digest world, self;

  gradient_digest(PETSC_COMM_WORLD, "-rw_schedule_type revolve -rw_schedule_ram_slots 5", &world);
  gradient_digest(PETSC_COMM_SELF, "-rw_schedule_type storeall", &self);
  if (!rw_test_rank()) printf("# l96 <x> over T = 2 on %d ranks: J %.17g dJ/dF %.17g (sum of dJ/dF_i %.17g)\n", rw_test_size(), world.J, world.dF, world.dFsum);
  rw_assert_all(world.dF != 0, "dJ/dF is 0: the comparison would prove nothing");
  rw_assert_all(!memcmp(&world.J, &self.J, sizeof(PetscReal)), "J %a (revolve, %d ranks) and %a (storeall, one rank) differ", world.J, rw_test_size(), self.J);
  rw_assert_all(!memcmp(&world.dF, &self.dF, sizeof(PetscReal)), "dJ/dF %a and %a differ", world.dF, self.dF);
  rw_assert_all(world.dFi == self.dFi, "dJ/dF_i differs between revolve on %d ranks and storeall on one", rw_test_size());
  rw_assert_all(world.du0 == self.du0, "dJ/dx0 differs between revolve on %d ranks and storeall on one", rw_test_size());
  rw_assert_all(!memcmp(&world.dF, &world.dFsum, sizeof(PetscReal)), "dJ/dF %a is not the exact sum %a of dJ/dF_i", world.dF, world.dFsum);
}
END_TEST

/* x_i at natural index i of a vector, on every rank */
static PetscReal value_at(Vec v, PetscInt i)
{
  PetscInt  lo, hi;
  PetscReal x = 0;

  RW_CHECK(VecGetOwnershipRange(v, &lo, &hi));
  if (i >= lo && i < hi) {
    const PetscScalar *a;
    RW_CHECK(VecGetArrayRead(v, &a));
    x = PetscRealPart(a[i - lo]);
    RW_CHECK(VecRestoreArrayRead(v, &a));
  }
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPIU_REAL, MPI_SUM, PETSC_COMM_WORLD);
  return x;
}

/* f at point i of the ring, from the whole state on every rank */
static PetscReal f_at(const PetscReal *y, PetscInt N, PetscInt i, PetscReal F)
{
  return (y[(i + 1) % N] - y[(i + N - 2) % N]) * y[(i + N - 1) % N] - y[i] + F;
}

START_TEST(test_one_step_is_rk4)
{
  const PetscInt N = 12;
  const PetscReal F = 8, h = 0.05;
  RwModel        model;
  Vec            m, u0, u1;
  PetscReal      x[12], y[12], k[4][12], err = 0;

  RW_CHECK(rw_test_model_type("l96", "-da_grid_x 12 -rw_dt 0.05", &model));
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelCreateState(model, &u0));
  RW_CHECK(VecDuplicate(u0, &u1));
  RW_CHECK(RwModelGetDefaults(model, m, u0, NULL));
  RW_CHECK(RwModelSetParameters(model, m));
  RW_CHECK(RwModelStep(model, 0, u0, u1));
  for (PetscInt i = 0; i < N; i++) x[i] = value_at(u0, i);
  for (PetscInt s = 0; s < 4; s++) {
    const PetscReal a = s == 0 ? 0 : s == 3 ? h : h / 2;
    for (PetscInt i = 0; i < N; i++) y[i] = x[i] + (s ? a * k[s - 1][i] : 0);
    for (PetscInt i = 0; i < N; i++) k[s][i] = f_at(y, N, i, F);
  }
  for (PetscInt i = 0; i < N; i++) {
    const PetscReal want = x[i] + h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
    err = PetscMax(err, PetscAbsReal(value_at(u1, i) - want) / PetscAbsReal(want));
  }
  rw_assert_all(x[3] != x[4], "the default x0 is uniform: the check would prove little");
  rw_assert_all(err < 1e-14, "one l96 step differs from RK4 by %g (relative)", err);
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(VecDestroy(&u0));
  RW_CHECK(VecDestroy(&u1));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

START_TEST(test_bad_input)
{
  RwModel model;
  Vec     m, fi;

  rw_assert_error(rw_test_model_type_comm(PETSC_COMM_SELF, "l96", "-da_grid_x 3", &model), "at least 4 points (-da_grid_x)");
  RW_CHECK(rw_test_model_type("l96", "-da_grid_x 10", &model));
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  {
    PetscReal F = INFINITY;
    RW_CHECK(RwModelSetParameterBlock(model, m, 0, &F));
  }
  rw_assert_error(RwModelSetParameters(model, m), "forcing F (parameter block \"F\")");
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(RwModelGetParameterField(model, m, 0, &fi));
  {
    PetscInt     lo, hi;
    PetscScalar *a;

    RW_CHECK(VecGetOwnershipRange(fi, &lo, &hi));
    RW_CHECK(VecGetArray(fi, &a));
    if (7 >= lo && 7 < hi) a[7 - lo] = NAN;
    RW_CHECK(VecRestoreArray(fi, &a));
  }
  RW_CHECK(RwModelRestoreParameterField(model, m, 0, &fi));
  rw_assert_error(RwModelSetParameters(model, m), "Fi");
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("l96");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_average_dot_and_taylor);
  tcase_add_test(tc, test_same_bits_on_any_ranks_and_schedules);
  tcase_add_test(tc, test_one_step_is_rk4);
  tcase_add_test(tc, test_bad_input);
  suite_add_tcase(s, tc);
  return s;
}
