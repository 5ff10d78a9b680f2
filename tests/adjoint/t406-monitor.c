/*
  Monitors: called once per step of every sweep with the phase, the step and
  its vector.  A solve shows every forward step once, the recomputations the
  driver counts, and the reversals n-1 .. 0 in order; the tangent sweep's du_k
  agrees with central differences of the forward states x_k(m +- eps dm); a
  monitor that rescales du_k rescales the rest of the tangent sweep (with
  dm = 0, where the tangent is linear in du).
*/
#include "rwtest.h"

typedef struct {
  PetscInt64 calls[4], nextreverse;
  PetscBool  inorder;
  PetscInt64 at;     /* the step whose vector is copied */
  Vec        copy;   /* ... into this */
  PetscReal  scale;  /* tangent: du_k *= scale at every step (1: none) */
  RwAdjointPhase phase; /* the phase whose vector is copied */
} Watch;

static PetscErrorCode watch(RwAdjoint adj, RwAdjointPhase phase, PetscInt64 k, Vec v, void *ctx)
{
  Watch *w = (Watch *)ctx;

  PetscFunctionBegin;
  w->calls[phase]++;
  if (phase == RW_PHASE_REVERSE) {
    w->inorder = (PetscBool)(w->inorder && k == w->nextreverse);
    w->nextreverse--;
  }
  if (phase == RW_PHASE_TANGENT && w->scale != 1) PetscCall(VecScale(v, w->scale));
  if (phase == w->phase && k == w->at && w->copy) PetscCall(VecCopy(v, w->copy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void reset(Watch *w, PetscInt64 n, RwAdjointPhase phase, PetscInt64 at, Vec copy, PetscReal scale)
{
  PetscMemzero(w, sizeof(*w));
  w->nextreverse = n - 1;
  w->inorder     = PETSC_TRUE;
  w->phase       = phase;
  w->at          = at;
  w->copy        = copy;
  w->scale       = scale;
}

START_TEST(test_phases)
{
  RwModel         model;
  RwTestProblem   p;
  RwAdjointCounts c;
  Watch           w;
  PetscInt64      n;

  RW_CHECK(rw_test_model("-da_grid_x 20 -da_grid_y 16 -rw_steps 40 -rw_schedule_type revolve -rw_schedule_ram_slots 4", &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwAdjointGetSteps(p.adj, &n));
  reset(&w, n, RW_PHASE_FORWARD, -1, NULL, 1);
  RW_CHECK(RwAdjointMonitorSet(p.adj, watch, &w, NULL));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, NULL, p.g, p.gu0));
  RW_CHECK(RwAdjointGetCounts(p.adj, &c));
  rw_assert_all(w.calls[RW_PHASE_FORWARD] == n && w.calls[RW_PHASE_FORWARD] + w.calls[RW_PHASE_RECOMPUTE] == c.forward_steps, "forward calls %" PetscInt64_FMT " (expected %" PetscInt64_FMT "), recompute calls %" PetscInt64_FMT ", driver's forward steps %" PetscInt64_FMT, w.calls[RW_PHASE_FORWARD], n, w.calls[RW_PHASE_RECOMPUTE], c.forward_steps);
  rw_assert_all(w.calls[RW_PHASE_REVERSE] == n && w.inorder && w.calls[RW_PHASE_TANGENT] == 0, "reverse calls %" PetscInt64_FMT " in order %d, tangent calls %" PetscInt64_FMT, w.calls[RW_PHASE_REVERSE], (int)w.inorder, w.calls[RW_PHASE_TANGENT]);
  if (!rw_test_rank()) printf("# revolve, %" PetscInt64_FMT " steps: %" PetscInt64_FMT " forward, %" PetscInt64_FMT " recompute, %" PetscInt64_FMT " reverse calls\n", n, w.calls[0], w.calls[1], w.calls[2]);
  RW_CHECK(RwAdjointMonitorCancel(p.adj));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

/* du_k from the tangent sweep against (x_k(m + eps dm) - x_k(m - eps dm)) / (2 eps) */
START_TEST(test_tangent_states)
{
  RwModel       model;
  RwTestProblem p;
  Watch         w;
  Vec           dm, mp, du0, du, xp, xm, kappa;
  PetscReal     eps = 1e-5, dJ, err, ref, err2, ref2;
  PetscInt64    n, at;

  RW_CHECK(rw_test_model("-da_grid_x 20 -da_grid_y 16 -rw_steps 30", &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwAdjointGetSteps(p.adj, &n));
  at = n / 2;
  RW_CHECK(VecDuplicate(p.m, &dm));
  RW_CHECK(VecDuplicate(p.m, &mp));
  RW_CHECK(VecSet(dm, 0));
  RW_CHECK(RwModelGetParameterField(model, dm, 0, &kappa));
  RW_CHECK(RwModelGetParameterField(model, p.m, 0, &xp));
  RW_CHECK(VecCopy(xp, kappa)); /* a relative change of kappa */
  RW_CHECK(RwModelRestoreParameterField(model, p.m, 0, &xp));
  RW_CHECK(RwModelRestoreParameterField(model, dm, 0, &kappa));
  RW_CHECK(VecDuplicate(p.u0, &du0));
  RW_CHECK(VecDuplicate(p.u0, &du));
  RW_CHECK(VecDuplicate(p.u0, &xp));
  RW_CHECK(VecDuplicate(p.u0, &xm));
  RW_CHECK(VecSet(du0, 0));
  reset(&w, n, RW_PHASE_TANGENT, at, du, 1);
  RW_CHECK(RwAdjointMonitorSet(p.adj, watch, &w, NULL));
  RW_CHECK(RwTangentSolve(p.adj, p.m, dm, p.u0, du0, &dJ));
  rw_assert_all(w.calls[RW_PHASE_TANGENT] == n, "tangent calls %" PetscInt64_FMT ", expected %" PetscInt64_FMT, w.calls[RW_PHASE_TANGENT], n);
  w.phase = RW_PHASE_FORWARD;
  w.copy  = xp;
  RW_CHECK(VecWAXPY(mp, eps, dm, p.m));
  RW_CHECK(RwAdjointForward(p.adj, mp, p.u0, NULL, NULL));
  w.copy = xm;
  RW_CHECK(VecWAXPY(mp, -eps, dm, p.m));
  RW_CHECK(RwAdjointForward(p.adj, mp, p.u0, NULL, NULL));
  RW_CHECK(VecAXPY(xp, -1, xm));
  RW_CHECK(VecScale(xp, 1 / (2 * eps)));
  RW_CHECK(VecNorm(du, NORM_2, &ref));
  RW_CHECK(VecAXPY(xp, -1, du));
  RW_CHECK(VecNorm(xp, NORM_2, &err));
  rw_assert_all(ref > 0 && err < 1e-6 * ref, "du_%" PetscInt64_FMT ": |FD - tangent| = %g, |tangent| = %g", at, (double)err, (double)ref);
  /* with dm = 0 the tangent is linear in du: halving du_k at every step halves du_n n times */
  RW_CHECK(VecSet(dm, 0));
  RW_CHECK(VecCopy(p.u0, du0));
  w.phase = RW_PHASE_TANGENT;
  w.at    = n;
  w.copy  = xm;
  RW_CHECK(RwTangentSolve(p.adj, p.m, dm, p.u0, du0, &dJ));
  w.scale = 0.5;
  w.copy  = du;
  RW_CHECK(RwTangentSolve(p.adj, p.m, dm, p.u0, du0, &dJ));
  RW_CHECK(VecNorm(xm, NORM_2, &ref2));
  RW_CHECK(VecAXPY(xm, -PetscPowReal(2.0, (PetscReal)n), du));
  RW_CHECK(VecNorm(xm, NORM_2, &err2));
  rw_assert_all(ref2 > 0 && err2 < 1e-12 * ref2, "rescaled tangent: |2^n du_n - du_n unscaled| = %g of %g", (double)err2, (double)ref2);
  if (!rw_test_rank()) printf("# du_%" PetscInt64_FMT " against central differences: relative error %.2e; rescaled sweep: %.2e\n", at, (double)(err / ref), (double)(err2 / ref2));
  RW_CHECK(VecDestroy(&dm));
  RW_CHECK(VecDestroy(&mp));
  RW_CHECK(VecDestroy(&du0));
  RW_CHECK(VecDestroy(&du));
  RW_CHECK(VecDestroy(&xp));
  RW_CHECK(VecDestroy(&xm));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("monitor");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_phases);
  tcase_add_test(tc, test_tangent_states);
  suite_add_tcase(s, tc);
  return s;
}
