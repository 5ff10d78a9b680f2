/*
  RwDesignMap (src/design/designmap.c): density to conductivity through the
  Helmholtz filter, the projection and SIMP.  Checked on 1 and 3 ranks:
  - the filter keeps constants and the total density (its rows sum to 1 and
    it is symmetric), SIMP of a constant density is kmin + rho^p (kmax - kmin);
  - the dot test of the map's tangent against its adjoint (the filter is symmetric),
    with and without the projection, periodic and walled grids;
  - the Taylor test of the heat model's J through the map: dJ/drho from
    dJ/dkappa by the map's adjoint, along a smooth direction;
  - bad parameters, named.
*/
#include "rwtest.h"

static PetscReal Smooth(PetscInt dim, const PetscReal x[], void *ctx)
{
  const PetscReal *c = (const PetscReal *)ctx;
  PetscReal        v = c[0] + c[1] * PetscSinReal(2 * PETSC_PI * x[0] + c[2]);

  if (dim > 1) v *= 1 + 0.3 * PetscCosReal(3 * PETSC_PI * x[1] + c[2]);
  return v;
}

static const char *grids[] = {"-rw_heat_dim 2 -da_grid_x 20 -da_grid_y 16 -rw_heat_bc neumann -rw_steps 12", "-rw_heat_dim 2 -da_grid_x 17 -da_grid_y 19 -rw_steps 12", "-rw_heat_dim 1 -da_grid_x 40 -rw_heat_bc dirichlet -rw_steps 12"};

START_TEST(test_filter_keeps_constants)
{
  for (int g = 0; g < 3; g++) {
    RwModel     model;
    RwDesignMap map;
    Vec         rho, kappa, rf;
    PetscReal   c[3] = {0.5, 0.3, 0.1}, s0, s1, lo, hi, kmin, kmax;

    RW_CHECK(rw_test_model(grids[g], &model));
    RW_CHECK(RwDesignMapCreate(model, &map));
    RW_CHECK(RwDesignMapSetParameters(map, 0.05, 3, 1e-3, 1, 0, 0.5));
    RW_CHECK(RwModelCreateField(model, &rho));
    RW_CHECK(VecDuplicate(rho, &kappa));
    RW_CHECK(VecSet(rho, 0.4));
    RW_CHECK(RwDesignMapApply(map, rho, kappa));
    RW_CHECK(RwDesignMapGetFiltered(map, &rf, NULL));
    RW_CHECK(VecMin(rf, NULL, &lo));
    RW_CHECK(VecMax(rf, NULL, &hi));
    RW_CHECK(VecMin(kappa, NULL, &kmin));
    RW_CHECK(VecMax(kappa, NULL, &kmax));
    rw_assert_all(PetscAbsReal(lo - 0.4) < 1e-10 && PetscAbsReal(hi - 0.4) < 1e-10, "%s: the filter of 0.4 is in [%g, %g]", grids[g], lo, hi);
    rw_assert_all(PetscAbsReal(kmin - (1e-3 + 0.064 * (1 - 1e-3))) < 1e-10 && PetscAbsReal(kmax - kmin) < 1e-10, "%s: SIMP of 0.4 gives [%g, %g]", grids[g], kmin, kmax);
    RW_CHECK(RwModelFillField(model, rho, Smooth, c));
    RW_CHECK(RwDesignMapApply(map, rho, kappa));
    RW_CHECK(VecSum(rho, &s0));
    RW_CHECK(VecSum(rf, &s1));
    if (!rw_test_rank()) printf("# %s: total density %.15g, filtered %.15g\n", grids[g], s0, s1);
    rw_assert_all(PetscAbsReal(s1 - s0) <= 1e-9 * s0, "%s: the filter changed the total density %.15g to %.15g", grids[g], s0, s1);
    RW_CHECK(VecDestroy(&rho));
    RW_CHECK(VecDestroy(&kappa));
    RW_CHECK(RwDesignMapDestroy(&map));
    RW_CHECK(RwDesignMapDestroy(&map)); /* NULL-safe */
    RW_CHECK(RwModelDestroy(&model));
  }
}
END_TEST

START_TEST(test_map_dot)
{
  const PetscReal betas[2] = {0, 6};

  for (int g = 0; g < 3; g++)
    for (int b = 0; b < 2; b++) {
      RwModel     model;
      RwDesignMap map;
      Vec         rho, kappa, drho, dk, gk, grho;
      PetscReal   c0[3] = {0.5, 0.3, 0.2}, c1[3] = {0.1, 1, 1.3}, c2[3] = {-0.3, 0.8, 2.1}, lhs, rhs, err;

      RW_CHECK(rw_test_model(grids[g], &model));
      RW_CHECK(RwDesignMapCreate(model, &map));
      RW_CHECK(RwDesignMapSetParameters(map, 0.06, 3, 1e-2, 2, betas[b], 0.45));
      RW_CHECK(RwModelCreateField(model, &rho));
      RW_CHECK(VecDuplicate(rho, &kappa));
      RW_CHECK(VecDuplicate(rho, &drho));
      RW_CHECK(VecDuplicate(rho, &dk));
      RW_CHECK(VecDuplicate(rho, &gk));
      RW_CHECK(VecDuplicate(rho, &grho));
      RW_CHECK(RwModelFillField(model, rho, Smooth, c0));
      RW_CHECK(RwModelFillField(model, drho, Smooth, c1));
      RW_CHECK(RwModelFillField(model, gk, Smooth, c2));
      RW_CHECK(RwDesignMapApply(map, rho, kappa));
      RW_CHECK(RwDesignMapApplyTangent(map, drho, dk));
      RW_CHECK(RwDesignMapApplyAdjoint(map, gk, grho));
      RW_CHECK(VecDot(dk, gk, &lhs));
      RW_CHECK(VecDot(drho, grho, &rhs));
      err = PetscAbsReal(lhs - rhs) / PetscMax(PetscAbsReal(lhs), PetscAbsReal(rhs));
      if (!rw_test_rank()) printf("# %s beta %g: <T drho, g> %.15e, <drho, A g> %.15e, relative %.2e\n", grids[g], betas[b], lhs, rhs, err);
      rw_assert_all(err <= 1e-9, "%s beta %g: the map's dot test differs by %g (relative)", grids[g], betas[b], err);
      RW_CHECK(VecDestroy(&rho));
      RW_CHECK(VecDestroy(&kappa));
      RW_CHECK(VecDestroy(&drho));
      RW_CHECK(VecDestroy(&dk));
      RW_CHECK(VecDestroy(&gk));
      RW_CHECK(VecDestroy(&grho));
      RW_CHECK(RwDesignMapDestroy(&map));
      RW_CHECK(RwModelDestroy(&model));
    }
}
END_TEST

