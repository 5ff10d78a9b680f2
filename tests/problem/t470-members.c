/*
  An unknown per member (RwProblemSetUnknownPerMember(), issue 34): three
  heat experiments held in memory, each with its own sensors, u0 (or kappa)
  the unknown with one part per member.  The assembled gradient passes the
  Taylor test along a direction that differs in every member's part; its
  part e is, bit for bit, the gradient of member e solved alone
  (-rw_obs_member e, u0 one unknown) at x's part e, and J the members' J
  summed in member order; J and G are the same bits in every number of groups
  that divides the ranks; a regulariser of one member's part
  (RwProblemSetRegularizerMember(): a background term) changes only that
  part of the gradient, by alpha (x_e - ref) h^d; the default unknown's
  evaluation is unchanged (t650).  Multiple shooting (RwProblemSetShooting(),
  three segments of 8 steps): Taylor test, 1 and 3 groups bitwise, and the
  matching terms worth sum w/2 |u_8(x_e) - x_{e+1}|^2 from runs of the
  model.  Bad set-ups stop with their cause.
*/
#include "rwtest.h"
#include <petscdmda.h>

#define NMEMBERS 3
static const char *base = "-da_grid_x 14 -da_grid_y 10 -rw_steps 8 -rw_heat_scheme explicit -rw_dt 2e-4";

