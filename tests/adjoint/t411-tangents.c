/*
  RwTangentPropagate: several tangent directions along one forward run, with
  every step's du_k handed to the caller, who may change it in place.
  Checked on heat (explicit and Crank-Nicolson, 2D):
    - each direction's du_n (state only, parameters only, both) against central
      finite differences of the forward state u_n;
    - rescaling by the caller: doubling du at one step doubles du_n bit for bit;
    - renormalising at every step (a Lyapunov estimate): the sum of the logs of
      the norms equals the log growth of the unnormalised direction.
*/
#include "rwtest.h"
#include <rewind/private/modelimpl.h>

/* u_n from m and u0 by forward steps alone */
static PetscErrorCode ForwardState(RwModel model, Vec m, Vec u0, Vec un)
{
  Vec        u, v;
  PetscInt64 n;

  PetscFunctionBegin;
  PetscCall(RwModelGetSteps(model, &n));
  PetscCall(VecDuplicate(u0, &u));
  PetscCall(VecDuplicate(u0, &v));
  PetscCall(VecCopy(u0, u));
  PetscCall(RwModelSetParameters(model, m));
  for (PetscInt64 k = 0; k < n; k++) {
    PetscCall(RwModelStep(model, k, u, v));
    PetscCall(VecCopy(v, u));
  }
  PetscCall(VecCopy(u, un));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (u_n(m + h dm, u0 + h du0) - u_n(m - h dm, u0 - h du0)) / 2h */
static PetscErrorCode CentralDifference(RwTestProblem *p, Vec dm, Vec du0, PetscReal h, Vec fd)
{
  Vec mp, up, un;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(p->m, &mp));
  PetscCall(VecDuplicate(p->u0, &up));
  PetscCall(VecDuplicate(p->u0, &un));
  PetscCall(VecWAXPY(mp, h, dm, p->m));
  PetscCall(VecWAXPY(up, h, du0, p->u0));
  PetscCall(ForwardState(p->model, mp, up, fd));
  PetscCall(VecWAXPY(mp, -h, dm, p->m));
  PetscCall(VecWAXPY(up, -h, du0, p->u0));
  PetscCall(ForwardState(p->model, mp, up, un));
  PetscCall(VecAXPY(fd, -1, un));
  PetscCall(VecScale(fd, 1 / (2 * h)));
  PetscCall(VecDestroy(&mp));
  PetscCall(VecDestroy(&up));
  PetscCall(VecDestroy(&un));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt64 at;     /* double du[0] after this step (-1: never) */
  PetscBool  normalise;
  PetscReal  logsum; /* sum over k >= 1 of log |du_k[0]| before its renormalisation */
  PetscInt64 calls;
} Caller;