/* J(rho) = heat's default misfit at kappa(rho), into p->m's kappa */
static PetscReal JAt(RwTestProblem *p, RwDesignMap map, Vec rho)
{
  Vec       k;
  PetscReal J;

  RW_CHECK(RwModelGetParameterField(p->model, p->m, 0, &k));
  RW_CHECK(RwDesignMapApply(map, rho, k));
  RW_CHECK(RwModelRestoreParameterField(p->model, p->m, 0, &k));
  RW_CHECK(RwAdjointForward(p->adj, p->m, p->u0, &J, NULL));
  return J;
}

START_TEST(test_taylor_through_heat)
{
  const PetscReal betas[2] = {0, 4};

  for (int b = 0; b < 2; b++) {
    RwModel       model;
    RwTestProblem p;
    RwDesignMap   map;
    Vec           rho, drho, rp, grho, gk;
    PetscReal     c0[3] = {0.5, 0.25, 0.3}, c1[3] = {0.2, 0.5, 1.1}, J, slope, order = PETSC_MAX_REAL, r1prev = 0;

    RW_CHECK(rw_test_model(grids[0], &model));
    RW_CHECK(rw_test_problem(model, &p));
    RW_CHECK(RwDesignMapCreate(model, &map));
    RW_CHECK(RwDesignMapSetParameters(map, 0.05, 3, 1e-2, 1, betas[b], 0.5));
    RW_CHECK(RwModelCreateField(model, &rho));
    RW_CHECK(VecDuplicate(rho, &drho));
    RW_CHECK(VecDuplicate(rho, &rp));
    RW_CHECK(VecDuplicate(rho, &grho));
    RW_CHECK(RwModelFillField(model, rho, Smooth, c0));
    RW_CHECK(RwModelFillField(model, drho, Smooth, c1));
    {
      Vec k;

      RW_CHECK(RwModelGetParameterField(model, p.m, 0, &k));
      RW_CHECK(RwDesignMapApply(map, rho, k));
      RW_CHECK(RwModelRestoreParameterField(model, p.m, 0, &k));
    }
    RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0));
    RW_CHECK(RwModelGetParameterField(model, p.g, 0, &gk));
    RW_CHECK(RwDesignMapApplyAdjoint(map, gk, grho));
    RW_CHECK(RwModelRestoreParameterField(model, p.g, 0, &gk));
    RW_CHECK(VecDot(grho, drho, &slope));
    for (int i = 0; i < 4; i++) {
      PetscReal eps = 0.02 / (1 << i), r1;

      RW_CHECK(VecWAXPY(rp, eps, drho, rho));
      r1 = PetscAbsReal(JAt(&p, map, rp) - J - eps * slope);
      if (i) order = PetscMin(order, PetscLog2Real(r1prev / r1));
      r1prev = r1;
    }
    if (!rw_test_rank()) printf("# Taylor through heat, beta %g: slope %.6e, worst order %.3f\n", betas[b], slope, order);
    rw_assert_all(slope != 0 && order >= 1.9, "beta %g: Taylor order %g through the design map and heat", betas[b], order);
    RW_CHECK(VecDestroy(&rho));
    RW_CHECK(VecDestroy(&drho));
    RW_CHECK(VecDestroy(&rp));
    RW_CHECK(VecDestroy(&grho));
    RW_CHECK(RwDesignMapDestroy(&map));
    RW_CHECK(rw_test_problem_destroy(&p));
    RW_CHECK(RwModelDestroy(&model));
  }
}
END_TEST

START_TEST(test_bad_parameters)
{
  RwModel     model;
  RwDesignMap map;

  RW_CHECK(rw_test_model(grids[0], &model));
  RW_CHECK(RwDesignMapCreate(model, &map));
  rw_assert_error(RwDesignMapSetParameters(map, -0.1, 3, 1e-3, 1, 0, 0.5), "-rw_design_filter_radius -0.1 must be >= 0");
  rw_assert_error(RwDesignMapSetParameters(map, 0.1, 0.5, 1e-3, 1, 0, 0.5), "-rw_design_simp_p 0.5 must be >= 1");
  rw_assert_error(RwDesignMapSetParameters(map, 0.1, 3, 2, 1, 0, 0.5), "Need 0 < -rw_design_kmin");
  rw_assert_error(RwDesignMapSetParameters(map, 0.1, 3, 1e-3, 1, 4, 1.5), "-rw_design_projection_eta 1.5 must be in (0, 1)");
  RW_CHECK(RwDesignMapDestroy(&map));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("design-map");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_filter_keeps_constants);
  tcase_add_test(tc, test_map_dot);
  tcase_add_test(tc, test_taylor_through_heat);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return s;
}