/* Member e: 2 + e sensors of its own, steps 4..8 */
static PetscErrorCode Experiments(RwModel model, RwObservations obs)
{
  const PetscInt64 steps[3] = {4, 6, 8};
  PetscReal        c[2 * 4], d[3 * 4];

  PetscFunctionBegin;
  PetscCall(RwObservationsSetModel(obs, model));
  PetscCall(RwObservationsSetNumMembers(obs, NMEMBERS));
  PetscCall(RwObservationsSetSteps(obs, 3, steps));
  for (PetscInt e = 0; e < NMEMBERS; e++) {
    const PetscInt n = 2 + e;

    for (PetscInt s = 0; s < n; s++) c[2 * s] = 0.2 + 0.15 * s, c[2 * s + 1] = 0.3 + 0.1 * e;
    for (PetscInt t = 0; t < 3; t++)
      for (PetscInt s = 0; s < n; s++) d[t * n + s] = 0.05 * (t + 1) + 0.01 * s + 0.02 * e;
    PetscCall(RwObservationsSetSensors(obs, e, n, c));
    PetscCall(RwObservationsSetData(obs, e, d, 10));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  RwProblem      prob;
  RwObservations obs;
  Vec            x, G;
  PetscReal      J;
} Case;

/* A problem under prefix pre with `extra` options; per member or not; before set-up */
static PetscErrorCode CaseCreate(const char pre[], const char extra[], const char unknown[], PetscBool permember, PetscInt groups, Case *c)
{
  char       opts[1024];
  RwModel    model;
  RwEnsemble e;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s %s", base, extra));
  PetscCall(rw_test_problem_create_prefixed(pre, opts, &c->prob));
  PetscCall(RwProblemSetModelType(c->prob, RWMODELHEAT));
  PetscCall(RwProblemSetUnknown(c->prob, unknown));
  PetscCall(RwProblemSetUnknownPerMember(c->prob, permember));
  PetscCall(RwProblemGetEnsemble(c->prob, &e));
  PetscCall(RwEnsembleSetGroups(e, groups));
  PetscCall(RwProblemSetFromOptions(c->prob));
  PetscCall(RwProblemGetModel(c->prob, &model));
  PetscCall(RwObservationsCreate(PETSC_COMM_WORLD, &c->obs));
  PetscCall(Experiments(model, c->obs));
  PetscCall(RwProblemSetObservations(c->prob, c->obs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Set up; x's part e: a bump centred at 0.3 + 0.2 e (u0), or the base kappa times 1 + 0.1 e */
static PetscErrorCode CaseSetUp(Case *c, PetscBool u0)
{
  RwModel model;
  Vec     p;

  PetscFunctionBegin;
  PetscCall(RwProblemSetUp(c->prob));
  PetscCall(RwProblemGetModel(c->prob, &model));
  PetscCall(RwProblemCreateUnknownVector(c->prob, &c->x));
  PetscCall(VecDuplicate(c->x, &c->G));
  PetscCall(RwProblemGetUnknown(c->prob, c->x));
  if (u0) PetscCall(RwModelCreateState(model, &p));
  else PetscCall(RwModelCreateField(model, &p));
  for (PetscInt e = 0; e < NMEMBERS; e++) {
    if (u0) PetscCall(rw_test_gaussian2d(p, 1, 0.3 + 0.2 * e, 0.5));
    else {
      PetscCall(RwProblemGetMemberUnknown(c->prob, e, c->x, p));
      PetscCall(VecScale(p, 1 + 0.1 * e));
    }
    PetscCall(RwProblemSetMemberUnknown(c->prob, e, p, c->x));
  }
  PetscCall(VecDestroy(&p));
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

/* Taylor test (a direction of its own in each member's part), then the same J and G in every number of groups */
static void CheckGroups(const char *what, const char *pre, const char *unknown)
{
  Case         ref;
  RwTaylorTest t;
  PetscMPIInt  size;
  PetscBool    u0 = (PetscBool)!strcmp(unknown, "u0");

  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  RW_CHECK(CaseCreate(pre, "", unknown, PETSC_TRUE, 1, &ref));
  RW_CHECK(CaseSetUp(&ref, u0));
  RW_CHECK(RwProblemVerifyTaylor(ref.prob, ref.x, 5, &t));
  for (PetscInt i = 0; i < t.n; i++) RW_CHECK(PetscPrintf(PETSC_COMM_WORLD, "# %s: eps %.3e r0 %.6e order0 %.3f r1 %.6e order1 %.3f\n", what, (double)t.eps[i], (double)t.r0[i], (double)t.order0[i], (double)t.r1[i], (double)t.order1[i]));
  rw_assert_all(t.min_order1 >= 1.9, "%s, %d ranks: Taylor test's first-order residual falls with order %.3f", what, size, (double)t.min_order1);
  RW_CHECK(RwProblemEvaluate(ref.prob, ref.x, &ref.J, ref.G));
  for (PetscInt g = 2; g <= size; g++) {
    Case      c;
    PetscBool same;
    char      p2[32];

    if (size % g || NMEMBERS % g) continue;
    RW_CHECK(PetscSNPrintf(p2, sizeof(p2), "%sg%d_", pre, (int)g));
    RW_CHECK(CaseCreate(p2, "", unknown, PETSC_TRUE, g, &c));
    RW_CHECK(CaseSetUp(&c, u0));
    RW_CHECK(RwProblemEvaluate(c.prob, ref.x, &c.J, c.G));
    RW_CHECK(VecEqual(ref.G, c.G, &same));
    rw_assert_all(c.J == ref.J && same, "%s, %d ranks, %" PetscInt_FMT " groups: J %.17g, one group's %.17g; gradients equal %d", what, size, g, (double)c.J, (double)ref.J, same);
    RW_CHECK(PetscPrintf(PETSC_COMM_WORLD, "# %s: %" PetscInt_FMT " groups give one group's J %.17g and gradient bit for bit\n", what, g, (double)c.J));
    RW_CHECK(CaseDestroy(&c));
  }
  RW_CHECK(CaseDestroy(&ref));
}

START_TEST(test_u0_taylor_groups)
{
  CheckGroups("u0 per member", "u_", "u0");
}
END_TEST

START_TEST(test_kappa_taylor_groups)
{
  CheckGroups("kappa per member", "k_", "kappa");
}
END_TEST

/* Part e of the assembled gradient is member e's gradient solved alone at x's part e, bit for bit; J the sum in member order */
START_TEST(test_parts_are_members)
{
  Case      all;
  Vec       p, gp;
  PetscReal sum = 0;

  RW_CHECK(CaseCreate("a_", "", "u0", PETSC_TRUE, 1, &all));
  RW_CHECK(CaseSetUp(&all, PETSC_TRUE));
  RW_CHECK(RwProblemEvaluate(all.prob, all.x, &all.J, all.G));
  {
    RwModel model;

    RW_CHECK(RwProblemGetModel(all.prob, &model));
    RW_CHECK(RwModelCreateState(model, &p));
    RW_CHECK(RwModelCreateState(model, &gp));
  }
  for (PetscInt e = 0; e < NMEMBERS; e++) {
    Case      one;
    char      pre[16], opt[64];
    PetscReal J;
    PetscBool same;

    RW_CHECK(PetscSNPrintf(pre, sizeof(pre), "m%d_", (int)e));
    RW_CHECK(PetscSNPrintf(opt, sizeof(opt), "-rw_obs_member %d", (int)e));
    RW_CHECK(CaseCreate(pre, opt, "u0", PETSC_FALSE, 1, &one));
    RW_CHECK(RwProblemSetUp(one.prob));
    RW_CHECK(RwProblemCreateUnknownVector(one.prob, &one.x));
    RW_CHECK(VecDuplicate(one.x, &one.G));
    RW_CHECK(RwProblemGetMemberUnknown(all.prob, e, all.x, one.x));
    RW_CHECK(RwProblemEvaluate(one.prob, one.x, &J, one.G));
    RW_CHECK(RwProblemGetMemberUnknown(all.prob, e, all.G, gp));
    RW_CHECK(VecEqual(gp, one.G, &same));
    rw_assert_all(same, "part %" PetscInt_FMT " of the assembled gradient is not member %" PetscInt_FMT "'s own gradient bit for bit", e, e);
    sum += J;
    RW_CHECK(CaseDestroy(&one));
  }
  rw_assert_all(sum == all.J, "J %.17g is not the members' J summed in member order, %.17g", (double)all.J, (double)sum);
  RW_CHECK(PetscPrintf(PETSC_COMM_WORLD, "# every part of the gradient is its member's alone, bit for bit; J %.17g the members' sum\n", (double)all.J));
  RW_CHECK(VecDestroy(&p));
  RW_CHECK(VecDestroy(&gp));
  RW_CHECK(CaseDestroy(&all));
}
END_TEST

/* l2 of member 1's u0 about a reference: only part 1 of the gradient changes, by alpha (x_1 - ref) h^d; J by the term */
START_TEST(test_member_regularizer)
{
  const PetscReal alpha = 3;
  Case            plain, reg;
  RwModel         model;
  Vec             ref, p, d, Gd;
  PetscReal       hd, nd, want;
  PetscBool       same;

  RW_CHECK(CaseCreate("p_", "", "u0", PETSC_TRUE, 1, &plain));
  RW_CHECK(CaseSetUp(&plain, PETSC_TRUE));
  RW_CHECK(CaseCreate("r_", "", "u0", PETSC_TRUE, 1, &reg));
  RW_CHECK(RwProblemGetModel(reg.prob, &model));
  RW_CHECK(RwModelCreateState(model, &ref));
  RW_CHECK(rw_test_gaussian2d(ref, 0.5, 0.5, 0.5));
  RW_CHECK(RwProblemAddRegularizer(reg.prob, NULL, RW_REG_L2, alpha, 0, ref));
  RW_CHECK(RwProblemSetRegularizerMember(reg.prob, 0, 1));
  RW_CHECK(CaseSetUp(&reg, PETSC_TRUE));
  RW_CHECK(RwProblemEvaluate(plain.prob, plain.x, &plain.J, plain.G));
  RW_CHECK(RwProblemEvaluate(reg.prob, reg.x, &reg.J, reg.G));
  RW_CHECK(VecDuplicate(reg.G, &Gd));
  RW_CHECK(VecWAXPY(Gd, -1, plain.G, reg.G));
  RW_CHECK(VecDuplicate(ref, &p));
  RW_CHECK(VecDuplicate(ref, &d));
  for (PetscInt e = 0; e < NMEMBERS; e++) {
    PetscReal n;

    RW_CHECK(RwProblemGetMemberUnknown(reg.prob, e, Gd, p));
    RW_CHECK(VecNorm(p, NORM_INFINITY, &n));
    rw_assert_all((e == 1) == (n > 0), "the regulariser of member 1 changed part %" PetscInt_FMT " of the gradient by %g", e, (double)n);
  }
  {
    PetscReal hx, hy;
    PetscInt  M, N;
    DM        da;

    RW_CHECK(RwModelGetStateDM(model, &da));
    RW_CHECK(DMDAGetInfo(da, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    hx = 1.0 / M, hy = 1.0 / N; /* the heat grid's cells (RwRegularize()'s volume) */
    hd = hx * hy;
  }
  RW_CHECK(RwProblemGetMemberUnknown(reg.prob, 1, reg.x, d));
  RW_CHECK(VecAXPY(d, -1, ref)); /* x_1 - ref */
  RW_CHECK(VecNorm(d, NORM_2, &nd));
  RW_CHECK(RwProblemGetMemberUnknown(reg.prob, 1, Gd, p));
  RW_CHECK(VecAXPY(p, -alpha, d)); /* its change less alpha (x_1 - ref): h^d alpha (x_1 - ref) - alpha (x_1 - ref) if the volume is h^d */
  want = 0.5 * alpha * nd * nd;
  {
    PetscReal ratio = (reg.J - plain.J) / want, n2;

    /* the term is 1/2 alpha |x_1 - ref|^2 times the cell volume (RwRegularize()); the gradient its derivative */
    RW_CHECK(VecAXPY(p, alpha, d));
    RW_CHECK(VecAXPY(p, -alpha * ratio, d));
    RW_CHECK(VecNorm(p, NORM_INFINITY, &n2));
    rw_assert_all(ratio > 0 && PetscAbsReal(ratio - hd) <= 1e-6 * hd && n2 <= 1e-12 * alpha * nd, "member 1's l2: J grew %.17g = %.6g x 1/2 alpha |x_1 - ref|^2 (cell volume %.6g); gradient off by %g", (double)(reg.J - plain.J), (double)ratio, (double)hd, (double)n2);
  }
  RW_CHECK(VecEqual(plain.x, reg.x, &same));
  rw_assert_all(same, "the two problems start from different x");
  RW_CHECK(VecDestroy(&ref));
  RW_CHECK(VecDestroy(&p));
  RW_CHECK(VecDestroy(&d));
  RW_CHECK(VecDestroy(&Gd));
  RW_CHECK(CaseDestroy(&plain));
  RW_CHECK(CaseDestroy(&reg));
}
END_TEST

/*
  Multiple shooting (RwProblemSetShooting()): the three members are segments
  of 8 steps of a 24-step window, each from its part of x, tied by matching
  terms.  Taylor test, the same bits in every number of groups, and the
  matching terms' value: J less the same problem without them (weight ->
  its members' misfits) is sum_e w/2 |u_8(x_e) - x_{e+1}|^2, computed here
  from runs of the model.
*/
static PetscErrorCode BuildShoot(const char pre[], PetscInt groups, PetscReal w, Case *c)
{
  RwModel model;

  PetscFunctionBegin;
  PetscCall(CaseCreate(pre, "-rw_steps 24", "u0", PETSC_TRUE, groups, c));
  PetscCall(RwProblemGetModel(c->prob, &model));
  PetscCall(RwProblemSetShooting(c->prob, 8, w));
  PetscCall(CaseSetUp(c, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

START_TEST(test_shooting)
{
  const PetscReal w = 40;
  Case            ref, plain;
  RwTaylorTest    t;
  PetscMPIInt     size;
  RwModel         model;
  Vec             m, b, u, unew, p;
  PetscReal       want = 0;

  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  RW_CHECK(BuildShoot("s1_", 1, w, &ref));
  RW_CHECK(RwProblemVerifyTaylor(ref.prob, ref.x, 9, &t));
  for (PetscInt i = 0; i < t.n; i++) RW_CHECK(PetscPrintf(PETSC_COMM_WORLD, "# shooting: eps %.3e r1 %.6e order1 %.3f\n", (double)t.eps[i], (double)t.r1[i], (double)t.order1[i]));
  rw_assert_all(t.min_order1 >= 1.9, "shooting, %d ranks: Taylor test's first-order residual falls with order %.3f", size, (double)t.min_order1);
  RW_CHECK(RwProblemEvaluate(ref.prob, ref.x, &ref.J, ref.G));
  for (PetscInt g = 3; g <= size; g += 3) {
    Case      c;
    PetscBool same;

    RW_CHECK(BuildShoot("s3_", g, w, &c));
    RW_CHECK(RwProblemEvaluate(c.prob, ref.x, &c.J, c.G));
    RW_CHECK(VecEqual(ref.G, c.G, &same));
    rw_assert_all(c.J == ref.J && same, "shooting, %" PetscInt_FMT " groups: J %.17g, one group's %.17g; gradients equal %d", g, (double)c.J, (double)ref.J, same);
    RW_CHECK(PetscPrintf(PETSC_COMM_WORLD, "# shooting: %" PetscInt_FMT " groups give one group's J and gradient bit for bit\n", g));
    RW_CHECK(CaseDestroy(&c));
  }
  /* the same segments without matching: a per-member problem of 8-step runs (-rw_steps 8) */
  RW_CHECK(CaseCreate("s0_", "-rw_steps 8", "u0", PETSC_TRUE, 1, &plain));
  RW_CHECK(CaseSetUp(&plain, PETSC_TRUE));
  RW_CHECK(RwProblemEvaluate(plain.prob, ref.x, &plain.J, plain.G));
  RW_CHECK(RwProblemGetModel(plain.prob, &model));
  RW_CHECK(RwProblemGetParameters(plain.prob, &m, &b));
  RW_CHECK(RwModelCreateState(model, &u));
  RW_CHECK(VecDuplicate(u, &unew));
  RW_CHECK(VecDuplicate(u, &p));
  RW_CHECK(RwModelSetParameters(model, m));
  for (PetscInt e = 0; e + 1 < NMEMBERS; e++) {
    PetscReal n;

    RW_CHECK(RwProblemGetMemberUnknown(ref.prob, e, ref.x, u));
    for (PetscInt64 k = 0; k < 8; k++) {
      RW_CHECK(RwModelStep(model, k, u, unew));
      RW_CHECK(VecCopy(unew, u));
    }
    RW_CHECK(RwProblemGetMemberUnknown(ref.prob, e + 1, ref.x, p));
    RW_CHECK(VecAXPY(u, -1, p));
    RW_CHECK(VecNorm(u, NORM_2, &n));
    want += 0.5 * w * n * n;
  }
  rw_assert_all(want > 0 && PetscAbsReal(ref.J - plain.J - want) <= 1e-10 * want, "the matching terms add %.17g to J, expected sum w/2 |u_8(x_e) - x_{e+1}|^2 = %.17g", (double)(ref.J - plain.J), (double)want);
  RW_CHECK(PetscPrintf(PETSC_COMM_WORLD, "# shooting: the matching terms add %.12e = sum w/2 |u_8(x_e) - x_(e+1)|^2 (%.12e)\n", (double)(ref.J - plain.J), (double)want));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&unew));
  RW_CHECK(VecDestroy(&p));
  RW_CHECK(CaseDestroy(&plain));
  RW_CHECK(CaseDestroy(&ref));
}
END_TEST

START_TEST(test_bad)
{
  Case c;
  Vec  p;

  /* a block of scalars has no grid to stack members on */
  RW_CHECK(CaseCreate("b_", "-rw_heat_nn -rw_heat_bc periodic -rw_nn_layers 1,4,1", "theta", PETSC_TRUE, 1, &c));
  rw_assert_error(RwProblemSetUp(c.prob), "an unknown per member is a field or u0");
  RW_CHECK(CaseDestroy(&c));
  /* l2 without a reference on every member's part: one start for all */
  RW_CHECK(CaseCreate("n_", "", "u0", PETSC_TRUE, 1, &c));
  RW_CHECK(RwProblemAddRegularizer(c.prob, NULL, RW_REG_L2, 1, 0, NULL));
  rw_assert_error(RwProblemSetUp(c.prob), "needs its reference");
  RW_CHECK(CaseDestroy(&c));
  /* a regulariser of a member the problem does not have */
  RW_CHECK(CaseCreate("o_", "", "u0", PETSC_TRUE, 1, &c));
  RW_CHECK(RwProblemAddRegularizer(c.prob, NULL, RW_REG_H1, 1, 0, NULL));
  RW_CHECK(RwProblemSetRegularizerMember(c.prob, 0, 3));
  rw_assert_error(RwProblemSetUp(c.prob), "Regulariser 0 acts on member 3: the problem has 3 members");
  RW_CHECK(CaseDestroy(&c));
  /* a member's part out of range, of a problem without an unknown per member */
  RW_CHECK(CaseCreate("q_", "", "u0", PETSC_TRUE, 1, &c));
  RW_CHECK(CaseSetUp(&c, PETSC_TRUE));
  {
    RwModel model;

    RW_CHECK(RwProblemGetModel(c.prob, &model));
    RW_CHECK(RwModelCreateState(model, &p));
  }
  rw_assert_error(RwProblemGetMemberUnknown(c.prob, 3, c.x, p), "Member 3: the problem has members 0 .. 2");
  RW_CHECK(CaseDestroy(&c));
  RW_CHECK(CaseCreate("s_", "", "u0", PETSC_FALSE, 1, &c));
  RW_CHECK(RwProblemSetUp(c.prob));
  RW_CHECK(RwProblemCreateUnknownVector(c.prob, &c.x));
  rw_assert_error(RwProblemGetMemberUnknown(c.prob, 0, c.x, p), "The problem has no unknown per member");
  RW_CHECK(CaseDestroy(&c));
  RW_CHECK(VecDestroy(&p));
  /* multiple shooting of another unknown than u0; a weight of 0 */
  RW_CHECK(CaseCreate("t_", "", "kappa", PETSC_TRUE, 1, &c));
  rw_assert_error(RwProblemSetShooting(c.prob, 4, 0), "the matching weight 0. must be > 0");
  RW_CHECK(RwProblemSetShooting(c.prob, 8, 1));
  rw_assert_error(RwProblemSetUp(c.prob), "Multiple shooting: the unknown is each segment's initial state u0, not kappa");
  RW_CHECK(CaseDestroy(&c));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("problem-members");
  TCase *tc = tcase_create("per-member");

  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_u0_taylor_groups);
  tcase_add_test(tc, test_kappa_taylor_groups);
  tcase_add_test(tc, test_parts_are_members);
  tcase_add_test(tc, test_member_regularizer);
  tcase_add_test(tc, test_shooting);
  tcase_add_test(tc, test_bad);
  suite_add_tcase(s, tc);
  return s;
}
