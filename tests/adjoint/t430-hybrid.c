/*
  Heat with a learned reaction N_theta(u) (-rw_heat_nn), through the driver:
  - per-step dot tests (tangent against adjoint) with 1 and 2 hidden layers,
    tanh and softplus, 1D and 2D, explicit (100 eps) and Crank-Nicolson and
    backward Euler (the network explicit; to what -ksp_rtol 1e-14 allows);
  - whole-run dot tests, and Taylor tests in theta alone, kappa alone and u0
    alone: the first-order remainder falls at order >= 1.9;
  - J, dJ/dtheta, dJ/dkappa and dJ/du0 on PETSC_COMM_WORLD bitwise equal to
    those on one rank alone (PETSC_COMM_SELF): run on 1 to 4 ranks, on grids
    of one weight-gradient tile (heatnn.c) and of five;
  - a network whose last layer is zero (N = 0 exactly) gives plain heat's J,
    dJ/dkappa and dJ/du0 bit for bit;
  - bad input: a network that is not 1 -> ... -> 1, NaN weights.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>
#include <math.h>

static const char *nets[] = {
  "-rw_heat_nn -rw_nn_layers 1,8,1",
  "-rw_heat_nn -rw_nn_layers 1,6,6,1 -rw_nn_activation softplus",
};
static const char *grids[] = {
  "-rw_heat_dim 1 -da_grid_x 23 -rw_heat_bc dirichlet",
  "-rw_heat_dim 2 -da_grid_x 13 -da_grid_y 11",
};

START_TEST(test_step_dot)
{
  const char *schemes[] = {"explicit", "crank-nicolson", "implicit"};

  for (int s = 0; s < 3; s++)
    for (int g = 0; g < 2; g++)
      for (int n = 0; n < 2; n++) {
        char      opts[512];
        RwModel   model;
        Vec       m;
        RwDotTest dot;
        PetscReal tol = s == 0 ? 100 : 1e-14 / PETSC_MACHINE_EPSILON * 100;

        snprintf(opts, sizeof(opts), "%s %s -rw_heat_scheme %s -ksp_rtol 1e-14 -ksp_atol 0 -rw_nn_seed %d", grids[g], nets[n], schemes[s], 3 + n);
        RW_CHECK(rw_test_model(opts, &model));
        RW_CHECK(RwModelCreateParameters(model, &m));
        RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
        RW_CHECK(RwVerifyStepDot(model, m, 2, 17, &dot));
        if (!rw_test_rank()) printf("# step dot %-110s err %.3g eps\n", opts, dot.err);
        rw_assert_all(dot.lhs != 0 && dot.err <= tol, "%s: per-step dot error %g eps (tolerance %g)", opts, dot.err, tol);
        RW_CHECK(VecDestroy(&m));
        RW_CHECK(RwModelDestroy(&model));
      }
}
END_TEST

/* r1(eps) = |J(m + eps dm, u0 + eps du0) - J - eps (<g, dm> + <gu0, du0>)| over 5 halvings */
static PetscReal taylor_order(RwTestProblem *p, Vec dm, Vec du0, PetscReal J0, const char *what, const char *opts)
{
  Vec       m1, u1;
  PetscReal d1, d2, r[5], order = 10;

  RW_CHECK(VecDuplicate(p->m, &m1));
  RW_CHECK(VecDuplicate(p->u0, &u1));
  RW_CHECK(VecDot(p->g, dm, &d1));
  RW_CHECK(VecDot(p->gu0, du0, &d2));
  for (int i = 0; i < 5; i++) {
    PetscReal eps = 1e-2 / (1 << i), J;
    RW_CHECK(VecWAXPY(m1, eps, dm, p->m));
    RW_CHECK(VecWAXPY(u1, eps, du0, p->u0));
    RW_CHECK(RwAdjointForward(p->adj, m1, u1, &J, NULL));
    r[i] = PetscAbsReal(J - J0 - eps * (d1 + d2));
    if (i) order = PetscMin(order, PetscLog2Real(r[i - 1] / r[i]));
  }
  if (!rw_test_rank()) printf("# taylor in %-6s %s: <g,d> %.6e r1 %.3e .. %.3e, min order %.3f\n", what, opts, d1 + d2, r[0], r[4], order);
  rw_assert_all(d1 + d2 != 0, "%s %s: the directional derivative is 0: the test would prove nothing", what, opts);
  RW_CHECK(VecDestroy(&m1));
  RW_CHECK(VecDestroy(&u1));
  return order;
}

