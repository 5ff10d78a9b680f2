/*
  The heat model against an explicit step written independently here: 1D,
  periodic, 64 points, a single hot point, one step, J = h/2 sum u_1^2.  The
  test computes u_1, J and every gradient (kappa, s, r, u0) by hand, with
  the adjoint in scatter form (each point pushes to its neighbours, unlike
  rewind's gather form), and compares.
*/
#include "rwtest.h"
#include <math.h>

#define NP 64

/* Everything the driver computed, on every rank, in grid order */
static void gather(Vec v, double *out)
{
  VecScatter         sc;
  Vec                all;
  const PetscScalar *a;

  RW_CHECK(VecScatterCreateToAll(v, &sc, &all));
  RW_CHECK(VecScatterBegin(sc, v, all, INSERT_VALUES, SCATTER_FORWARD));
  RW_CHECK(VecScatterEnd(sc, v, all, INSERT_VALUES, SCATTER_FORWARD));
  RW_CHECK(VecGetArrayRead(all, &a));
  for (int i = 0; i < NP; i++) out[i] = a[i];
  RW_CHECK(VecRestoreArrayRead(all, &a));
  RW_CHECK(VecScatterDestroy(&sc));
  RW_CHECK(VecDestroy(&all));
}

static double maxreldiff(const double *a, const double *b, int n)
{
  double d = 0, s = 0;
  for (int i = 0; i < n; i++) {
    d = fmax(d, fabs(a[i] - b[i]));
    s = fmax(s, fabs(b[i]));
  }
  return d / s;
}

START_TEST(test_one_step_by_hand)
{
  RwModel       model;
  RwTestProblem p;
  Vec           f, zero;
  double        h = 1.0 / NP, dt, r = 0.2, k[NP], s[NP], u0[NP], u1[NP], lam[NP], J = 0;
  double        gk[NP] = {0}, gs[NP], gu0[NP] = {0}, gr = 0, got[NP], gotr, gotJ;

  RW_CHECK(rw_test_model("-rw_heat_dim 1 -da_grid_x 64 -rw_steps 1", &model));
  RW_CHECK(rw_test_problem(model, &p));
  /* the problem: default kappa, a source, a decay rate, one hot point, target 0 */
  RW_CHECK(RwModelGetTimeStep(model, &dt));
  for (int i = 0; i < NP; i++) {
    k[i]  = 1 + 0.5 * sin(2 * M_PI * i * h);
    s[i]  = 0.1 * cos(2 * M_PI * i * h);
    u0[i] = i == 32 ? 1.0 : 0.0;
  }
  RW_CHECK(RwModelGetParameterField(model, p.m, 1, &f));
  /* a 1D DMDA numbers its points in grid order, so global indices are grid indices */
  for (int i = 0; i < NP; i++) RW_CHECK(VecSetValue(f, i, s[i], INSERT_VALUES));
  RW_CHECK(VecAssemblyBegin(f));
  RW_CHECK(VecAssemblyEnd(f));
  RW_CHECK(RwModelRestoreParameterField(model, p.m, 1, &f));
  RW_CHECK(RwModelSetParameterScalar(model, p.m, 0, r));
  RW_CHECK(VecSet(p.u0, 0));
  RW_CHECK(VecSetValue(p.u0, 32, 1.0, INSERT_VALUES));
  RW_CHECK(VecAssemblyBegin(p.u0));
  RW_CHECK(VecAssemblyEnd(p.u0));
  RW_CHECK(RwObjectiveDestroy(&p.obj));
  RW_CHECK(RwAdjointDestroy(&p.adj));
  RW_CHECK(RwObjectiveCreate(model, &p.obj));
  RW_CHECK(VecDuplicate(p.u0, &zero));
  RW_CHECK(VecSet(zero, 0));
  RW_CHECK(RwObjectiveAddTerminalMisfit(p.obj, zero, 1.0));
  RW_CHECK(RwAdjointCreate(model, p.obj, &p.adj));
  RW_CHECK(RwAdjointSetSteps(p.adj, 1));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &gotJ, p.g, p.gu0));

  /* by hand: one explicit step in flux form, then its adjoint pushed outwards */
  for (int i = 0; i < NP; i++) {
    int    ip = (i + 1) % NP, im = (i + NP - 1) % NP;
    double kp = 0.5 * (k[i] + k[ip]), km = 0.5 * (k[i] + k[im]);
    u1[i] = u0[i] + dt * ((kp * (u0[ip] - u0[i]) - km * (u0[i] - u0[im])) / (h * h) - r * u0[i] + s[i]);
    J += 0.5 * h * u1[i] * u1[i];
  }
  for (int i = 0; i < NP; i++) lam[i] = h * u1[i];
  for (int i = 0; i < NP; i++) {
    int    ip = (i + 1) % NP, im = (i + NP - 1) % NP;
    double kp = 0.5 * (k[i] + k[ip]), km = 0.5 * (k[i] + k[im]), a = u0[ip] - u0[i], b = u0[i] - u0[im], c = dt / (h * h);
    gu0[i] += lam[i] * (1 - c * (kp + km) - dt * r);
    gu0[ip] += lam[i] * c * kp;
    gu0[im] += lam[i] * c * km;
    gk[i] += lam[i] * c * 0.5 * (a - b);
    gk[ip] += lam[i] * c * 0.5 * a;
    gk[im] -= lam[i] * c * 0.5 * b;
    gs[i] = lam[i] * dt;
    gr -= lam[i] * dt * u0[i];
  }
  ck_assert_msg(fabs(gotJ - J) <= 1e-14 * J, "J %.17g, by hand %.17g", gotJ, J);
  gather(p.gu0, got);
  ck_assert_msg(maxreldiff(got, gu0, NP) <= 1e-13, "dJ/du0 differs by %g", maxreldiff(got, gu0, NP));
  RW_CHECK(RwModelGetParameterField(model, p.g, 0, &f));
  gather(f, got);
  RW_CHECK(RwModelRestoreParameterField(model, p.g, 0, &f));
  ck_assert_msg(maxreldiff(got, gk, NP) <= 1e-12, "dJ/dkappa differs by %g", maxreldiff(got, gk, NP));
  RW_CHECK(RwModelGetParameterField(model, p.g, 1, &f));
  gather(f, got);
  RW_CHECK(RwModelRestoreParameterField(model, p.g, 1, &f));
  ck_assert_msg(maxreldiff(got, gs, NP) <= 1e-13, "dJ/ds differs by %g", maxreldiff(got, gs, NP));
  RW_CHECK(RwModelGetParameterScalar(model, p.g, 0, &gotr));
  ck_assert_msg(fabs(gotr - gr) <= 1e-13 * fabs(gr), "dJ/dr %.17g, by hand %.17g", gotr, gr);
  if (!rw_test_rank()) printf("# J %.17g (by hand %.17g), dJ/dr %.17g (by hand %.17g)\n", gotJ, J, gotr, gr);
  RW_CHECK(VecDestroy(&zero));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("heat-reference");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_one_step_by_hand);
  suite_add_tcase(s, tc);
  return s;
}
