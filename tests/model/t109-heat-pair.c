/*
  The heat model's adjoint pair (RwModelStepAdjointPair()) against two
  single reverse steps on the same model: lambda_k-1 and every parameter
  gradient must be the same bits, from random states and lambda_k+1, in 1, 2
  and 3 dimensions, with periodic, Dirichlet, Neumann and mixed boundaries,
  every parameter active or kappa alone, on any decomposition (the pair
  recomputes lambda_k one point beyond its box, where another rank owns it,
  or takes the ghost rule beyond a boundary).  Schemes without pairs
  (implicit, a learned reaction) must not offer them.
*/
#include "rwtest.h"

static const char *grids[3] = {"-rw_heat_dim 1 -da_grid_x 23", "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10", "-rw_heat_dim 3 -da_grid_x 7 -da_grid_y 6 -da_grid_z 5"};
static const char *bcs[4]   = {"periodic", "dirichlet", "neumann", NULL}; /* [3]: mixed, per dimension */
static const char *mixed[3] = {"dirichlet", "periodic,dirichlet", "neumann,periodic,dirichlet"};

/* The number of entries where two vectors' bits differ, over all ranks */
static PetscInt differ(Vec a, Vec b)
{
  const PetscScalar *x, *y;
  PetscInt           n, bad = 0;

  RW_CHECK(VecGetLocalSize(a, &n));
  RW_CHECK(VecGetArrayRead(a, &x));
  RW_CHECK(VecGetArrayRead(b, &y));
  for (PetscInt i = 0; i < n; i++) bad += memcmp(&x[i], &y[i], sizeof(PetscScalar)) != 0;
  RW_CHECK(VecRestoreArrayRead(b, &y));
  RW_CHECK(VecRestoreArrayRead(a, &x));
  RW_CHECK((PetscErrorCode)MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  return bad;
}

static void run_case(int d, int b, PetscBool kappaonly)
{
  const char *const kappa[] = {"kappa"};
  char              opts[512];
  RwModel           model;
  Vec               m, um, u, lnew, l1, l2, l3, g1, g2;
  PetscRandom       rnd;
  PetscBool         has;
  PetscInt          nl, ng;

  snprintf(opts, sizeof(opts), "%s -rw_heat_bc %s -rw_steps 4", grids[d], b == 3 ? mixed[d] : bcs[b]);
  RW_CHECK(rw_test_model(opts, &model));
  if (kappaonly) RW_CHECK(RwModelSetActiveParameters(model, 1, kappa));
  RW_CHECK(RwModelHasAdjointPair(model, &has));
  rw_assert_all(has, "%s: the explicit heat model offers no adjoint pair", opts);
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelGetDefaults(model, m, NULL, NULL));
  RW_CHECK(RwModelSetParameterScalar(model, m, 0, 0.3)); /* a decay rate, so r's gradient is exercised */
  RW_CHECK(RwModelSetParameters(model, m));
  RW_CHECK(RwModelCreateState(model, &um));
  RW_CHECK(VecDuplicate(um, &u));
  RW_CHECK(VecDuplicate(um, &lnew));
  RW_CHECK(VecDuplicate(um, &l1));
  RW_CHECK(VecDuplicate(um, &l2));
  RW_CHECK(VecDuplicate(um, &l3));
  RW_CHECK(VecDuplicate(m, &g1));
  RW_CHECK(VecDuplicate(m, &g2));
  RW_CHECK(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  RW_CHECK(PetscRandomSetSeed(rnd, 7 + 3 * d + b));
  RW_CHECK(PetscRandomSeed(rnd));
  RW_CHECK(VecSetRandom(um, rnd));
  RW_CHECK(VecSetRandom(u, rnd));
  RW_CHECK(VecSetRandom(lnew, rnd));
  /* two single steps: k = 2 then k = 1 */
  RW_CHECK(RwModelAdjointBegin(model));
  RW_CHECK(RwModelStepAdjoint(model, 2, u, NULL, lnew, l1));
  RW_CHECK(RwModelStepAdjoint(model, 1, um, u, l1, l2));
  RW_CHECK(RwModelAdjointEnd(model, g1));
  /* the pair */
  RW_CHECK(RwModelAdjointBegin(model));
  RW_CHECK(RwModelStepAdjointPair(model, 2, um, u, lnew, l3));
  RW_CHECK(RwModelAdjointEnd(model, g2));
  nl = differ(l2, l3);
  ng = differ(g1, g2);
  if (!rw_test_rank()) printf("# %-70s %s: lambda_1 differs at %" PetscInt_FMT ", the gradient at %" PetscInt_FMT "\n", opts, kappaonly ? "kappa" : "all", nl, ng);
  rw_assert_all(nl == 0 && ng == 0, "%s (%s active): the pair's lambda_k-1 differs at %" PetscInt_FMT " points and its gradient at %" PetscInt_FMT " from two single steps", opts, kappaonly ? "kappa" : "every parameter", nl, ng);
  RW_CHECK(PetscRandomDestroy(&rnd));
  RW_CHECK(VecDestroy(&um));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&lnew));
  RW_CHECK(VecDestroy(&l1));
  RW_CHECK(VecDestroy(&l2));
  RW_CHECK(VecDestroy(&l3));
  RW_CHECK(VecDestroy(&g1));
  RW_CHECK(VecDestroy(&g2));
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_pair_bits)
{
  for (int d = 0; d < 3; d++)
    for (int b = 0; b < 4; b++)
      for (int a = 0; a < 2; a++) run_case(d, b, (PetscBool)a);
}
END_TEST

/* Implicit schemes and the learned reaction reverse one step at a time */
START_TEST(test_no_pair)
{
  const char *opts[] = {"-rw_heat_scheme implicit", "-rw_heat_scheme crank-nicolson", "-rw_heat_nn -rw_nn_layers 1,4,1", "-rw_heat_source_amplitude", "-rw_heat_adjoint_pairs 0"};

  for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
    RwModel   model;
    PetscBool has;

    RW_CHECK(rw_test_model(opts[i], &model));
    RW_CHECK(RwModelHasAdjointPair(model, &has));
    rw_assert_all(!has, "%s: the heat model offers an adjoint pair", opts[i]);
    RW_CHECK(RwModelDestroy(&model));
  }
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("heat-pair");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_pair_bits);
  tcase_add_test(tc, test_no_pair);
  suite_add_tcase(s, tc);
  return s;
}