START_TEST(test_run_dot_and_taylor_in_theta_kappa_u0)
{
  for (int g = 0; g < 2; g++)
    for (int n = 0; n < 2; n++) {
      char          opts[512];
      RwModel       model;
      RwTestProblem p;
      RwDotTest     dot;
      Vec           dall, dm, du0, zero, f, fa;
      PetscInt      b, size;
      PetscReal    *v, J0;

      snprintf(opts, sizeof(opts), "%s %s -rw_steps 12", grids[g], nets[n]);
      RW_CHECK(rw_test_model(opts, &model));
      RW_CHECK(rw_test_problem(model, &p));
      RW_CHECK(RwVerifyDot(p.adj, p.m, p.u0, 7, &dot));
      if (!rw_test_rank()) printf("# run dot %s: err %.3g eps\n", opts, dot.err);
      rw_assert_all(dot.lhs != 0 && dot.err <= 100, "%s: whole-run dot error %g eps", opts, dot.err);
      RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &J0, p.g, p.gu0));
      RW_CHECK(VecDuplicate(p.m, &dall));
      RW_CHECK(VecDuplicate(p.m, &dm));
      RW_CHECK(VecDuplicate(p.u0, &du0));
      RW_CHECK(VecDuplicate(p.u0, &zero));
      RW_CHECK(VecSet(zero, 0));
      RW_CHECK(RwVerifyRandomDirection(model, p.m, 31, dall));
      /* theta alone */
      RW_CHECK(RwModelFindParameterBlock(model, "theta", &b));
      RW_CHECK(RwModelGetParameterBlockInfo(model, b, NULL, &size, NULL, NULL));
      RW_CHECK(PetscMalloc1(size, &v));
      RW_CHECK(RwModelGetParameterBlock(model, dall, b, v));
      RW_CHECK(VecSet(dm, 0));
      RW_CHECK(RwModelSetParameterBlock(model, dm, b, v));
      RW_CHECK(PetscFree(v));
      rw_assert_all(taylor_order(&p, dm, zero, J0, "theta", opts) >= 1.9, "%s: Taylor order in theta below 1.9", opts);
      /* kappa alone */
      RW_CHECK(VecSet(dm, 0));
      RW_CHECK(RwModelGetParameterField(model, dall, 0, &fa));
      RW_CHECK(RwModelGetParameterField(model, dm, 0, &f));
      RW_CHECK(VecCopy(fa, f));
      RW_CHECK(RwModelRestoreParameterField(model, dm, 0, &f));
      RW_CHECK(RwModelRestoreParameterField(model, dall, 0, &fa));
      rw_assert_all(taylor_order(&p, dm, zero, J0, "kappa", opts) >= 1.9, "%s: Taylor order in kappa below 1.9", opts);
      /* u0 alone */
      RW_CHECK(VecSet(dm, 0));
      RW_CHECK(RwVerifyRandomState(model, 41, du0));
      rw_assert_all(taylor_order(&p, dm, du0, J0, "u0", opts) >= 1.9, "%s: Taylor order in u0 below 1.9", opts);
      RW_CHECK(VecDestroy(&dall));
      RW_CHECK(VecDestroy(&dm));
      RW_CHECK(VecDestroy(&du0));
      RW_CHECK(VecDestroy(&zero));
      RW_CHECK(rw_test_problem_destroy(&p));
      RW_CHECK(RwModelDestroy(&model));
    }
}
END_TEST

typedef struct {
  PetscReal J, theta[64];
  uint64_t  kappa, u0;
  PetscInt  n;
} Digest;

static void digest(MPI_Comm comm, const char *opts, Digest *d)
{
  RwModel       model;
  RwTestProblem p;
  PetscInt      b;
  Vec           f;

  RW_CHECK(rw_test_model_comm(comm, opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &d->J, p.g, p.gu0));
  RW_CHECK(RwModelFindParameterBlock(model, "theta", &b));
  RW_CHECK(RwModelGetParameterBlockInfo(model, b, NULL, &d->n, NULL, NULL));
  ck_assert(d->n <= 64);
  RW_CHECK(RwModelGetParameterBlock(model, p.g, b, d->theta));
  RW_CHECK(RwModelGetParameterField(model, p.g, 0, &f));
  RW_CHECK(RwVecChecksum(f, &d->kappa));
  RW_CHECK(RwModelRestoreParameterField(model, p.g, 0, &f));
  RW_CHECK(RwVecChecksum(p.gu0, &d->u0));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_bitwise_on_any_rank_count)
{
  const char *cases[] = {"-rw_heat_dim 2 -da_grid_x 17 -da_grid_y 14 -rw_heat_nn -rw_nn_layers 1,5,5,1 -rw_steps 15",
                         "-rw_heat_dim 1 -da_grid_x 37 -rw_heat_nn -rw_nn_layers 1,7,1 -rw_nn_activation softplus -rw_steps 15 -rw_schedule_type revolve -rw_schedule_ram_slots 3",
                         /* 4 weight-gradient tiles of RW_NN_TILE points and a short one, cut by every split of the grid; some ranks get none */
                         "-rw_heat_dim 2 -da_grid_x 70 -da_grid_y 60 -rw_heat_nn -rw_nn_layers 1,4,4,1 -rw_steps 4"};

  for (int c = 0; c < 3; c++) {
    Digest w, s;
    int    same;

    digest(PETSC_COMM_WORLD, cases[c], &w);
    digest(PETSC_COMM_SELF, cases[c], &s);
    same = w.J == s.J && w.n == s.n && !memcmp(w.theta, s.theta, w.n * sizeof(PetscReal)) && w.kappa == s.kappa && w.u0 == s.u0;
    if (!rw_test_rank()) printf("# %d ranks vs 1: %s J %.17g dJ/dtheta_0 %.17g same bits %d\n", rw_test_size(), cases[c], w.J, w.theta[0], same);
    rw_assert_all(same, "%s: on %d ranks J %.17g, dJ/dtheta_0 %.17g; on one rank %.17g, %.17g (kappa/u0 checksums equal %d %d)", cases[c], rw_test_size(), w.J, w.theta[0], s.J, s.theta[0], w.kappa == s.kappa, w.u0 == s.u0);
  }
}
END_TEST