static PetscErrorCode Visit(RwAdjoint adj, PetscInt64 k, Vec u, PetscInt ndir, Vec du[], void *ctx)
{
  Caller   *c = (Caller *)ctx;
  PetscReal nrm;

  PetscFunctionBegin;
  c->calls++;
  if (k == c->at) PetscCall(VecScale(du[0], 2));
  if (c->normalise) { /* a unit vector from the start: the logs then add up to the growth */
    PetscCall(VecNorm(du[0], NORM_2, &nrm));
    if (k > 0) c->logsum += PetscLogReal(nrm);
    PetscCall(VecScale(du[0], 1 / nrm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal RelDiff(Vec a, Vec b)
{
  Vec       d;
  PetscReal nd, nb;

  PetscCallAbort(PETSC_COMM_WORLD, VecDuplicate(a, &d));
  PetscCallAbort(PETSC_COMM_WORLD, VecWAXPY(d, -1, b, a));
  PetscCallAbort(PETSC_COMM_WORLD, VecNorm(d, NORM_2, &nd));
  PetscCallAbort(PETSC_COMM_WORLD, VecNorm(b, NORM_2, &nb));
  PetscCallAbort(PETSC_COMM_WORLD, VecDestroy(&d));
  return nd / nb;
}

static void run_case(const char *opts)
{
  RwModel       model;
  RwTestProblem p;
  Vec           dm[3], du0[3], du[3], fd, once;
  Caller        c = {-1, PETSC_FALSE, 0, 0};
  PetscInt64    n;
  PetscReal     J, n0, nn, err[3];
  PetscBool     same;

  RW_CHECK(rw_test_model(opts, &model));
  RW_CHECK(rw_test_problem(model, &p));
  RW_CHECK(RwModelGetSteps(model, &n));
  RW_CHECK(RwModelSetParameterScalar(model, p.m, 0, 0.4));
  for (PetscInt i = 0; i < 3; i++) {
    RW_CHECK(VecDuplicate(p.m, &dm[i]));
    RW_CHECK(VecDuplicate(p.u0, &du0[i]));
    RW_CHECK(VecDuplicate(p.u0, &du[i]));
  }
  /* 0: the state only; 1: the parameters only; 2: both */
  RW_CHECK(VecSet(dm[0], 0));
  RW_CHECK(RwVerifyRandomDirection(model, p.m, 21, dm[1]));
  RW_CHECK(RwVerifyRandomDirection(model, p.m, 22, dm[2]));
  RW_CHECK(RwVerifyRandomState(model, 23, du0[0]));
  RW_CHECK(VecSet(du0[1], 0));
  RW_CHECK(RwVerifyRandomState(model, 24, du0[2]));
  for (PetscInt i = 0; i < 3; i++) RW_CHECK(VecCopy(du0[i], du[i]));
  RW_CHECK(RwTangentPropagate(p.adj, p.m, p.u0, 3, dm, du, Visit, &c, &J));
  rw_assert_all(c.calls == n + 1, "%s: the caller was called %lld times, expected n + 1 = %lld", opts, (long long)c.calls, (long long)(n + 1));
  RW_CHECK(VecDuplicate(p.u0, &fd));
  for (PetscInt i = 0; i < 3; i++) {
    RW_CHECK(CentralDifference(&p, dm[i], du0[i], 1e-5, fd));
    err[i] = RelDiff(du[i], fd);
  }
  /* doubling direction 0 (state only, so linear in du) at step 3 doubles du_n exactly */
  RW_CHECK(VecDuplicate(p.u0, &once));
  RW_CHECK(VecCopy(du0[0], once));
  c.at = 3;
  RW_CHECK(RwTangentPropagate(p.adj, p.m, p.u0, 1, NULL, &once, Visit, &c, NULL));
  RW_CHECK(VecScale(once, 0.5));
  RW_CHECK(VecEqual(once, du[0], &same));
  /* renormalised at every step: the logs add up to the unnormalised growth */
  RW_CHECK(VecCopy(du0[0], once));
  c.at        = -1;
  c.normalise = PETSC_TRUE;
  RW_CHECK(RwTangentPropagate(p.adj, p.m, p.u0, 1, NULL, &once, Visit, &c, NULL));
  RW_CHECK(VecNorm(du0[0], NORM_2, &n0));
  RW_CHECK(VecNorm(du[0], NORM_2, &nn));
  if (!rw_test_rank())
    printf("# %s\n#   du_n against central differences: state %.2e, parameters %.2e, both %.2e; doubled at step 3: %s; log growth %.15f renormalised, %.15f direct\n", opts, err[0], err[1], err[2], same ? "exact" : "differs", c.logsum, PetscLogReal(nn / n0));
  rw_assert_all(err[0] < 1e-7 && err[1] < 1e-7 && err[2] < 1e-7, "%s: a tangent differs from central differences (%g, %g, %g)", opts, err[0], err[1], err[2]);
  rw_assert_all(same, "%s: doubling du at step 3 did not double du_n bit for bit", opts);
  rw_assert_all(PetscAbsReal(c.logsum - PetscLogReal(nn / n0)) <= 1e-12 * PetscAbsReal(c.logsum), "%s: renormalised log growth %.17g, direct %.17g", opts, c.logsum, PetscLogReal(nn / n0));
  rw_assert_all(c.logsum < 0, "%s: heat damps every direction, but the log growth is %g", opts, c.logsum);
  RW_CHECK(VecDestroy(&once));
  RW_CHECK(VecDestroy(&fd));
  for (PetscInt i = 0; i < 3; i++) {
    RW_CHECK(VecDestroy(&dm[i]));
    RW_CHECK(VecDestroy(&du0[i]));
    RW_CHECK(VecDestroy(&du[i]));
  }
  RW_CHECK(rw_test_problem_destroy(&p));
  RW_CHECK(RwModelDestroy(&model));
}

START_TEST(test_tangents)
{
  run_case("-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_steps 9");
  run_case("-rw_heat_dim 2 -da_grid_x 12 -da_grid_y 10 -rw_heat_bc neumann -rw_heat_theta 0.5 -rw_steps 6 -ksp_rtol 1e-14 -ksp_atol 0");
}
END_TEST

Suite *rw_test_suite(void)
{
  Suite *s  = suite_create("tangents");
  TCase *tc = tcase_create("core");

  tcase_add_test(tc, test_tangents);
  suite_add_tcase(s, tc);
  return s;
}
