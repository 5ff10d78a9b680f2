/*
  -tao_type oc (src/design/oc.c), the optimality-criteria update, on a problem
  whose answer is known: min sum_i c_i / x_i subject to sum_i w x_i <= V and
  0 <= x <= 1 (the compliance of springs in series: convex).  KKT gives
  x_i = min(1, sqrt(c_i / (lambda w))), lambda fixed by the volume; the test
  finds lambda by its own bisection.  Checked on 1 and 3 ranks:
  - OC lands on the KKT point (some entries at the bound 1), the volume held;
  - its iterates are the same bits on all ranks as on one rank alone;
  - it refuses to run without its volume constraint, or from an infeasible start.
*/
#include "rwtest.h"

#define N 60

static PetscReal C(PetscInt i)
{
  return i % 7 == 3 ? 40.0 : 1.0 + (PetscReal)(i % 5);
}

static PetscErrorCode Springs(Tao tao, Vec x, PetscReal *f, Vec g, void *ctx)
{
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           lo, hi;
  PetscReal          t[N];

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArray(g, &b));
  for (PetscInt i = lo; i < hi; i++) {
    t[i - lo] = C(i) / a[i - lo]; /* summed exactly below: f is the same bits on any rank count */
    b[i - lo] = -C(i) / (a[i - lo] * a[i - lo]);
  }
  PetscCall(VecRestoreArray(g, &b));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(RwGlobalSum(PetscObjectComm((PetscObject)x), hi - lo, t, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x* by bisection on lambda: sum w min(1, sqrt(c / (lambda w))) = V */
static void Exact(PetscReal w, PetscReal V, PetscReal *xs)
{
  PetscReal lo = 1e-12, hi = 1e12;

  for (int it = 0; it < 400; it++) {
    PetscReal mid = PetscSqrtReal(lo * hi), vol = 0;

    for (PetscInt i = 0; i < N; i++) vol += w * PetscMin(1, PetscSqrtReal(C(i) / (mid * w)));
    if (vol > V) lo = mid;
    else hi = mid;
  }
  for (PetscInt i = 0; i < N; i++) xs[i] = PetscMin(1, PetscSqrtReal(C(i) / (hi * w)));
}

/* OC from x = start on comm; the answer gathered on every rank */
static void Solve(MPI_Comm comm, PetscReal w, PetscReal V, PetscReal start, PetscReal *x, PetscInt *iters)
{
  Tao                tao;
  Vec                sol, wv, lb, ub, all;
  VecScatter         sc;
  const PetscScalar *a;

  RW_CHECK(VecCreateMPI(comm, PETSC_DECIDE, N, &sol));
  RW_CHECK(VecDuplicate(sol, &wv));
  RW_CHECK(VecDuplicate(sol, &lb));
  RW_CHECK(VecDuplicate(sol, &ub));
  RW_CHECK(VecSet(wv, w));
  RW_CHECK(VecSet(lb, 0));
  RW_CHECK(VecSet(ub, 1));
  RW_CHECK(VecSet(sol, start));
  RW_CHECK(TaoCreate(comm, &tao));
  RW_CHECK(TaoSetType(tao, TAOOC));
  RW_CHECK(TaoSetSolution(tao, sol));
  RW_CHECK(TaoSetVariableBounds(tao, lb, ub));
  RW_CHECK(TaoSetObjectiveAndGradient(tao, NULL, Springs, NULL));
  RW_CHECK(TaoOCSetVolume(tao, wv, V));
  RW_CHECK(TaoOCSetParameters(tao, 0.2, 0.5, 1e-13));
  RW_CHECK(TaoSetMaximumIterations(tao, 200));
  RW_CHECK(TaoSolve(tao));
  RW_CHECK(TaoGetIterationNumber(tao, iters));
  RW_CHECK(VecScatterCreateToAll(sol, &sc, &all));
  RW_CHECK(VecScatterBegin(sc, sol, all, INSERT_VALUES, SCATTER_FORWARD));
  RW_CHECK(VecScatterEnd(sc, sol, all, INSERT_VALUES, SCATTER_FORWARD));
  RW_CHECK(VecGetArrayRead(all, &a));
  for (PetscInt i = 0; i < N; i++) x[i] = PetscRealPart(a[i]);
  RW_CHECK(VecRestoreArrayRead(all, &a));
  RW_CHECK(VecScatterDestroy(&sc));
  RW_CHECK(VecDestroy(&all));
  RW_CHECK(TaoDestroy(&tao));
  RW_CHECK(VecDestroy(&sol));
  RW_CHECK(VecDestroy(&wv));
  RW_CHECK(VecDestroy(&lb));
  RW_CHECK(VecDestroy(&ub));
}

START_TEST(test_oc_finds_kkt_point)
{
  const PetscReal w = 1.0 / N, V = 0.4;
  PetscReal       xs[N], x[N], x1[N], err = 0, vol = 0;
  PetscInt        iters, iters1, atbound = 0;

  Exact(w, V, xs);
  Solve(PETSC_COMM_WORLD, w, V, V, x, &iters);
  for (PetscInt i = 0; i < N; i++) {
    err = PetscMax(err, PetscAbsReal(x[i] - xs[i]));
    vol += w * x[i];
    atbound += xs[i] == 1;
  }
  if (!rw_test_rank()) printf("# OC: %d iterations, |x - x*| %.3e, volume %.17g (bound %g), %d entries at 1\n", (int)iters, err, vol, V, (int)atbound);
  rw_assert_all(atbound > 0 && atbound < N, "the test problem should have some entries at the bound (%d)", (int)atbound);
  rw_assert_all(err < 1e-9, "OC ended %g from the KKT point", err);
  rw_assert_all(vol <= V * (1 + 1e-14) && vol >= V * (1 - 1e-9), "OC's volume %.17g, bound %.17g", vol, V);
  Solve(PETSC_COMM_SELF, w, V, V, x1, &iters1);
  rw_assert_all(iters == iters1 && !memcmp(x, x1, sizeof(x)), "OC on %d ranks (%d iterations) differs from one rank's (%d)", rw_test_size(), (int)iters, (int)iters1);
}
END_TEST

START_TEST(test_oc_refuses)
{
  Tao       tao;
  Vec       sol;
  PetscReal x[N];
  PetscInt  it;

  RW_CHECK(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, N, &sol));
  RW_CHECK(VecSet(sol, 0.5));
  RW_CHECK(TaoCreate(PETSC_COMM_WORLD, &tao));
  RW_CHECK(TaoSetType(tao, TAOOC));
  RW_CHECK(TaoSetSolution(tao, sol));
  RW_CHECK(TaoSetObjectiveAndGradient(tao, NULL, Springs, NULL));
  rw_assert_error(TaoSolve(tao), "-tao_type oc needs its volume constraint: TaoOCSetVolume()");
  rw_assert_error(TaoOCSetVolume(tao, sol, -1), "the bound > 0");
  RW_CHECK(TaoDestroy(&tao));
  RW_CHECK(VecDestroy(&sol));
  (void)x, (void)it;
}
END_TEST

START_TEST(test_oc_infeasible_start)
{
  Tao tao;
  Vec sol, w;

  RW_CHECK(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, N, &sol));
  RW_CHECK(VecDuplicate(sol, &w));
  RW_CHECK(VecSet(sol, 0.9));
  RW_CHECK(VecSet(w, 1.0 / N));
  RW_CHECK(TaoCreate(PETSC_COMM_WORLD, &tao));
  RW_CHECK(TaoSetType(tao, TAOOC));
  RW_CHECK(TaoSetSolution(tao, sol));
  RW_CHECK(TaoSetObjectiveAndGradient(tao, NULL, Springs, NULL));
  RW_CHECK(TaoOCSetVolume(tao, w, 0.4));
  rw_assert_error(TaoSolve(tao), "is above the bound");
  RW_CHECK(TaoDestroy(&tao));
  RW_CHECK(VecDestroy(&sol));
  RW_CHECK(VecDestroy(&w));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("oc");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_oc_finds_kkt_point);
  tcase_add_test(tc, test_oc_refuses);
  tcase_add_test(tc, test_oc_infeasible_start);
  suite_add_tcase(s, tc);
  return s;
}
