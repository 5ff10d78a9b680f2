/*
  The objective terms beyond the terminal misfit: point sensors read by
  multilinear interpolation (exact for linear fields, mirrored and wrapped at
  boundaries) whose adjoint sources pass the whole-run dot-product and Taylor
  tests; and the regularisers, whose gradients match central differences.
*/
#include "rwtest.h"
#include <petscdmda.h>
#include <math.h>

/* Sensors of a 2D model: a few at awkward places, near and on the boundary */
static const PetscReal coords[] = {0.5, 0.5, 0.013, 0.27, 0.99, 0.98, 0.25, 0.0, 1.0, 0.61, 0.333, 0.777, 0.02, 0.02};
#define NS 7

START_TEST(test_interpolation_is_exact_for_linear_fields)
{
  const char *bcs[] = {"periodic", "neumann", "dirichlet"};

  for (int b = 1; b < 3; b++) { /* periodic: a linear field is not periodic */
    char        opts[128];
    RwModel     model;
    RwObjective obj;
    Vec         u;
    PetscInt64  step = 1;
    PetscReal   data[NS] = {0}, got[NS];
    DM          da;
    PetscInt    xs, ys, xm, ym;
    PetscScalar *a;

    snprintf(opts, sizeof(opts), "-da_grid_x 17 -da_grid_y 13 -rw_heat_bc %s", bcs[b]);
    RW_CHECK(rw_test_model(opts, &model));
    RW_CHECK(RwObjectiveCreate(model, &obj));
    RW_CHECK(RwObjectiveAddSensors(obj, NS, coords, 1, &step, data, 1.0));
    RW_CHECK(RwModelCreateState(model, &u));
    RW_CHECK(RwModelGetStateDM(model, &da));
    RW_CHECK(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
    RW_CHECK(VecGetArray(u, &a));
    for (PetscInt j = ys, p = 0; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++, p++) {
        PetscReal x, y;
        RW_CHECK(RwModelGetCoordinates(model, 0, i, &x));
        RW_CHECK(RwModelGetCoordinates(model, 1, j, &y));
        a[p] = b == 1 ? 3.0 : 2 + 3 * x - 5 * y; /* Neumann mirrors: constants are exact everywhere */
      }
    RW_CHECK(VecRestoreArray(u, &a));
    RW_CHECK(RwObjectiveInterpolate(obj, 0, u, got));
    for (int s = 0; s < NS; s++) {
      PetscReal x = coords[2 * s], y = coords[2 * s + 1], want = b == 1 ? 3.0 : 2 + 3 * x - 5 * y;
      PetscReal inside = x >= 0.5 / 17 && x <= 1 - 0.5 / 17 && y >= 0.5 / 13 && y <= 1 - 0.5 / 13;
      /* Dirichlet ghosts mirror with a sign: linear fields are exact between the cell centres only */
      if (b == 2 && !inside) continue;
      rw_assert_all(fabs(got[s] - want) <= 1e-13, "%s: sensor %d at (%g, %g) reads %.17g, expected %.17g", bcs[b], s, x, y, got[s], want);
    }
    RW_CHECK(VecDestroy(&u));
    RW_CHECK(RwObjectiveDestroy(&obj));
    RW_CHECK(RwModelDestroy(&model));
  }
}
END_TEST

/* Sensors at several steps: the gradient through them passes dot and Taylor tests */
static void check_sensor_gradient(const char *opts)
{
  RwModel       model;
  RwTestProblem p;
  PetscInt64    steps[3] = {3, 0, 9}; /* unsorted, with the initial state among them */
  PetscReal     data[3 * NS];
  RwDotTest     dot;
  RwTaylorTest  tay;

  for (int i = 0; i < 3 * NS; i++) data[i] = 0.1 * sin(1.0 + i);
  RW_CHECK(rw_test_model(opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwObjectiveAddSensors(p.obj, NS, coords, 3, steps, data, 0.05));
  RW_CHECK(RwVerifyDot(p.adj, p.m, p.u0, 5, &dot));
  RW_CHECK(RwVerifyTaylor(p.adj, p.m, p.u0, 6, &tay));
  if (!rw_test_rank()) printf("# %s: sensors + terminal: dot err %.3g eps, Taylor order %.3f\n", opts, dot.err, tay.min_order1);
  rw_assert_all(dot.err <= 1000, "%s: dot-product error %g eps", opts, dot.err);
  rw_assert_all(tay.min_order1 >= 1.9, "%s: Taylor order %g", opts, tay.min_order1);
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_sensor_gradient)
{
  check_sensor_gradient("-da_grid_x 17 -da_grid_y 13 -rw_steps 10");
  check_sensor_gradient("-da_grid_x 17 -da_grid_y 13 -rw_steps 10 -rw_heat_bc dirichlet,neumann -ksp_rtol 1e-14 -rw_heat_scheme implicit");
}
END_TEST

START_TEST(test_regularisers)
{
  RwModel   model;
  Vec       f, g, ref, d, fp;
  RwRegType types[] = {RW_REG_L2, RW_REG_H1, RW_REG_TV};

  RW_CHECK(rw_test_model("-da_grid_x 15 -da_grid_y 11 -rw_heat_bc neumann,periodic", &model));
  RW_CHECK(RwModelCreateState(model, &f));
  RW_CHECK(VecDuplicate(f, &g));
  RW_CHECK(VecDuplicate(f, &ref));
  RW_CHECK(VecDuplicate(f, &d));
  RW_CHECK(VecDuplicate(f, &fp));
  RW_CHECK(RwVerifyRandomState(model, 1, f));
  RW_CHECK(RwVerifyRandomState(model, 2, ref));
  RW_CHECK(RwVerifyRandomState(model, 3, d));
  for (int t = 0; t < 3; t++) {
    PetscReal R, Rp, Rm, slope, h = 1e-6, fd;
    RW_CHECK(RwRegularize(model, types[t], 0.7, 0.3, f, ref, &R, g));
    RW_CHECK(RwVecDotRepro(g, d, &slope, NULL));
    RW_CHECK(VecWAXPY(fp, h, d, f));
    RW_CHECK(RwRegularize(model, types[t], 0.7, 0.3, fp, ref, &Rp, g));
    RW_CHECK(VecWAXPY(fp, -h, d, f));
    RW_CHECK(RwRegularize(model, types[t], 0.7, 0.3, fp, ref, &Rm, g));
    fd = (Rp - Rm) / (2 * h);
    /* g was overwritten by the perturbed evaluations: the slope was taken before */
    if (!rw_test_rank()) printf("# %s: R %.6e, <dR, d> %.12e, central difference %.12e\n", RwRegTypes[types[t]], R, slope, fd);
    rw_assert_all(R > 0 && fabs(fd - slope) <= 1e-7 * fabs(slope), "%s: gradient %.12e, central difference %.12e", RwRegTypes[types[t]], slope, fd);
  }
  RW_CHECK(VecDestroy(&f));
  RW_CHECK(VecDestroy(&g));
  RW_CHECK(VecDestroy(&ref));
  RW_CHECK(VecDestroy(&d));
  RW_CHECK(VecDestroy(&fp));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("objective");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_interpolation_is_exact_for_linear_fields);
  tcase_add_test(tc, test_sensor_gradient);
  tcase_add_test(tc, test_regularisers);
  suite_add_tcase(s, tc);
  return s;
}
