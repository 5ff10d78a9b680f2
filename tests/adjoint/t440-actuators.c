/*
  The heat model's actuators (heatactuators.c): heaters and boundary fluxes
  driven by the block "control", one value a step or piecewise linear on
  control nodes.

  Checked, on 1 and 3 ranks:
  - the step dot test, the whole-run dot and Taylor tests over every
    parameter, and a Taylor test along the control block alone, for heaters
    per step, heaters on nodes, flux sides, 1D and 2D, explicit and
    Crank-Nicolson;
  - a revolve-checkpointed gradient bitwise equal to store-all's, and J and
    dJ/dcontrol on all ranks bitwise equal to those on one rank alone;
  - the footprints: with r = 0 and zero-flux boundaries the heat a heater
    (or a flux side of unit length) adds in a step is dt a, to rounding;
  - nodes against steps: the per-step run with the interpolated amplitudes
    gives J bit for bit, and its gradient mapped back by the hat weights
    gives the nodes' gradient;
  - bad input: a heater outside the domain, a control grid that does not fit
    the steps, a flux side that is not Neumann, widths the grid cannot resolve.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>

static const char *cases[] = {
  "-rw_heat_dim 1 -da_grid_x 31 -rw_heat_bc neumann -rw_steps 12 -rw_heat_heaters 0.3,0.8 -rw_heat_heater_width 0.06,0.08",
  "-rw_heat_dim 2 -da_grid_x 14 -da_grid_y 12 -rw_steps 12 -rw_heat_heaters 0.2,0.3,0.95,0.7 -rw_heat_heater_width 0.1 -rw_heat_control_nodes 4",
  "-rw_heat_dim 2 -da_grid_x 14 -da_grid_y 12 -rw_heat_bc neumann -rw_steps 10 -rw_heat_heaters 0.5,0.5 -rw_heat_heater_width 0.1 -rw_heat_flux_sides x-,y+",
  "-rw_heat_dim 2 -da_grid_x 14 -da_grid_y 12 -rw_heat_bc neumann,dirichlet -rw_steps 10 -rw_heat_flux_sides x+ -rw_heat_heaters 0.4,0.6 -rw_heat_heater_width 0.1 -rw_heat_control_nodes 6 -rw_heat_scheme crank-nicolson -ksp_rtol 1e-14 -ksp_atol 0",
};
#define NCASES 4

/* Amplitudes 1 + 0.5 sin(i): nonzero, different for every actuator and time */
static PetscErrorCode SetAmplitudes(RwModel model, Vec m, PetscReal scale)
{
  PetscInt   block, size;
  PetscReal *a;

  PetscFunctionBegin;
  PetscCall(RwModelHeatGetControl(model, NULL, NULL, &block));
  PetscCall(RwModelGetParameterBlockInfo(model, block, NULL, &size, NULL, NULL));
  PetscCall(PetscMalloc1(size, &a));
  for (PetscInt i = 0; i < size; i++) a[i] = scale * (1 + 0.5 * PetscSinReal((PetscReal)i));
  PetscCall(RwModelSetParameterBlock(model, m, block, a));
  PetscCall(PetscFree(a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Taylor test along the control block alone: r1(eps) = |J(m + eps dm) - J - eps <g, dm>| falls as eps^2 */
static PetscReal ControlTaylorOrder(RwTestProblem *p, PetscReal J, const char *opts)
{
  Vec       dm, mp;
  PetscReal slope, order = PETSC_MAX_REAL, r1prev = 0;

  RW_CHECK(VecDuplicate(p->m, &dm));
  RW_CHECK(VecDuplicate(p->m, &mp));
  RW_CHECK(VecSet(dm, 0));
  RW_CHECK(SetAmplitudes(p->model, dm, -0.7));
  RW_CHECK(VecDot(dm, p->g, &slope));
  for (int i = 0; i < 4; i++) {
    PetscReal eps = 0.1 / (1 << i), Jp, r1;

    RW_CHECK(VecWAXPY(mp, eps, dm, p->m));
    RW_CHECK(RwAdjointForward(p->adj, mp, p->u0, &Jp, NULL));
    r1 = PetscAbsReal(Jp - J - eps * slope);
    if (i) order = PetscMin(order, PetscLog2Real(r1prev / r1));
    r1prev = r1;
  }
  if (!rw_test_rank()) printf("#   control-only Taylor: slope %.6e, worst order %.3f\n", slope, order);
  (void)opts;
  RW_CHECK(VecDestroy(&dm));
  RW_CHECK(VecDestroy(&mp));
  return order;
}

START_TEST(test_forms)
{
  for (int c = 0; c < NCASES; c++) {
    const char   *opts = cases[c];
    const PetscReal tol = c == 3 ? 1e-14 / PETSC_MACHINE_EPSILON * 100 : 100;
    RwModel       model, rmodel;
    RwTestProblem p, r;
    RwDotTest     step, dot;
    RwTaylorTest  tay;
    PetscReal     J, Jr;
    PetscBool     same;
    char          ropts[768];

    RW_CHECK(rw_test_model(opts, &model));
    RW_CHECK(rw_test_problem(model, &p));
    RW_CHECK(SetAmplitudes(model, p.m, 1));
    RW_CHECK(RwVerifyStepDot(model, p.m, 3, 5, &step));
    RW_CHECK(RwVerifyDot(p.adj, p.m, p.u0, 7, &dot));
    RW_CHECK(RwVerifyTaylor(p.adj, p.m, p.u0, 11, &tay));
    RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &J, p.g, p.gu0));
    if (!rw_test_rank()) printf("# %s\n#   step dot err %.3g eps, run dot err %.3g eps, Taylor min order %.3f\n", opts, step.err, dot.err, tay.min_order1);
    rw_assert_all(step.err <= tol, "%s: step dot-product error %g eps exceeds %g", opts, step.err, tol);
    rw_assert_all(dot.err <= tol, "%s: whole-run dot-product error %g eps exceeds %g", opts, dot.err, tol);
    rw_assert_all(tay.min_order1 >= 1.9, "%s: Taylor order %g < 1.9", opts, tay.min_order1);
    rw_assert_all(ControlTaylorOrder(&p, J, opts) >= 1.9, "%s: Taylor order along the control below 1.9", opts);
    /* the same, checkpointed by revolve with 2 slots */
    snprintf(ropts, sizeof(ropts), "%s -rw_schedule_type revolve -rw_schedule_ram_slots 2", opts);
    RW_CHECK(rw_test_model(ropts, &rmodel));
    RW_CHECK(rw_test_problem(rmodel, &r));
    RW_CHECK(SetAmplitudes(rmodel, r.m, 1));
    RW_CHECK(RwAdjointSolve(r.adj, r.m, r.u0, &Jr, r.g, r.gu0));
    RW_CHECK(VecEqual(p.g, r.g, &same));
    rw_assert_all(J == Jr && same, "%s: the revolve-checkpointed J or gradient differs from store-all's", opts);
    RW_CHECK(rw_test_problem_destroy(&r));
    RW_CHECK(RwModelDestroy(&rmodel));
    RW_CHECK(rw_test_problem_destroy(&p));
    RW_CHECK(RwModelDestroy(&model));
  }
}
END_TEST

typedef struct {
  PetscReal J, g[128];
  PetscInt  n;
} Digest;

static void digest(MPI_Comm comm, const char *opts, Digest *d)
{
  RwModel       model;
  RwTestProblem p;
  PetscInt      block;

  RW_CHECK(rw_test_model_comm(comm, opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(SetAmplitudes(model, p.m, 1));
  RW_CHECK(RwAdjointSolve(p.adj, p.m, p.u0, &d->J, p.g, p.gu0));
  RW_CHECK(RwModelHeatGetControl(model, NULL, NULL, &block));
  RW_CHECK(RwModelGetParameterBlockInfo(model, block, NULL, &d->n, NULL, NULL));
  ck_assert(d->n <= 128);
  RW_CHECK(RwModelGetParameterBlock(model, p.g, block, d->g));
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_bitwise_on_any_rank_count)
{
  for (int c = 0; c < NCASES; c++) {
    char   opts[768];
    Digest w, s;
    int    same;

    if (c == 3) continue; /* Crank-Nicolson: the solver's reductions round by the decomposition */
    snprintf(opts, sizeof(opts), "%s%s", cases[c], c == 1 ? " -rw_schedule_type revolve -rw_schedule_ram_slots 3" : "");
    digest(PETSC_COMM_WORLD, opts, &w);
    digest(PETSC_COMM_SELF, opts, &s);
    same = w.J == s.J && w.n == s.n && !memcmp(w.g, s.g, w.n * sizeof(PetscReal));
    if (!rw_test_rank()) printf("# %d ranks vs 1: J %.17g dJ/dcontrol_0 %.17g same bits %d\n", rw_test_size(), w.J, w.g[0], same);
    rw_assert_all(same, "%s: on %d ranks J %.17g, dJ/dcontrol_0 %.17g; on one rank %.17g, %.17g", opts, rw_test_size(), w.J, w.g[0], s.J, s.g[0]);
  }
}
END_TEST

/* Total heat h^d sum u after one explicit step from u = 0, with r = 0, s = 0 and zero flux elsewhere: dt a */
static void heat_added(const char *opts, PetscReal a, const char *what)
{
  RwModel   model;
  Vec       m, u, unew;
  PetscReal dt, vol, sum, *v;
  PetscInt  block, size;

  RW_CHECK(rw_test_model(opts, &model));
  RW_CHECK(RwModelCreateParameters(model, &m));
  RW_CHECK(RwModelCreateState(model, &u));
  RW_CHECK(VecDuplicate(u, &unew));
  RW_CHECK(RwModelGetDefaults(model, m, u, NULL));
  RW_CHECK(VecSet(u, 0));
  RW_CHECK(RwModelHeatGetControl(model, NULL, NULL, &block));
  RW_CHECK(RwModelGetParameterBlockInfo(model, block, NULL, &size, NULL, NULL));
  RW_CHECK(PetscMalloc1(size, &v));
  for (PetscInt i = 0; i < size; i++) v[i] = a;
  RW_CHECK(RwModelSetParameterBlock(model, m, block, v));
  RW_CHECK(PetscFree(v));
  RW_CHECK(RwModelSetParameters(model, m));
  RW_CHECK(RwModelStep(model, 0, u, unew));
  RW_CHECK(VecSum(unew, &sum));
  RW_CHECK(RwModelGetTimeStep(model, &dt));
  RW_CHECK(RwModelGetCellVolume(model, &vol));
  if (!rw_test_rank()) printf("# %s: heat added %.17g, dt a %.17g\n", what, sum * vol, dt * a);
  rw_assert_all(PetscAbsReal(sum * vol - dt * a) <= 1e-13 * dt * a, "%s: one step adds heat %.17g, expected dt a = %.17g", what, sum * vol, dt * a);
  RW_CHECK(VecDestroy(&m));
  RW_CHECK(VecDestroy(&u));
  RW_CHECK(VecDestroy(&unew));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_footprints)
{
  heat_added("-rw_heat_dim 2 -da_grid_x 20 -da_grid_y 16 -rw_heat_bc neumann -rw_steps 4 -rw_heat_heaters 0.3,0.4 -rw_heat_heater_width 0.07", 2.5, "a heater (neumann)");
  heat_added("-rw_heat_dim 2 -da_grid_x 20 -da_grid_y 16 -rw_steps 4 -rw_heat_heaters 0.02,0.97 -rw_heat_heater_width 0.07", 2.5, "a heater across a periodic edge");
  heat_added("-rw_heat_dim 2 -da_grid_x 20 -da_grid_y 16 -rw_heat_bc neumann -rw_steps 4 -rw_heat_flux_sides y-", 1.5, "a flux side");
  heat_added("-rw_heat_dim 1 -da_grid_x 25 -rw_heat_bc neumann -rw_steps 4 -rw_heat_flux_sides x+", 1.5, "a flux side in 1D");
}
END_TEST

/* Nodes against steps: the same amplitudes give the same J bit for bit; the gradient maps back by the hat weights */
START_TEST(test_nodes_against_steps)
{
  const char   *grid = "-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_heat_bc neumann -rw_steps 12 -rw_heat_heaters 0.3,0.3,0.7,0.6 -rw_heat_heater_width 0.12 -rw_heat_flux_sides y+";
  const PetscInt C = 5, K = 3, n = 12, L = 3;
  char          opts[512];
  RwModel       a, b;
  RwTestProblem pa, pb;
  PetscReal     A[5 * 3], ak[12 * 3], ga[5 * 3], gb[12 * 3], Ja, Jb, err = 0, scale = 0;
  PetscInt      block;

  snprintf(opts, sizeof(opts), "%s -rw_heat_control_nodes %d", grid, (int)C);
  RW_CHECK(rw_test_model(opts, &a));
  RW_CHECK(rw_test_model(grid, &b));
  RW_CHECK(rw_test_problem(a, &pa));
  RW_CHECK(rw_test_problem(b, &pb));
  for (PetscInt i = 0; i < C * K; i++) A[i] = 1 + 0.5 * PetscSinReal((PetscReal)i);
  for (PetscInt k = 0; k < n; k++) {
    PetscInt  c  = k / L;
    PetscReal w1 = (2 * (k - c * L) + 1) / (PetscReal)(2 * L), w0 = 1 - w1;

    for (PetscInt j = 0; j < K; j++) ak[k * K + j] = w0 * A[c * K + j] + w1 * A[(c + 1) * K + j];
  }
  RW_CHECK(RwModelHeatGetControl(a, NULL, NULL, &block));
  RW_CHECK(RwModelSetParameterBlock(a, pa.m, block, A));
  RW_CHECK(RwModelHeatGetControl(b, NULL, NULL, &block));
  RW_CHECK(RwModelSetParameterBlock(b, pb.m, block, ak));
  RW_CHECK(RwAdjointSolve(pa.adj, pa.m, pa.u0, &Ja, pa.g, pa.gu0));
  RW_CHECK(RwAdjointSolve(pb.adj, pb.m, pb.u0, &Jb, pb.g, pb.gu0));
  RW_CHECK(RwModelGetParameterBlock(b, pb.g, block, gb));
  RW_CHECK(RwModelHeatGetControl(a, NULL, NULL, &block));
  RW_CHECK(RwModelGetParameterBlock(a, pa.g, block, ga));
  for (PetscInt c = 0; c < C; c++)
    for (PetscInt j = 0; j < K; j++) {
      PetscReal s = 0;

      for (PetscInt k = 0; k < n; k++) {
        PetscInt  ck = k / L;
        PetscReal w1 = (2 * (k - ck * L) + 1) / (PetscReal)(2 * L);

        if (ck == c) s += (1 - w1) * gb[k * K + j];
        if (ck + 1 == c) s += w1 * gb[k * K + j];
      }
      err   = PetscMax(err, PetscAbsReal(s - ga[c * K + j]));
      scale = PetscMax(scale, PetscAbsReal(s));
    }
  if (!rw_test_rank()) printf("# nodes vs steps: J %.17g and %.17g, mapped gradient error %.3g of %.3g\n", Ja, Jb, err, scale);
  rw_assert_all(Ja == Jb, "nodes and steps: J %.17g and %.17g differ", Ja, Jb);
  rw_assert_all(scale > 0 && err <= 1e-12 * scale, "nodes and steps: the per-step gradient mapped to the nodes differs by %g (of %g)", err, scale);
  RW_CHECK(rw_test_problem_destroy(&pa));
  RW_CHECK(rw_test_problem_destroy(&pb));
  RW_CHECK(RwModelDestroy(&a));
  RW_CHECK(RwModelDestroy(&b));
}
END_TEST

static void bad(const char *opts, const char *expected)
{
  RwModel model = NULL;

  rw_assert_error_in(opts, rw_test_model(opts, &model), expected);
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_bad_input)
{
  bad("-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 32 -rw_steps 4 -rw_heat_heaters 0.5,1.2", "heater 0 has y = 1.2, outside the domain [0, 1]");
  bad("-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 32 -rw_steps 4 -rw_heat_heaters 0.5,0.5,-0.1,0.5 -rw_heat_heater_width 0.1", "heater 1 has x = -0.1, outside the domain");
  bad("-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 32 -rw_steps 4 -rw_heat_heaters 0.5,0.5,0.2", "3 coordinates do not make heaters of 2 coordinates each");
  bad("-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 32 -rw_steps 10 -rw_heat_heaters 0.5,0.5 -rw_heat_control_nodes 4", "-rw_heat_control_nodes 4 does not fit -rw_steps 10");
  bad("-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 32 -rw_steps 10 -rw_heat_heaters 0.5,0.5 -rw_heat_control_nodes 1", "give 0 (a value a step) or at least 2 nodes");
  bad("-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 32 -rw_steps 4 -rw_heat_flux_sides x-", "side x- needs a Neumann boundary in x (-rw_heat_bc), not periodic");
  bad("-rw_heat_dim 1 -da_grid_x 16 -rw_heat_bc neumann -rw_steps 4 -rw_heat_flux_sides y+", "side y+ is outside a 1D domain");
  bad("-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 32 -rw_heat_bc neumann -rw_steps 4 -rw_heat_flux_sides x-,top", "unknown side \"top\"");
  bad("-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 32 -rw_heat_bc neumann -rw_steps 4 -rw_heat_flux_sides x-,x-", "side x- is given twice");
  bad("-rw_heat_dim 2 -da_grid_x 16 -da_grid_y 16 -rw_steps 4 -rw_heat_heaters 0.5,0.5 -rw_heat_heater_width 0.01", "width 0.01, below the grid spacing 0.0625");
  bad("-rw_heat_dim 2 -da_grid_x 32 -da_grid_y 32 -rw_steps 4 -rw_heat_heaters 0.5,0.5,0.2,0.2 -rw_heat_heater_width 0.1,0.1,0.1", "3 widths for 2 heaters");
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("heat-actuators");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_forms);
  tcase_add_test(tc, test_bitwise_on_any_rank_count);
  tcase_add_test(tc, test_footprints);
  tcase_add_test(tc, test_nodes_against_steps);
  tcase_add_test(tc, test_bad_input);
  suite_add_tcase(s, tc);
  return s;
}
