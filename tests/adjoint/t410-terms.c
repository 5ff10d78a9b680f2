/*
  Public objective terms and a time-indexed parameter block, through the driver.

  Heat with a per-step source amplitude a_k (-rw_heat_source_amplitude, a
  time-indexed block) and an objective of three terms: the terminal misfit
  (a library term) and two written as a user writes them with
  RwObjectiveAddTerm() (tests/harness/rwtestterms.c): "energy", a time
  integral of (h^d / 2) sum_i kappa_i u_i^2 (state and parameter field), and
  "control", (alpha / 2) sum_k a_k^2 on the time-indexed block alone.
  Checked: the whole-run dot test (tangent against adjoint), the Taylor test,
  central finite differences, a revolve-checkpointed gradient bitwise equal
  to store-all's, and each term's share of J against a direct evaluation.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>

/* The control cost straight from its definition, and the energy from a forward run of states */
static PetscErrorCode DirectTerms(RwTestTerms *c, PetscReal *energy, PetscReal *control)
{
  RwModel    model = c->p.model;
  Vec        u, unew, kappa;
  PetscReal  vol, e = 0, dot;
  PetscReal *a;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(c->n, &a));
  PetscCall(RwModelGetParameterBlock(model, c->p.m, c->control.block, a));
  *control = 0;
  for (PetscInt64 k = 0; k < c->n; k++) *control += 0.5 * c->control.alpha * a[k] * a[k];
  PetscCall(PetscFree(a));
  PetscCall(RwModelGetCellVolume(model, &vol));
  PetscCall(VecDuplicate(c->p.u0, &u));
  PetscCall(VecDuplicate(c->p.u0, &unew));
  PetscCall(VecCopy(c->p.u0, u));
  PetscCall(RwModelSetParameters(model, c->p.m));
  PetscCall(RwModelGetParameterField(model, c->p.m, 0, &kappa));
  for (PetscInt64 k = 0; k <= c->n; k++) {
    PetscCall(VecPointwiseMult(unew, u, u));
    PetscCall(VecDot(unew, kappa, &dot));
    e += ((k == 0 || k == c->n) ? 0.5 * c->dt : c->dt) * 0.5 * vol * dot;
    if (k < c->n) {
      PetscCall(RwModelStep(model, k, u, unew));
      PetscCall(VecCopy(unew, u));
    }
  }
  PetscCall(RwModelRestoreParameterField(model, c->p.m, 0, &kappa));
  *energy = e;
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&unew));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void run_case(const char *opts, PetscReal tol)
{
  RwTestTerms  c, r;
  RwDotTest    dot;
  RwTaylorTest tay;
  RwFDTest     fd;
  PetscReal    J, Jr, terms[3], energy, control;
  PetscBool    same;
  char         ropts[512];

  RW_CHECK(rw_test_terms_create(opts, &c));
  RW_CHECK(RwVerifyDot(c.p.adj, c.p.m, c.p.u0, 7, &dot));
  RW_CHECK(RwVerifyTaylor(c.p.adj, c.p.m, c.p.u0, 11, &tay));
  RW_CHECK(RwVerifyFiniteDifferences(c.p.adj, c.p.m, c.p.u0, 13, 2, &fd));
  RW_CHECK(RwAdjointSolve(c.p.adj, c.p.m, c.p.u0, &J, c.p.g, c.p.gu0));
  RW_CHECK(RwObjectiveGetTermValues(c.p.obj, 3, terms));
  RW_CHECK(DirectTerms(&c, &energy, &control));
  /* the same problem, checkpointed by revolve with 2 slots */
  snprintf(ropts, sizeof(ropts), "%s -rw_schedule_type revolve -rw_schedule_ram_slots 2", opts);
  RW_CHECK(rw_test_terms_create(ropts, &r));
  RW_CHECK(RwAdjointSolve(r.p.adj, r.p.m, r.p.u0, &Jr, r.p.g, r.p.gu0));
  RW_CHECK(VecEqual(c.p.g, r.p.g, &same));
  if (!rw_test_rank()) {
    printf("# %s\n#   J %.17g = terminal %.6e + energy %.6e + control %.6e\n", opts, J, terms[0], terms[1], terms[2]);
    printf("#   dot: tangent %+.16e adjoint %+.16e err %.3g eps\n#   taylor:", dot.lhs, dot.rhs, dot.err);
    for (PetscInt i = 0; i < tay.n; i++) printf(" r1=%.3e (order %.2f)", tay.r1[i], tay.order1[i]);
    printf("\n#   fd: rel err %.2e %.2e\n", fd.relerr[0], fd.relerr[1]);
  }
  rw_assert_all(dot.err <= tol, "%s: whole-run dot-product error %g eps exceeds %g", opts, dot.err, tol);
  rw_assert_all(tay.min_order1 >= 1.9, "%s: Taylor remainder order %g < 1.9", opts, tay.min_order1);
  rw_assert_all(fd.max_relerr <= 1e-6, "%s: finite differences differ by %g (relative)", opts, fd.max_relerr);
  rw_assert_all(PetscAbsReal(terms[1] - energy) <= 1e-12 * PetscAbsReal(energy), "%s: the energy term is %.17g, a direct sum gives %.17g", opts, terms[1], energy);
  rw_assert_all(PetscAbsReal(terms[2] - control) <= 1e-14 * control, "%s: the control term is %.17g, its definition gives %.17g", opts, terms[2], control);
  rw_assert_all(terms[1] > 0 && terms[2] > 0, "%s: a user term is zero", opts);
  rw_assert_all(J == Jr && same, "%s: the revolve-checkpointed J or gradient differs from store-all's", opts);
  RW_CHECK(rw_test_terms_destroy(&r));
  RW_CHECK(rw_test_terms_destroy(&c));
}

START_TEST(test_terms)
{
  run_case("-rw_heat_dim 1 -da_grid_x 23 -rw_steps 9 -rw_heat_source_amplitude", 100);
  run_case("-rw_heat_dim 1 -da_grid_x 23 -rw_steps 9 -rw_heat_source_amplitude -rw_heat_theta 0.5 -ksp_rtol 1e-14 -ksp_atol 0", 1e4);
  run_case("-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_heat_bc dirichlet -rw_steps 7 -rw_heat_source_amplitude", 100);
}
END_TEST

/* A time-indexed block is laid out for n steps: changing n afterwards is refused */
START_TEST(test_layout)
{
  RwModel  model;
  PetscInt size, perstep;

  RW_CHECK(rw_test_model("-rw_heat_dim 1 -da_grid_x 16 -rw_steps 5 -rw_heat_source_amplitude", &model));
  RW_CHECK(RwModelGetParameterBlockInfo(model, 1, NULL, &size, &perstep, NULL));
  rw_assert_all(size == 5 && perstep == 1, "block a has size %d and %d per step, expected 5 and 1", (int)size, (int)perstep);
  rw_assert_error(RwModelSetSteps(model, 6), "set the number of steps (-rw_steps 6) before RwModelSetUp()");
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("objective-terms");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_terms);
  tcase_add_test(tc, test_layout);
  suite_add_tcase(s, tc);
  return s;
}
