/*
  Active parameters (-rw_adjoint_active, RwModelSetActiveParameters()): the
  gradient of the active ones is bitwise the full gradient's, the others'
  part is zero, lambda_0 is unchanged; heat's kappa-only reverse sweep (which
  skips the accumulators of s and r) included, explicit and Crank-Nicolson,
  with the per-step source amplitude block; an unknown name is an error.
*/
#include "rwtest.h"

typedef struct {
  Vec       g, gu0;
  PetscReal J;
} Result;

static PetscErrorCode Gradient(const char *opts, Result *r)
{
  RwModel       model;
  RwTestProblem p;
  Vec           s;

  PetscFunctionBegin;
  PetscCall(rw_test_model(opts, &model));
  PetscCall(rw_test_problem(model, &p));
  PetscCall(RwModelSetParameterScalar(model, p.m, 0, 0.3));
  PetscCall(RwModelGetParameterField(model, p.m, 1, &s));
  PetscCall(VecSet(s, 0.2)); /* a source, so that dJ/ds and dJ/da are not zero */
  PetscCall(RwModelRestoreParameterField(model, p.m, 1, &s));
  PetscCall(RwAdjointSolve(p.adj, p.m, p.u0, &r->J, p.g, p.gu0));
  PetscCall(VecDuplicate(p.g, &r->g));
  PetscCall(VecCopy(p.g, r->g));
  PetscCall(VecDuplicate(p.gu0, &r->gu0));
  PetscCall(VecCopy(p.gu0, r->gu0));
  PetscCall(rw_test_problem_destroy(&p));
  PetscCall(RwModelDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Part i (fields 0, 1, then block b = 2...) of g: equal to the full gradient's, or zero */
static PetscErrorCode Part(RwModel model, Vec g, Vec full, PetscInt i, PetscBool *equal, PetscBool *zero)
{
  PetscInt nf;

  PetscFunctionBegin;
  PetscCall(RwModelGetParameterInfo(model, &nf, NULL, NULL));
  if (i < nf) {
    Vec a, b;
    PetscReal n;

    PetscCall(RwModelGetParameterField(model, g, i, &a));
    PetscCall(RwModelGetParameterField(model, full, i, &b));
    PetscCall(VecEqual(a, b, equal));
    PetscCall(VecNorm(a, NORM_INFINITY, &n));
    *zero = (PetscBool)(n == 0);
    PetscCall(RwModelRestoreParameterField(model, full, i, &b));
    PetscCall(RwModelRestoreParameterField(model, g, i, &a));
  } else {
    PetscInt   size;
    PetscReal *a, *b;

    PetscCall(RwModelGetParameterBlockInfo(model, i - nf, NULL, &size, NULL, NULL));
    PetscCall(PetscMalloc2(size, &a, size, &b));
    PetscCall(RwModelGetParameterBlock(model, g, i - nf, a));
    PetscCall(RwModelGetParameterBlock(model, full, i - nf, b));
    *equal = *zero = PETSC_TRUE;
    for (PetscInt j = 0; j < size; j++) {
      if (a[j] != b[j]) *equal = PETSC_FALSE;
      if (a[j] != 0) *zero = PETSC_FALSE;
    }
    PetscCall(PetscFree2(a, b));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void run_case(const char *base, const char *active, const PetscBool want[4])
{
  char      opts[512];
  Result    full, part;
  RwModel   model;
  PetscBool equal = PETSC_FALSE, zero = PETSC_FALSE, zfull = PETSC_FALSE, same0 = PETSC_FALSE;

  snprintf(opts, sizeof(opts), "%s", base);
  RW_CHECK(Gradient(opts, &full));
  snprintf(opts, sizeof(opts), "%s -rw_adjoint_active %s", base, active);
  RW_CHECK(Gradient(opts, &part));
  RW_CHECK(rw_test_model(base, &model)); /* the layout, to read the parts */
  for (PetscInt i = 0; i < 4; i++) {
    RW_CHECK(Part(model, part.g, full.g, i, &equal, &zero));
    if (want[i]) rw_assert_all(equal, "%s, active %s: part %d differs from the full gradient", base, active, (int)i);
    else {
      RW_CHECK(Part(model, full.g, full.g, i, &same0, &zfull));
      rw_assert_all(zero && !zfull, "%s, active %s: inactive part %d is not zero (or zero in the full gradient too, which tests nothing)", base, active, (int)i);
    }
  }
  RW_CHECK(VecEqual(part.gu0, full.gu0, &same0));
  rw_assert_all(part.J == full.J && same0, "%s, active %s: J or dJ/du0 changed", base, active);
  if (!rw_test_rank()) printf("# %s, -rw_adjoint_active %s: active parts bitwise the full gradient's, the others zero, J and dJ/du0 unchanged\n", base, active);
  RW_CHECK(RwModelDestroy(&model));
  RW_CHECK(VecDestroy(&full.g));
  RW_CHECK(VecDestroy(&full.gu0));
  RW_CHECK(VecDestroy(&part.g));
  RW_CHECK(VecDestroy(&part.gu0));
}

START_TEST(test_active)
{
  const char     *ex = "-rw_heat_dim 2 -da_grid_x 14 -da_grid_y 11 -rw_steps 9 -rw_heat_source_amplitude";
  const char     *cn = "-rw_heat_dim 2 -da_grid_x 14 -da_grid_y 11 -rw_steps 6 -rw_heat_source_amplitude -rw_heat_theta 0.5 -rw_heat_bc neumann";
  const PetscBool kappa[4] = {PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
  const PetscBool s_a[4]   = {PETSC_FALSE, PETSC_TRUE, PETSC_FALSE, PETSC_TRUE};
  RwModel         model;
  RwTestProblem   p;

  run_case(ex, "kappa", kappa); /* the kappa-only reverse sweep */
  run_case(cn, "kappa", kappa);
  run_case(ex, "s,a", s_a);     /* the full sweep, the rest zeroed */
  RW_CHECK(rw_test_model("-rw_heat_dim 1 -da_grid_x 12 -rw_steps 3 -rw_adjoint_active kapa", &model));
  rw_assert_error(rw_test_problem(model, &p), "the model has no parameter kapa");
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("active");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_active);
  suite_add_tcase(s, tc);
  return s;
}