/* Weights whose last layer is zero make N = 0: J is heat's without a network, bit for bit */
START_TEST(test_zero_network_is_plain_heat)
{
  const char   *grid = "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 9";
  char          opts[256];
  RwModel       a, b;
  RwTestProblem pa, pb;
  PetscReal     Ja, Jb, theta[64];
  PetscInt      blk, size;
  PetscBool     eq;
  Vec           fa, fb;

  RW_CHECK(rw_test_model(grid, &a));
  snprintf(opts, sizeof(opts), "%s -rw_heat_nn -rw_nn_layers 1,4,1", grid);
  RW_CHECK(rw_test_model(opts, &b));
  RW_CHECK(rw_test_problem(a, &pa));
  RW_CHECK(rw_test_problem(b, &pb));
  RW_CHECK(RwModelFindParameterBlock(b, "theta", &blk));
  RW_CHECK(RwModelGetParameterBlockInfo(b, blk, NULL, &size, NULL, NULL));
  RW_CHECK(RwModelGetParameterBlock(b, pb.m, blk, theta));
  for (PetscInt i = 8; i < size; i++) theta[i] = 0; /* W2 and b2 */
  RW_CHECK(RwModelSetParameterBlock(b, pb.m, blk, theta));
  RW_CHECK(RwAdjointSolve(pa.adj, pa.m, pa.u0, &Ja, pa.g, pa.gu0));
  RW_CHECK(RwAdjointSolve(pb.adj, pb.m, pb.u0, &Jb, pb.g, pb.gu0));
  RW_CHECK(VecEqual(pa.gu0, pb.gu0, &eq));
  RW_CHECK(RwModelGetParameterField(a, pa.g, 0, &fa));
  RW_CHECK(RwModelGetParameterField(b, pb.g, 0, &fb));
  {
    PetscBool e2;
    RW_CHECK(VecEqual(fa, fb, &e2));
    eq = (PetscBool)(eq && e2);
  }
  RW_CHECK(RwModelRestoreParameterField(a, pa.g, 0, &fa));
  RW_CHECK(RwModelRestoreParameterField(b, pb.g, 0, &fb));
  rw_assert_all(Ja == Jb && eq, "N = 0: J %.17g against plain heat's %.17g, dJ/dkappa and dJ/du0 identical %d", Jb, Ja, eq);
  RW_CHECK(rw_test_problem_destroy(&pa));
  RW_CHECK(rw_test_problem_destroy(&pb));
  RW_CHECK(RwModelDestroy(&a));
  RW_CHECK(RwModelDestroy(&b));
}
END_TEST

START_TEST(test_bad_input)
{
  RwModel   model;
  Vec       m;
  PetscInt  b;
  PetscReal theta[64];

  rw_assert_error(rw_test_model("-rw_heat_nn -rw_nn_layers 2,4,1 -da_grid_x 8 -da_grid_y 8", &model), "heat's learned reaction maps u to a rate, so it has 1 input and 1 output; got 2 inputs");
  rw_assert_error(rw_test_model("-rw_heat_nn -rw_nn_activation relu -da_grid_x 8 -da_grid_y 8", &model), "Unknown activation \"relu\"");
  RW_CHECK(rw_test_model("-rw_heat_nn -rw_nn_layers 1,4,1 -da_grid_x 8 -da_grid_y 8", &model));
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(RwModelFindParameterBlock(model, "theta", &b));
  RW_CHECK(RwModelGetParameterBlock(model, m, b, theta));
  theta[9] = INFINITY; /* PETSC_INFINITY is finite (PETSC_MAX_REAL / 4) */
  RW_CHECK(RwModelSetParameterBlock(model, m, b, theta));
  rw_assert_error(RwModelSetParameters(model, m), "network weight theta[9] is Inf (the matrix W of layer 2)");
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("hybrid");
  TCase *tc = tcase_create("core");

  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_step_dot);
  tcase_add_test(tc, test_run_dot_and_taylor_in_theta_kappa_u0);
  tcase_add_test(tc, test_bitwise_on_any_rank_count);
  tcase_add_test(tc, test_zero_network_is_plain_heat);
  tcase_add_test(tc, test_bad_input);
  suite_add_tcase(s, tc);
  return s;
}
