/*
  RwProblemEvaluate() as a whole, on 1-3 ranks in every number of groups
  that divides them: three heat experiments held in memory (RwObservations:
  their own sensors and steps, a common initial state, member 2's own), the
  unknown kappa (TV and l2 regularisers, a held strip), u0 (H1), log kappa
  (a program's own unknown, TV and l2 of kappa through its map) and, with
  the network term, theta (l2 on a block of scalars: weight decay).  Each
  passes the Taylor test (RwProblemVerifyTaylor()), gives the same J and
  gradient bit for bit in any number of groups, and the block's l2 is
  1/2 alpha |theta - theta_start|^2.  Bad set-ups stop with their cause (TV of a block, a regulariser of the
  whole gradient without its parameter, the Taylor test with a journal, a
  member's own value of the unknown).
*/
#include "rwtest.h"
#include <petscdmda.h>

#define NMEMBERS    3
#define ALPHA_THETA 50.0 /* weight decay */
static const char *base = "-da_grid_x 16 -da_grid_y 12 -rw_steps 10 -rw_heat_scheme explicit -rw_dt 2e-4";

/* Member e: 2 + e sensors, steps 4..10, data a slow ramp; u0 the bump (with own, member 2: twice it) */
static PetscErrorCode Experiments(RwModel model, RwObservations obs, PetscBool own)
{
  const PetscInt64 steps[4] = {4, 6, 8, 10};
  PetscReal        c[2 * 4], d[4 * 4];
  Vec              u0;

  PetscFunctionBegin;
  PetscCall(RwObservationsSetModel(obs, model));
  PetscCall(RwObservationsSetNumMembers(obs, NMEMBERS));
  PetscCall(RwObservationsSetSteps(obs, 4, steps));
  for (PetscInt e = 0; e < NMEMBERS; e++) {
    const PetscInt n = 2 + e;

    for (PetscInt s = 0; s < n; s++) c[2 * s] = 0.2 + 0.15 * s, c[2 * s + 1] = 0.3 + 0.1 * e;
    for (PetscInt t = 0; t < 4; t++)
      for (PetscInt s = 0; s < n; s++) d[t * n + s] = 0.05 * (t + 1) + 0.01 * s;
    PetscCall(RwObservationsSetSensors(obs, e, n, c));
    PetscCall(RwObservationsSetData(obs, e, d, 10)); /* sigma: a misfit the regularisers' size */
  }
  PetscCall(RwModelCreateState(model, &u0));
  PetscCall(rw_test_gaussian2d(u0, 1, 0.4, 0.5));
  PetscCall(RwObservationsSetKnown(obs, RW_OBS_ALL_MEMBERS, "u0", u0));
  PetscCall(rw_test_gaussian2d(u0, 2, 0.4, 0.5));
  if (own) PetscCall(RwObservationsSetKnown(obs, 2, "u0", u0));
  PetscCall(VecDestroy(&u0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  RwProblem      prob;
  RwObservations obs;
  Vec            x, G;
  PetscReal      J;
} Case;

/* The problem of `extra` options (under prefix pre), the unknown, regularisers added by the caller; J and G at x, the base's unknown scaled */
static PetscErrorCode CaseCreate(const char pre[], const char extra[], const char unknown[], PetscBool own, PetscInt groups, Case *c)
{
  char       opts[1024];
  RwModel    model;
  RwEnsemble e;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s %s", base, extra));
  PetscCall(rw_test_problem_create_prefixed(pre, opts, &c->prob));
  PetscCall(RwProblemSetModelType(c->prob, RWMODELHEAT));
  if (unknown) PetscCall(RwProblemSetUnknown(c->prob, unknown));
  PetscCall(RwProblemGetEnsemble(c->prob, &e));
  PetscCall(RwEnsembleSetGroups(e, groups));
  PetscCall(RwProblemSetFromOptions(c->prob));
  PetscCall(RwProblemGetModel(c->prob, &model));
  PetscCall(RwObservationsCreate(PETSC_COMM_WORLD, &c->obs));
  PetscCall(Experiments(model, c->obs, own));
  PetscCall(RwProblemSetObservations(c->prob, c->obs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CaseSetUp(Case *c, PetscReal scale)
{
  PetscFunctionBegin;
  PetscCall(RwProblemSetUp(c->prob));
  PetscCall(RwProblemCreateUnknownVector(c->prob, &c->x));
  PetscCall(RwProblemGetUnknown(c->prob, c->x));
  PetscCall(VecScale(c->x, scale));
  PetscCall(VecDuplicate(c->x, &c->G));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CaseDestroy(Case *c)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&c->x));
  PetscCall(VecDestroy(&c->G));
  PetscCall(RwObservationsDestroy(&c->obs));
  PetscCall(RwProblemDestroy(&c->prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A strip of kappa held: the mask zero in the first three columns */
static PetscErrorCode HoldStrip(Case *c)
{
  Vec           mask;
  DM            da;
  PetscInt      xs, ys, xm, ym;
  PetscScalar **a;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(c->x, &mask));
  PetscCall(VecGetDM(mask, &da));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(DMDAVecGetArray(da, mask, &a));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) a[j][i] = i < 3 ? 0 : 1;
  PetscCall(DMDAVecRestoreArray(da, mask, &a));
  PetscCall(RwProblemSetMask(c->prob, mask));
  PetscCall(VecDestroy(&mask));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A program's own unknown: x = log kappa */
static PetscErrorCode LogCreateDM(RwProblem prob, RwModel model, DM *dm, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(RwModelGetFieldDM(model, dm));
  PetscCall(PetscObjectReference((PetscObject)*dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LogToParameters(RwProblem prob, RwModel model, PetscInt member, Vec x, Vec m, Vec u0, void *ctx)
{
  Vec k;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, m, 0, &k));
  PetscCall(VecCopy(x, k));
  PetscCall(VecExp(k));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LogFromParameters(RwProblem prob, RwModel model, Vec m, Vec u0, Vec x, void *ctx)
{
  Vec k;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, m, 0, &k));
  PetscCall(VecCopy(k, x));
  PetscCall(VecLog(x));
  PetscCall(RwModelRestoreParameterField(model, m, 0, &k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dJ/dx = dJ/dkappa kappa */
static PetscErrorCode LogGradient(RwProblem prob, RwModel model, PetscInt member, Vec x, Vec g, Vec gu0, Vec w, void *ctx)
{
  Vec gk;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterField(model, g, 0, &gk));
  PetscCall(VecCopy(x, w));
  PetscCall(VecExp(w));
  PetscCall(VecPointwiseMult(w, w, gk));
  PetscCall(RwModelRestoreParameterField(model, g, 0, &gk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x plus a bump: a field with slopes, where TV and H1 have gradients */
static PetscErrorCode AddBump(Vec x, PetscReal scale)
{
  Vec b;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(x, &b));
  PetscCall(rw_test_gaussian2d(b, scale, 0.4, 0.5));
  PetscCall(VecAXPY(x, 1, b));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef PetscErrorCode (*Build)(PetscInt groups, Case *c);

static PetscErrorCode BuildKappa(PetscInt groups, Case *c)
{
  PetscFunctionBegin;
  PetscCall(CaseCreate("k_", "", "kappa", PETSC_TRUE, groups, c));
  PetscCall(RwProblemAddRegularizer(c->prob, NULL, RW_REG_TV, 1, 0.5, NULL));
  PetscCall(RwProblemAddRegularizer(c->prob, NULL, RW_REG_L2, 100, 0, NULL));
  PetscCall(CaseSetUp(c, 1.3));
  PetscCall(AddBump(c->x, 0.4));
  PetscCall(HoldStrip(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BuildU0(PetscInt groups, Case *c)
{
  PetscFunctionBegin;
  PetscCall(CaseCreate("u_", "", "u0", PETSC_FALSE, groups, c));
  PetscCall(RwProblemAddRegularizer(c->prob, NULL, RW_REG_H1, 1, 0, NULL));
  PetscCall(CaseSetUp(c, 0.7));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* log kappa, with TV and l2 of kappa itself: their gradients go to x through the program's map */
static PetscErrorCode BuildLogKappa(PetscInt groups, Case *c)
{
  const RwProblemUnknownOps ops = {LogCreateDM, LogToParameters, LogFromParameters, LogGradient};

  PetscFunctionBegin;
  PetscCall(CaseCreate("l_", "", NULL, PETSC_TRUE, groups, c));
  PetscCall(RwProblemSetUnknownOps(c->prob, &ops, NULL));
  PetscCall(RwProblemAddRegularizer(c->prob, "kappa", RW_REG_TV, 1, 0.5, NULL));
  PetscCall(RwProblemAddRegularizer(c->prob, "kappa", RW_REG_L2, 100, 0, NULL));
  PetscCall(CaseSetUp(c, 1.0));
  PetscCall(AddBump(c->x, 0.3)); /* kappa up to e^0.3 times the default */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BuildTheta(PetscInt groups, Case *c)
{
  PetscFunctionBegin;
  PetscCall(CaseCreate("t_", "-rw_heat_nn -rw_heat_bc periodic -rw_nn_layers 1,6,1", "theta", PETSC_TRUE, groups, c));
  PetscCall(RwProblemAddRegularizer(c->prob, NULL, RW_REG_L2, ALPHA_THETA, 0, NULL));
  PetscCall(CaseSetUp(c, 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A first evaluation at 0.95 x (l2's start, away from where the test looks) */
static PetscErrorCode FirstEvaluation(Case *c, Vec x)
{
  Vec       xs;
  PetscReal J;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(x, &xs));
  PetscCall(VecCopy(x, xs));
  PetscCall(VecScale(xs, 0.95));
  PetscCall(RwProblemEvaluate(c->prob, xs, &J, c->G));
  PetscCall(VecDestroy(&xs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Taylor test in one group, then the same J and G in every number of groups that divides the ranks */
static void CheckCase(const char *what, Build build)
{
  Case         ref;
  RwTaylorTest t;
  PetscMPIInt  size;

  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  RW_CHECK(build(1, &ref));
  RW_CHECK(FirstEvaluation(&ref, ref.x));
  RW_CHECK(RwProblemVerifyTaylor(ref.prob, ref.x, 11, &t));
  for (PetscInt i = 0; i < t.n; i++) RW_CHECK(PetscPrintf(PETSC_COMM_WORLD, "# %s: eps %.3e r0 %.6e order0 %.3f r1 %.6e order1 %.3f\n", what, (double)t.eps[i], (double)t.r0[i], (double)t.order0[i], (double)t.r1[i], (double)t.order1[i]));
  rw_assert_all(t.min_order1 >= 1.9, "%s, %d ranks: Taylor test's first-order residual falls with order %.3f (r1 %g .. %g)", what, size, (double)t.min_order1, (double)t.r1[0], (double)t.r1[t.n - 1]);
  RW_CHECK(RwProblemEvaluate(ref.prob, ref.x, &ref.J, ref.G));
  rw_assert_all(ref.J > 0, "%s: J %g is not positive", what, (double)ref.J);
  {
    PetscInt           n;
    const PetscReal   *terms;
    const char *const *names;

    RW_CHECK(RwProblemGetTerms(ref.prob, &n, &names, &terms));
    for (PetscInt i = 0; i < n; i++) RW_CHECK(PetscPrintf(PETSC_COMM_WORLD, "# %s: %s %.6e\n", what, names[i], (double)terms[i]));
  }
  for (PetscInt g = 2; g <= size; g++) {
    Case      c;
    PetscBool same;

    if (size % g || NMEMBERS % g) continue;
    RW_CHECK(build(g, &c));
    RW_CHECK(FirstEvaluation(&c, ref.x));
    RW_CHECK(RwProblemEvaluate(c.prob, ref.x, &c.J, c.G));
    RW_CHECK(VecEqual(ref.G, c.G, &same));
    rw_assert_all(c.J == ref.J && same, "%s, %d ranks, %" PetscInt_FMT " groups: J %.17g, one group's %.17g; gradients equal %d", what, size, g, (double)c.J, (double)ref.J, same);
    RW_CHECK(CaseDestroy(&c));
  }
  RW_CHECK(CaseDestroy(&ref));
}

START_TEST(test_kappa)
{
  CheckCase("kappa with TV, l2 and a held strip", BuildKappa);
}
END_TEST

START_TEST(test_u0)
{
  CheckCase("u0 with H1", BuildU0);
}
END_TEST

START_TEST(test_logkappa)
{
  CheckCase("log kappa (a program's unknown) with TV and l2 of kappa", BuildLogKappa);
}
END_TEST

START_TEST(test_theta)
{
  CheckCase("theta with weight decay", BuildTheta);
}
END_TEST

/* The block's l2 at x + d after a first evaluation at x: 1/2 alpha |d|^2, its gradient alpha d plus the misfit's */
START_TEST(test_weight_decay)
{
  Case               c, plain;
  Vec                x0, e, Gm;
  PetscReal          J, ne, want, Jm;
  PetscInt           nterms;
  const PetscReal   *terms;
  const char *const *names;
  PetscBool          same;

  RW_CHECK(BuildTheta(1, &c));
  RW_CHECK(CaseCreate("p_", "-rw_heat_nn -rw_heat_bc periodic -rw_nn_layers 1,6,1", "theta", PETSC_TRUE, 1, &plain));
  RW_CHECK(CaseSetUp(&plain, 1.0));
  RW_CHECK(RwProblemEvaluate(c.prob, c.x, &J, c.G));
  RW_CHECK(RwProblemGetTerms(c.prob, &nterms, &names, &terms));
  rw_assert_all(nterms == 2 && terms[1] == 0, "at the start: %" PetscInt_FMT " terms, weight decay %g (expected 2 terms, 0)", nterms, nterms > 1 ? (double)terms[1] : -1.0);
  RW_CHECK(VecDuplicate(c.x, &x0));
  RW_CHECK(VecDuplicate(c.x, &e));
  RW_CHECK(VecDuplicate(c.x, &Gm));
  RW_CHECK(VecCopy(c.x, x0));
  RW_CHECK(VecShift(c.x, 0.25));
  RW_CHECK(VecWAXPY(e, -1, x0, c.x)); /* x - start, as the regulariser sees it */
  RW_CHECK(RwProblemEvaluate(c.prob, c.x, &J, c.G));
  RW_CHECK(RwProblemGetTerms(c.prob, &nterms, &names, &terms));
  RW_CHECK(VecDot(e, e, &ne));
  want = 0.5 * ALPHA_THETA * ne;
  rw_assert_all(want > 0 && PetscAbsReal(terms[1] - want) <= 1e-14 * want && J == terms[0] + terms[1], "weight decay %.17g, expected 1/2 alpha |x - start|^2 = %.17g; J %.17g = misfit %.17g + it", (double)terms[1], (double)want, (double)J, (double)terms[0]);
  RW_CHECK(RwProblemEvaluate(plain.prob, c.x, &Jm, Gm));
  RW_CHECK(VecAXPY(Gm, ALPHA_THETA, e));
  RW_CHECK(VecEqual(Gm, c.G, &same));
  rw_assert_all(Jm == terms[0] && same, "the misfit %.17g (without the regulariser %.17g) and the gradient (equal %d) must be the plain problem's plus alpha (x - start)", (double)terms[0], (double)Jm, same);
  RW_CHECK(VecDestroy(&x0));
  RW_CHECK(VecDestroy(&e));
  RW_CHECK(VecDestroy(&Gm));
  RW_CHECK(CaseDestroy(&plain));
  RW_CHECK(CaseDestroy(&c));
}
END_TEST

START_TEST(test_bad)
{
  Case c;

  /* TV of a block of scalars: no grid */
  RW_CHECK(CaseCreate("b_", "-rw_heat_nn -rw_heat_bc periodic -rw_nn_layers 1,4,1", "theta", PETSC_TRUE, 1, &c));
  RW_CHECK(RwProblemAddRegularizer(c.prob, NULL, RW_REG_TV, 1, 0.5, NULL));
  /* refused at set-up, before any solve or journal, not at the first evaluation */
  rw_assert_error(CaseSetUp(&c, 1), "a block of scalars has no grid");
  RW_CHECK(CaseDestroy(&c));
  /* a regulariser of the whole gradient without its parameter */
  RW_CHECK(CaseCreate("n_", "", NULL, PETSC_TRUE, 1, &c));
  RW_CHECK(RwProblemAddRegularizer(c.prob, NULL, RW_REG_L2, 1, 0, NULL));
  rw_assert_error(RwProblemSetUp(c.prob), "needs its parameter: -rw_reg_parameter");
  RW_CHECK(CaseDestroy(&c));
  /* the Taylor test with a journal */
  RW_CHECK(CaseCreate("j_", "", "kappa", PETSC_TRUE, 1, &c));
  RW_CHECK(RwProblemSetJournal(c.prob, "t650-journal.state"));
  RW_CHECK(CaseSetUp(&c, 1));
  {
    RwTaylorTest t;

    rw_assert_error(RwProblemVerifyTaylor(c.prob, c.x, 1, &t), "verify without one");
  }
  RW_CHECK(CaseDestroy(&c));
  /* a member's own value of the unknown: x would overwrite it */
  RW_CHECK(CaseCreate("o_", "", "u0", PETSC_TRUE, 1, &c));
  rw_assert_error(RwProblemSetUp(c.prob), "Member 2 of the observations has a u0 of its own, but u0 is the unknown");
  RW_CHECK(CaseDestroy(&c));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("problem");
  TCase *tc = tcase_create("evaluate");

  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_kappa);
  tcase_add_test(tc, test_u0);
  tcase_add_test(tc, test_logkappa);
  tcase_add_test(tc, test_theta);
  tcase_add_test(tc, test_weight_decay);
  tcase_add_test(tc, test_bad);
  suite_add_tcase(s, tc);
  return s;
}
